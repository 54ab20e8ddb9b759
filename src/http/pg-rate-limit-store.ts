import type { Sql } from '../db/sql.js';

type Callback = (err: Error | null, res?: { current: number; ttl: number }) => void;

/**
 * Counts one hit in the fixed window containing now; returns the window's count and the ms left.
 * Fixed windows aligned to the epoch; the database clock decides the window, not each host's.
 */
export async function hitCounter(
  sql: Sql,
  key: string,
  timeWindowMs: number,
): Promise<{ current: number; ttl: number }> {
  const windowMs = Math.max(1000, Math.trunc(timeWindowMs));
  const [row] = await sql<{ hits: number; ttl: number }[]>`
    insert into rate_limit_counters as c (key, window_start, hits)
    values (${key}, to_timestamp(floor(extract(epoch from now()) * 1000 / ${windowMs}) * ${windowMs} / 1000.0), 1)
    on conflict (key, window_start) do update set hits = c.hits + 1
    returning hits,
      greatest(0, (extract(epoch from window_start) * 1000 + ${windowMs} - extract(epoch from now()) * 1000))::float8 as ttl`;
  return { current: row?.hits ?? 1, ttl: Math.ceil(row?.ttl ?? windowMs) };
}

/** The start of the fixed window containing now, as rate_limit_counters stores it. */
const windowStart = (sql: Sql, windowMs: number) =>
  sql`to_timestamp(floor(extract(epoch from now()) * 1000 / ${windowMs}) * ${windowMs} / 1000.0)`;

/**
 * Takes one from an allowance of `limit` in the current window, only if one is left: a refused
 * request counts nothing, so refusals never eat into what is left for others. The count after the
 * take (or, refused, as it stands) and the milliseconds to the window's end.
 */
export async function takeFromAllowance(
  sql: Sql,
  key: string,
  windowMs: number,
  limit: number,
): Promise<{ taken: boolean; count: number; ttl: number }> {
  const ttl = Math.ceil(windowMs - (Date.now() % windowMs));
  if (limit <= 0) return { taken: false, count: await allowanceCount(sql, key, windowMs), ttl };
  const [row] = await sql<{ hits: number }[]>`
    insert into rate_limit_counters as c (key, window_start, hits) values (${key}, ${windowStart(sql, windowMs)}, 1)
    on conflict (key, window_start) do update set hits = c.hits + 1 where c.hits < ${limit}
    returning hits`;
  if (row) return { taken: true, count: row.hits, ttl };
  return { taken: false, count: await allowanceCount(sql, key, windowMs), ttl };
}

/** What has been counted against a key in the current window. */
export async function allowanceCount(sql: Sql, key: string, windowMs: number): Promise<number> {
  const [row] = await sql<{ hits: number }[]>`
    select hits from rate_limit_counters where key = ${key} and window_start = ${windowStart(sql, windowMs)}`;
  return row?.hits ?? 0;
}

/**
 * A @fastify/rate-limit store backed by Postgres, so a limit holds across every API process.
 */
export function createPgRateLimitStore(sql: Sql) {
  let calls = 0;
  class PgRateLimitStore {
    // @fastify/rate-limit passes its options here; buckets are named by each route's keyGenerator.
    constructor(_options?: unknown) {}

    incr(key: string, cb: Callback, timeWindow: number): void {
      hitCounter(sql, key, timeWindow).then(
        (res) => cb(null, res),
        (err: Error) => cb(err),
      );
      // Old windows are garbage; sweep them now and then rather than on every hit.
      if (++calls % 500 === 0) {
        sql`delete from rate_limit_counters where window_start < now() - interval '2 days'`.catch(() => {});
      }
    }

    // Routes that share a keyGenerator bucket share a limit, so no per-route prefix here.
    child(): PgRateLimitStore {
      return this;
    }
  }
  return PgRateLimitStore;
}
