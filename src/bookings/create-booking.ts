import type { Client } from '@temporalio/client';
import type { Config } from '../config.js';
import type { Sql } from '../db/sql.js';
import type { GeoLocation } from '../geo/types.js';
import { ProblemError } from '../http/problem.js';
import { redeemQuote } from '../quotes/redeem-quote.js';
import type { PricedTrip } from '../quotes/create-quote.js';
import type {
  BookingState,
  DispatchPolicy,
  JobSpec,
  NewBooking,
  PlaceSnapshot,
} from '../../workflows/booking-definitions.js';
import { bookingRefFor } from './identity.js';
import { startBooking } from './start-booking.js';

export interface BookingDeps {
  sql: Sql;
  temporal: Client;
  config: Config;
}

export interface Passenger {
  name: string;
  phone: string;
  email: string | null;
  emailVerified: boolean;
  paymentMethod: string;
  flightNumber: string | null;
  notes: string | null;
  agent: string | null;
}

export interface CreatedBooking {
  ref: string;
  state: BookingState;
  farePence: number;
}

export function dispatchPolicy(config: Config): DispatchPolicy {
  return {
    dispatchLeadSeconds: config.DISPATCH_LEAD_SECONDS,
    offerTimeoutSeconds: config.OFFER_TIMEOUT_SECONDS,
    retryBaseSeconds: config.DISPATCH_RETRY_BASE_SECONDS,
    maxRetrySeconds: config.DISPATCH_RETRY_MAX_SECONDS,
    noShowGraceSeconds: config.NO_SHOW_GRACE_SECONDS,
  };
}

function passengerFields(p: Passenger) {
  return {
    passengerName: p.name,
    passengerPhone: p.phone,
    passengerEmail: p.email,
    emailVerified: p.emailVerified,
    paymentMethod: p.paymentMethod,
    flightNumber: p.flightNumber,
    agent: p.agent,
  };
}

export function placeSnapshot(g: GeoLocation): PlaceSnapshot {
  return { label: g.label, kind: g.kind, lat: g.lat, lon: g.lon, postcodeDistrict: g.postcodeDistrict, council: g.council };
}

/**
 * Books a priced trip (instant and direct routes). `identity` names the request: its Idempotency-Key
 * or its fingerprint. The same identity always yields the same booking.
 */
export async function bookTrip(
  deps: BookingDeps,
  opts: {
    identity: string;
    fingerprint: string | null;
    source: NewBooking['source'];
    trip: PricedTrip;
    query: { pickup: string; dropoff: string };
    passengers: number;
    vehicleType: string;
    passenger: Passenger;
    farePence?: number;
    awaitEmailConfirmation: boolean;
  },
): Promise<CreatedBooking> {
  const ref = (opts.fingerprint && (await recentDuplicate(deps, opts.fingerprint))) || bookingRefFor(opts.identity);
  const farePence = opts.farePence ?? opts.trip.price.totalPence;
  const booking: NewBooking = {
    ref,
    source: opts.source,
    quoteId: null,
    ...passengerFields(opts.passenger),
    pickupQuery: opts.query.pickup,
    dropoffQuery: opts.query.dropoff,
    pickup: placeSnapshot(opts.trip.pickup),
    dropoff: placeSnapshot(opts.trip.dropoff),
    pickupArea: opts.trip.price.tariff.areaId,
    farePence,
    fareSource: opts.farePence === undefined ? 'tariff' : 'partner',
    distanceM: opts.trip.distanceMeters,
    durationS: opts.trip.durationSeconds,
    requestFingerprint: opts.fingerprint,
  };
  const job: JobSpec = {
    pickupAt: opts.trip.departAt.toISOString(),
    passengers: opts.passengers,
    vehicleType: opts.vehicleType,
    wheelchair: opts.vehicleType === 'wav',
    notes: opts.passenger.notes,
  };
  const state = await startBooking(deps.temporal, deps.config.TEMPORAL_TASK_QUEUE, {
    booking,
    job,
    policy: dispatchPolicy(deps.config),
    awaitEmailConfirmation: opts.awaitEmailConfirmation,
  });
  return { ref, state, farePence };
}

interface QuoteRow {
  id: string;
  pickup_query: string;
  dropoff_query: string;
  pickup: GeoLocation;
  dropoff: GeoLocation;
  depart_at: Date;
  vehicle_type: string;
  passengers: number;
  fare_pence: number;
  distance_m: number;
  duration_s: number;
  tariff: { areaId: string };
}

/**
 * Redeems a quote for this request and books it. 404 unknown quote, 410 expired, 409 redeemed by a
 * different request; the same request again returns the booking it already made.
 */
export async function bookQuote(
  deps: BookingDeps,
  opts: {
    identity: string;
    quoteId: string;
    source: NewBooking['source'];
    passenger: Passenger;
    awaitEmailConfirmation: boolean;
  },
): Promise<CreatedBooking> {
  const [q] = await deps.sql<QuoteRow[]>`
    select id, pickup_query, dropoff_query, pickup, dropoff, depart_at, vehicle_type, passengers, fare_pence,
           distance_m, duration_s, tariff
      from quotes where id = ${opts.quoteId}`;
  if (!q) throw new ProblemError(404, 'quote_not_found', `No quote ${opts.quoteId}.`);
  const ref = bookingRefFor(opts.identity);
  const redemption = await redeemQuote(deps, q.id, { requestId: opts.identity, bookingRef: ref });
  // A pickup time that passed while the quote sat unused becomes "now".
  const pickupAt = q.depart_at.getTime() < Date.now() ? new Date() : q.depart_at;
  const booking: NewBooking = {
    ref: redemption.bookingRef,
    source: opts.source,
    quoteId: q.id,
    ...passengerFields(opts.passenger),
    pickupQuery: q.pickup_query,
    dropoffQuery: q.dropoff_query,
    pickup: placeSnapshot(q.pickup),
    dropoff: placeSnapshot(q.dropoff),
    pickupArea: q.tariff.areaId,
    farePence: q.fare_pence,
    fareSource: 'quote',
    distanceM: q.distance_m,
    durationS: q.duration_s,
    requestFingerprint: null,
  };
  const state = await startBooking(deps.temporal, deps.config.TEMPORAL_TASK_QUEUE, {
    booking,
    job: {
      pickupAt: pickupAt.toISOString(),
      passengers: q.passengers,
      vehicleType: q.vehicle_type,
      wheelchair: q.vehicle_type === 'wav',
      notes: opts.passenger.notes,
    },
    policy: dispatchPolicy(deps.config),
    awaitEmailConfirmation: opts.awaitEmailConfirmation,
  });
  return { ref: redemption.bookingRef, state, farePence: q.fare_pence };
}

/** A booking with the same fingerprint made within the dedupe window (covers window boundaries). */
async function recentDuplicate(deps: BookingDeps, fingerprint: string): Promise<string | null> {
  const [row] = await deps.sql<{ ref: string }[]>`
    select ref from bookings
     where request_fingerprint = ${fingerprint}
       and created_at > now() - make_interval(secs => ${deps.config.BOOKING_DEDUPE_WINDOW_SECONDS})
     order by created_at limit 1`;
  return row?.ref ?? null;
}
