import type { Sql } from '../db/sql.js';

// A driver's own map-service key (migration 00039) and the route requests made on it.

export type MapProvider = 'mapbox';

export interface MapKeyRow {
  provider: MapProvider;
  key_sealed: string;
  key_ending: string;
  set_at: Date;
  refused_at: Date | null;
}

export async function saveMapKey(
  sql: Sql,
  driverId: string,
  key: { provider: MapProvider; sealed: string; ending: string },
): Promise<Date> {
  const [row] = await sql<{ set_at: Date }[]>`
    insert into driver_map_keys (driver_id, provider, key_sealed, key_ending)
    values (${driverId}, ${key.provider}, ${key.sealed}, ${key.ending})
    on conflict (driver_id) do update
      set provider = excluded.provider, key_sealed = excluded.key_sealed, key_ending = excluded.key_ending,
          set_at = now(), refused_at = null
    returning set_at`;
  return row!.set_at;
}

export async function removeMapKey(sql: Sql, driverId: string): Promise<boolean> {
  const rows = await sql`delete from driver_map_keys where driver_id = ${driverId} returning driver_id`;
  return rows.length > 0;
}

export async function findMapKey(sql: Sql, driverId: string): Promise<MapKeyRow | null> {
  const [row] = await sql<MapKeyRow[]>`
    select provider, key_sealed, key_ending, set_at, refused_at from driver_map_keys where driver_id = ${driverId}`;
  return row ?? null;
}

/** The provider turned this key down in use: only the key that was refused (a newer one stays). */
export async function markMapKeyRefused(sql: Sql, driverId: string, sealed: string): Promise<void> {
  await sql`
    update driver_map_keys set refused_at = now()
     where driver_id = ${driverId} and key_sealed = ${sealed} and refused_at is null`;
}

export async function countMapCall(sql: Sql, driverId: string, day: string): Promise<void> {
  await sql`
    insert into driver_map_calls (driver_id, day, calls) values (${driverId}, ${day}, 1)
    on conflict (driver_id, day) do update set calls = driver_map_calls.calls + 1`;
}

/** Route requests on the driver's key from `since` (a London date) on. */
export async function mapCallsSince(sql: Sql, driverId: string, since: string): Promise<number> {
  const [row] = await sql<{ n: number }[]>`
    select coalesce(sum(calls), 0)::int as n from driver_map_calls where driver_id = ${driverId} and day >= ${since}`;
  return row?.n ?? 0;
}
