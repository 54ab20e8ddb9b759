import type { ApiKey } from '../auth/api-keys.js';
import type { GeoLocation } from '../geo/types.js';
import { ProblemError } from '../http/problem.js';
import type { VehicleType } from '../pricing/types.js';
import { priceTrip } from '../quotes/create-quote.js';
import { redeemQuote } from '../quotes/redeem-quote.js';
import { findQuote } from '../quotes/store.js';
import { refuseBlockedPassenger } from '../passengers/standing.js';
import type { Services } from '../services.js';
import type {
  BookingState,
  BookingWorkflowInput,
  DispatchPolicy,
  NewBooking,
  PlaceSnapshot,
} from '../../workflows/bookings/definitions.js';
import { newBookingRef, quoteIdentity, tripIdentity, type RequestIdentity } from './identity.js';
import { issueManageToken, repeatedBy, sendClaimLink } from './ownership.js';
import type { Passenger } from './passenger-input.js';
import { BookingRefTaken, startBookingWorkflow } from './start-workflow.js';
import { claimBookingRef, findBooking, reassignBookingRef, type RefClaim, type RequestOwner } from './store.js';
import { WorkflowNotFoundError } from '@temporalio/common';
import { bookingCreatedUpdate, bookingWorkflowId } from '../../workflows/bookings/definitions.js';

// Booking use cases: every entry point that creates a ride (agent routes, v1 routes, and later
// partner intake and MCP tools) calls one of these two functions.

export interface CreatedBooking {
  ref: string;
  state: BookingState;
  farePence: number;
  /**
   * Lets the holder look the booking up and cancel it: for the caller that made it (each time it
   * asks again, a new one), null for a repeated request from anyone else (src/bookings/ownership.ts).
   */
  manageToken: string | null;
}

/** Who is asking, and from where (for the limits on the claim link a repeated request may text). */
export interface BookingCaller {
  owner: RequestOwner;
  address: string;
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

/**
 * Prices a trip on the tariff and books it: one ride per request identity. A repeated request is
 * answered as ownership.ts says: the same caller gets the booking again, anyone else a 409 (and
 * the booking's phone a link to take charge of it).
 */
export async function bookTrip(s: Services, r: TripBookingRequest, caller: BookingCaller): Promise<CreatedBooking> {
  const priced = await priceTripBooking(s, r, r.passengerAccountId ? { booking: { passengerAccountId: r.passengerAccountId } } : {});
  const claim = await claimBookingRef(s.sql, priced.identity, newBookingRef(), caller.owner);
  const sample = priced.input(claim.ref).booking;
  return createOrAnswer(s, caller, claim, priced.identity, priced.farePence, priced.input, {
    ref: claim.ref,
    phone: r.passenger.phone,
    pickupLabel: sample.pickup.label,
    dropoffLabel: sample.dropoff.label,
    pickupAt: new Date(priced.input(claim.ref).job.pickupAt),
  });
}

/**
 * The booking for a request whose reference is claimed: made (or joined) for its owner with a new
 * manage token; for a repeat by the booking's own email, the booking without a token; for anyone
 * else, 409 booking_exists, never the reference, and a claim link texted to the booking's phone.
 */
async function createOrAnswer(
  s: Services,
  caller: BookingCaller,
  claim: RefClaim,
  identity: RequestIdentity,
  farePence: number,
  build: (ref: string) => BookingWorkflowInput,
  trip: Parameters<typeof sendClaimLink>[1],
): Promise<CreatedBooking> {
  const repeat = claim.created ? 'owner' : repeatedBy(claim.owner, caller.owner);
  if (repeat === 'owner') {
    const booking = await createBooking(bookingStarter(s), identity, farePence, build, caller.owner, claim);
    return { ...booking, manageToken: await issueManageToken(s.sql, booking.ref, caller.owner.principal) };
  }
  if (repeat === 'same_email') return { ...(await existingBooking(s, claim.ref, farePence)), manageToken: null };
  const texted = await sendClaimLink(s, trip, { address: caller.address });
  throw new ProblemError(
    409,
    'booking_exists',
    `This passenger already has this trip booked, by another caller. ${texted ? "We have texted the passenger's phone a link to manage it. " : ''}` +
      'Retrying your own request? Send the same Idempotency-Key (or API key) as the first time to get its reply.',
  );
}

/** A ride made by an earlier request, once its record exists (its first request may still be making it). */
async function existingBooking(s: Services, ref: string, farePence: number): Promise<Omit<CreatedBooking, 'manageToken'>> {
  try {
    const state = await s.temporal.workflow.getHandle(bookingWorkflowId(ref)).executeUpdate(bookingCreatedUpdate, { args: [{ identity: null }] });
    const row = await findBooking(s.sql, ref);
    return { ref, state, farePence: row?.fare_pence ?? farePence };
  } catch (err) {
    if (!(err instanceof WorkflowNotFoundError)) throw err;
    const row = await findBooking(s.sql, ref);
    if (!row) throw new ProblemError(409, 'booking_in_progress', 'This trip is being booked by an earlier request; retry in a moment.', { headers: { 'retry-after': '1' } });
    return { ref, state: { status: row.status } as BookingState, farePence: row.fare_pence };
  }
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
  // One standing on every route: the booking's email or phone blocked is a 403 (a partner's job a rejected one).
  await refuseBlockedPassenger(s.sql, { email: r.passenger.email, phone: r.passenger.phone || null });
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
export async function bookQuote(s: Services, r: QuoteBookingRequest, caller: BookingCaller): Promise<CreatedBooking> {
  await refuseBlockedPassenger(s.sql, { email: r.passenger.email, phone: r.passenger.phone });
  const q = await findQuote(s.sql, r.quoteId);
  if (!q) throw new ProblemError(404, 'quote_not_found', `No quote ${r.quoteId}.`);
  const identity = quoteIdentity({ phone: r.passenger.phone, quoteId: q.id });
  const claim = await claimBookingRef(s.sql, identity, newBookingRef(), caller.owner);
  const ref = claim.ref;
  const redemption = await redeemQuote(s, q.id, { requestId: identity.key, bookingRef: ref });
  if (redemption.bookingRef !== ref) {
    // This request's earlier booking was cancelled: the quote went with it.
    throw new ProblemError(409, 'quote_already_redeemed', `Quote ${q.id} was used for a booking since cancelled. Ask for a new quote.`);
  }
  // A pickup time that passed while the quote sat unused becomes "now".
  const pickupAt = q.depart_at.getTime() < s.now().getTime() ? s.now() : q.depart_at;
  return createOrAnswer(s, caller, claim, identity, q.fare_pence, (bookingRef) => ({
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
  }), { ref, phone: r.passenger.phone, pickupLabel: q.pickup.label, dropoffLabel: q.dropoff.label, pickupAt });
}

/** What starting a booking needs: the API has it in Services, a worker's activity from its context. */
export interface BookingStarter {
  sql: Services['sql'];
  temporal: Services['temporal'];
  taskQueue: string;
}

const bookingStarter = (s: Services): BookingStarter => ({ sql: s.sql, temporal: s.temporal, taskQueue: s.config.TEMPORAL_TASK_QUEUE });

/**
 * The one path from a request identity to a running booking workflow, for the request's owner. The
 * identity's reference is claimed atomically (src/bookings/store.ts), unless the caller claimed it
 * already; should that random reference already belong to another request's ride, the workflow
 * refuses and a fresh one is drawn.
 */
export async function createBooking(
  s: BookingStarter,
  identity: RequestIdentity,
  farePence: number,
  build: (ref: string) => BookingWorkflowInput,
  owner: RequestOwner,
  claimed?: RefClaim,
): Promise<Omit<CreatedBooking, 'manageToken'>> {
  let ref = claimed?.ref ?? (await claimBookingRef(s.sql, identity, newBookingRef(), owner)).ref;
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
