import type { Sql } from '../db/sql.js';
import type { OutboundMessage } from './notifier.js';

// The sending policy's tables (migration 00037): who caused each booking's messages, the decision
// taken for each booking's recipient, and the messages held back.

/** Records who made a booking, before its workflow sends anything; the first caller wins. */
export async function recordBookingSender(
  sql: Sql,
  s: { ref: string; principal: string; address: string | null },
): Promise<void> {
  await sql`
    insert into booking_senders (booking_ref, principal, address) values (${s.ref}, ${s.principal}, ${s.address})
    on conflict (booking_ref) do nothing`;
}

/**
 * The passenger took charge of the booking with the link texted to her phone (`principal`: the
 * claimed booking's, src/bookings/request-owner.ts): its messages are hers, no longer counted
 * against the stranger's key or address, and each recipient is decided afresh (one held back
 * because of him may go now).
 */
export async function bookingClaimed(sql: Sql, ref: string, principal: string): Promise<void> {
  await sql.begin(async (tx) => {
    await tx`
      insert into booking_senders (booking_ref, principal, address) values (${ref}, ${principal}, null)
      on conflict (booking_ref) do update set principal = excluded.principal, address = null`;
    await tx`delete from message_permits where booking_ref = ${ref}`;
  });
}

/** What the policy needs of a booking to decide about a message that names it. */
export interface BookingForPolicy {
  sandbox: boolean;
  passengerPhone: string | null;
  passengerEmail: string | null;
  /** Who caused it: booking_senders' principal, else what the booking row says (a partner's job, an assistant's passenger), else 'unknown'. */
  principal: string;
  address: string | null;
}

export async function bookingForPolicy(sql: Sql, ref: string): Promise<BookingForPolicy | null> {
  const [row] = await sql<
    {
      sandbox: boolean;
      passenger_phone: string | null;
      passenger_email: string | null;
      principal: string | null;
      address: string | null;
      partner_id: string | null;
      operator_id: string | null;
      passenger_account_id: string | null;
    }[]
  >`
    select b.sandbox, b.passenger_phone, b.passenger_email, s.principal, s.address, b.partner_id, b.operator_id, b.passenger_account_id
      from bookings b left join booking_senders s on s.booking_ref = b.ref
     where b.ref = ${ref}`;
  if (!row) return null;
  const sender = row.partner_id ?? row.operator_id;
  const principal =
    row.principal ??
    (sender ? `partner:${sender}` : row.passenger_account_id ? `account:${row.passenger_account_id}` : 'unknown');
  return {
    sandbox: row.sandbox,
    passengerPhone: row.passenger_phone || null,
    passengerEmail: row.passenger_email,
    principal,
    address: row.address,
  };
}

/**
 * A recipient who has travelled with us (a completed trip) or signed in (a passenger account, a
 * mailbox verified by its owner): messages to them are not what a pumping run through fresh
 * numbers makes, so they are kept out of the allowances that stop one.
 */
export async function knownRecipient(sql: Sql, kind: 'phone' | 'email', recipient: string): Promise<boolean> {
  const rows =
    kind === 'phone'
      ? await sql`
          select 1 where exists (select 1 from passenger_accounts where phone = ${recipient} and last_sign_in_at is not null)
             or exists (select 1 from bookings where passenger_phone = ${recipient} and status = 'completed')`
      : await sql`
          select 1 where exists (select 1 from passenger_accounts where email = ${recipient.toLowerCase()} and last_sign_in_at is not null)
             or exists (select 1 from passenger_emails where email = ${recipient.toLowerCase()} and verified_at is not null)`;
  return rows.length > 0;
}

export interface Permit {
  allowed: boolean;
  reason: string | null;
}

export async function findPermit(sql: Sql, ref: string, recipient: string): Promise<Permit | null> {
  const [row] = await sql<{ allowed: boolean; reason: string | null }[]>`
    select allowed, reason from message_permits where booking_ref = ${ref} and recipient = ${recipient}`;
  return row ? { allowed: row.allowed, reason: row.reason } : null;
}

/** Stores the decision unless one was stored meanwhile, and returns the one in force. */
export async function storePermit(sql: Sql, ref: string, recipient: string, p: Permit): Promise<Permit> {
  await sql`
    insert into message_permits (booking_ref, recipient, allowed, reason) values (${ref}, ${recipient}, ${p.allowed}, ${p.reason})
    on conflict (booking_ref, recipient) do nothing`;
  return (await findPermit(sql, ref, recipient)) ?? p;
}

/** Whether the message's key was already handed to a provider (or held back): a retry is answered as the first send was. */
export async function earlierSend(sql: Sql, key: string): Promise<'sent' | 'withheld' | null> {
  const [row] = await sql<{ kind: 'sent' | 'withheld' }[]>`
    select 'sent' as kind from outbox where idempotency_key = ${key}
    union all
    select 'withheld' from messages_withheld where idempotency_key = ${key}
    limit 1`;
  return row?.kind ?? null;
}

/** Records a message held back; false when it was already recorded. */
export async function recordWithheld(sql: Sql, msg: OutboundMessage, reason: string): Promise<boolean> {
  const rows = await sql`
    insert into messages_withheld (idempotency_key, channel, recipient, booking_ref, purpose, reason)
    values (${msg.idempotencyKey}, ${msg.channel}, ${msg.to}, ${msg.bookingRef ?? null}, ${msg.purpose ?? null}, ${reason})
    on conflict (idempotency_key) do nothing
    returning 1`;
  return rows.length > 0;
}

export interface WithheldMessage {
  channel: string;
  recipient: string;
  purpose: string | null;
  reason: string;
  withheldAt: Date;
}

/** What was held back for one booking, oldest first (the ops story). */
export async function withheldForBooking(sql: Sql, ref: string): Promise<WithheldMessage[]> {
  const rows = await sql<
    { channel: string; recipient: string; purpose: string | null; reason: string; withheld_at: Date }[]
  >`
    select channel, recipient, purpose, reason, withheld_at from messages_withheld where booking_ref = ${ref} order by withheld_at, idempotency_key`;
  return rows.map((r) => ({
    channel: r.channel,
    recipient: r.recipient,
    purpose: r.purpose,
    reason: r.reason,
    withheldAt: r.withheld_at,
  }));
}

/** Messages held back since a time, by reason (the /metrics gauge and the abuse check). */
export async function withheldSince(sql: Sql, since: Date): Promise<Array<{ reason: string; n: number }>> {
  return sql<{ reason: string; n: number }[]>`
    select reason, count(*)::int as n from messages_withheld where withheld_at >= ${since} group by reason order by reason`;
}
