import type { Sql } from '../db/sql.js';

// Manage tokens and claim links (src/bookings/ownership.ts): only their hashes are stored.

/** How long after its pickup time a booking's manage tokens keep working. */
const TOKEN_LIFETIME_AFTER_PICKUP = '24 hours';

export async function insertManageToken(sql: Sql, t: { tokenHash: string; ref: string; holder: string }): Promise<void> {
  await sql`insert into booking_manage_tokens (token_hash, booking_ref, holder) values (${t.tokenHash}, ${t.ref}, ${t.holder})`;
}

/** The same token issued again (a retried activity) is stored once, and a revoked one stays revoked. */
export async function insertManageTokenOnce(sql: Sql, t: { tokenHash: string; ref: string; holder: string }): Promise<void> {
  await sql`insert into booking_manage_tokens (token_hash, booking_ref, holder) values (${t.tokenHash}, ${t.ref}, ${t.holder}) on conflict (token_hash) do nothing`;
}

/** Whether this token hash is a live manage token of this booking (not revoked, trip not long past). */
export async function manageTokenValid(sql: Sql, ref: string, tokenHash: string): Promise<boolean> {
  const rows = await sql`
    select 1 from booking_manage_tokens t join bookings b on b.ref = t.booking_ref
     where t.token_hash = ${tokenHash} and t.booking_ref = ${ref} and t.revoked_at is null
       and now() < b.pickup_at + ${TOKEN_LIFETIME_AFTER_PICKUP}::interval`;
  return rows.length > 0;
}

export async function revokeManageTokens(sql: Sql, ref: string): Promise<number> {
  const rows = await sql`update booking_manage_tokens set revoked_at = now() where booking_ref = ${ref} and revoked_at is null returning 1`;
  return rows.length;
}

export async function insertClaim(sql: Sql, c: { tokenHash: string; ref: string; phone: string; expiresAt: Date }): Promise<void> {
  await sql`insert into booking_claims (token_hash, booking_ref, phone, expires_at) values (${c.tokenHash}, ${c.ref}, ${c.phone}, ${c.expiresAt})`;
}

export interface ClaimRow {
  booking_ref: string;
  phone: string;
  expires_at: Date;
  used_at: Date | null;
}

export async function findClaim(sql: Sql, tokenHash: string): Promise<ClaimRow | null> {
  const [row] = await sql<ClaimRow[]>`select booking_ref, phone, expires_at, used_at from booking_claims where token_hash = ${tokenHash}`;
  return row ?? null;
}

/** Spends a claim link; false when it was spent already or has expired (whoever got there first wins). */
export async function spendClaim(sql: Sql, tokenHash: string): Promise<boolean> {
  const rows = await sql`update booking_claims set used_at = now() where token_hash = ${tokenHash} and used_at is null and expires_at > now() returning 1`;
  return rows.length > 0;
}

/** The passenger who reclaimed a booking puts their own name and email on it. */
export async function setPassengerContact(sql: Sql, ref: string, c: { name: string | null; email: string | null }): Promise<void> {
  await sql`update bookings set passenger_name = coalesce(${c.name}, passenger_name),
                                passenger_email = coalesce(${c.email}, passenger_email), updated_at = now()
             where ref = ${ref}`;
}
