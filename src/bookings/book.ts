import type { ApiKey } from '../auth/api-keys.js';
import { addressKey } from '../http/address.js';
import type { Config } from '../config.js';
import { precisionOf, tooVagueForPickup } from '../geo/precision.js';
import type { GeoLocation } from '../geo/types.js';
import { dispatchLeadSeconds, type TripForLead } from '../dispatch/advance.js';
import { hitCounter } from '../http/pg-rate-limit-store.js';
import { recordBookingSender } from '../notify/sending-policy-store.js';
import { Refusal } from '../refusal.js';
import type { Services } from '../services.js';
import { priceTrip } from '../quotes/create-quote.js';
import { redeemQuote } from '../quotes/redeem-quote.js';
import { findQuote } from '../quotes/store.js';
import { fareProvenance, quoteProvenance } from '../quotes/fare-provenance.js';
import { refuseBlockedPassenger } from '../passengers/standing.js';
import { findPartner } from '../partners/store.js';
import type { BookingWorkflowInput } from '../../workflows/bookings/definitions.js';
import type { BookingState, DispatchPolicy, NewBooking, PlaceSnapshot } from '../model/bookings.js';
import { newBookingRef, partnerJobIdentity, quoteIdentity, tripIdentity, type RequestIdentity } from './identity.js';
import { issueManageToken, repeatedBy, sendClaimLink } from './ownership.js';
import type { Passenger } from './passenger-input.js';
import { jobSpec, type BookingRequest, type QuoteBookingRequest, type TripBookingRequest } from './request/index.js';
import { createBooking, type StartedBooking } from './create-booking.js';
import { claimBookingRef, findBooking, type RefClaim, type RequestOwner } from './store.js';
import { meetAndGreetApplies } from '../pricing/index.js';

// The booking use case: every entry point that creates a ride turns what it was sent into a
// BookingRequest (src/bookings/request/, one file per source) and calls book(); partner intake,
// whose jobs are booked by their own workflow in the order sent, prices its request with
// priceTripBooking() and the workflow's activity starts it (src/bookings/create-booking.ts).
//
// What the use case needs is passed in (BookingDeps, a part of the API's services); the worker's
// activities do not import this module (partner jobs start and amend bookings through
// create-booking.ts and amend.ts), so the worker and the API do not import each other.

/**
 * What booking needs: Postgres, the booking and quote clients, the geocoder and router, the
 * notifier, the configuration and the clock.
 */
export type BookingDeps = Pick<Services, 'config' | 'sql' | 'bookings' | 'quotes' | 'geo' | 'notifier' | 'now'>;

const HOUR_MS = 3600_000;

export interface CreatedBooking extends StartedBooking {
  /**
   * Lets the holder look the booking up and cancel it: for the request that made it (each time it
   * asks again, a new one), null for a repeated request from anyone else, another request under the
   * same API key included (src/bookings/ownership.ts).
   */
  manageToken: string | null;
}

/** Who is asking, and from where (for the limits on the claim link a repeated request may text). */
export interface BookingCaller {
  owner: RequestOwner;
  address: string;
  /** Asking with a sandbox key (or a key of a sandbox partner): its trips are sandbox rides, never live ones. */
  sandbox?: boolean | undefined;
}

/** The booking's dispatch policy; its lead before pickup depends on the trip (src/dispatch/advance.ts). */
export function dispatchPolicy(config: Config, trip: TripForLead): DispatchPolicy {
  return {
    dispatchLeadSeconds: dispatchLeadSeconds(trip, {
      baseLeadSeconds: config.DISPATCH_LEAD_SECONDS,
      advanceLeadSeconds: config.ADVANCE_DISPATCH_HOURS * 3600,
      longTripMeters: config.ADVANCE_LONG_TRIP_KM * 1000,
      earlyBeforeHour: config.EARLY_PICKUP_BEFORE_HOUR,
      eveningFromHour: config.EARLY_PICKUP_DISPATCH_FROM_HOUR,
    }),
    offerTimeoutSeconds: config.OFFER_TIMEOUT_SECONDS,
    retryBaseSeconds: config.DISPATCH_RETRY_BASE_SECONDS,
    maxRetrySeconds: config.DISPATCH_RETRY_MAX_SECONDS,
    noShowGraceSeconds: config.NO_SHOW_GRACE_SECONDS,
    ...offerPolicy(config),
    lateAcceptWindowSeconds: config.NO_SHOW_LATE_ACCEPT_SECONDS,
  };
}

/**
 * The offer policy's knobs, carried in the booking's input so a running booking keeps the ones it
 * started with. Left out when they ask for today's behaviour (one driver at a time, the full window
 * for every card), so such a booking runs exactly as before the policy (workflows/bookings/group-offer.ts).
 */
function offerPolicy(config: Config): Pick<DispatchPolicy, 'offerGroupSize' | 'offerUnseenSeconds'> {
  const group = config.OFFER_GROUP_SIZE;
  const unseen = config.OFFER_UNSEEN_SECONDS;
  const cuts = unseen > 0 && unseen < config.OFFER_TIMEOUT_SECONDS;
  if (group <= 1 && !cuts) return {};
  return { offerGroupSize: group, ...(cuts ? { offerUnseenSeconds: unseen } : {}) };
}

export function placeSnapshot(g: GeoLocation): PlaceSnapshot {
  return {
    label: g.label,
    kind: g.kind,
    lat: g.lat,
    lon: g.lon,
    postcodeDistrict: g.postcodeDistrict,
    council: g.council,
    precision: g.precision,
    country: g.country,
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

/**
 * A v1 booking made with a partner's API key books only while that partner is allowed to
 * (partners.allowed_to_book): otherwise 403 partner_not_allowed (spec 4.5), before anything is
 * priced, held or emailed. A key of no partner is not a partner's booking.
 */
export async function refusePartnerNotAllowed(s: Pick<BookingDeps, 'sql'>, apiKey: ApiKey | null): Promise<void> {
  if (!apiKey?.partnerId) return;
  const partner = await findPartner(s.sql, apiKey.partnerId);
  if (partner && !partner.allowedToBook) {
    throw Refusal.forbidden(
      'partner_not_allowed',
      'This partner is not allowed to book; ask the network operator to enable booking for it.',
    );
  }
}

/**
 * 422 pickup_not_precise for a pickup known only as a town centre or postcode district, where
 * the request asks for an exact pickup (an assistant's, which can ask the passenger).
 */
function refuseVaguePickup(typed: string, pickup: PlaceSnapshot, field: string): void {
  const precision = precisionOf(pickup);
  if (!tooVagueForPickup(precision)) return;
  const where =
    precision === 'postcode_district'
      ? `the postcode district ${pickup.postcodeDistrict ?? pickup.label}`
      : `the centre of ${pickup.label}`;
  throw Refusal.unprocessable(
    'pickup_not_precise',
    `The pickup "${typed}" is only ${where}, which is not enough for a driver to find the passenger. ` +
      'Ask the passenger for the house number and street, or the full postcode, and quote again.',
    { field: { name: field, message: `the pickup is only ${where}` } },
  );
}

/** Books any request: a trip priced on the spot, or a quote redeemed. */
export function book(s: BookingDeps, r: BookingRequest, caller: BookingCaller): Promise<CreatedBooking> {
  return r.kind === 'quote' ? bookQuote(s, r, caller) : bookTrip(s, r, caller);
}

/**
 * Prices a trip on the tariff and books it: one ride per request identity. A repeated request is
 * answered as ownership.ts says: the same caller gets the booking again, anyone else a 409 (and
 * the booking's phone a link to take charge of it).
 */
async function bookTrip(s: BookingDeps, r: TripBookingRequest, caller: BookingCaller): Promise<CreatedBooking> {
  const priced = await priceTripBooking(s, r, { sandbox: caller.sandbox });
  if (r.exactPickup) refuseVaguePickup(r.pickup, priced.pickup, r.fields.pickup);
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
 * manage token; for another request under the same API key, or a repeat by the booking's own
 * email, or the first request's own body again (its quote, or from its address within minutes:
 * issue 37), the booking without a token; for anyone else, 409 booking_exists, never the
 * reference, and a claim link texted to the booking's phone.
 */
async function createOrAnswer(
  s: BookingDeps,
  caller: BookingCaller,
  claim: RefClaim,
  identity: RequestIdentity,
  farePence: number,
  build: (ref: string) => BookingWorkflowInput,
  trip: Parameters<typeof sendClaimLink>[1],
): Promise<CreatedBooking> {
  const repeat = claim.created
    ? 'owner'
    : repeatedBy(claim.owner, caller.owner, {
        quote: identity.kind === 'quote',
        ageSeconds: claim.ageSeconds,
        sameAddressSeconds: s.config.BOOKING_DEDUPE_WINDOW_SECONDS,
      });
  if (repeat === 'owner') {
    await admitNewRide(s, caller.owner, trip.phone, claim.ref);
    // Who caused this ride's texts, for the sending policy's allowances (src/notify/sending-policy.ts).
    await recordBookingSender(s.sql, {
      ref: claim.ref,
      principal: caller.owner.principal,
      address: addressKey(caller.address),
    });
    const booking = await createBooking(s, identity, farePence, build, caller.owner, claim);
    return { ...booking, manageToken: await issueManageToken(s.sql, booking.ref, caller.owner.principal) };
  }
  // The booking's reference and status, what the first reply said of it; never a token (the
  // capability stays with the request that made it, and the passenger's own links), and no text.
  if (repeat === 'same_caller' || repeat === 'same_email' || repeat === 'same_request')
    return { ...(await existingBooking(s, claim.ref, farePence)), manageToken: null };
  const texted = await sendClaimLink(s, trip, { address: caller.address, sandbox: caller.sandbox });
  throw Refusal.conflict(
    'booking_exists',
    `This passenger already has this trip booked, by another caller. ${texted ? "We have texted the passenger's phone a link to manage it. " : ''}` +
      'Retrying your own request? Send the same Idempotency-Key (and API key) as the first time to get its reply.',
  );
}

/**
 * A new ride for a passenger, from a caller without an API key (anonymous, by Idempotency-Key, or
 * a signed-in passenger): at most RECIPIENT_BOOKINGS_PER_HOUR an hour for one phone, and for one
 * mailbox, 429 beyond. Each ride texts that phone (driver assigned, cancelled) and emails that
 * mailbox (the confirmation), so these, not the per-address allowance, stop anyone sending rides
 * to someone else from an address many share. Counted only while the ride does not exist yet: a
 * retry of one already made costs nothing. API key holders and partners are accounted per key (a
 * hotel desk may book every guest on its own phone).
 */
async function admitNewRide(s: BookingDeps, owner: RequestOwner, phone: string, ref: string): Promise<void> {
  if (owner.principal.startsWith('key:') || owner.principal.startsWith('partner:')) return;
  if (!phone && !owner.mailbox) return;
  if (await findBooking(s.sql, ref)) return;
  const max = s.config.RECIPIENT_BOOKINGS_PER_HOUR;
  const recipients: [string, string, string][] = [];
  if (phone) recipients.push([`booking-phone:${phone}`, 'phone_rate_limited', 'this phone number']);
  if (owner.mailbox) recipients.push([`booking-email:${owner.mailbox}`, 'email_rate_limited', 'this email']);
  for (const [key, code, what] of recipients) {
    const { current, ttl } = await hitCounter(s.sql, key, HOUR_MS);
    if (current > max) {
      const retry = Math.ceil(ttl / 1000);
      throw Refusal.tooMany(code, `Too many new bookings for ${what}; retry in ${retry} s.`, {
        retryAfterSeconds: retry,
      });
    }
  }
}

/**
 * How long a repeat waits for the earlier request still making its ride (a double tap, a client
 * retrying at once) before it is told to try again: a retry gets its booking back, not a 409.
 */
const EARLIER_REQUEST_WAIT_MS = 10_000;
const EARLIER_REQUEST_POLL_MS = 100;

/** A ride made by an earlier request, once its record exists (its first request may still be making it). */
async function existingBooking(s: BookingDeps, ref: string, farePence: number): Promise<StartedBooking> {
  const deadline = Date.now() + EARLIER_REQUEST_WAIT_MS;
  for (;;) {
    const state = await s.bookings.whenCreated(ref);
    const row = await findBooking(s.sql, ref);
    if (state) return { ref, state, farePence: row?.fare_pence ?? farePence };
    if (row) return { ref, state: { status: row.status } as BookingState, farePence: row.fare_pence };
    if (Date.now() > deadline)
      throw Refusal.conflict(
        'booking_in_progress',
        'This trip is being booked by an earlier request; retry in a moment.',
        { retryAfterSeconds: 1 },
      );
    await new Promise((resolve) => setTimeout(resolve, EARLIER_REQUEST_POLL_MS));
  }
}

/** Who the booking is for beyond its passenger: a sender's job, or the signed-in passenger an assistant booked for. */
function senderFields(
  r: TripBookingRequest,
): Pick<NewBooking, 'partnerId' | 'partnerJobRef' | 'operatorId' | 'passengerAccountId'> {
  return {
    ...(r.senderJob
      ? { partnerId: r.senderJob.partnerId, partnerJobRef: r.senderJob.jobRef, operatorId: r.senderJob.operatorId }
      : {}),
    ...(r.passengerAccountId ? { passengerAccountId: r.passengerAccountId } : {}),
  };
}

/** A trip priced and checked, ready to be booked under whatever reference it is given. */
export interface PricedTripBooking {
  identity: RequestIdentity;
  farePence: number;
  /** Where the trip was priced from, as the booking keeps it. */
  pickup: PlaceSnapshot;
  input: (ref: string) => BookingWorkflowInput;
}

/**
 * Everything booking a trip does before a ride exists: the checks, geocoding and pricing. Partner
 * intake (src/partners/intake.ts) prices here and hands the input to the job's own workflow, which
 * books it when the job's order allows; a sender's job reference is then the request's identity.
 */
export async function priceTripBooking(
  s: BookingDeps,
  r: TripBookingRequest,
  side: { sandbox?: boolean | undefined } = {},
): Promise<PricedTripBooking> {
  // One standing on every route: the booking's email or phone blocked is a 403 (a partner's job a rejected one).
  await refuseBlockedPassenger(s.sql, { email: r.passenger.email, phone: r.passenger.phone || null });
  const partnerId = r.senderJob?.partnerId ?? r.apiKey?.partnerId;
  if (r.agreedFarePence !== undefined && !partnerId) {
    throw Refusal.forbidden(
      'fare_not_allowed',
      'Only partner keys may supply a fare; omit it to be priced on the published tariff.',
    );
  }
  if (r.pickupMayBePast === false && r.departAt !== undefined && Date.parse(r.departAt) < s.now().getTime()) {
    throw Refusal.invalid('depart_at_in_past', 'The pickup time is in the past.', {
      field: { name: r.fields.departAt, message: 'must not be in the past' },
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
    assistanceDog: r.passenger.needs.assistanceDog,
    // The sender's approved rate prices its own jobs as it prices its key's quotes (an agreed fare still wins below).
    ratePartnerId: partnerId ?? null,
  });
  const identity = r.senderJob
    ? partnerJobIdentity({ partnerId: r.senderJob.partnerId, jobRef: r.senderJob.jobRef })
    : tripIdentity({
        phone: r.passenger.phone,
        pickup: trip.pickup,
        dropoff: trip.dropoff,
        departAt: r.departAt === undefined ? null : trip.departAt,
        sandbox: side.sandbox,
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
      // Only at an airport (the price says so too): the driver's job card asks for it.
      meetAndGreet: r.meetAndGreet && meetAndGreetApplies(trip.pickup, trip.dropoff),
      ...senderFields(r),
      ...(trip.override && r.agreedFarePence === undefined ? { rateOverrideId: trip.override.id } : {}),
      // An agreed fare was not reached by the table: only a tariff fare says how it was.
      fareProvenance:
        r.agreedFarePence === undefined
          ? fareProvenance(trip.price, {
              distanceMeters: trip.distanceMeters,
              durationSeconds: trip.durationSeconds,
              model: trip.routeModel,
            })
          : null,
    },
    job: jobSpec({
      pickupAt: trip.departAt,
      passengers: r.passengers,
      vehicleType: r.vehicleType,
      notes: r.passenger.notes,
      needs: r.passenger.needs,
    }),
    policy: dispatchPolicy(s.config, {
      pickupAt: new Date(trip.departAt),
      pickupKind: trip.pickup.kind,
      dropoffKind: trip.dropoff.kind,
      distanceMeters: trip.distanceMeters,
    }),
    awaitEmailConfirmation: r.awaitEmailConfirmation,
    emailConfirmationFirst: Boolean(r.emailConfirmationFirst && r.passenger.email),
  });
  return { identity, farePence, pickup: placeSnapshot(trip.pickup), input };
}

/**
 * Redeems a quote and books it. 404 unknown quote, 410 expired, 409 redeemed by another request
 * (or its booking was cancelled: a quote is spent once); the same request again (the same
 * passenger, the same body) gets its booking, from wherever it is sent.
 */
async function bookQuote(s: BookingDeps, r: QuoteBookingRequest, caller: BookingCaller): Promise<CreatedBooking> {
  await refuseBlockedPassenger(s.sql, { email: r.passenger.email, phone: r.passenger.phone });
  const q = await findQuote(s.sql, r.quoteId);
  if (!q) throw Refusal.notFound('quote_not_found', `No quote ${r.quoteId}.`);
  if (r.exactPickup) refuseVaguePickup(q.pickup_query, q.pickup, 'quote_id');
  const identity = quoteIdentity({ phone: r.passenger.phone, quoteId: q.id, sandbox: caller.sandbox });
  const claim = await claimBookingRef(s.sql, identity, newBookingRef(), caller.owner);
  const ref = claim.ref;
  const redemption = await redeemQuote(s, q.id, { requestId: identity.key, bookingRef: ref });
  if (redemption.bookingRef !== ref) {
    // This request's earlier booking was cancelled: the quote went with it.
    throw Refusal.conflict(
      'quote_already_redeemed',
      `Quote ${q.id} was used for a booking since cancelled. Ask for a new quote.`,
    );
  }
  // A pickup time that passed while the quote sat unused becomes "now".
  const pickupAt = q.depart_at.getTime() < s.now().getTime() ? s.now() : q.depart_at;
  return createOrAnswer(
    s,
    caller,
    claim,
    identity,
    q.fare_pence,
    (bookingRef) => ({
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
        ...(q.rate_override_id ? { rateOverrideId: q.rate_override_id } : {}),
        fareProvenance: quoteProvenance(q),
      },
      job: jobSpec({
        pickupAt,
        passengers: q.passengers,
        vehicleType: q.vehicle_type,
        notes: r.passenger.notes,
        needs: r.passenger.needs,
      }),
      policy: dispatchPolicy(s.config, {
        pickupAt,
        pickupKind: q.pickup.kind,
        dropoffKind: q.dropoff.kind,
        distanceMeters: q.distance_m,
      }),
      awaitEmailConfirmation: r.awaitEmailConfirmation,
      emailConfirmationFirst: Boolean(r.emailConfirmationFirst && r.passenger.email),
    }),
    { ref, phone: r.passenger.phone, pickupLabel: q.pickup.label, dropoffLabel: q.dropoff.label, pickupAt },
  );
}
