import type { Sql } from '../db/sql.js';
import type { OfferRow } from '../dispatch/store.js';
import type { PlaceSnapshot } from '../model/bookings.js';
import { WITHOUT_DRIVER } from './alerts-store.js';

// What the ops view reads: the live board, a booking's story (its row, status changes, decisions,
// offers, messages, payments, alerts) and the decision log by driver. Reads only.

export interface BoardRow {
  ref: string;
  status: string;
  source: string;
  pickup_at: Date;
  pickup: PlaceSnapshot;
  dropoff: PlaceSnapshot;
  pickup_query: string;
  dropoff_query: string;
  passengers: number;
  vehicle_type: string;
  wheelchair: boolean;
  fare_pence: number;
  driver_id: string | null;
  driver_name: string | null;
  without_driver: boolean;
  alerted_at: Date | null;
  created_at: Date;
}

/**
 * Live bookings (not closed, pickup from `since` to `until`), those without a driver first,
 * nearest pickup first; then the rest by pickup time.
 */
export async function liveBookings(
  sql: Sql,
  q: { status: string | null; since: Date; until: Date; limit: number; offset?: number },
): Promise<BoardRow[]> {
  return sql<BoardRow[]>`
    select b.ref, b.status, b.source, b.pickup_at, b.pickup, b.dropoff, b.pickup_query, b.dropoff_query, b.passengers, b.vehicle_type, b.wheelchair,
           b.fare_pence, b.driver_id, d.name as driver_name,
           (b.driver_id is null and b.status in ${sql(WITHOUT_DRIVER as unknown as string[])}) as without_driver,
           a.alerted_at, b.created_at
      from bookings b
      left join drivers d on d.id = b.driver_id
      left join ops_alerts a on a.booking_ref = b.ref and a.kind = 'unassigned_near_pickup'
     where b.status not in ('completed', 'cancelled', 'no_show')
       and b.pickup_at between ${q.since} and ${q.until}
       ${q.status ? sql`and b.status = ${q.status}` : sql``}
     order by (b.driver_id is null and b.status in ${sql(WITHOUT_DRIVER as unknown as string[])}) desc, b.pickup_at, b.ref
     limit ${q.limit} offset ${q.offset ?? 0}`;
}

/** What staff search bookings by: a reference (or its start), a passenger phone in E.164, a partner's job reference. */
export interface BookingSearch {
  ref: string | null;
  phone: string | null;
  jobRef: string | null;
}

/**
 * One page of bookings matching a search, open or closed, whenever their pickup: the most recent
 * pickup first. A reference matches from its start; a phone and a job reference exactly.
 */
export async function searchBookings(
  sql: Sql,
  q: { search: BookingSearch; limit: number; offset: number },
): Promise<{ rows: BoardRow[]; total: number }> {
  const { ref, phone, jobRef } = q.search;
  const like = (w: string) => `${w.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const match = [
    ...(ref ? [sql`b.ref like ${like(ref)}`] : []),
    ...(phone ? [sql`b.passenger_phone = ${phone}`] : []),
    ...(jobRef ? [sql`b.partner_job_ref = ${jobRef}`] : []),
  ].reduce((a, b) => sql`${a} or ${b}`, sql`false`);
  const rows = await sql<(BoardRow & { total: number })[]>`
    select b.ref, b.status, b.source, b.pickup_at, b.pickup, b.dropoff, b.pickup_query, b.dropoff_query, b.passengers, b.vehicle_type, b.wheelchair,
           b.fare_pence, b.driver_id, d.name as driver_name,
           (b.driver_id is null and b.status in ${sql(WITHOUT_DRIVER as unknown as string[])}) as without_driver,
           a.alerted_at, b.created_at, count(*) over ()::int as total
      from bookings b
      left join drivers d on d.id = b.driver_id
      left join ops_alerts a on a.booking_ref = b.ref and a.kind = 'unassigned_near_pickup'
     where ${match}
     order by b.pickup_at desc, b.ref
     limit ${q.limit} offset ${q.offset}`;
  if (rows.length > 0 || q.offset === 0)
    return { rows: rows.map(({ total: _total, ...b }) => b), total: rows[0]?.total ?? 0 };
  const [c] = await sql<{ n: number }[]>`select count(*)::int as n from bookings b where ${match}`;
  return { rows: [], total: c?.n ?? 0 };
}

/** How many live bookings are in each status (the same window as the board). */
export async function liveCounts(sql: Sql, q: { since: Date; until: Date }): Promise<Record<string, number>> {
  const rows = await sql<{ status: string; n: number }[]>`
    select status, count(*)::int as n from bookings
     where status not in ('completed', 'cancelled', 'no_show') and pickup_at between ${q.since} and ${q.until}
     group by status`;
  return Object.fromEntries(rows.map((r) => [r.status, r.n]));
}

export interface StoryBooking extends BoardRow {
  passenger_name: string;
  passenger_phone: string;
  passenger_email: string | null;
  payment_method: string;
  partner_id: string | null;
  partner_job_ref: string | null;
  assigned_at: Date | null;
  cancelled_at: Date | null;
  cancel_reason: string | null;
}

export async function storyBooking(sql: Sql, ref: string): Promise<StoryBooking | null> {
  const [row] = await sql<StoryBooking[]>`
    select b.ref, b.status, b.source, b.pickup_at, b.pickup, b.dropoff, b.pickup_query, b.dropoff_query, b.passengers, b.vehicle_type, b.wheelchair,
           b.fare_pence, b.driver_id, d.name as driver_name,
           (b.driver_id is null and b.status in ${sql(WITHOUT_DRIVER as unknown as string[])}) as without_driver,
           a.alerted_at, b.created_at, b.passenger_name, b.passenger_phone, b.passenger_email, b.payment_method,
           b.partner_id, b.partner_job_ref, b.assigned_at, b.cancelled_at, b.cancel_reason
      from bookings b
      left join drivers d on d.id = b.driver_id
      left join ops_alerts a on a.booking_ref = b.ref and a.kind = 'unassigned_near_pickup'
     where b.ref = ${ref}`;
  return row ?? null;
}

export async function statusChanges(sql: Sql, ref: string) {
  return sql<{ status: string; previous_status: string | null; driver_id: string | null; changed_at: Date }[]>`
    select status, previous_status, driver_id, changed_at from booking_status_changes where booking_ref = ${ref} order by id`;
}

export async function bookingOffers(sql: Sql, ref: string, driverId: string | null = null) {
  return sql<
    {
      id: string;
      driver_id: string;
      driver_name: string | null;
      round: number;
      tier: string;
      status: OfferRow['status'];
      offered_at: Date;
      expires_at: Date;
      responded_at: Date | null;
      claimed_from_board: boolean;
      fare_pence: number | null;
    }[]
  >`
    select o.id, o.driver_id, d.name as driver_name, o.round, o.tier, o.status, o.offered_at, o.expires_at, o.responded_at, o.claimed_from_board, o.fare_pence
      from offers o left join drivers d on d.id = o.driver_id
     where o.booking_ref = ${ref} ${driverId ? sql`and o.driver_id = ${driverId}` : sql``}
     order by o.offered_at, o.id`;
}

/**
 * Messages about the booking: those handed to a provider (the outbox) and those the sending policy
 * held back (src/notify/sending-policy.ts), in time order; what, to whom and when, never the body
 * (a job card's body holds the driver's signed link).
 */
export async function bookingMessages(sql: Sql, ref: string) {
  return sql<
    {
      idempotency_key: string;
      channel: string;
      recipient: string;
      subject: string | null;
      provider: string;
      created_at: Date;
      sent_at: Date | null;
      withheld: string | null;
      attempts: number;
      last_error_at: Date | null;
      last_error_status: number | null;
      last_error_code: string | null;
      last_error: string | null;
      refused_at: Date | null;
    }[]
  >`
    select idempotency_key, channel, recipient, subject, provider, created_at, sent_at, withheld,
           attempts, last_error_at, last_error_status, last_error_code, last_error, refused_at from (
      select idempotency_key, channel, recipient, subject, provider, created_at, sent_at, null::text as withheld, id as n,
             attempts, last_error_at, last_error_status, last_error_code, last_error, refused_at
        from outbox where booking_ref = ${ref}
      union all
      select idempotency_key, channel, recipient, null, 'withheld', withheld_at, null, reason, null,
             0, null, null, null, null, null
        from messages_withheld where booking_ref = ${ref}
    ) m order by created_at, n nulls last, idempotency_key`;
}

export async function bookingPayments(sql: Sql, ref: string) {
  return sql<
    {
      id: string;
      driver_id: string | null;
      amount_pence: number;
      method: string;
      recorded_by: string;
      corrects: string | null;
      note: string | null;
      recorded_at: Date;
    }[]
  >`
    select id::text, driver_id, amount_pence, method, recorded_by, corrects::text, note, recorded_at
      from payment_records where booking_ref = ${ref} order by id`;
}

export interface DecisionRow {
  round: number;
  tier: string;
  driver_id: string;
  driver_name: string | null;
  distance_m: number | null;
  /** The distance with the answer handicap the driver was ranked on (null before ranking was logged). */
  rank_m: number | null;
  answer_rate: number | null;
  eligible: boolean;
  skip_reason: string | null;
  decided_at: Date;
}

/** The decision log of a booking, by round, tier and distance; one driver's only when asked. */
export async function bookingDecisions(
  sql: Sql,
  ref: string,
  driverId: string | null,
  limit: number,
): Promise<DecisionRow[]> {
  return sql<DecisionRow[]>`
    select x.round, x.tier, x.driver_id, d.name as driver_name, x.distance_m, x.rank_m, x.answer_rate, x.eligible,
           x.skip_reason, x.decided_at
      from dispatch_decisions x left join drivers d on d.id = x.driver_id
     where x.booking_ref = ${ref} ${driverId ? sql`and x.driver_id = ${driverId}` : sql``}
     order by x.round, case x.tier when 'local' then 0 when 'national' then 1 else 2 end, x.eligible desc,
              coalesce(x.rank_m, x.distance_m) nulls last, x.driver_id
     limit ${limit}`;
}

/** Each round and tier the cascade reached, with when (its first decision) and how many drivers it read. */
export async function roundsReached(sql: Sql, ref: string) {
  return sql<{ round: number; tier: string; considered: number; eligible: number; at: Date }[]>`
    select round, tier, count(*)::int as considered, count(*) filter (where eligible)::int as eligible, min(decided_at) as at
      from dispatch_decisions where booking_ref = ${ref}
     group by round, tier order by round, case tier when 'local' then 0 when 'national' then 1 else 2 end`;
}

export interface DriverNow {
  id: string;
  name: string;
  tier: string;
  status: string;
  approved: boolean;
  online: boolean;
  lat: number | null;
  lon: number | null;
  location_at: Date | null;
}

export async function driverNow(sql: Sql, id: string): Promise<DriverNow | null> {
  const [row] = await sql<DriverNow[]>`
    select id, name, tier, status, approved, online, lat, lon, location_at from drivers where id = ${id}`;
  return row ?? null;
}
