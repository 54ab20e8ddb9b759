import { log } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import type { PendingQuery, Row, TransactionSql } from 'postgres';
import type { Sql } from '../src/db/sql.js';
import {
  DEFAULT_CASCADE_POLICY,
  rankTier,
  vehicleCanServe,
  type CandidateDecision,
  type DriverSnapshot,
} from '../src/dispatch/candidates.js';
import { confirmUrl } from '../src/bookings/confirm-link.js';
import { jobCardUrl } from '../src/dispatch/job-link.js';
import {
  renderBookingConfirmationEmail,
  renderJobCardText,
  renderOpsUnassignedEmail,
  renderPassengerAssignedText,
} from '../src/dispatch/messages.js';
import { isNonRetryable } from '../src/notify/delivery-error.js';
import type { Notifier, OutboundMessage } from '../src/notify/notifier.js';
import type { VehicleType } from '../src/pricing/types.js';
import type { BookingStatus, JobSpec, NewBooking, Tier } from '../workflows/booking-definitions.js';

export interface BookingActivitySettings {
  publicBaseUrl: string;
  jobLinkSecret: string;
  opsAlertEmail: string;
}

/** Minutes either side of a job during which the same driver cannot take another one. */
const JOB_BUFFER_MINUTES = 20;
const ACTIVE = ['assigned', 'en_route', 'arrived', 'on_board'];

/**
 * The booking workflow's hands: each writes one transition to Postgres or sends one message. All
 * are idempotent (conditional updates, insert-or-ignore, outbox keys), so Temporal's retries and a
 * worker crash mid-activity never duplicate a booking, an offer or a job card.
 */
export function createBookingActivities(deps: { sql: Sql; notifier: Notifier; settings: BookingActivitySettings }) {
  const { sql, notifier, settings } = deps;

  /**
   * Messages that are not job cards must never fail the booking: a permanent delivery failure (a
   * bad passenger number) is logged and left in the outbox unsent; transient ones are retried.
   */
  async function sendBestEffort(msg: OutboundMessage): Promise<void> {
    try {
      await notifier.send(msg);
    } catch (err) {
      if (!isNonRetryable(err)) throw err;
      log.warn('message undeliverable; booking continues', { key: msg.idempotencyKey, channel: msg.channel, error: String(err) });
    }
  }

  async function loadBooking(ref: string) {
    const [b] = await sql<BookingRow[]>`select * from bookings where ref = ${ref}`;
    if (!b) throw new Error(`booking ${ref} not found`);
    return b;
  }
  async function loadDriver(id: string) {
    const [d] = await sql<DriverRow[]>`select * from drivers where id = ${id}`;
    if (!d) throw new Error(`driver ${id} not found`);
    return d;
  }

  return {
    async persistBooking({ booking: b, job, status }: { booking: NewBooking; job: JobSpec; status: BookingStatus }): Promise<void> {
      await sql`
        insert into bookings (ref, status, source, quote_id, passenger_name, passenger_phone, passenger_email, email_verified,
                              payment_method, flight_number, notes, agent, pickup_query, dropoff_query, pickup, dropoff,
                              pickup_area, pickup_at, passengers, vehicle_type, wheelchair, fare_pence, fare_source,
                              distance_m, duration_s, request_fingerprint)
        values (${b.ref}, ${status}, ${b.source}, ${b.quoteId}, ${b.passengerName}, ${b.passengerPhone}, ${b.passengerEmail},
                ${b.emailVerified}, ${b.paymentMethod}, ${b.flightNumber}, ${job.notes}, ${b.agent}, ${b.pickupQuery},
                ${b.dropoffQuery}, ${sql.json(b.pickup as never)}, ${sql.json(b.dropoff as never)}, ${b.pickupArea},
                ${job.pickupAt}, ${job.passengers}, ${job.vehicleType}, ${job.wheelchair}, ${b.farePence}, ${b.fareSource},
                ${b.distanceM}, ${b.durationS}, ${b.requestFingerprint})
        on conflict (ref) do nothing`;
    },

    async sendBookingConfirmation({ ref, awaitingConfirmation }: { ref: string; awaitingConfirmation: boolean }): Promise<void> {
      const b = await loadBooking(ref);
      if (!b.passenger_email) return;
      const link = awaitingConfirmation ? confirmUrl(settings.publicBaseUrl, settings.jobLinkSecret, ref) : null;
      const { subject, body } = renderBookingConfirmationEmail(b, `${settings.publicBaseUrl}/track/${ref}`, link);
      await sendBestEffort({ channel: 'email', to: b.passenger_email, subject, body, idempotencyKey: `confirmation:${ref}`, bookingRef: ref });
    },

    async setBookingStatus({ ref, status }: { ref: string; status: BookingStatus }): Promise<void> {
      await sql`update bookings set status = ${status}, updated_at = now()
                 where ref = ${ref} and status not in ('cancelled', 'completed')`;
    },

    async findCandidates({ ref, tier, job, exclude }: { ref: string; tier: Tier; job: JobSpec; exclude: string[] }): Promise<CandidateDecision[]> {
      const b = await loadBooking(ref);
      // Only drivers within the tier's reach are considered (and recorded): the audit trail and the
      // activity result stay small however large the national fleet grows.
      const box = boundingBox(b.pickup, DEFAULT_CASCADE_POLICY.maxDistanceMeters[tier]);
      const start = new Date(job.pickupAt);
      const end = new Date(start.getTime() + b.duration_s * 1000);
      const rows = await sql<(DriverRow & { fleet_approved: boolean | null; overlapping: number })[]>`
        select d.*, f.approved as fleet_approved, ${driverLoad(sql, sql`d.id`, ref, start, end)} as overlapping
          from drivers d left join partner_fleets f on f.id = d.partner_fleet_id
         where d.tier = ${tier}
           and d.lat between ${box.minLat} and ${box.maxLat} and d.lon between ${box.minLon} and ${box.maxLon}`;
      const drivers: DriverSnapshot[] = rows.map((d) => ({
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
      }));
      return rankTier(
        tier,
        drivers,
        {
          pickup: { lat: b.pickup.lat, lon: b.pickup.lon },
          pickupArea: b.pickup_area,
          passengers: job.passengers,
          vehicleType: job.vehicleType,
          wheelchair: job.wheelchair || job.vehicleType === 'wav',
          now: new Date(),
        },
        new Set(exclude),
      );
    },

    /**
     * Claims the driver for this offer, or reports that another booking got them first. The row
     * lock on the driver serialises concurrent cascades, so a driver never holds two open job cards
     * or an offer overlapping an active job. Idempotent: an offer already recorded is claimed.
     */
    async openOffer(o: { offerId: string; ref: string; driverId: string; round: number; tier: Tier; expiresAt: string }): Promise<{ claimed: boolean }> {
      return sql.begin(async (tx) => {
        await tx`select id from drivers where id = ${o.driverId} for update`;
        const [existing] = await tx`select 1 from offers where id = ${o.offerId}`;
        if (existing) return { claimed: true };
        const [b] = await tx<{ pickup_at: Date; duration_s: number }[]>`select pickup_at, duration_s from bookings where ref = ${o.ref}`;
        if (!b) throw new Error(`booking ${o.ref} not found`);
        const end = new Date(b.pickup_at.getTime() + b.duration_s * 1000);
        const [{ load }] = (await tx`select ${driverLoad(tx, tx`${o.driverId}`, o.ref, b.pickup_at, end)} as load`) as unknown as [{ load: number }];
        if (load > 0) return { claimed: false };
        await tx`insert into offers (id, booking_ref, driver_id, round, tier, status, expires_at)
                 values (${o.offerId}, ${o.ref}, ${o.driverId}, ${o.round}, ${o.tier}, 'offered', ${o.expiresAt})`;
        await tx`update bookings set status = 'offered', updated_at = now()
                  where ref = ${o.ref} and status not in ('cancelled', 'completed')`;
        return { claimed: true };
      });
    },

    async sendJobCard({ offerId, ref, driverId }: { offerId: string; ref: string; driverId: string }): Promise<void> {
      const [b, d] = await Promise.all([loadBooking(ref), loadDriver(driverId)]);
      const body = renderJobCardText(b, jobCardUrl(settings.publicBaseUrl, settings.jobLinkSecret, offerId));
      // One key per offer and channel: a retry after a crash finds the key and sends nothing.
      // A card the provider will never deliver (a bad number) fails for good, so the cascade moves
      // on to the next driver instead of retrying for ever; any other error is retried.
      try {
        await notifier.send({ channel: 'sms', to: d.phone, body, idempotencyKey: `jobcard:${offerId}:sms`, bookingRef: ref });
        await notifier.send({ channel: 'whatsapp', to: d.whatsapp ?? d.phone, body, idempotencyKey: `jobcard:${offerId}:whatsapp`, bookingRef: ref });
      } catch (err) {
        if (isNonRetryable(err)) throw ApplicationFailure.nonRetryable(`job card to ${driverId} undeliverable: ${String(err)}`, 'JobCardUndeliverable');
        throw err;
      }
    },

    async closeOffer({ offerId, status }: { offerId: string; status: 'declined' | 'timed_out' | 'withdrawn' }): Promise<void> {
      await sql`update offers set status = ${status}, responded_at = now() where id = ${offerId} and status = 'offered'`;
    },

    async assignDriver({ ref, driverId, offerId }: { ref: string; driverId: string; offerId: string }): Promise<void> {
      await sql.begin(async (tx) => {
        await tx`update offers set status = 'accepted', responded_at = coalesce(responded_at, now())
                  where id = ${offerId} and status in ('offered', 'accepted')`;
        await tx`update bookings set driver_id = ${driverId}, status = 'assigned', assigned_at = coalesce(assigned_at, now()),
                        updated_at = now()
                  where ref = ${ref} and status not in ('cancelled', 'completed')`;
      });
      const [b, d] = await Promise.all([loadBooking(ref), loadDriver(driverId)]);
      await sendBestEffort({
        channel: 'sms',
        to: b.passenger_phone,
        body: renderPassengerAssignedText(b, d, `${settings.publicBaseUrl}/track/${ref}`),
        idempotencyKey: `assigned:${offerId}`,
        bookingRef: ref,
      });
    },

    async applyAmendment({ ref, job, driverId }: { ref: string; job: JobSpec; driverId: string | null }): Promise<{ driverStillFits: boolean }> {
      await sql`update bookings set pickup_at = ${job.pickupAt}, passengers = ${job.passengers}, vehicle_type = ${job.vehicleType},
                       wheelchair = ${job.wheelchair}, notes = ${job.notes}, updated_at = now()
                 where ref = ${ref}`;
      if (!driverId) return { driverStillFits: true };
      const d = await loadDriver(driverId);
      const needsWheelchair = job.wheelchair || job.vehicleType === 'wav';
      const fits =
        d.seats >= job.passengers &&
        vehicleCanServe(d.vehicle_type, job.vehicleType) &&
        (!needsWheelchair || d.wheelchair_accessible);
      return { driverStillFits: fits };
    },

    async releaseDriver({ ref, driverId, reason }: { ref: string; driverId: string; reason: string }): Promise<void> {
      await sql`update bookings set driver_id = null, assigned_at = null, status = 'dispatching', updated_at = now()
                 where ref = ${ref} and driver_id = ${driverId} and status not in ('cancelled', 'completed')`;
      const d = await loadDriver(driverId);
      await sendBestEffort({
        channel: 'sms',
        to: d.phone,
        body: `Job ${ref} is no longer yours (${reason}). No action needed.`,
        idempotencyKey: `released:${ref}:${driverId}:${reason}`,
        bookingRef: ref,
      });
    },

    async cancelBooking({ ref, reason, offerId, driverId }: { ref: string; reason: string | null; offerId: string | null; driverId: string | null }): Promise<void> {
      await sql.begin(async (tx) => {
        await tx`update bookings set status = 'cancelled', cancelled_at = coalesce(cancelled_at, now()),
                        cancel_reason = coalesce(cancel_reason, ${reason}), updated_at = now()
                  where ref = ${ref} and status <> 'completed'`;
        await tx`update offers set status = 'withdrawn', responded_at = now() where booking_ref = ${ref} and status = 'offered'`;
      });
      const notifyId = driverId ?? (offerId ? offerId.split(':').slice(2).join(':') : null);
      if (notifyId) {
        const d = await loadDriver(notifyId);
        await sendBestEffort({
          channel: 'sms',
          to: d.phone,
          body: `Job ${ref} has been cancelled by the passenger. No action needed.`,
          idempotencyKey: `cancelled:${ref}:${notifyId}`,
          bookingRef: ref,
        });
      }
    },

    async alertOps({ ref, round }: { ref: string; round: number }): Promise<void> {
      const b = await loadBooking(ref);
      const { subject, body } = renderOpsUnassignedEmail(b, round, `${settings.publicBaseUrl}`);
      await sendBestEffort({ channel: 'email', to: settings.opsAlertEmail, subject, body, idempotencyKey: `ops:unassigned:${ref}:${round}`, bookingRef: ref });
    },
  };
}

/**
 * What keeps a driver from a new job (start..end) of booking `ref`: their active jobs overlapping it
 * with a buffer either side, plus job cards they hold open for other bookings. One definition for
 * the candidate read and for the locked claim, so the two never disagree.
 */
function driverLoad(q: Sql | TransactionSql, driver: PendingQuery<Row[]>, ref: string, start: Date, end: Date) {
  const buffer = `${JOB_BUFFER_MINUTES} minutes`;
  return q`(
    (select count(*)::int from bookings o
      where o.driver_id = ${driver} and o.ref <> ${ref} and o.status in ${q(ACTIVE)}
        and o.pickup_at - ${buffer}::interval < ${end}
        and o.pickup_at + make_interval(secs => o.duration_s) + ${buffer}::interval > ${start})
    + (select count(*)::int from offers x
        where x.driver_id = ${driver} and x.booking_ref <> ${ref} and x.status = 'offered' and x.expires_at > now()))`;
}

/** A lat/lon box containing every point within `meters` of the centre (a little more at corners). */
function boundingBox(c: { lat: number; lon: number }, meters: number) {
  const dLat = meters / 111_320;
  const dLon = meters / (111_320 * Math.max(0.1, Math.cos((c.lat * Math.PI) / 180)));
  return { minLat: c.lat - dLat, maxLat: c.lat + dLat, minLon: c.lon - dLon, maxLon: c.lon + dLon };
}

export interface BookingRow {
  ref: string;
  status: BookingStatus;
  source: string;
  quote_id: string | null;
  passenger_name: string;
  passenger_phone: string;
  passenger_email: string | null;
  email_verified: boolean;
  payment_method: string;
  flight_number: string | null;
  notes: string | null;
  agent: string | null;
  pickup_query: string;
  dropoff_query: string;
  pickup: { label: string; lat: number; lon: number };
  dropoff: { label: string; lat: number; lon: number };
  pickup_area: string;
  pickup_at: Date;
  passengers: number;
  vehicle_type: VehicleType;
  wheelchair: boolean;
  fare_pence: number;
  fare_source: string;
  distance_m: number;
  duration_s: number;
  driver_id: string | null;
  assigned_at: Date | null;
  cancelled_at: Date | null;
  cancel_reason: string | null;
  payment_state: string;
  created_at: Date;
}

export interface DriverRow {
  id: string;
  name: string;
  phone: string;
  whatsapp: string | null;
  tier: Tier;
  home_area: string | null;
  partner_fleet_id: string | null;
  approved: boolean;
  vehicle_type: string;
  vehicle_description: string;
  plate: string;
  seats: number;
  wheelchair_accessible: boolean;
  online: boolean;
  lat: number | null;
  lon: number | null;
  location_at: Date | null;
}

