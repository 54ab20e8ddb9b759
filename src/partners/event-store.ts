import { randomBytes, randomUUID } from 'node:crypto';
import type { Sql } from '../db/sql.js';
import type { AmendmentChanges, DeliveryState, JobRejection } from '../schemas/partner-events.js';
import type { BookingStatus } from '../model/bookings.js';
import type { PartnerEventFacts } from './event-payload.js';
import { openSecret, sealSecret } from '../auth/secret-box.js';

// partner_events (written by the triggers of migrations 00011, 00021 and 00046, never by this code) and the
// senders' Standard Webhooks secrets. Every read a sender can cause is scoped to that sender.

export interface PartnerEventRecord extends PartnerEventFacts {
  partnerId: string;
  position: string;
  delivery: DeliveryState;
  attempts: number;
  lastAttemptAt: Date | null;
  lastError: string | null;
  deliveredAt: Date | null;
  replayRequestedAt: Date | null;
}

interface EventRow {
  id: string;
  position: string;
  partner_id: string;
  booking_ref: string;
  seq: number;
  type: 'booking.status_changed' | 'booking.amended' | 'job.rejected';
  changes: AmendmentChanges | null;
  rejection: JobRejection | null;
  status: BookingStatus;
  previous_status: BookingStatus | null;
  job_ref: string | null;
  pickup_at: Date;
  driver_name: string | null;
  driver_vehicle: string | null;
  driver_plate: string | null;
  occurred_at: Date;
  delivery: DeliveryState;
  attempts: number;
  last_attempt_at: Date | null;
  last_error: string | null;
  delivered_at: Date | null;
  replay_requested_at: Date | null;
}

const toRecord = (r: EventRow): PartnerEventRecord => ({
  id: r.id,
  position: String(r.position),
  partnerId: r.partner_id,
  bookingRef: r.booking_ref,
  seq: r.seq,
  type: r.type,
  changes: r.changes,
  rejection: r.rejection,
  status: r.status,
  previousStatus: r.previous_status,
  jobRef: r.job_ref,
  pickupAt: r.pickup_at,
  driverName: r.driver_name,
  driverVehicle: r.driver_vehicle,
  driverPlate: r.driver_plate,
  occurredAt: r.occurred_at,
  delivery: r.delivery,
  attempts: r.attempts,
  lastAttemptAt: r.last_attempt_at,
  lastError: r.last_error,
  deliveredAt: r.delivered_at,
  replayRequestedAt: r.replay_requested_at,
});

/** How far back a sender's listing reaches. */
export const LISTING_DAYS = 30;
/** Errors are kept short: they are the receiver's answer, shown back to the sender. */
const MAX_ERROR_LENGTH = 500;

export async function loadPartnerEvent(sql: Sql, id: string): Promise<PartnerEventRecord | null> {
  const [row] = await sql<EventRow[]>`select * from partner_events where id = ${id}`;
  return row ? toRecord(row) : null;
}

/** The sender's own event, or null: another sender's event is as good as not there. */
export async function findPartnerEvent(sql: Sql, partnerId: string, id: string): Promise<PartnerEventRecord | null> {
  const [row] = await sql<EventRow[]>`select * from partner_events where id = ${id} and partner_id = ${partnerId}`;
  return row ? toRecord(row) : null;
}

/**
 * The sender's events of the last LISTING_DAYS, oldest first, after the event `after` (by the order
 * they were recorded). `undefined` when `after` is not one of the sender's events.
 */
export async function listPartnerEvents(
  sql: Sql,
  partnerId: string,
  q: { limit: number; after?: string | undefined; bookingRef?: string | undefined },
): Promise<{ events: PartnerEventRecord[]; hasMore: boolean } | undefined> {
  let from = '0';
  if (q.after !== undefined) {
    const cursor = await findPartnerEvent(sql, partnerId, q.after);
    if (!cursor) return undefined;
    from = cursor.position;
  }
  const rows = await sql<EventRow[]>`
    select * from partner_events
     where partner_id = ${partnerId} and position > ${from}
       and occurred_at > now() - make_interval(days => ${LISTING_DAYS})
       and (${q.bookingRef ?? null}::text is null or booking_ref = ${q.bookingRef ?? null})
     order by position
     limit ${q.limit + 1}`;
  return { events: rows.slice(0, q.limit).map(toRecord), hasMore: rows.length > q.limit };
}

/** The booking's events waiting for a delivery, in the booking's own order. */
export async function dueEvents(
  sql: Sql,
  partnerId: string,
  bookingRef: string,
  limit = 100,
): Promise<{ id: string; seq: number }[]> {
  return sql<{ id: string; seq: number }[]>`
    select id, seq from partner_events
     where partner_id = ${partnerId} and booking_ref = ${bookingRef} and (delivery = 'pending' or replay_requested_at is not null)
     order by seq
     limit ${limit}`;
}

/**
 * Bookings with events due for a while (the sweep's list), oldest first. `busy`: one of them was
 * attempted within `busySeconds`, so a delivery workflow is at work on the booking (waiting out a
 * receiver's backoff); otherwise nothing is, or one is idle and missed the notification.
 */
export async function bookingsWithDueEvents(
  sql: Sql,
  q: { olderThanSeconds: number; busySeconds: number; limit: number },
): Promise<{ partnerId: string; bookingRef: string; busy: boolean }[]> {
  const rows = await sql<{ partner_id: string; booking_ref: string; busy: boolean }[]>`
    select e.partner_id, e.booking_ref,
           coalesce(max(e.last_attempt_at) > now() - make_interval(secs => ${q.busySeconds}), false) as busy
      from partner_events e join partners p on p.id = e.partner_id
     where (e.delivery = 'pending' or e.replay_requested_at is not null) and p.callback_url is not null
     group by e.partner_id, e.booking_ref
    having min(coalesce(e.replay_requested_at, e.occurred_at)) < now() - make_interval(secs => ${q.olderThanSeconds})
     order by min(e.position)
     limit ${q.limit}`;
  return rows.map((r) => ({ partnerId: r.partner_id, bookingRef: r.booking_ref, busy: r.busy }));
}

export async function recordAttemptStarted(sql: Sql, id: string): Promise<void> {
  await sql`update partner_events set attempts = attempts + 1, last_attempt_at = now() where id = ${id}`;
}

/** A replay asked for while this attempt was under way is kept: it gets an attempt of its own. */
export async function markDelivered(sql: Sql, id: string): Promise<void> {
  await sql`
    update partner_events
       set delivery = 'delivered', delivered_at = now(), last_error = null,
           replay_requested_at = case when replay_requested_at <= last_attempt_at then null else replay_requested_at end
     where id = ${id}`;
}

export async function recordAttemptFailed(sql: Sql, id: string, error: string): Promise<void> {
  await sql`update partner_events set last_error = ${error.slice(0, MAX_ERROR_LENGTH)} where id = ${id}`;
}

/** Given up on, keeping the receiver's last answer (a replay of a delivered event stays delivered). */
export async function markFailed(sql: Sql, id: string, reason: string): Promise<void> {
  await sql`
    update partner_events
       set delivery = case when delivery = 'pending' then 'failed' else delivery end,
           failed_at = case when delivery = 'pending' then now() else failed_at end,
           last_error = left(${reason} || coalesce('; last answer: ' || last_error, ''), ${MAX_ERROR_LENGTH}),
           replay_requested_at = null
     where id = ${id}`;
}

/** The sender has no callback URL (any more): nothing to deliver to. */
export async function markUnregistered(sql: Sql, id: string): Promise<void> {
  await sql`
    update partner_events
       set delivery = case when delivery = 'pending' then 'unregistered' else delivery end, replay_requested_at = null
     where id = ${id}`;
}

/** Asks for the sender's own event again; null when it is not theirs. */
export async function requestReplay(sql: Sql, partnerId: string, id: string): Promise<PartnerEventRecord | null> {
  const [row] = await sql<EventRow[]>`
    update partner_events set replay_requested_at = now() where id = ${id} and partner_id = ${partnerId} returning *`;
  return row ? toRecord(row) : null;
}

/**
 * Issues a new Standard Webhooks secret (whsec_ and 32 random bytes in base64). With
 * `overlapSeconds`, the ones before keep signing that much longer (deliveries carry a signature
 * per secret, so a receiver can switch at its own pace); without, they stop now.
 */
export async function issueWebhookSecret(
  sql: Sql,
  secretsKey: string,
  partnerId: string,
  overlapSeconds = 0,
): Promise<{ secret: string; issuedAt: Date }> {
  const secret = 'whsec_' + randomBytes(32).toString('base64');
  const issuedAt = await sql.begin(async (tx) => {
    await tx`update partner_webhook_secrets set expires_at = now() + make_interval(secs => ${overlapSeconds})
              where partner_id = ${partnerId} and (expires_at is null or expires_at > now() + make_interval(secs => ${overlapSeconds}))`;
    const [row] = await tx<{ created_at: Date }[]>`
      insert into partner_webhook_secrets (id, partner_id, ciphertext) values (${randomUUID()}, ${partnerId}, ${sealSecret(secretsKey, secret)})
      returning created_at`;
    return row!.created_at;
  });
  return { secret, issuedAt };
}

/** The secrets deliveries are signed with right now, newest first. */
export async function activeWebhookSecrets(sql: Sql, secretsKey: string, partnerId: string): Promise<string[]> {
  const rows = await sql<{ ciphertext: string }[]>`
    select ciphertext from partner_webhook_secrets
     where partner_id = ${partnerId} and (expires_at is null or expires_at > now())
     order by created_at desc`;
  return rows.map((r) => openSecret(secretsKey, r.ciphertext));
}

/** When the newest secret still in use was issued (null: none). */
export async function webhookSecretIssuedAt(sql: Sql, partnerId: string): Promise<Date | null> {
  const [row] = await sql<{ created_at: Date }[]>`
    select created_at from partner_webhook_secrets
     where partner_id = ${partnerId} and (expires_at is null or expires_at > now())
     order by created_at desc limit 1`;
  return row?.created_at ?? null;
}
