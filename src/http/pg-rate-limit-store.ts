import type { Sql } from '../db/sql.js';

type Callback = (err: Error | null, res?: { current: number; ttl: number }) => void;

/**
 * Counts one hit in the fixed window containing now; returns the window's count and the ms left.
 * Fixed windows aligned to the epoch; the database clock decides the window, not each host's.
 */
export async function hitCounter(sql: Sql, key: string, timeWindowMs: number): Promise<{ current: number; ttl: number }> {
  const windowMs = Math.max(1000, Math.trunc(timeWindowMs));
  const [row] = await sql<{ hits: number; ttl: number }[]>`
    insert into rate_limit_counters as c (key, window_start, hits)
    values (${key}, to_timestamp(floor(extract(epoch from now()) * 1000 / ${windowMs}) * ${windowMs} / 1000.0), 1)
    on conflict (key, window_start) do update set hits = c.hits + 1
    returning hits,
      greatest(0, (extract(epoch from window_start) * 1000 + ${windowMs} - extract(epoch from now()) * 1000))::float8 as ttl`;
  return { current: row?.hits ?? 1, ttl: Math.ceil(row?.ttl ?? windowMs) };
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
