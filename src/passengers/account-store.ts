import { randomUUID } from 'node:crypto';
import type { Sql } from '../db/sql.js';
import { isPassengerBlocked } from './standing.js';

// Passenger accounts (migration 00012): made the first time someone signs in with a code sent to
// their phone or email, so an assistant they authorise books in their name.

export interface PassengerAccount {
  id: string;
  phone: string | null;
  email: string | null;
}

export type SignInIdentifier = { kind: 'phone'; value: string } | { kind: 'email'; value: string };

export const identifierKey = (i: SignInIdentifier) => `${i.kind}:${i.value}`;

export async function findAccount(sql: Sql, id: string): Promise<PassengerAccount | null> {
  const [row] = await sql<PassengerAccount[]>`select id, phone, email from passenger_accounts where id = ${id}`;
  return row ?? null;
}

/** The account and whether staff have blocked its email or phone (a blocked passenger's assistant is refused). */
export async function accountStanding(
  sql: Sql,
  id: string,
): Promise<{ account: PassengerAccount; blocked: boolean } | null> {
  const account = await findAccount(sql, id);
  if (!account) return null;
  return { account, blocked: await isPassengerBlocked(sql, { email: account.email, phone: account.phone }) };
}

/** The account for this phone or email, made on first sign-in; two first sign-ins at once make one. */
export async function accountFor(sql: Sql, i: SignInIdentifier): Promise<PassengerAccount> {
  const phone = i.kind === 'phone' ? i.value : null;
  const email = i.kind === 'email' ? i.value : null;
  const [row] = await sql<PassengerAccount[]>`
    insert into passenger_accounts (id, phone, email, last_sign_in_at)
    values (${randomUUID()}, ${phone}, ${email}, now())
    on conflict (${sql(i.kind)}) do update set last_sign_in_at = now()
    returning id, phone, email`;
  return row!;
}

/** Whether this phone or email has completed a sign-in before (a returning passenger). */
export async function hasSignedInBefore(sql: Sql, i: SignInIdentifier): Promise<boolean> {
  const rows =
    await sql`select 1 from passenger_accounts where ${sql(i.kind)} = ${i.value} and last_sign_in_at is not null`;
  return rows.length > 0;
}

/** Replaces any earlier code for this identifier; attempts start again. */
export async function saveSignInCode(sql: Sql, key: string, codeHash: string, expiresAt: Date): Promise<void> {
  await sql`
    insert into passenger_sign_in_codes (identifier, code_hash, expires_at, attempts)
    values (${key}, ${codeHash}, ${expiresAt}, 0)
    on conflict (identifier) do update set code_hash = excluded.code_hash, expires_at = excluded.expires_at, attempts = 0, created_at = now()`;
}

/** Counts an attempt and returns the live code's hash, or null when none is live or attempts ran out. */
export async function takeSignInAttempt(sql: Sql, key: string, maxAttempts: number): Promise<string | null> {
  const [row] = await sql<{ code_hash: string; attempts: number; live: boolean }[]>`
    update passenger_sign_in_codes set attempts = attempts + 1
     where identifier = ${key}
    returning code_hash, attempts, expires_at > now() as live`;
  return row && row.live && row.attempts <= maxAttempts ? row.code_hash : null;
}

/** A code works once. */
export async function spendSignInCode(sql: Sql, key: string): Promise<void> {
  await sql`delete from passenger_sign_in_codes where identifier = ${key}`;
}
