import { afterAll, describe, expect, it } from 'vitest';
import { createSql } from '../../src/db/sql.js';
import { DEMO_DRIVERS, DEMO_FLEETS } from '../../dev/demo-fleet.js';
import { seedFleet } from '../../dev/seed-fleet.js';
import type { VehicleType } from '../../src/pricing/types.js';
import { SEATS } from '../../src/quotes/vehicle-choice.js';
import { testDatabaseUrl } from '../support/shared-servers.js';

// Other integration tests share this database and may add drivers of their own, so every query
// here is restricted to the demo ids, and nothing is deleted.
const sql = createSql(testDatabaseUrl(), 2);
afterAll(async () => sql.end({ timeout: 5 }));

const driverIds = DEMO_DRIVERS.map((d) => d.id);
const fleetIds = DEMO_FLEETS.map((f) => f.id);

async function counts() {
  const [drivers] = await sql<[{ n: number }]>`select count(*)::int as n from drivers where id = any(${driverIds})`;
  const [fleets] = await sql<
    [{ n: number }]
  >`select count(*)::int as n from partner_fleets where id = any(${fleetIds})`;
  return { drivers: drivers.n, fleets: fleets.n };
}

describe('seedFleet', () => {
  it('is idempotent: seeding twice leaves the same rows', async () => {
    const first = await seedFleet(sql);
    expect(first).toEqual({ drivers: DEMO_DRIVERS.length, fleets: DEMO_FLEETS.length });
    const afterFirst = await counts();
    expect(afterFirst).toEqual(first);
    const snapshot = await sql`select * from drivers where id = any(${driverIds}) order by id`;

    await seedFleet(sql);
    expect(await counts()).toEqual(afterFirst);
    const again = await sql`select * from drivers where id = any(${driverIds}) order by id`;
    // Only the freshness of the positions moves.
    const withoutClock = (rows: typeof snapshot) => rows.map(({ location_at: _l, ...rest }) => rest);
    expect(withoutClock(again)).toEqual(withoutClock(snapshot));
  });

  it('stores every driver online, freshly located, with the seats of its vehicle class', async () => {
    await seedFleet(sql);
    const rows = await sql<
      {
        id: string;
        vehicle_type: string;
        seats: number;
        wheelchair_accessible: boolean;
        online: boolean;
        age_s: number;
        phone: string;
      }[]
    >`select id, vehicle_type, seats, wheelchair_accessible, online, phone,
             extract(epoch from now() - location_at)::float8 as age_s
        from drivers where id = any(${driverIds})`;
    expect(rows).toHaveLength(DEMO_DRIVERS.length);
    for (const row of rows) {
      expect(Object.keys(SEATS), row.id).toContain(row.vehicle_type);
      expect(row.seats, row.id).toBe(SEATS[row.vehicle_type as VehicleType]);
      expect(row.wheelchair_accessible, row.id).toBe(row.vehicle_type === 'wav');
      expect(row.online, row.id).toBe(true);
      expect(row.age_s, row.id).toBeLessThan(60);
      expect(row.phone, row.id).toMatch(/^\+447700900\d{3}$/);
    }
    const fleets = await sql<
      { id: string; approved: boolean }[]
    >`select id, approved from partner_fleets where id = any(${fleetIds}) order by id`;
    expect(fleets).toEqual(
      DEMO_FLEETS.map(({ id, approved }) => ({ id, approved })).sort((a, b) => (a.id < b.id ? -1 : 1)),
    );
  });

  it('keeps live positions when asked to, and restores them by default', async () => {
    await seedFleet(sql);
    const id = 'drv-man-01';
    await sql`update drivers set lat = 1, lon = 2, online = false, location_at = now() - interval '1 hour', approved = false where id = ${id}`;

    await seedFleet(sql, { refreshLocations: false });
    const [kept] = await sql`select lat, lon, online, approved from drivers where id = ${id}`;
    // The profile (approval) returns to the demo data; the live state stays as the app left it.
    expect(kept).toEqual({ lat: 1, lon: 2, online: false, approved: true });

    await seedFleet(sql);
    const demo = DEMO_DRIVERS.find((d) => d.id === id)!;
    const [restored] =
      await sql`select lat, lon, online, now() - location_at < interval '1 minute' as fresh from drivers where id = ${id}`;
    expect(restored).toEqual({ lat: demo.lat, lon: demo.lon, online: true, fresh: true });
  });

  it('leaves drivers it does not own alone', async () => {
    // A fixed id so a reused database does not collect one per run; never approved, so no
    // dispatch test can be offered it.
    const otherId = 'test-seed-fleet-bystander';
    await sql`insert into drivers (id, name, phone, tier, approved, vehicle_type, seats, online)
              values (${otherId}, 'Someone Else', '+447700900999', 'national', false, 'saloon', 4, false)
              on conflict (id) do update set name = excluded.name, online = excluded.online`;
    await seedFleet(sql);
    const [other] = await sql`select name, online from drivers where id = ${otherId}`;
    expect(other).toEqual({ name: 'Someone Else', online: false });
  });
});
