import type { PendingQuery, Row, TransactionSql } from 'postgres';
import type { Sql } from '../db/sql.js';
import { ACTIVE_STATUSES, type Tier } from '../model/bookings.js';
import { ANSWER_RANKING, JOB_BUFFER_MINUTES, type DriverSnapshot } from './policy.js';

// Dispatch's tables: the drivers a cascade may ask, the offers (job cards) it made, and the claim
// that keeps one driver from holding two job cards at once. The rules are not decided here but in
// src/dispatch/policy.ts: these queries read the facts the rules need (DriverSnapshot) and narrow
// what is read by the rules' own parameters, said so where they do.

export interface OfferRow {
  id: string;
  booking_ref: string;
  driver_id: string;
  round: number;
  tier: Tier;
  status: 'offered' | 'accepted' | 'declined' | 'timed_out' | 'withdrawn';
  expires_at: Date;
  /** The fare the job card offered (the driver's own rate, or the quoted fare); null on offers made before it was kept (migration 00028). */
  fare_pence?: number | null;
}

/** What a driver's own rate re-prices a booking on (src/dispatch/offer-fares.ts). */
export interface BookingFareFacts {
  /** The quoted fare: kept aside while a driver's fare is in force, else the fare itself. */
  quoted_fare_pence: number;
  fare_source: string;
  pickup_area: string;
  pickup_at: Date;
  distance_m: number;
  duration_s: number;
  vehicle_type: string;
  country: string | null;
  rate_override_id: string | null;
}

export async function readBookingFareFacts(sql: Sql, ref: string): Promise<BookingFareFacts> {
  const [row] = await sql<BookingFareFacts[]>`
    select coalesce(quoted_fare_pence, fare_pence) as quoted_fare_pence, fare_source, pickup_area, pickup_at, distance_m,
           duration_s, vehicle_type, pickup->>'country' as country, rate_override_id
      from bookings where ref = ${ref}`;
  if (!row) throw new Error(`booking ${ref} not found`);
  return row;
}

type Window = Date | PendingQuery<Row[]>;

/**
 * A job card still 'offered' past its expiry is still open: its booking's workflow takes an answer
 * until its own timer, which starts once the card is sent (after the claim stamped expires_at), and
 * records the outcome only then; under load that is seconds after expires_at, and a driver who
 * accepted in those seconds would otherwise have been claimed by another booking meanwhile (issue
 * 25). Only a card nobody closed this long after its expiry (its workflow gone) no longer counts.
 */
export const UNCLOSED_CARD_GRACE_MINUTES = 5;

/**
 * DriverSnapshot.overlappingJobs for a job (start..end) of booking `ref`: the driver's other active
 * jobs overlapping it with policy.ts's JOB_BUFFER_MINUTES either side, plus, for a new offer
 * (`openOffers`), the job cards they hold open for other bookings (until their workflow closes
 * them: UNCLOSED_CARD_GRACE_MINUTES). One definition for the candidate
 * read, the locked claim and the amendment fit check, so they never disagree; policy.ts's 'busy'
 * rule decides on the count.
 */
function driverLoad(
  q: Sql | TransactionSql,
  driver: PendingQuery<Row[]>,
  ref: string,
  start: Window,
  end: Window,
  openOffers: boolean,
) {
  const buffer = `${JOB_BUFFER_MINUTES} minutes`;
  const jobs = q`(select count(*)::int from bookings o
      where o.driver_id = ${driver} and o.ref <> ${ref} and o.status in ${q(ACTIVE_STATUSES as string[])}
        and o.pickup_at - ${buffer}::interval < ${end}
        and o.pickup_at + make_interval(secs => o.duration_s) + ${buffer}::interval > ${start})`;
  if (!openOffers) return jobs;
  const grace = `${UNCLOSED_CARD_GRACE_MINUTES} minutes`;
  return q`(${jobs}
    + (select count(*)::int from offers x
        where x.driver_id = ${driver} and x.booking_ref <> ${ref} and x.status = 'offered' and x.expires_at + ${grace}::interval > now()))`;
}

/** The columns of a DriverSnapshot, of drivers `d` left-joined to partner_fleets `f`, with the load given. */
function snapshotColumns(q: Sql | TransactionSql, load: PendingQuery<Row[]>, answers: PendingQuery<Row[]>) {
  return q`d.id, d.name, d.tier, d.home_area, d.partner_fleet_id, f.approved as fleet_approved, d.approved, d.online,
           d.vehicle_type, d.seats, d.wheelchair_accessible, d.lat, d.lon, d.location_at,
           -- A licence is valid through its expiry date (the licence_expired rule in policy.ts compares this with the pickup).
           (least(d.driver_licence_expires, d.vehicle_licence_expires) + 1)::timestamptz as licence_invalid_from,
           -- A partner fleet's operator licences (policy.ts's operator_licence_* rules), each kind's
           -- latest, valid through its expiry date like a driver's.
           -- (Two columns, not an array: postgres.js reads a null inside a timestamptz[] as an Invalid Date.)
           case when d.tier = 'partner' then
             (select (max(l.expires_on) + 1)::timestamptz from operator_licences l
               where l.holder_kind = 'partner_fleet' and l.holder_id = d.partner_fleet_id and l.kind = 'private_hire')
           end as fleet_private_hire_invalid_from,
           case when d.tier = 'partner' then
             (select (max(l.expires_on) + 1)::timestamptz from operator_licences l
               where l.holder_kind = 'partner_fleet' and l.holder_id = d.partner_fleet_id and l.kind = 'psv')
           end as fleet_psv_invalid_from,
           -- Medical exemption certificates (policy.ts's exempt_from_* rules), valid through their expiry day.
           (select (e.expires_on + 1)::timestamptz from driver_medical_exemptions e
             where e.driver_id = d.id and e.exempts = 'assistance_dogs') as exempt_dogs_until,
           (select (e.expires_on + 1)::timestamptz from driver_medical_exemptions e
             where e.driver_id = d.id and e.exempts = 'wheelchair_assistance') as exempt_wheelchair_until,
           d.sandbox, ${load} as overlapping, ${answers} as answers`;
}

/**
 * [cards, accepted]: the driver's job cards closed in the ranking window (answered, or left to time
 * out; not those withdrawn from them), and of them accepted (policy.ts, ANSWER_RANKING). Read by
 * the offers_driver index, a driver's week of cards at a time.
 */
function answerRecord(q: Sql | TransactionSql) {
  return q`(select array[count(*), count(*) filter (where o.status = 'accepted')]::int[]
              from offers o
             where o.driver_id = d.id and o.status in ('accepted', 'declined', 'timed_out')
               and o.offered_at > now() - make_interval(days => ${ANSWER_RANKING.windowDays}))`;
}

type SnapshotRow = {
  id: string;
  name: string;
  tier: Tier;
  home_area: string | null;
  partner_fleet_id: string | null;
  fleet_approved: boolean | null;
  approved: boolean;
  online: boolean;
  vehicle_type: string;
  seats: number;
  wheelchair_accessible: boolean;
  lat: number | null;
  lon: number | null;
  location_at: Date | null;
  overlapping: number;
  licence_invalid_from: Date | null;
  /** A partner fleet's driver: its private hire and PSV operator licences' first invalid instants (null: none). */
  fleet_private_hire_invalid_from: Date | null;
  fleet_psv_invalid_from: Date | null;
  exempt_dogs_until: Date | null;
  exempt_wheelchair_until: Date | null;
  sandbox: boolean;
  /** [cards, accepted] (answerRecord); null where not read (a held job's driver). */
  answers: [number, number] | null;
};

function toSnapshot(d: SnapshotRow): DriverSnapshot {
  return {
    id: d.id,
    name: d.name,
    tier: d.tier,
    homeArea: d.home_area,
    partnerFleetId: d.partner_fleet_id,
    partnerFleetApproved: d.fleet_approved,
    approved: d.approved,
    online: d.online,
    vehicleType: d.vehicle_type,
    seats: d.seats,
    wheelchairAccessible: d.wheelchair_accessible,
    lat: d.lat,
    lon: d.lon,
    locationAt: d.location_at,
    overlappingJobs: d.overlapping,
    licenceInvalidFrom: d.licence_invalid_from,
    fleetLicences:
      d.tier === 'partner' ? { private_hire: d.fleet_private_hire_invalid_from, psv: d.fleet_psv_invalid_from } : null,
    exemptions:
      d.exempt_dogs_until || d.exempt_wheelchair_until
        ? { assistanceDogs: d.exempt_dogs_until, wheelchairAssistance: d.exempt_wheelchair_until }
        : null,
    sandbox: d.sandbox,
    answers: d.answers && { cards: d.answers[0], accepted: d.answers[1] },
  };
}

/**
 * Whether booking `ref` is in the sandbox (made under a sandbox partner or key; migration 00023
 * decides it when the row is written): its JobNeeds.sandbox, and which drivers a read narrows to.
 */
export async function bookingIsSandbox(sql: Sql, ref: string): Promise<boolean> {
  const [row] = await sql<{ sandbox: boolean }[]>`select sandbox from bookings where ref = ${ref}`;
  return row?.sandbox ?? false;
}

/**
 * The driver who holds booking `ref`, as the amendment fit check (policy.ts, heldJobMisfit) sees
 * them: their load is their other active jobs overlapping the job's amended window (start..end,
 * with the buffer either side), so an amendment that moves a job onto another of the driver's jobs
 * takes it off them. Open job cards elsewhere do not count here, as they do for a new offer: a card
 * is gone within a minute, a confirmed job is not given up for it.
 */
export async function readHeldJobDriver(
  sql: Sql,
  q: { driverId: string; ref: string; start: Date; end: Date },
): Promise<DriverSnapshot> {
  const [row] = await sql<SnapshotRow[]>`
    select ${snapshotColumns(sql, driverLoad(sql, sql`d.id`, q.ref, q.start, q.end, false), sql`null::int[]`)}
      from drivers d left join partner_fleets f on f.id = d.partner_fleet_id
     where d.id = ${q.driverId}`;
  if (!row) throw new Error(`driver ${q.driverId} not found`);
  return toSnapshot(row);
}

/** A lat/lon box containing every point within `meters` of the centre (a little more at corners). */
function boundingBox(c: { lat: number; lon: number }, meters: number) {
  const dLat = meters / 111_320;
  const dLon = meters / (111_320 * Math.max(0.1, Math.cos((c.lat * Math.PI) / 180)));
  return { minLat: c.lat - dLat, maxLat: c.lat + dLat, minLon: c.lon - dLon, maxLon: c.lon + dLon };
}

/** Longitude's scale in the nearest-driver index (src/db/migrations/00014_dispatch_nearest.sql). */
const LON_SCALE = 0.62;

/**
 * The online drivers of one tier within the tier's reach of the pickup, nearest first, one window
 * at a time (`limit`, `offset`), with their load for this job's time window. A nearest-neighbour
 * scan of the position index of online drivers: the work per window is the same whether ten
 * drivers are near or fifty thousand, and however many are off duty. A coarse prefilter only:
 * offline drivers are never candidates (policy.ts's 'offline'), so they are not read (nor logged),
 * and `reachMeters` (the tier's DEFAULT_CASCADE_POLICY.maxDistanceMeters) bounds a box a little
 * larger than the circle; policy.ts decides every driver read, 'too_far' included. Drivers of the
 * other side of the sandbox (policy.ts's 'sandbox_mismatch') are not read either: a live booking
 * never reads test drivers, and a sandbox booking (`sandbox`) reads test drivers only, through their
 * own index, however many live drivers are nearer.
 */
export async function readNearestTierDrivers(
  sql: Sql,
  q: {
    ref: string;
    tier: Tier;
    pickup: { lat: number; lon: number };
    reachMeters: number;
    start: Date;
    end: Date;
    limit: number;
    offset: number;
    /** The booking is a sandbox booking (bookingIsSandbox). Absent: live. */
    sandbox?: boolean;
  },
): Promise<DriverSnapshot[]> {
  const box = boundingBox(q.pickup, q.reachMeters);
  // Postgres estimates any `point <@ box` at a fixed 0.1 % of rows, so with many drivers near it
  // would pick a bitmap scan of the whole box and sort it (26 ms for 50,000 drivers) over the
  // nearest-neighbour walk that stops after the window (0.3 ms). The two settings hold for this
  // one statement's transaction; the statements are pipelined in one round trip.
  const [, , rows] = await sql.begin((tx) => [
    tx`set local enable_bitmapscan = off`,
    tx`set local enable_sort = off`,
    tx<SnapshotRow[]>`
    select ${snapshotColumns(tx, driverLoad(tx, tx`d.id`, q.ref, q.start, q.end, true), answerRecord(tx))}
      from (select * from drivers
             where online and tier = ${q.tier} and ${q.sandbox ? tx`sandbox` : tx`not sandbox`}
               and point(lon * 0.62::float8, lat) <@ box(point(${box.minLon * LON_SCALE}::float8, ${box.minLat}::float8),
                                                        point(${box.maxLon * LON_SCALE}::float8, ${box.maxLat}::float8))
             order by point(lon * 0.62::float8, lat) <-> point(${q.pickup.lon * LON_SCALE}::float8, ${q.pickup.lat}::float8)
             limit ${q.limit} offset ${q.offset}) d
      left join partner_fleets f on f.id = d.partner_fleet_id`,
  ]);
  return rows.map(toSnapshot);
}

/**
 * Claims the driver for this offer, or reports that another booking got them first. The row lock
 * on the driver serialises concurrent cascades, so a driver never holds two open job cards or an
 * offer overlapping an active job. Idempotent: an offer already recorded is claimed.
 */
export async function claimOffer(
  sql: Sql,
  o: {
    offerId: string;
    ref: string;
    driverId: string;
    round: number;
    tier: Tier;
    expiresAt: string;
    /** The fare the card offers and the driver's rate behind it (src/dispatch/driver-fare.ts); absent: the booking's fare. */
    fare?: { farePence: number; overrideId: string | null };
  },
): Promise<ClaimOutcome> {
  return (await claimOfferReadingDriver(sql, o)).outcome;
}

export type ClaimOutcome = 'claimed' | 'already_claimed' | 'taken';

/** The driver's row as a claim's lock read it: what their job card is sent by, read once. */
export interface ClaimedDriver {
  status: string;
  phone: string;
  whatsapp: string | null;
}

/** claimOffer, with the driver as its lock read them (null for a driver not on file). */
export async function claimOfferReadingDriver(
  sql: Sql,
  o: Parameters<typeof claimOffer>[1],
): Promise<{ outcome: ClaimOutcome; driver: ClaimedDriver | null }> {
  return sql.begin(async (tx) => {
    // The lock also orders the claim against a suspension (which updates this row): a driver suspended
    // first is never claimed, and a claim made first is there for the suspension to withdraw.
    const [driver] = await tx<
      (ClaimedDriver & { sandbox: boolean })[]
    >`select status, sandbox, phone, whatsapp from drivers where id = ${o.driverId} for update`;
    const read = driver ? { status: driver.status, phone: driver.phone, whatsapp: driver.whatsapp } : null;
    const approved = driver?.status === 'approved';
    // The sandbox and live service never meet, whoever asks for the claim (policy.ts's
    // 'sandbox_mismatch' decides the cascade's candidates; this holds for every claim).
    const sandboxDriver = driver?.sandbox ?? false;
    // One statement for the rest, its snapshot taken once the lock is held, so it sees every claim
    // committed before: an offer already made for this id, the driver's load over this booking's
    // trip, and, only when free, the offer written and the booking marked offered. offered_at is
    // clock_timestamp(), read inside that statement, not now(): now() is when this transaction began,
    // before it waited for the lock, and a card another booking held and closed during that wait
    // would seem to overlap this one (issue 25: the city bench's two open cards were that).
    // The load's own now() stays the transaction's start: a card expiring during the wait still counts.
    const [r] = await tx<{ booking: boolean; existing: boolean; claimed: boolean }[]>`
      with b as (select pickup_at, pickup_at + make_interval(secs => duration_s) as end_at, sandbox from bookings where ref = ${o.ref}),
      existing as (select 1 from offers where id = ${o.offerId}),
      free as (
        select 1 from b
         where not exists (select 1 from existing) and ${approved} and b.sandbox = ${sandboxDriver}
           and ${driverLoad(tx, tx`${o.driverId}`, o.ref, tx`b.pickup_at`, tx`b.end_at`, true)} = 0),
      claimed as (
        insert into offers (id, booking_ref, driver_id, round, tier, status, offered_at, expires_at, fare_pence, rate_override_id)
        select ${o.offerId}, ${o.ref}, ${o.driverId}, ${o.round}, ${o.tier}, 'offered', clock_timestamp(), ${o.expiresAt},
               ${o.fare?.farePence ?? null}, ${o.fare?.overrideId ?? null} from free
        returning 1),
      -- Only the group's first claim changes the booking: the others would rewrite the row, and run
      -- its status triggers, to say what it already says.
      marked as (
        update bookings set status = 'offered', updated_at = now()
         where ref = ${o.ref} and status not in ('cancelled', 'completed', 'offered') and exists (select 1 from claimed)
        returning 1)
      select exists (select 1 from b) as booking, exists (select 1 from existing) as existing,
             exists (select 1 from claimed) as claimed`;
    if (!r?.booking) throw new Error(`booking ${o.ref} not found`);
    const outcome: ClaimOutcome = r.existing ? 'already_claimed' : r.claimed ? 'claimed' : 'taken';
    return { outcome, driver: read };
  });
}

/**
 * True when this call closed the offer (false for a retry, or an offer already answered).
 * responded_at is the moment of closing (clock_timestamp()), so the card's open period in the
 * table is the period it blocked its driver's claims (claimOffer).
 */
export async function closeOffer(
  sql: Sql,
  offerId: string,
  status: 'declined' | 'timed_out' | 'withdrawn',
): Promise<boolean> {
  const rows =
    await sql`update offers set status = ${status}, responded_at = clock_timestamp() where id = ${offerId} and status = 'offered' returning 1`;
  return rows.length > 0;
}

/**
 * The accepted offer and the booking's driver are one fact: written together. Says whether this
 * call accepted it (a retry finds it accepted already) and how long the booking waited for a
 * driver since its dispatch began (its first decision; its creation if it has none).
 */
export async function recordAcceptance(
  sql: Sql,
  a: { ref: string; driverId: string; offerId: string },
): Promise<{ newlyAccepted: boolean; secondsSinceDispatch: number | null }> {
  return sql.begin(async (tx) => {
    const accepted = await tx`update offers set status = 'accepted', responded_at = clock_timestamp()
              where id = ${a.offerId} and status = 'offered' returning 1`;
    if (accepted.length === 0) {
      await tx`update offers set responded_at = coalesce(responded_at, clock_timestamp()) where id = ${a.offerId} and status = 'accepted'`;
    }
    // The fare the driver accepted is the fare in force (never above the quote, which is kept aside):
    // lookups, receipts and settlement read fare_pence. An offer from before fares were kept on it
    // leaves the fare as it is.
    const [b] = await tx<{ waited: number | null }[]>`
      with o as (select fare_pence, rate_override_id from offers where id = ${a.offerId} and fare_pence is not null)
      update bookings set driver_id = ${a.driverId}, status = 'assigned', assigned_at = coalesce(assigned_at, now()),
                    quoted_fare_pence = case when exists (select 1 from o) then coalesce(quoted_fare_pence, fare_pence) else quoted_fare_pence end,
                    fare_pence = coalesce((select least(o.fare_pence, coalesce(bookings.quoted_fare_pence, bookings.fare_pence)) from o), fare_pence),
                    driver_rate_override_id = case when exists (select 1 from o) then (select o.rate_override_id from o) else driver_rate_override_id end,
                    updated_at = now()
              where ref = ${a.ref} and status not in ('cancelled', 'completed')
      returning extract(epoch from now() - coalesce(
        (select min(decided_at) from dispatch_decisions where booking_ref = ${a.ref}), created_at))::float8 as waited`;
    return { newlyAccepted: accepted.length > 0, secondsSinceDispatch: b?.waited ?? null };
  });
}

/**
 * A card younger than this is told to its booking as seen but not yet marked so: the driver app can
 * show a card in the moment between its claim and the booking workflow holding it, when the booking
 * would not know the card and would drop the news. Marked once settled, so a later look still counts.
 * (A booking whose workflow reads offers.seen_at itself has no such moment: its cards are marked at once.)
 */
export const SEEN_SETTLE_SECONDS = 2;

/**
 * The driver looked at these open cards of theirs (a card's page, or the app's feed on screen):
 * returns the ones never seen before and marks them seen, so each card counts once, not on every
 * reload and every poll of the app. `readers`: the booking workflow types that read offers.seen_at
 * themselves at a card's unseen cut; a card of any other booking is returned with `tell` (its
 * booking must be signalled) and marked only once past SEEN_SETTLE_SECONDS. Another driver's card,
 * or a closed one, is never returned.
 */
export async function markOffersSeen(
  sql: Sql,
  driverId: string,
  offerIds: readonly string[],
  readers: readonly string[],
): Promise<{ id: string; booking_ref: string; marked: boolean; tell: boolean }[]> {
  if (offerIds.length === 0) return [];
  return sql<{ id: string; booking_ref: string; marked: boolean; tell: boolean }[]>`
    with unseen as (
      select o.id, o.booking_ref,
             coalesce(b.workflow_type in ${sql(readers as string[])}, false) as read,
             o.offered_at < clock_timestamp() - make_interval(secs => ${SEEN_SETTLE_SECONDS}) as settled
        from offers o join bookings b on b.ref = o.booking_ref
       where o.id in ${sql(offerIds as string[])} and o.driver_id = ${driverId} and o.status = 'offered'
         and o.seen_at is null
    ), marked as (
      update offers o set seen_at = clock_timestamp() from unseen
       where o.id = unseen.id and (unseen.settled or unseen.read) returning o.id
    )
    select id, booking_ref, settled or read as marked, not read as tell from unseen`;
}

/** Which of these cards their drivers have opened (offers.seen_at): read by the booking at a card's unseen cut. */
export async function openedOffers(sql: Sql, offerIds: readonly string[]): Promise<string[]> {
  if (offerIds.length === 0) return [];
  const rows = await sql<{ id: string }[]>`
    select id from offers where id in ${sql(offerIds as string[])} and seen_at is not null`;
  return rows.map((r) => r.id);
}

/** The booking could not be told: the card counts as unseen again, so the next look tells it. */
export async function unmarkOfferSeen(sql: Sql, offerId: string): Promise<void> {
  await sql`update offers set seen_at = null where id = ${offerId} and status = 'offered'`;
}

export async function findOffer(sql: Sql, offerId: string): Promise<OfferRow | null> {
  const [row] = await sql<OfferRow[]>`
    select id, booking_ref, driver_id, round, tier, status, expires_at, fare_pence from offers where id = ${offerId}`;
  return row ?? null;
}

/**
 * Writes one round's decisions for one tier to the decision log: every driver considered, eligible
 * or with the reason they were passed over. Idempotent per (booking, round, tier, driver), so a
 * retried activity writes nothing twice. One statement however many drivers there are.
 */
export async function recordDecisions(
  sql: Sql,
  d: {
    ref: string;
    round: number;
    decisions: {
      driverId: string;
      tier: Tier;
      distanceMeters: number | null;
      eligible: boolean;
      skipReason: string | null;
      rankMeters?: number | null | undefined;
      answerRate?: number | undefined;
    }[];
  },
): Promise<void> {
  if (d.decisions.length === 0) return;
  const rows = d.decisions.map((x) => ({
    tier: x.tier,
    driver_id: x.driverId,
    distance_m: x.distanceMeters,
    eligible: x.eligible,
    skip_reason: x.skipReason,
    rank_m: x.rankMeters ?? null,
    answer_rate: x.answerRate ?? null,
  }));
  // The log is an audit trail on the way to the first job card: its commit need not wait for the
  // WAL to reach disk (a Postgres crash in that instant could lose its last rows, never a booking or
  // an offer, which commit synchronously). The two statements are pipelined in one round trip.
  await sql.begin((tx) => [
    tx`set local synchronous_commit = off`,
    tx`
      insert into dispatch_decisions (booking_ref, round, tier, driver_id, distance_m, eligible, skip_reason, rank_m, answer_rate)
      select ${d.ref}, ${d.round}, r.tier, r.driver_id, r.distance_m, r.eligible, r.skip_reason, r.rank_m, r.answer_rate
        from jsonb_to_recordset(${tx.json(rows)})
          as r(tier text, driver_id text, distance_m int, eligible boolean, skip_reason text, rank_m int, answer_rate real)
      on conflict do nothing`,
  ]);
}

export interface DecisionSummary {
  round: number;
  tier: Tier;
  considered: number;
  eligible: number;
  skipped: Record<string, number>;
}

/** What ops ask of the decision log: per round and tier, how many drivers and why they were passed over. */
export async function decisionSummary(sql: Sql, ref: string): Promise<DecisionSummary[]> {
  const rows = await sql<{ round: number; tier: Tier; reason: string | null; eligible: boolean; n: number }[]>`
    select round, tier, skip_reason as reason, eligible, count(*)::int as n
      from dispatch_decisions where booking_ref = ${ref}
     group by round, tier, skip_reason, eligible order by round, tier`;
  const out = new Map<string, DecisionSummary>();
  for (const r of rows) {
    const key = `${r.round}:${r.tier}`;
    const s = out.get(key) ?? { round: r.round, tier: r.tier, considered: 0, eligible: 0, skipped: {} };
    s.considered += r.n;
    if (r.eligible) s.eligible += r.n;
    else s.skipped[r.reason ?? 'unknown'] = (s.skipped[r.reason ?? 'unknown'] ?? 0) + r.n;
    out.set(key, s);
  }
  return [...out.values()];
}

/**
 * An exchange fleet passed over for booking `ref` (its operator licence does not cover the job), in
 * the decision log beside the drivers of the round it ended: what ops read as "why was this fleet
 * not asked" (`driver_id` `exchange:<fleet>`, as the workflow's own log names it).
 */
export async function recordFleetPassedOver(sql: Sql, ref: string, fleetId: string, reason: string): Promise<void> {
  await sql`
    insert into dispatch_decisions (booking_ref, round, tier, driver_id, distance_m, eligible, skip_reason)
    select ${ref}, coalesce(max(round), 1), 'partner', ${`exchange:${fleetId}`}, null, false, ${reason}
      from dispatch_decisions where booking_ref = ${ref}
    on conflict do nothing`;
}
