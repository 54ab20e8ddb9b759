import type { Sql } from '../db/sql.js';
import { allowanceCount, hitCounter } from '../http/pg-rate-limit-store.js';

// Re-exported for the code guard, whose allowances these are.
export { allowanceCount, takeFromAllowance } from '../http/pg-rate-limit-store.js';

/** Where a one-time code goes. */
export type CodeChannel = 'sms' | 'email';

// What the code guard (src/auth/code-guard.ts) keeps: locks of an identifier for the address that
// guessed wrong at it, the addresses each identifier has signed in from, the allowances it counts in
// rate_limit_counters (fixed windows aligned to the epoch, so a day is a UTC day), and what ops clear.

const HOUR_MS = 3600_000;
const DAY_MS = 24 * HOUR_MS;

/** Whether anything was counted against a key in a window that began within the last `withinMs`. */
export async function countedSince(sql: Sql, key: string, withinMs: number): Promise<boolean> {
  const rows = await sql`
    select 1 from rate_limit_counters where key = ${key} and window_start > now() - make_interval(secs => ${withinMs / 1000}) limit 1`;
  return rows.length > 0;
}

/** Milliseconds the subject stays locked for guesses (and codes) from this address, 0 when it is not. */
export async function lockedFor(sql: Sql, subject: string, address: string): Promise<number> {
  const [row] = await sql<{ ms: number }[]>`
    select greatest(0, extract(epoch from locked_until - now()) * 1000)::float8 as ms
      from sign_in_lockouts where subject = ${subject} and address = ${address} and locked_until > now()`;
  return Math.ceil(row?.ms ?? 0);
}

/**
 * Counts a wrong code from this address. At `failuresPerLock` the subject locks for this address
 * for firstLockMs × 2^(locks in a row), at most maxLockMs; locks in a row are forgotten a day after
 * the address's last wrong code at it.
 */
export async function recordFailure(
  sql: Sql,
  subject: string,
  address: string,
  rule: { failuresPerLock: number; firstLockMs: number; maxLockMs: number },
): Promise<{ lockedForMs: number }> {
  await sql`
    insert into sign_in_lockouts as l (subject, address, failures, lockouts, last_failure_at, last_address)
    values (${subject}, ${address}, 1, 0, now(), ${address})
    on conflict (subject, address) do update set
      failures = l.failures + 1,
      lockouts = case when l.last_failure_at < now() - interval '1 day' then 0 else l.lockouts end,
      last_failure_at = now()`;
  // The lock is a second statement on the updated row so its length can read the new count.
  const [locked] = await sql<{ ms: number }[]>`
    update sign_in_lockouts set
      locked_until = now() + make_interval(secs => least(${rule.maxLockMs / 1000}::float8, ${rule.firstLockMs / 1000}::float8 * power(2, lockouts))),
      lockouts = lockouts + 1,
      failures = 0
    where subject = ${subject} and address = ${address} and failures >= ${rule.failuresPerLock}
    returning (extract(epoch from locked_until - now()) * 1000)::float8 as ms`;
  // Now and then, rows nobody has guessed from for two days go (a lock lasts minutes).
  if (Math.random() < 0.01) {
    await sql`delete from sign_in_lockouts where last_failure_at < now() - interval '2 days' and (locked_until is null or locked_until < now())`;
  }
  return { lockedForMs: Math.ceil(locked?.ms ?? 0) };
}

/** A right code from this address: its wrong guesses at the subject are forgotten, and the address is remembered as the subject's. */
export async function recordSignIn(sql: Sql, subject: string, address: string): Promise<void> {
  await sql`delete from sign_in_lockouts where subject = ${subject} and address = ${address}`;
  await sql`
    insert into sign_in_addresses (subject, address, signed_in_at) values (${subject}, ${address}, now())
    on conflict (subject, address) do update set signed_in_at = now()`;
}

/** Whether the subject completed a sign-in from this address within the last `days` days. */
export async function signedInFrom(sql: Sql, subject: string, address: string, days: number): Promise<boolean> {
  const rows = await sql`
    select 1 from sign_in_addresses
     where subject = ${subject} and address = ${address} and signed_in_at > now() - make_interval(days => ${days})`;
  return rows.length > 0;
}

export async function countAddressFailure(sql: Sql, address: string): Promise<void> {
  await hitCounter(sql, `codes:failures:${address}`, HOUR_MS);
}

/** Wrong codes from this address in the current hour. */
export async function addressFailures(sql: Sql, address: string): Promise<number> {
  return allowanceCount(sql, `codes:failures:${address}`, HOUR_MS);
}

export interface Lockout {
  subject: string;
  address: string;
  lockedUntil: Date;
  lockouts: number;
  lastFailureAt: Date;
}

/** Identifiers locked now, for the address that guessed, longest first (the ops view). */
export async function activeLockouts(sql: Sql, limit = 200): Promise<Lockout[]> {
  const rows = await sql<
    { subject: string; address: string; locked_until: Date; lockouts: number; last_failure_at: Date }[]
  >`
    select subject, address, locked_until, lockouts, last_failure_at from sign_in_lockouts
     where locked_until > now() order by locked_until desc limit ${limit}`;
  return rows.map((r) => ({
    subject: r.subject,
    address: r.address,
    lockedUntil: r.locked_until,
    lockouts: r.lockouts,
    lastFailureAt: r.last_failure_at,
  }));
}

/** The prefix of every allowance counted for one recipient (src/auth/code-guard.ts recipientAllowanceKey). */
export const recipientAllowancePrefix = (recipient: string) => `codes:to:${encodeURIComponent(recipient)}|`;

/**
 * Ops clear an identifier: every lock and failure count of it, from every address, and every code
 * allowance of its recipient (per address, and the day's across addresses), in this window or any.
 * What was cleared, by kind.
 */
export async function unlock(
  sql: Sql,
  subject: string,
  recipient: string | null,
): Promise<{ locks: number; allowances: number }> {
  const locks = await sql`delete from sign_in_lockouts where subject = ${subject} returning 1`;
  const allowances = recipient
    ? await sql`delete from rate_limit_counters where starts_with(key, ${recipientAllowancePrefix(recipient)}) returning 1`
    : [];
  return { locks: locks.length, allowances: allowances.length };
}

export async function countActiveLockouts(sql: Sql): Promise<number> {
  const [row] = await sql<{ n: number }[]>`select count(*)::int as n from sign_in_lockouts where locked_until > now()`;
  return row?.n ?? 0;
}

/** Codes sent today against the day's ceiling (src/auth/code-guard.ts ceilingKey). */
export async function codesToday(sql: Sql, channel: CodeChannel): Promise<number> {
  return allowanceCount(sql, `codes:ceiling:${channel}`, DAY_MS);
}
