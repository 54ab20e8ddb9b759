import type { Sql } from '../db/sql.js';
import { hitCounter } from '../http/pg-rate-limit-store.js';

/** Where a one-time code goes. */
export type CodeChannel = 'sms' | 'email';

// Lockouts of identifiers guessed at (src/auth/code-guard.ts), and the per-address failure count.

const HOUR_MS = 3600_000;

/** Milliseconds the subject stays locked, 0 when it is not. */
export async function lockedFor(sql: Sql, subject: string): Promise<number> {
  const [row] = await sql<{ ms: number }[]>`
    select greatest(0, extract(epoch from locked_until - now()) * 1000)::float8 as ms
      from sign_in_lockouts where subject = ${subject} and locked_until > now()`;
  return Math.ceil(row?.ms ?? 0);
}

/**
 * Counts a wrong code. At `failuresPerLock` the subject locks for firstLockMs × 2^(locks in a row),
 * at most maxLockMs; locks in a row are forgotten a day after the last wrong code.
 */
export async function recordFailure(
  sql: Sql,
  subject: string,
  address: string,
  rule: { failuresPerLock: number; firstLockMs: number; maxLockMs: number },
): Promise<{ lockedForMs: number }> {
  await sql`
    insert into sign_in_lockouts as l (subject, failures, lockouts, last_failure_at, last_address)
    values (${subject}, 1, 0, now(), ${address})
    on conflict (subject) do update set
      failures = l.failures + 1,
      lockouts = case when l.last_failure_at < now() - interval '1 day' then 0 else l.lockouts end,
      last_failure_at = now(),
      last_address = excluded.last_address`;
  // The lock is a second statement on the updated row so its length can read the new count.
  const [locked] = await sql<{ ms: number }[]>`
    update sign_in_lockouts set
      locked_until = now() + make_interval(secs => least(${rule.maxLockMs / 1000}::float8, ${rule.firstLockMs / 1000}::float8 * power(2, lockouts))),
      lockouts = lockouts + 1,
      failures = 0
    where subject = ${subject} and failures >= ${rule.failuresPerLock}
    returning (extract(epoch from locked_until - now()) * 1000)::float8 as ms`;
  return { lockedForMs: Math.ceil(locked?.ms ?? 0) };
}

export async function clearFailures(sql: Sql, subject: string): Promise<void> {
  await sql`delete from sign_in_lockouts where subject = ${subject}`;
}

export async function countAddressFailure(sql: Sql, address: string): Promise<void> {
  await hitCounter(sql, `codes:failures:${address}`, HOUR_MS);
}

/** Wrong codes from this address in the current hour. */
export async function addressFailures(sql: Sql, address: string): Promise<number> {
  const [row] = await sql<{ hits: number }[]>`
    select hits from rate_limit_counters
     where key = ${`codes:failures:${address}`}
       and window_start = to_timestamp(floor(extract(epoch from now()) * 1000 / ${HOUR_MS}) * ${HOUR_MS} / 1000.0)`;
  return row?.hits ?? 0;
}

export interface Lockout {
  subject: string;
  lockedUntil: Date;
  lockouts: number;
  lastFailureAt: Date;
  lastAddress: string | null;
}

/** Identifiers locked now, longest first (the ops view). */
export async function activeLockouts(sql: Sql, limit = 200): Promise<Lockout[]> {
  const rows = await sql<{ subject: string; locked_until: Date; lockouts: number; last_failure_at: Date; last_address: string | null }[]>`
    select subject, locked_until, lockouts, last_failure_at, last_address from sign_in_lockouts
     where locked_until > now() order by locked_until desc limit ${limit}`;
  return rows.map((r) => ({ subject: r.subject, lockedUntil: r.locked_until, lockouts: r.lockouts, lastFailureAt: r.last_failure_at, lastAddress: r.last_address }));
}

/** Ops unlock an identifier; true when it was locked. */
export async function unlock(sql: Sql, subject: string): Promise<boolean> {
  const rows = await sql`delete from sign_in_lockouts where subject = ${subject} and locked_until > now() returning 1`;
  return rows.length > 0;
}

export async function countActiveLockouts(sql: Sql): Promise<number> {
  const [row] = await sql<{ n: number }[]>`select count(*)::int as n from sign_in_lockouts where locked_until > now()`;
  return row?.n ?? 0;
}

/** Codes counted against the day's ceiling so far (src/auth/code-guard.ts ceilingKey). */
export async function codesToday(sql: Sql, channel: 'sms' | 'email'): Promise<number> {
  const day = 24 * HOUR_MS;
  const [row] = await sql<{ hits: number }[]>`
    select hits from rate_limit_counters
     where key = ${`codes:ceiling:${channel}`}
       and window_start = to_timestamp(floor(extract(epoch from now()) * 1000 / ${day}) * ${day} / 1000.0)`;
  return row?.hits ?? 0;
}
