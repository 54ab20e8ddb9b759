import { placeForPeople } from '../model/places.js';
import { staffActionsFor } from '../auth/staff.js';
import { londonDateTime } from '../pages/format.js';
import { DEFAULT_CASCADE_POLICY } from '../dispatch/policy.js';
import { haversineMeters } from '../geo/haversine.js';
import type { Services } from '../services.js';
import type { Tier } from '../model/bookings.js';
import { temporalUiBookingUrl } from './links.js';
import {
  bookingDecisions,
  bookingMessages,
  bookingOffers,
  bookingPayments,
  driverNow,
  liveBookings,
  liveCounts,
  roundsReached,
  searchBookings,
  statusChanges,
  storyBooking,
  type BoardRow,
  type BookingSearch,
} from './store.js';
import { normalisePhone } from '../passengers/phone.js';

// The ops view's use cases: the live board, a booking's whole story from its reference, and the
// answer to "why was this driver not offered this job". Times go out as UTC ISO strings with the
// Europe/London wall-clock beside them, money as integer pence.

type S = Pick<Services, 'sql' | 'config' | 'now'>;

const iso = (d: Date | null) => d?.toISOString() ?? null;

function links(s: S, ref: string) {
  return {
    workflow: temporalUiBookingUrl(s.config, ref),
    story: `/api/ops/bookings/${ref}`,
    decisions: `/api/ops/bookings/${ref}/decisions`,
    page: `/ops/bookings?ref=${ref}`,
  };
}

function boardItem(s: S, b: BoardRow) {
  return {
    ref: b.ref,
    status: b.status,
    source: b.source,
    pickup_at: b.pickup_at.toISOString(),
    pickup_at_london: londonDateTime(b.pickup_at),
    minutes_to_pickup: Math.round((b.pickup_at.getTime() - s.now().getTime()) / 60_000),
    pickup: placeForPeople(b.pickup_query, b.pickup),
    dropoff: placeForPeople(b.dropoff_query, b.dropoff),
    passengers: b.passengers,
    vehicle_type: b.vehicle_type,
    wheelchair: b.wheelchair,
    fare_pence: b.fare_pence,
    driver: b.driver_id ? { id: b.driver_id, name: b.driver_name } : null,
    without_driver: b.without_driver,
    alerted_at: iso(b.alerted_at),
    created_at: b.created_at.toISOString(),
    links: links(s, b.ref),
  };
}

/**
 * What staff typed to find bookings: a reference (or its start, any case), a passenger's phone as
 * typed (07400 123456 is the stored +447400123456) and a partner's job reference, exactly as sent.
 */
export function bookingSearch(typed: string | undefined): BookingSearch | null {
  const q = (typed ?? '').trim();
  if (q === '') return null;
  const upper = q.toUpperCase();
  const phone = /^[+\d\s().-]+$/.test(q) ? normalisePhone(q, { allowDramaNumbers: true }) : null;
  return { ref: /^TX[0-9A-Z]{0,10}$/.test(upper) ? upper : null, phone: phone?.ok ? phone.e164 : null, jobRef: q };
}

/**
 * Live bookings around now: without a driver first (nearest pickup first), then by pickup time, a
 * page at a time. With a search (q), every booking that matches instead, open or closed, whenever
 * its pickup, the most recent pickup first.
 */
export async function opsBoard(
  s: S,
  q: {
    status?: string | undefined;
    hoursBack: number;
    hoursAhead: number;
    limit: number;
    offset?: number | undefined;
    q?: string | undefined;
  },
) {
  const now = s.now().getTime();
  const window = { since: new Date(now - q.hoursBack * 3_600_000), until: new Date(now + q.hoursAhead * 3_600_000) };
  const offset = q.offset ?? 0;
  const search = bookingSearch(q.q);
  const counts = await liveCounts(s.sql, window);
  let rows: BoardRow[];
  let total: number;
  if (search) {
    ({ rows, total } = await searchBookings(s.sql, { search, limit: q.limit, offset }));
  } else {
    rows = await liveBookings(s.sql, { ...window, status: q.status ?? null, limit: q.limit, offset });
    total = q.status ? (counts[q.status] ?? 0) : Object.values(counts).reduce((a, b) => a + b, 0);
  }
  return {
    since: window.since.toISOString(),
    until: window.until.toISOString(),
    alert_minutes: s.config.OPS_UNASSIGNED_ALERT_MINUTES,
    counts,
    q: search ? q.q!.trim() : null,
    total,
    limit: q.limit,
    offset,
    next_offset: offset + rows.length < total ? offset + q.limit : null,
    previous_offset: offset > 0 ? Math.max(0, offset - q.limit) : null,
    bookings: rows.map((b) => boardItem(s, b)),
  };
}

/** Everything about one booking, from its reference; null when there is no such booking. */
export async function bookingStory(s: S, ref: string) {
  const b = await storyBooking(s.sql, ref);
  if (!b) return null;
  const [changes, rounds, offers, messages, payments, actions] = await Promise.all([
    statusChanges(s.sql, ref),
    roundsReached(s.sql, ref),
    bookingOffers(s.sql, ref),
    bookingMessages(s.sql, ref),
    bookingPayments(s.sql, ref),
    staffActionsFor(s.sql, 'booking', ref),
  ]);
  return {
    booking: {
      ...boardItem(s, b),
      passenger: { name: b.passenger_name, phone: b.passenger_phone, email: b.passenger_email },
      payment_method: b.payment_method,
      partner: b.partner_id ? { id: b.partner_id, job_ref: b.partner_job_ref } : null,
      assigned_at: iso(b.assigned_at),
      cancelled_at: iso(b.cancelled_at),
      cancel_reason: b.cancel_reason,
    },
    status_changes: changes.map((c) => ({
      status: c.status,
      previous_status: c.previous_status,
      driver_id: c.driver_id,
      at: c.changed_at.toISOString(),
      at_london: londonDateTime(c.changed_at),
    })),
    rounds: rounds.map((r) => ({
      round: r.round,
      tier: r.tier,
      considered: r.considered,
      eligible: r.eligible,
      at: r.at.toISOString(),
    })),
    offers: offers.map(offerItem),
    messages: messages.map((m) => ({
      key: m.idempotency_key,
      channel: m.channel,
      to: m.recipient,
      subject: m.subject,
      provider: m.provider,
      created_at: m.created_at.toISOString(),
      sent_at: iso(m.sent_at),
      withheld: m.withheld,
      attempts: m.attempts,
      failure: m.last_error_at
        ? {
            at: m.last_error_at.toISOString(),
            status: m.last_error_status,
            code: m.last_error_code,
            error: m.last_error ?? '',
            refused: m.refused_at !== null,
          }
        : null,
    })),
    payments: payments.map((p) => ({
      id: p.id,
      driver_id: p.driver_id,
      amount_pence: p.amount_pence,
      method: p.method,
      recorded_by: p.recorded_by,
      corrects: p.corrects,
      note: p.note,
      recorded_at: p.recorded_at.toISOString(),
    })),
    staff_actions: actions.map((a) => ({
      action: a.action,
      reason: a.reason,
      by: a.staff_name,
      at: a.at.toISOString(),
    })),
  };
}

function offerItem(o: Awaited<ReturnType<typeof bookingOffers>>[number]) {
  return {
    id: o.id,
    driver_id: o.driver_id,
    driver_name: o.driver_name,
    round: o.round,
    tier: o.tier,
    status: o.status,
    offered_at: o.offered_at.toISOString(),
    expires_at: o.expires_at.toISOString(),
    responded_at: iso(o.responded_at),
    claimed_from_board: o.claimed_from_board,
    fare_pence: o.fare_pence,
  };
}

const DECISION_LIMIT = 500;

/**
 * The decision log of a booking, or one driver's part in it. A driver the log never mentions was
 * never read by the cascade: explained from what is known (the tiers reached, the driver's tier,
 * whether they are online and where they are now), since the log records only the drivers each
 * round read, and where a driver was at the time is not kept.
 */
export async function decisionLog(s: S, ref: string, driverId: string | null) {
  const b = await storyBooking(s.sql, ref);
  if (!b) return { found: 'no_booking' as const };
  const driver = driverId ? await driverNow(s.sql, driverId) : null;
  if (driverId && !driver) return { found: 'no_driver' as const };
  const [rows, offers, rounds] = await Promise.all([
    bookingDecisions(s.sql, ref, driverId, DECISION_LIMIT),
    bookingOffers(s.sql, ref, driverId),
    roundsReached(s.sql, ref),
  ]);
  const decisions = rows.map((d) => ({
    round: d.round,
    tier: d.tier,
    driver_id: d.driver_id,
    driver_name: d.driver_name,
    distance_m: d.distance_m,
    rank_m: d.rank_m,
    answer_rate: d.answer_rate === null ? null : Math.round(d.answer_rate * 1000) / 1000,
    eligible: d.eligible,
    skip_reason: d.skip_reason,
    decided_at: d.decided_at.toISOString(),
  }));
  return {
    found: 'ok' as const,
    log: {
      booking_ref: ref,
      links: links(s, ref),
      rounds: rounds.map((r) => ({
        round: r.round,
        tier: r.tier,
        considered: r.considered,
        eligible: r.eligible,
        at: r.at.toISOString(),
      })),
      decisions,
      truncated: !driverId && rows.length === DECISION_LIMIT,
      offers: offers.map(offerItem),
      driver: driver
        ? explainDriver(
            s,
            b.pickup,
            driver,
            rows.length > 0,
            rounds.map((r) => r.tier),
            offers.length > 0,
          )
        : null,
    },
  };
}

function explainDriver(
  s: S,
  pickup: { lat: number; lon: number },
  d: NonNullable<Awaited<ReturnType<typeof driverNow>>>,
  inLog: boolean,
  tiersReached: string[],
  offered: boolean,
) {
  const now = s.now().getTime();
  const distanceNow =
    d.lat === null || d.lon === null ? null : Math.round(haversineMeters(d.lat, d.lon, pickup.lat, pickup.lon));
  const reach = DEFAULT_CASCADE_POLICY.maxDistanceMeters[d.tier as Tier] ?? null;
  const facts = {
    id: d.id,
    name: d.name,
    tier: d.tier,
    status: d.status,
    online: d.online,
    location_age_seconds: d.location_at ? Math.max(0, Math.round((now - d.location_at.getTime()) / 1000)) : null,
    distance_now_m: distanceNow,
    tier_reach_m: reach,
  };
  let explanation: string;
  if (inLog) {
    explanation = offered
      ? 'Considered and offered the job: see the offers for how it ended.'
      : 'Considered: each decision above says whether they were eligible and, if not, why they were passed over.';
  } else if (tiersReached.length === 0) {
    explanation =
      'Not considered: the cascade has not looked for drivers for this booking yet (held for confirmation, pre-booked, or cancelled before dispatch).';
  } else if (!tiersReached.includes(d.tier)) {
    explanation = `Not considered: the cascade never reached the ${d.tier} tier for this booking (it reached ${[...new Set(tiersReached)].join(', ')}), because a driver was found or the booking closed first.`;
  } else {
    const km = reach === null ? 'the tier’s reach' : `${reach / 1000} km`;
    const nowHints = [
      d.status !== 'approved' ? `They are ${d.status} now.` : '',
      d.online ? '' : 'They are offline now.',
      distanceNow === null
        ? 'They have no position on record.'
        : reach !== null && distanceNow > reach
          ? `They are ${(distanceNow / 1000).toFixed(1)} km from the pickup now, beyond ${km}.`
          : '',
    ].filter(Boolean);
    explanation =
      `Not considered: each round reads the ${d.tier} tier’s online drivers nearest the pickup, within ${km}, ` +
      'and this driver was not among them when the cascade ran (offline, no recent position, out of reach, or beyond the nearest drivers read).' +
      (nowHints.length > 0 ? ` ${nowHints.join(' ')}` : '');
  }
  return { considered: inLog, offered, explanation, now: facts };
}
