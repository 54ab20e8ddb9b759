import type { ApiKey } from '../auth/api-keys.js';
import type { GeoLocation } from '../geo/types.js';
import { ProblemError } from '../http/problem.js';
import type { VehicleType } from '../pricing/types.js';
import { priceTrip } from '../quotes/create-quote.js';
import { redeemQuote } from '../quotes/redeem-quote.js';
import { findQuote } from '../quotes/store.js';
import type { Services } from '../services.js';
import type {
  BookingState,
  BookingWorkflowInput,
  DispatchPolicy,
  NewBooking,
  PlaceSnapshot,
} from '../../workflows/bookings/definitions.js';
import { newBookingRef, quoteIdentity, tripIdentity, type RequestIdentity } from './identity.js';
import type { Passenger } from './passenger-input.js';
import { BookingRefTaken, startBookingWorkflow } from './start-workflow.js';
import { claimBookingRef, findBooking, reassignBookingRef } from './store.js';

// Booking use cases: every entry point that creates a ride (agent routes, v1 routes, and later
// partner intake and MCP tools) calls one of these two functions.

export interface CreatedBooking {
  ref: string;
  state: BookingState;
  farePence: number;
}

export type BookingSource = NewBooking['source'];

export function dispatchPolicy(config: Services['config']): DispatchPolicy {
  return {
    dispatchLeadSeconds: config.DISPATCH_LEAD_SECONDS,
    offerTimeoutSeconds: config.OFFER_TIMEOUT_SECONDS,
    retryBaseSeconds: config.DISPATCH_RETRY_BASE_SECONDS,
    maxRetrySeconds: config.DISPATCH_RETRY_MAX_SECONDS,
    noShowGraceSeconds: config.NO_SHOW_GRACE_SECONDS,
  };
}

export function placeSnapshot(g: GeoLocation): PlaceSnapshot {
  return { label: g.label, kind: g.kind, lat: g.lat, lon: g.lon, postcodeDistrict: g.postcodeDistrict, council: g.council, precision: g.precision };
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

export interface TripBookingRequest {
  source: BookingSource;
  /** How the caller's contract names its fields, for error messages. */
  fields: { pickup: string; dropoff: string; departAt: string };
  pickup: string;
  dropoff: string;
  /** Absent: now. */
  departAt?: string | undefined;
  passengers: number;
  vehicleType: VehicleType;
  meetAndGreet: boolean;
  passenger: Passenger;
  apiKey: ApiKey | null;
  /** A partner's agreed fare (partner keys only); otherwise the tariff (or the partner's approved override) prices it. */
  agreedFarePence?: number | undefined;
  /**
   * false: a pickup time in the past is refused outright (the v1 booking contract). true: a few
   * minutes' slack for clocks and slow typing, as quotes allow.
   */
  pickupMayBePast?: boolean;
  awaitEmailConfirmation: boolean;
  /** The signed-in passenger an AI assistant books for (MCP). */
  passengerAccountId?: string;
}

/** Prices a trip on the tariff and books it: one ride per request identity. */
export async function bookTrip(s: Services, r: TripBookingRequest): Promise<CreatedBooking> {
  const priced = await priceTripBooking(s, r, r.passengerAccountId ? { booking: { passengerAccountId: r.passengerAccountId } } : {});
  return createBooking(bookingStarter(s), priced.identity, priced.farePence, priced.input);
}

/** A trip priced and checked, ready to be booked under whatever reference it is given. */
export interface PricedTripBooking {
  identity: RequestIdentity;
  farePence: number;
  input: (ref: string) => BookingWorkflowInput;
}

/**
 * Everything bookTrip does before a ride exists: the checks, geocoding and pricing. Partner intake
 * (src/partners/intake.ts) prices here and hands the input to the job's own workflow, which books
 * it when the job's order allows. `identity` replaces the trip's own (a partner's job reference).
 */
export async function priceTripBooking(
  s: Services,
  r: TripBookingRequest,
  extra: { identity?: RequestIdentity; booking?: Pick<NewBooking, 'partnerId' | 'partnerJobRef' | 'operatorId' | 'passengerAccountId'> } = {},
): Promise<PricedTripBooking> {
  const partnerId = extra.booking?.partnerId ?? r.apiKey?.partnerId;
  if (r.agreedFarePence !== undefined && !partnerId) {
    throw new ProblemError(403, 'fare_not_allowed', 'Only partner keys may supply a fare; omit it to be priced on the published tariff.');
  }
  if (r.pickupMayBePast === false && r.departAt !== undefined && Date.parse(r.departAt) < s.now().getTime()) {
    throw new ProblemError(400, 'depart_at_in_past', 'The pickup time is in the past.', {
      errors: [{ field: `body.${r.fields.departAt}`, message: 'must not be in the past' }],
    });
  }
  const trip = await priceTrip(s, {
    fields: r.fields,
    pickup: r.pickup,
    dropoff: r.dropoff,
    departAt: r.departAt,
    vehicleType: r.vehicleType,
    passengers: r.passengers,
    meetAndGreet: r.meetAndGreet,
    worldwide: false,
    apiKey: r.apiKey,
  });
  const identity =
    extra.identity ??
    tripIdentity({
      phone: r.passenger.phone,
      pickup: trip.pickup,
      dropoff: trip.dropoff,
      departAt: r.departAt === undefined ? null : trip.departAt,
      nowWindowSeconds: s.config.BOOKING_DEDUPE_WINDOW_SECONDS,
    });
  const farePence = r.agreedFarePence ?? trip.price.totalPence;
  const input = (ref: string): BookingWorkflowInput => ({
    booking: {
      ref,
      source: r.source,
      quoteId: null,
      ...passengerFields(r.passenger),
      pickupQuery: r.pickup,
      dropoffQuery: r.dropoff,
      pickup: placeSnapshot(trip.pickup),
      dropoff: placeSnapshot(trip.dropoff),
      pickupArea: trip.price.tariff.areaId,
      farePence,
      fareSource: r.agreedFarePence === undefined ? 'tariff' : 'partner',
      distanceM: trip.distanceMeters,
      durationS: trip.durationSeconds,
      requestFingerprint: null,
      identity: identity.key,
      meetAndGreet: r.meetAndGreet,
      ...(extra.booking ?? {}),
    },
    job: {
      pickupAt: trip.departAt.toISOString(),
      passengers: r.passengers,
      vehicleType: r.vehicleType,
      wheelchair: r.vehicleType === 'wav',
      notes: r.passenger.notes,
    },
    policy: dispatchPolicy(s.config),
    awaitEmailConfirmation: r.awaitEmailConfirmation,
  });
  return { identity, farePence, input };
}

export interface QuoteBookingRequest {
  source: BookingSource;
  quoteId: string;
  passenger: Passenger;
  awaitEmailConfirmation: boolean;
  /** The signed-in passenger an AI assistant books for (MCP). */
  passengerAccountId?: string;
}

/**
 * Redeems a quote and books it. 404 unknown quote, 410 expired, 409 redeemed by another request
 * (or its booking was cancelled: a quote is spent once); the same request again gets its booking.
 */
export async function bookQuote(s: Services, r: QuoteBookingRequest): Promise<CreatedBooking> {
  const q = await findQuote(s.sql, r.quoteId);
  if (!q) throw new ProblemError(404, 'quote_not_found', `No quote ${r.quoteId}.`);
  const identity = quoteIdentity({ phone: r.passenger.phone, quoteId: q.id });
  const ref = await claimBookingRef(s.sql, identity, newBookingRef());
  const redemption = await redeemQuote(s, q.id, { requestId: identity.key, bookingRef: ref });
  if (redemption.bookingRef !== ref) {
    // This request's earlier booking was cancelled: the quote went with it.
    throw new ProblemError(409, 'quote_already_redeemed', `Quote ${q.id} was used for booking ${redemption.bookingRef}, since cancelled. Ask for a new quote.`, {
      booking_reference: redemption.bookingRef,
    });
  }
  // A pickup time that passed while the quote sat unused becomes "now".
  const pickupAt = q.depart_at.getTime() < s.now().getTime() ? s.now() : q.depart_at;
  return createBooking(bookingStarter(s), identity, q.fare_pence, (bookingRef) => ({
    booking: {
      ref: bookingRef,
      source: r.source,
      quoteId: q.id,
      ...passengerFields(r.passenger),
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
      identity: identity.key,
      meetAndGreet: q.meet_and_greet,
      ...(r.passengerAccountId ? { passengerAccountId: r.passengerAccountId } : {}),
    },
    job: {
      pickupAt: pickupAt.toISOString(),
      passengers: q.passengers,
      vehicleType: q.vehicle_type,
      wheelchair: q.vehicle_type === 'wav',
      notes: r.passenger.notes,
    },
    policy: dispatchPolicy(s.config),
    awaitEmailConfirmation: r.awaitEmailConfirmation,
  }), ref);
}

/** What starting a booking needs: the API has it in Services, a worker's activity from its context. */
export interface BookingStarter {
  sql: Services['sql'];
  temporal: Services['temporal'];
  taskQueue: string;
}

const bookingStarter = (s: Services): BookingStarter => ({ sql: s.sql, temporal: s.temporal, taskQueue: s.config.TEMPORAL_TASK_QUEUE });

/**
 * The one path from a request identity to a running booking workflow. The identity's reference is
 * claimed atomically (src/bookings/store.ts); should that random reference already belong to
 * another request's ride, the workflow refuses and a fresh one is drawn.
 */
export async function createBooking(
  s: BookingStarter,
  identity: RequestIdentity,
  farePence: number,
  build: (ref: string) => BookingWorkflowInput,
  claimedRef?: string,
): Promise<CreatedBooking> {
  let ref = claimedRef ?? (await claimBookingRef(s.sql, identity, newBookingRef()));
  for (let attempt = 1; ; attempt++) {
    try {
      const state = await startBookingWorkflow(s.temporal, s.taskQueue, build(ref));
      // A duplicate joins the first request's ride, whose fare is the one that stands.
      const row = await findBooking(s.sql, ref);
      return { ref, state, farePence: row?.fare_pence ?? farePence };
    } catch (err) {
      if (!(err instanceof BookingRefTaken) || attempt >= 3) throw err;
      ref = await reassignBookingRef(s.sql, identity.key, ref, newBookingRef());
    }
  }
}
