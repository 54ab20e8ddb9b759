import type { Sql } from '../db/sql.js';

// Manage tokens and claim links (src/bookings/ownership.ts): only their hashes are stored.

/** How long after its pickup time a booking's manage tokens keep working. */
const TOKEN_LIFETIME_AFTER_PICKUP = '24 hours';

/**
 * A manage token for the caller the booking's request still names: stored (true) only while
 * booking_requests says `principal` owns the booking. The row is locked for share, so a claim
 * (takeCharge, which rewrites that row before it revokes the tokens) either comes first and this
 * stores nothing, or comes after and revokes what this stored: a request that passed its ownership
 * check just before a claim never keeps a token past it.
 */
export async function insertManageTokenForOwner(
  sql: Sql,
  t: { tokenHash: string; ref: string; holder: string; principal: string },
): Promise<boolean> {
  const rows = await sql`
    with owner as (select ref from booking_requests where ref = ${t.ref} and owner = ${t.principal} limit 1 for share)
    insert into booking_manage_tokens (token_hash, booking_ref, holder) select ${t.tokenHash}, ref, ${t.holder} from owner
    returning 1`;
  return rows.length > 0;
}

/**
 * The manage token a confirmation link opens (derived from the link, so the same link always opens
 * the same token and stores it once): only while the booking still carries that mailbox in that
 * claim generation, read under a share lock for the same reason as insertManageTokenForOwner.
 * True when the link's booking is as it was; the token may have been stored by an earlier open.
 */
export async function insertManageTokenForMailbox(
  sql: Sql,
  t: { tokenHash: string; ref: string; holder: string; mailbox: string; generation: number },
): Promise<boolean> {
  const rows = await sql<{ ref: string }[]>`
    with still as (
      select ref from bookings
       where ref = ${t.ref} and claim_generation = ${t.generation} and lower(passenger_email) = ${t.mailbox}
       for share),
    stored as (
      insert into booking_manage_tokens (token_hash, booking_ref, holder) select ${t.tokenHash}, ref, ${t.holder} from still
      on conflict (token_hash) do nothing)
    select ref from still`;
  return rows.length > 0;
}

/** The same token issued again (a retried activity) is stored once, and a revoked one stays revoked. */
export async function insertManageTokenOnce(
  sql: Sql,
  t: { tokenHash: string; ref: string; holder: string },
): Promise<void> {
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

export async function insertClaim(
  sql: Sql,
  c: { tokenHash: string; ref: string; phone: string; expiresAt: Date },
): Promise<void> {
  await sql`insert into booking_claims (token_hash, booking_ref, phone, expires_at) values (${c.tokenHash}, ${c.ref}, ${c.phone}, ${c.expiresAt})
            on conflict (token_hash) do nothing`;
}

export interface ClaimRow {
  booking_ref: string;
  phone: string;
  expires_at: Date;
  used_at: Date | null;
}

export async function findClaim(sql: Sql, tokenHash: string): Promise<ClaimRow | null> {
  const [row] = await sql<
    ClaimRow[]
  >`select booking_ref, phone, expires_at, used_at from booking_claims where token_hash = ${tokenHash}`;
  return row ?? null;
}

/** Spends a claim link; false when it was spent already or has expired (whoever got there first wins). */
export async function spendClaim(sql: Sql, tokenHash: string): Promise<boolean> {
  const rows =
    await sql`update booking_claims set used_at = now() where token_hash = ${tokenHash} and used_at is null and expires_at > now() returning 1`;
  return rows.length > 0;
}

/**
 * The passenger takes charge of her booking, in one transaction (src/bookings/ownership.ts): the
 * booking is rewritten first (its claim generation bumped, so every confirmation link sent before
 * is dead; her name if she gave one; her email or none, never the one before, marked verified only
 * if that mailbox already is; the notes cleared), then the request that holds its trip names no
 * caller any more (`claimed`, with her mailbox), then every manage token handed out is revoked and
 * hers stored. Null when the booking is no longer on her phone.
 */
export async function takeCharge(
  sql: Sql,
  c: {
    ref: string;
    phone: string;
    name: string | null;
    email: string | null;
    mailbox: string | null;
    principal: string;
    tokenHash: string;
  },
): Promise<{ generation: number } | null> {
  return sql.begin(async (tx) => {
    const [row] = await tx<{ claim_generation: number }[]>`
      update bookings set claim_generation = claim_generation + 1,
                          passenger_name = coalesce(${c.name}, passenger_name),
                          passenger_email = ${c.email},
                          email_verified = ${c.email}::text is not null and exists (
                            select 1 from passenger_emails e where e.email = lower(${c.email}::text) and e.verified_at is not null),
                          notes = null, updated_at = now()
       where ref = ${c.ref} and passenger_phone = ${c.phone}
      returning claim_generation`;
    if (!row) return null;
    // Nothing of the booker's request is kept: its verbatim retry is no longer theirs (issue 37).
    await tx`update booking_requests set owner = ${c.principal}, owner_mailbox = ${c.mailbox}, owner_request = null,
                    owner_body_hash = null, owner_address = null
              where ref = ${c.ref}`;
    await tx`update booking_manage_tokens set revoked_at = now() where booking_ref = ${c.ref} and revoked_at is null`;
    await tx`insert into booking_manage_tokens (token_hash, booking_ref, holder) values (${c.tokenHash}, ${c.ref}, 'phone')`;
    return { generation: row.claim_generation };
  });
}
