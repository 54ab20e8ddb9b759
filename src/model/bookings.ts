// The booking as the business states it: its statuses, the job and the places, how dispatch offers
// it (tiers, candidates, offers), the steps of a trip, what the passenger is told, how it is paid
// for, the exchange fleets, and the domain's "no"s (BookingFailure). Shared by src/, activities/ and
// workflows/ (whose Temporal contract is workflows/bookings/definitions.ts), so it stays pure: no
// Node built-ins, no I/O, nothing imported from outside src/model/.

/** Published in the OpenAPI document; the Postgres record always holds one of these. */
export const BOOKING_STATUSES = [
  'awaiting_confirmation', // v1 booking held until the passenger opens the emailed confirmation link
  'scheduled', // pre-booked, waiting for its dispatch time
  'dispatching', // looking for a driver
  'offered', // a job card is out with one driver
  'assigned', // a driver accepted
  'en_route', // driver on the way to the pickup
  'arrived', // driver at the pickup
  'on_board', // passenger on board
  'completed',
  'cancelled',
  'unassigned', // every tier exhausted; retrying on a backoff until half an hour past pickup
  'no_show', // the driver waited at the pickup and the passenger did not come
] as const;

export type BookingStatus = (typeof BOOKING_STATUSES)[number];

export const TERMINAL_STATUSES: readonly BookingStatus[] = ['completed', 'cancelled', 'no_show'];

export type Tier = 'local' | 'national' | 'partner';

/**
 * Dispatch tiers in cascade order: a job goes to the next tier only when the previous one has nobody
 * left to ask. The one declaration: workflow code and src/dispatch/policy.ts both import it.
 */
export const TIERS: readonly Tier[] = ['local', 'national', 'partner'];

/** What dispatch needs to match drivers, and what an amendment can change. */
export interface JobSpec {
  pickupAt: string;
  passengers: number;
  vehicleType: string;
  wheelchair: boolean;
  notes: string | null;
  /**
   * An assistance dog travels with the passenger (Equality Act 2010 s.168): carried at no extra
   * charge; a driver whose medical exemption from it is in date is not asked. Absent on older bookings.
   */
  assistanceDog?: boolean;
  /** The passenger asked the driver to help them find the vehicle (s.165 as amended in 2022). */
  helpFindingVehicle?: boolean;
}

/** What a passenger may ask of the ride beyond its vehicle class (a wheelchair user's is the 'wav' class). Never priced. */
export interface PassengerNeeds {
  assistanceDog: boolean;
  helpFindingVehicle: boolean;
}

export const NO_NEEDS: PassengerNeeds = { assistanceDog: false, helpFindingVehicle: false };

export interface DispatchPolicy {
  /** How long before pickup a pre-booked journey starts looking for a driver. */
  dispatchLeadSeconds: number;
  /**
   * A driver who accepted more than this long before pickup confirms on the day: asked this long
   * before pickup, and replaced if they have not confirmed confirmDeadlineSeconds before it.
   * Absent on bookings from before advance allocation (defaults: 60 and 30 minutes).
   */
  confirmAskSeconds?: number;
  confirmDeadlineSeconds?: number;
  /** How long a driver has to accept or decline a job card (once they have opened it, under the offer policy below). */
  offerTimeoutSeconds: number;
  /**
   * The offer policy (issue 25, docs/dispatch.md "Offer policy"); absent on bookings started before
   * it, which keep one driver at a time for the full offerTimeoutSeconds. A card its driver has not
   * opened within offerUnseenSeconds is withdrawn and the next asked; offerGroupSize drivers are
   * offered the job at once, the first to accept winning it.
   */
  offerUnseenSeconds?: number;
  offerGroupSize?: number;
  /** First wait before retrying an exhausted cascade; doubles up to maxRetrySeconds. */
  retryBaseSeconds: number;
  maxRetrySeconds: number;
  /** An assigned driver not at the pickup this long after pickup time is a no-show: reassign. */
  noShowGraceSeconds: number;
  /**
   * A driver who accepts with less than this left before pickup plus the grace (or after it) has
   * this long from accepting to report moving before they are a no-show. Absent on bookings from
   * before it (default 10 minutes).
   */
  lateAcceptWindowSeconds?: number;
}

/** Where a place resolved to, as stored with the booking. */
export interface PlaceSnapshot {
  label: string;
  kind: string;
  lat: number;
  lon: number;
  postcodeDistrict: string | null;
  council: string | null;
  /** How close to the door (src/geo/types.ts Precision); absent on bookings made before it was kept. */
  precision?: string;
  /**
   * The country (src/geo/types.ts Country), for the bank holidays a driver's own rate re-prices the
   * meter with where the tariff follows the pickup's country; absent on bookings made before it was kept.
   */
  country?: string | null;
}

/** The booking record as the route built it; the workflow's first activity persists it. */
export interface NewBooking {
  ref: string;
  source: 'agent_create' | 'agent_instant' | 'v1_direct' | 'v1_quote' | 'partner' | 'operator' | 'supplier' | 'mcp';
  quoteId: string | null;
  passengerName: string;
  passengerPhone: string;
  passengerEmail: string | null;
  emailVerified: boolean;
  paymentMethod: string;
  flightNumber: string | null;
  agent: string | null;
  pickupQuery: string;
  dropoffQuery: string;
  pickup: PlaceSnapshot;
  dropoff: PlaceSnapshot;
  pickupArea: string;
  farePence: number;
  fareSource: 'tariff' | 'quote' | 'partner';
  distanceM: number;
  durationS: number;
  /** Bookings started before request identities existed carried a fingerprint here. */
  requestFingerprint: string | null;
  /** The request identity (src/bookings/identity.ts) this booking was made for; absent on old bookings. */
  identity?: string;
  /** Airport meet and greet was asked for (and paid for): the driver meets the passenger inside. */
  meetAndGreet?: boolean;
  /** The partner whose job this is (partner intake), for search attributes and tenant isolation. */
  partnerId?: string | null;
  /** The sender's own job reference (partner, operator and supplier intake). */
  partnerJobRef?: string | null;
  /**
   * An operator's job: it never enters central dispatch; the operator assigns it to a driver of its
   * own fleet (src/partners/operator-fleet.ts).
   */
  operatorId?: string | null;
  /** The signed-in passenger who authorised the AI assistant that booked it (MCP). */
  passengerAccountId?: string | null;
  /** The approved partner rate the fare was priced with, if any: a driver's own rate replaces it (src/dispatch/driver-fare.ts). */
  rateOverrideId?: string | null;
  /** How the fare was reached, for the receipt; absent for an agreed partner fare. */
  fareProvenance?: FareProvenance | null;
}

/**
 * How a fare was reached (issue 36, item 6), kept with the booking: the table in force, the rule
 * lines that make up the fare, and the distance and time it was priced on.
 */
export interface FareProvenance {
  tariff: {
    areaId: string;
    authority: string;
    period: string;
    effectiveFrom: string;
    status: string;
    provisional: boolean;
  };
  rules: { code: string; description: string; amountPence: number }[];
  distanceM: number;
  durationS: number;
  /** How the distance and time were found, e.g. "estimate:circuity-v1"; absent when not recorded. */
  route?: string;
}

/** One page of the best eligible drivers of a tier (the full decision log is in Postgres). */
export interface CandidatePage {
  candidates: { driverId: string; driverName: string; distanceMeters: number | null }[];
  /** Drivers of this tier within reach, and how many of them could be offered the job. */
  considered: number;
  eligible: number;
}

/**
 * What claimFromCandidatePage claimed on a page: the driver now holding this booking's job card
 * (null when every candidate on the page was taken), and the drivers found taken before them.
 */
export type CandidateClaim =
  | { driverId: string; offerId: string; expiresAt: string; busy: string[] }
  | { driverId: null; offerId: null; expiresAt: null; busy: string[] };

/**
 * The first page of a booking dispatched at once, claimed with its record, and what became of the
 * job card sent to the driver claimed (null when nobody on the page was free).
 */
export type FirstCardPage = CandidatePage & { claim: CandidateClaim | null; card: 'sent' | 'undeliverable' | null };

/**
 * A driver a page's claim holds for this booking, and their card when it went with the claim (a first
 * page claimed with the booking's record; absent: the workflow sends it).
 */
export interface HeldClaim {
  driverId: string;
  offerId: string;
  expiresAt: string;
  card?: 'sent' | 'undeliverable';
}

/**
 * A page claimed for a group's free places (claimUpTo): every driver held, in page order, and the
 * drivers found taken on the way. (`claim` above is the first of them, for bookings on v1.)
 */
export interface GroupClaim {
  held: HeldClaim[];
  busy: string[];
}

/** How many candidates a cascade fetches at a time: enough for minutes of offers, small in history. */
export const CANDIDATE_PAGE_SIZE = 10;

/** What a page of candidates is read with (and claimed: its first free driver gets the card). */
export function candidatePageQuery(
  s: BookingState,
  b: NewBooking,
  policy: DispatchPolicy,
  at: { tier: Tier; page: number; exclude: string[] },
) {
  return {
    ref: b.ref,
    round: s.round,
    tier: at.tier,
    job: s.job,
    exclude: at.exclude,
    limit: CANDIDATE_PAGE_SIZE,
    page: at.page,
    trip: { pickup: { lat: b.pickup.lat, lon: b.pickup.lon }, pickupArea: b.pickupArea, durationS: b.durationS },
    offerTimeoutSeconds: policy.offerTimeoutSeconds,
  };
}

export type CandidateOutcome = 'skipped' | 'offered' | 'accepted' | 'declined' | 'timed_out' | 'withdrawn' | 'dropped';

/** One line of the cascade's audit trail: who was considered, in which round and tier, and why. */
export interface CandidateRecord {
  round: number;
  tier: Tier;
  driverId: string;
  driverName: string;
  distanceMeters: number | null;
  outcome: CandidateOutcome;
  reason: string | null;
  at: string;
}

export interface CurrentOffer {
  offerId: string;
  driverId: string;
  round: number;
  tier: Tier;
  expiresAt: string;
  response: 'accepted' | 'declined' | null;
  /** The driver opened the card (offerSeen); absent on offers made before the offer policy. */
  seen?: boolean;
}

/** One round and tier of the cascade in numbers; who was passed over and why is in the decision log. */
export interface TierSummary {
  round: number;
  tier: Tier;
  considered: number;
  eligible: number;
}

export interface BookingState {
  ref: string;
  /** The request identity the booking was made for (null on bookings from before identities). */
  identity?: string | null;
  status: BookingStatus;
  job: JobSpec;
  round: number;
  driverId: string | null;
  offer: CurrentOffer | null;
  /**
   * Every card of a group offer still open (the offer policy): `offer` is the first of them, so
   * "a card is out" reads the same. Absent or null when one driver at a time is asked.
   */
  group?: CurrentOffer[] | null;
  /**
   * The offers made and what became of them. (Bookings from before the decision log also list the
   * drivers skipped, with reasons; newer ones keep those in Postgres: dispatch_decisions.)
   */
  candidates: CandidateRecord[];
  /** Per round and tier, how many drivers were considered and eligible (absent on old bookings). */
  tiers?: TierSummary[];
  /** Drivers who dropped this booking are never offered it again. */
  droppedDriverIds: string[];
  cancelReason: string | null;
  /** The settlement of a completed trip, once recorded (absent on bookings from before settlement). */
  payment?: PaymentRecord | null;
  /** Drivers staff suspended while they held this booking's job card or job (absent until one is). */
  suspendedDriverIds?: string[];
  /** Set when ops ended the trip (POST /api/ops/bookings/:ref/end); absent otherwise. */
  ended?: { by: 'ops'; reason: string } | null;
  /** The driver who confirmed on the day a job they accepted well ahead (absent until one does). */
  confirmedDriverId?: string | null;
  /** The fare, pickup and drop-off as they stand (amendments change them); absent on bookings from before. */
  fare?: AmendedFare;
  pickup?: PlaceSnapshot;
  dropoff?: PlaceSnapshot;
  /** The exchange fleet holding the job (absent on bookings that never reached one). */
  exchange?: ExchangeState | null;
}

export function offerId(ref: string, round: number, driverId: string): string {
  return `${ref}:${round}:${driverId}`;
}

export function parseOfferId(id: string): { ref: string; round: number; driverId: string } | null {
  const m = /^([A-Z0-9-]+):(\d+):(.+)$/.exec(id);
  return m ? { ref: m[1]!, round: Number(m[2]), driverId: m[3]! } : null;
}

/** Where an amended booking now goes (the fields of NewBooking a pickup or drop-off change moves). */
export interface AmendedRoute {
  pickupQuery: string;
  dropoffQuery: string;
  pickup: PlaceSnapshot;
  dropoff: PlaceSnapshot;
  pickupArea: string;
  distanceM: number;
  durationS: number;
}

export interface AmendedFare {
  farePence: number;
  fareSource: NewBooking['fareSource'];
  /** How the new fare was reached; absent: the booking keeps no provenance for it. */
  provenance?: FareProvenance | null;
}

/** A batch of amendments folded into the job, with the last route and fare any of them carries. */
export function amendmentsFolded(
  job: JobSpec,
  batch: (Partial<JobSpec> & { route?: AmendedRoute; fare?: AmendedFare })[],
): { job: JobSpec; route?: AmendedRoute | undefined; fare?: AmendedFare | undefined } {
  let next = { ...job };
  let route: AmendedRoute | undefined;
  let fare: AmendedFare | undefined;
  for (const { route: r, fare: f, ...fields } of batch) {
    next = { ...next, ...Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) };
    route = r ?? route;
    fare = f ?? fare;
  }
  return { job: next, route, fare };
}

/** The driver is on the way or further: the pickup and drop-off can no longer change. */
export const DRIVER_ON_THE_WAY: readonly BookingStatus[] = ['en_route', 'arrived', 'on_board'];

/**
 * Why a driver no longer holds the job or its card. suspended: staff suspended the driver; the job
 * is withdrawn from them (driverSuspendedSignal). released: ops took the job off them
 * (src/bookings/release-driver.ts). not_confirmed: they accepted it well ahead and did not confirm
 * it on the day in time.
 */
export type DriverDropReason = 'dropped' | 'no_show' | 'suspended' | 'released' | 'not_confirmed';

export type TripProgress = 'en_route' | 'arrived' | 'on_board' | 'completed' | 'no_show';

/**
 * The steps a trip really passes, from each status: forward only, and never from assigned straight
 * to completed. A driver already at the pickup when they accept may skip en_route.
 */
export const NEXT_TRIP_STEPS: Readonly<Partial<Record<BookingStatus, readonly TripProgress[]>>> = {
  assigned: ['en_route', 'arrived'],
  en_route: ['arrived'],
  // Only a driver who is at the pickup can say the passenger did not come.
  arrived: ['on_board', 'no_show'],
  on_board: ['completed'],
};

export function isNextTripStep(from: BookingStatus, to: TripProgress): boolean {
  return NEXT_TRIP_STEPS[from]?.includes(to) ?? false;
}

/** What the assigned driver reports from the app: a step of the trip, or giving the job back. */
/** confirm: the driver confirms, on the day, a job they accepted well ahead (advance allocation). */
export type TripEvent = TripProgress | 'drop' | 'confirm';

/**
 * What the passenger is told, by the booking's workflow, at each turn (tellPassenger). The driver
 * assigned and the cancel are told by the activities that record them (assignDriver,
 * cancelBooking).
 */
/** Booked through a partner, operator or supplier: their customer hears from them, not from us. */
const PARTNER_SOURCES: ReadonlySet<string> = new Set(['partner', 'operator', 'supplier']);

export function passengerHearsFromUs(source: string): boolean {
  return !PARTNER_SOURCES.has(source);
}

export type PassengerNews =
  | { kind: 'booked' }
  | { kind: 'driver_replaced'; driverId: string }
  /** `searchUntil`: when the search ends (absent from the released workflow, which searched until pickup). */
  | { kind: 'no_driver_yet'; searchUntil?: string }
  | { kind: 'no_driver_found' }
  /** The job was handed to an exchange fleet, which now provides the ride (docs/records.md, "Sub-contracting"). */
  | { kind: 'provided_by'; fleetId: string }
  | { kind: 'receipt' };

/** How a passenger paid the driver (the service itself never takes payment). */
export const PAYMENT_METHODS = ['cash', 'card', 'payment_link', 'bank_transfer', 'account'] as const;

export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

/**
 * The method of a settlement ops made with nothing due (a trip they ended, e.g. after suspending its
 * driver): a payment record of 0 pence, so the trip is settled once and for all. Only ops write it.
 */
export const NOTHING_DUE = 'none';

export const SETTLEMENT_METHODS = [...PAYMENT_METHODS, NOTHING_DUE] as const;

export type SettlementMethod = (typeof SETTLEMENT_METHODS)[number];

/** What was received for a completed trip: confirmed by the driver, a payment provider or ops. */
export interface SettleInput {
  /** The confirming driver (checked against the assigned one); null when a provider or ops settles. */
  driverId: string | null;
  amountPence: number;
  method: SettlementMethod;
  by: 'driver' | 'provider' | 'ops';
  /** A provider's event id, kept with the record. */
  eventId?: string | null;
  /** Kept with the record: why less than the fare was received (a driver must say: src/settlement/settle.ts), or why ops ended the trip and why nothing is due. */
  note?: string | null;
}

/** The immutable payment record a settlement wrote (payment_records). */
export interface PaymentRecord {
  id: number;
  amountPence: number;
  method: SettlementMethod;
  recordedBy: 'driver' | 'provider' | 'ops';
  recordedAt: string;
}

/** The idempotency key of a booking's settlement: one record however often it is retried. */
export function settlementKey(ref: string): string {
  return `settlement:${ref}`;
}

/** Ops end a trip: what was received, or nothing due and why. */
export type EndTripSettlement = { amountPence: number; method: PaymentMethod } | { nothingDue: string };

export interface EndTripInput {
  /** Why ops ended the trip (kept with the payment record and in the staff action). */
  reason: string;
  settlement: EndTripSettlement;
}

/** The settlement an ops end records. */
export function endTripSettlement(e: EndTripInput): SettleInput {
  const s = e.settlement;
  return 'nothingDue' in s
    ? {
        driverId: null,
        amountPence: 0,
        method: NOTHING_DUE,
        by: 'ops',
        note: `ended by ops: ${e.reason}; nothing due: ${s.nothingDue}`,
      }
    : { driverId: null, amountPence: s.amountPence, method: s.method, by: 'ops', note: `ended by ops: ${e.reason}` };
}

/** ApplicationFailure types of booking updates; the HTTP layer maps them. */
export const BookingFailure = {
  closed: 'BookingClosed',
  /** The reference is already another request's ride: the caller must allocate a fresh one. */
  identityMismatch: 'BookingIdentityMismatch',
  /** A trip report from a driver the booking is not assigned to. */
  notYourJob: 'NotYourJob',
  /** A trip report that is not the next step of the trip. */
  invalidTripStep: 'InvalidTripStep',
  /** respondToOffer: the offer is no longer open and the job went to another driver. */
  offerTaken: 'OfferTaken',
  /** respondToOffer: the offer is no longer open (timed out, withdrawn, booking closed). */
  offerExpired: 'OfferExpired',
  /** respondToOffer: this driver already has the job (a repeated accept). */
  offerAlreadyAccepted: 'OfferAlreadyAccepted',
  /** settleBooking: the trip has not completed, so there is nothing to settle yet. */
  notCompleted: 'TripNotCompleted',
  /** settleBooking: an amount that cannot be a payment (negative, fractional, absurd). */
  invalidPayment: 'InvalidPayment',
  /** assignFleetDriver: not an operator's booking, or not this operator's. */
  notOperatorJob: 'NotOperatorJob',
  /** assignFleetDriver: a driver already has the job, or a job card is out waiting for an answer. */
  alreadyAssigned: 'AlreadyAssigned',
  /** cancelBooking: the passenger is on board; only ops can end the trip (endTrip). */
  tripInProgress: 'TripInProgress',
  /** endTrip: the passenger is not on board (and it is not a completed trip awaiting settlement). */
  tripNotInProgress: 'TripNotInProgress',
  /** endTrip: the trip is already settled (by its driver, a provider or ops). */
  alreadySettled: 'TripAlreadySettled',
  /** amendBooking: a new pickup or drop-off once the driver is on the way (DRIVER_ON_THE_WAY). */
  driverOnTheWay: 'DriverOnTheWay',
  /** claimUpcomingJob: not a job the board offers (an operator's, awaiting the passenger's email, a card out, given back by this driver). */
  notClaimable: 'NotClaimable',
  /** claimUpcomingJob: the claim found the driver busy then, or no longer fitting the job (seats, class, licence). */
  driverDoesNotFit: 'DriverDoesNotFit',
} as const;

// The booking's rules, read from its state alone: the booking workflow applies them (its validators
// refuse a message before it enters history), and they are unit-tested without one.

export const isClosed = (s: BookingState): boolean => TERMINAL_STATUSES.includes(s.status);

export const isSuspended = (s: BookingState, driverId: string | null | undefined): boolean =>
  driverId != null && (s.suspendedDriverIds?.includes(driverId) ?? false);

/** The job is held by a suspended driver and must be taken off them, unless the passenger is on board. */
export const holderSuspended = (s: BookingState): boolean =>
  isSuspended(s, s.driverId) && s.status !== 'on_board' && !isClosed(s);

/** The cards out now (`offer` is the first of a group, so a group of one reads the same). */
export const openOffers = (s: BookingState): CurrentOffer[] => s.group ?? (s.offer ? [s.offer] : []);

export const openOffer = (s: BookingState, r: { offerId: string; driverId: string }): CurrentOffer | undefined =>
  openOffers(s).find((o) => o.offerId === r.offerId && o.driverId === r.driverId);

/** Someone has the job or its card out, or an exchange fleet holds it. */
export const isTaken = (s: BookingState): boolean =>
  s.driverId !== null || s.offer !== null || Boolean(s.exchange?.fleetId);

/** The offer the driver holding the job accepted (a repeated board claim answers it again). */
export function heldOfferId(s: BookingState, driverId: string): string | null {
  if (s.driverId !== driverId) return null;
  const accepted = s.candidates.findLast((c) => c.driverId === driverId && c.outcome === 'accepted');
  return accepted ? offerId(s.ref, accepted.round, driverId) : null;
}

// Defaults for bookings whose policy does not say.
const CONFIRM_ASK_S = 60 * 60;
const CONFIRM_DEADLINE_S = 30 * 60;
const LATE_ACCEPT_WINDOW_S = 10 * 60;

/**
 * When the assigned driver who has not reported moving is let go: pickup plus the grace or, for a
 * driver who accepted late, the late-accept window after they accepted, whichever is later.
 */
export function noShowTime(p: DispatchPolicy, pickupAt: string, assignedAtMs: number): number {
  const graceEnds = Date.parse(pickupAt) + p.noShowGraceSeconds * 1000;
  const windowEnds = assignedAtMs + (p.lateAcceptWindowSeconds ?? LATE_ACCEPT_WINDOW_S) * 1000;
  return assignedAtMs > 0 ? Math.max(graceEnds, windowEnds) : graceEnds;
}

/** When a driver who accepted well ahead is asked to confirm, and when they are let go without it. */
export function confirmTimes(p: DispatchPolicy, pickupAt: string): { askAt: number; deadline: number } {
  const pickupMs = Date.parse(pickupAt);
  return {
    askAt: pickupMs - (p.confirmAskSeconds ?? CONFIRM_ASK_S) * 1000,
    deadline: pickupMs - (p.confirmDeadlineSeconds ?? CONFIRM_DEADLINE_S) * 1000,
  };
}

export const acceptedWellAhead = (p: DispatchPolicy, pickupAt: string, assignedAtMs: number): boolean =>
  assignedAtMs > 0 && assignedAtMs < confirmTimes(p, pickupAt).askAt;

/** When the cascade begins: the policy's lead time before pickup. */
export const dispatchTime = (p: DispatchPolicy, pickupAt: string): number =>
  Date.parse(pickupAt) - p.dispatchLeadSeconds * 1000;

/** Past pickup, an unassigned booking stays cancellable (and an exchange fleet keeps its job) this long. */
export const UNASSIGNED_GRACE_MS = 60 * 60_000;

/** An unconfirmed booking waits until pickup, and at least half an hour, for the emailed link to be opened. */
export const emailDeadline = (pickupAt: string, nowMs: number): number =>
  nowMs + Math.max(Date.parse(pickupAt) - nowMs, 30 * 60_000);

/** When a card out since `outAtMs` is closed: the full window once opened, else the unseen cut (if any). */
export const cardDeadline = (r: OfferRules, outAtMs: number, seen: boolean): number =>
  outAtMs + (seen || r.unseenMs === null ? r.fullMs : r.unseenMs);

/** An exchange fleet, as the decision log lists it among the candidates. */
export const fleetCandidate = (x: ExchangeState) => ({
  driverId: `exchange:${x.fleetId}`,
  driverName: x.fleetName ?? x.fleetId ?? '',
  distanceMeters: null,
});

/**
 * A booking nobody has taken is searched for until this long past its pickup time, then closed
 * (docs/dispatch.md "A booking nobody takes"): for a "now" booking, half an hour of a passenger's waiting.
 */
export const SEARCH_PAST_PICKUP_MS = 30 * 60_000;
/** From the pickup time the passenger is waiting: rounds come at most this far apart. */
export const WAITING_RETRY_MAX_MS = 2 * 60_000;

/** Drivers a later round does not ask again: those who dropped the job or declined it. */
export const notToAskAgain = (s: BookingState): string[] => [
  ...s.droppedDriverIds,
  ...s.candidates.filter((c) => c.outcome === 'declined').map((c) => c.driverId),
];

/** When the search for a driver ends, for a booking with this pickup time. */
export const searchEndsAt = (pickupAt: string): number => Date.parse(pickupAt) + SEARCH_PAST_PICKUP_MS;

/**
 * The wait before the next round once every tier is exhausted: doubling from the policy's base,
 * capped (closer together once the passenger is waiting), with one round at the pickup time and one
 * at the end of the search; null once the search is over.
 */
export function backoffMs(p: DispatchPolicy, exhaustedRounds: number, pickupAt: string, nowMs: number): number | null {
  const pickupMs = Date.parse(pickupAt);
  const endsMs = searchEndsAt(pickupAt);
  if (nowMs >= endsMs) return null;
  const capMs = Math.min(p.maxRetrySeconds * 1000, nowMs >= pickupMs ? WAITING_RETRY_MAX_MS : Infinity);
  const waitMs = Math.min(p.retryBaseSeconds * 1000 * 2 ** (exhaustedRounds - 1), capMs);
  return Math.min(waitMs, nowMs < pickupMs ? pickupMs - nowMs : Infinity, endsMs - nowMs);
}

/** How a group of job cards is offered: how many at once, and how long a card stays out. */
export interface OfferRules {
  size: number;
  /** A card nobody opened is withdrawn this soon (null: it gets the full window). */
  unseenMs: number | null;
  fullMs: number;
}

/** A round of the cascade: the booking's offer policy, or one driver at a time for the full window. */
export function cascadeOfferRules(p: DispatchPolicy): OfferRules {
  const fullMs = p.offerTimeoutSeconds * 1000;
  const unseen = p.offerUnseenSeconds ?? (p.offerGroupSize !== undefined ? p.offerTimeoutSeconds : undefined);
  return {
    size: Math.max(1, Math.floor(p.offerGroupSize ?? 1)),
    unseenMs: unseen === undefined ? null : Math.min(fullMs, unseen * 1000),
    fullMs,
  };
}

/** A driver someone named (ops, an operator): they alone, for the full window. */
export const namedOfferRules = (p: DispatchPolicy): OfferRules => ({
  size: 1,
  unseenMs: null,
  fullMs: p.offerTimeoutSeconds * 1000,
});

/** Far above any taxi fare: a typo in the amount, not a payment. */
export const MAX_SETTLEMENT_PENCE = 1_000_000;

/** A booking's "no" to a message: what the caller reads, and its BookingFailure type. */
export interface BookingRefusal {
  message: string;
  type: (typeof BookingFailure)[keyof typeof BookingFailure];
}

const no = (message: string, type: BookingRefusal['type']): BookingRefusal => ({ message, type });

/**
 * What the booking's workflow holds besides its state: who picks its driver, and the messages it has
 * taken but not yet acted on, which count as done (a cancel accepted first wins, say).
 */
export interface BookingInbox {
  /** An operator's job: its operator picks the driver. */
  operatorId: string | null;
  emailConfirmed: boolean;
  cancelling: boolean;
  reported: TripProgress[];
  fleetPicking: boolean;
  opsPicking: boolean;
  /** The drivers whose board claims wait. */
  claimants: string[];
  /** A settlement arrived (acted on or not). */
  settlementSent: boolean;
}

export const closedRefusal = (s: BookingState): BookingRefusal =>
  no(`booking ${s.ref} is ${s.status}`, BookingFailure.closed);

const beingCancelled = (s: BookingState): BookingRefusal =>
  no(`booking ${s.ref} is being cancelled`, BookingFailure.closed);

/**
 * A random reference can, however rarely, already name another request's ride: joining it would
 * hand a stranger someone else's booking.
 */
export function createdRefusal(s: BookingState, created?: { identity: string | null }): BookingRefusal | null {
  if (!created?.identity || !s.identity || created.identity === s.identity) return null;
  return no(`booking ${s.ref} was made for another request`, BookingFailure.identityMismatch);
}

/** A stale click (an old card, a job already gone) is answered without entering history. */
export function offerAnswerRefusal(s: BookingState, r: { offerId: string; driverId: string }): BookingRefusal | null {
  if (openOffer(s, r)) return null;
  if (s.driverId === r.driverId)
    return no(`driver ${r.driverId} already has booking ${s.ref}`, BookingFailure.offerAlreadyAccepted);
  if (s.driverId !== null) return no(`booking ${s.ref} went to another driver`, BookingFailure.offerTaken);
  return no(`offer ${r.offerId} is no longer open`, BookingFailure.offerExpired);
}

/** Whoever asks: a trip under way is ended by ops (endTrip), never cancelled into "nothing due". */
export function cancelRefusal(s: BookingState, _c: unknown, q: BookingInbox): BookingRefusal | null {
  if (s.status === 'completed' || s.status === 'no_show')
    return no(`booking ${s.ref} is ${s.status}`, BookingFailure.closed);
  if (s.status !== 'on_board' && !q.reported.includes('on_board')) return null;
  return no(`booking ${s.ref}: the passenger is on board, the trip cannot be cancelled`, BookingFailure.tripInProgress);
}

/** A new pickup or drop-off only while no driver is on the way (a report not yet acted on counts). */
export function amendRefusal(s: BookingState, a: { route?: unknown }, q: BookingInbox): BookingRefusal | null {
  if (isClosed(s)) return closedRefusal(s);
  const onTheWay = DRIVER_ON_THE_WAY.includes(s.status) || q.reported.some((p) => p !== 'no_show');
  if (!a.route || !onTheWay) return null;
  return no(
    `booking ${s.ref} is ${s.status}: the driver is on the way, the pickup and drop-off cannot change`,
    BookingFailure.driverOnTheWay,
  );
}

/** An operator names a driver of its own fleet for one of its jobs nobody holds. */
export function fleetPickRefusal(
  s: BookingState,
  pick: { operatorId: string },
  q: BookingInbox,
): BookingRefusal | null {
  if (!q.operatorId || pick.operatorId !== q.operatorId)
    return no(`booking ${s.ref} is not this operator's job`, BookingFailure.notOperatorJob);
  if (isClosed(s)) return closedRefusal(s);
  if (s.driverId === null && s.offer === null && !q.fleetPicking) return null;
  return no(`booking ${s.ref} already has a driver or an open job card`, BookingFailure.alreadyAssigned);
}

/** Ops name a driver for a booking nobody holds (never an operator's job). */
export function opsPickRefusal(s: BookingState, pick: { driverId: string }, q: BookingInbox): BookingRefusal | null {
  if (isClosed(s)) return closedRefusal(s);
  if (q.operatorId)
    return no(`booking ${s.ref} is an operator's job: its operator picks the driver`, BookingFailure.notOperatorJob);
  if (q.cancelling) return beingCancelled(s);
  if (s.driverId !== null || q.opsPicking)
    return no(
      `booking ${s.ref} already has a driver (take the job off them first) or a driver named for it`,
      BookingFailure.alreadyAssigned,
    );
  return pick.driverId ? null : no('name a driver', BookingFailure.notYourJob);
}

export const takenRefusal = (s: BookingState): BookingRefusal =>
  no(`booking ${s.ref} has already been taken by another driver`, BookingFailure.alreadyAssigned);

/** A driver takes the job from the upcoming-jobs board: refused what is plainly not theirs. */
export function boardClaimRefusal(s: BookingState, c: { driverId: string }, q: BookingInbox): BookingRefusal | null {
  const notClaimable = (why: string) => no(`booking ${s.ref} ${why}`, BookingFailure.notClaimable);
  if (isClosed(s)) return closedRefusal(s);
  if (heldOfferId(s, c.driverId)) return null;
  if (q.cancelling) return beingCancelled(s);
  if (s.driverId !== null || s.exchange?.fleetId || q.claimants.some((d) => d !== c.driverId)) return takenRefusal(s);
  if (q.operatorId) return notClaimable("is an operator's job: its operator picks the driver");
  if (!q.emailConfirmed) return notClaimable('is waiting for the passenger to confirm it');
  if (s.offer !== null) return notClaimable('is being offered to a driver right now');
  if (s.droppedDriverIds.includes(c.driverId))
    return no(`you gave booking ${s.ref} back: it is not offered to you again`, BookingFailure.notClaimable);
  if (isSuspended(s, c.driverId)) return notClaimable('cannot go to a suspended driver');
  return c.driverId ? null : no('name a driver', BookingFailure.notYourJob);
}

/** The assigned driver's report: the next step of the trip (a repeat is a retry), a drop or a confirmation. */
export function tripReportRefusal(
  s: BookingState,
  r: { driverId: string; event: TripEvent },
  q: BookingInbox,
): BookingRefusal | null {
  const invalid = (why: string) => no(why, BookingFailure.invalidTripStep);
  if (isClosed(s)) return closedRefusal(s);
  // A cancel accepted first wins: a boarding report after it must not leave a cancelled trip on board.
  if (q.cancelling) return beingCancelled(s);
  if (s.driverId !== r.driverId)
    return no(`booking ${s.ref} is not assigned to ${r.driverId}`, BookingFailure.notYourJob);
  if (r.event === 'drop')
    return s.status === 'on_board' ? invalid('the passenger is on board: finish the trip instead') : null;
  // Confirming is for a job held and not yet started; once on the way, the trip speaks for itself.
  if (r.event === 'confirm' && !['assigned', 'en_route', 'arrived'].includes(s.status))
    return invalid(`booking ${s.ref} is ${s.status}: nothing to confirm`);
  if (r.event === 'confirm') return null;
  if (r.event === s.status || isNextTripStep(s.status, r.event)) return null;
  const next = (NEXT_TRIP_STEPS[s.status] ?? []).join(' or ') || 'nowhere';
  return invalid(`a trip goes ${s.status} -> ${next}, not ${r.event}`);
}

const paymentRefusal = (amountPence: number): BookingRefusal | null =>
  Number.isInteger(amountPence) && amountPence >= 0 && amountPence <= MAX_SETTLEMENT_PENCE
    ? null
    : no(`amount ${amountPence} pence is not a payment`, BookingFailure.invalidPayment);

/** Only a completed trip is settled, by its own driver (or a provider, or ops); or one on board, by its driver. */
export function settlementRefusal(s: BookingState, input: SettleInput): BookingRefusal | null {
  if (s.status !== 'completed' && !completedBySettling(s, input))
    return no(`booking ${s.ref} is ${s.status}: only a completed trip is settled`, BookingFailure.notCompleted);
  if (input.by === 'driver' && input.driverId !== s.driverId)
    return no(`booking ${s.ref} is not assigned to ${input.driverId}`, BookingFailure.notYourJob);
  return paymentRefusal(input.amountPence);
}

/**
 * The driver confirming what was paid with the passenger still on board has finished the trip: one
 * tap completes and settles it (docs/drivers.md). Only the driver's own word does; a provider's
 * webhook for a link paid mid-trip settles nothing until the trip is reported completed.
 */
export function completedBySettling(s: BookingState, input: SettleInput): boolean {
  return s.status === 'on_board' && input.by === 'driver' && input.driverId === s.driverId;
}

/** Ops end a trip with the passenger on board, or settle a completed one nobody has; a repeat is a retry. */
export function endTripRefusal(s: BookingState, e: EndTripInput, q: BookingInbox): BookingRefusal | null {
  if (s.ended != null) return null;
  const awaitingSettlement = s.status === 'completed' && s.payment == null && !q.settlementSent;
  if (s.status === 'completed' && !awaitingSettlement)
    return no(`booking ${s.ref} is already settled`, BookingFailure.alreadySettled);
  if (s.status !== 'on_board' && !awaitingSettlement)
    return no(
      `booking ${s.ref} is ${s.status}: only a trip with the passenger on board is ended`,
      BookingFailure.tripNotInProgress,
    );
  return 'nothingDue' in e.settlement ? null : paymentRefusal(e.settlement.amountPence);
}

// Exchange fleets (Cab Exchange, docs/exchange.md): a booking nobody of ours takes is handed to a
// partner fleet running this same API; its status events come back through our booking-status hook.

/** What we send an exchange fleet about a job it holds. */
export type ExchangeAction = 'new' | 'amend' | 'cancel';

/** The fleet's answer: accepted (a repeat is accepted as a duplicate) or refused with its code. */
export type ExchangeSendResult = { outcome: 'accepted' | 'rejected'; code: string };

/** The ApplicationFailure type of a fleet that could not be reached (retried). */
export const EXCHANGE_FAILURE = 'ExchangeFleetUnavailable';

/** One of the fleet's status events, as our hook verified it (its booking's status, in its words). */
export interface ExchangeStatusInput {
  fleetId: string;
  /** The event's webhook-id. */
  eventId: string;
  /** The fleet's per-booking sequence: only a newer one than the last applied is taken. */
  sequence: number;
  /** The fleet's booking status (its BOOKING_STATUSES). */
  status: string;
  driver: { name: string; vehicle: string; plate: string } | null;
}

/** Our statuses in which an exchange fleet's driver holds the job. */
/** What a booking workflow is started with, as far as its first state reads it. */
export interface BookingOpening {
  booking: NewBooking;
  job: JobSpec;
  policy: DispatchPolicy;
  /** Hold dispatch until the passenger confirms their email (unverified v1 bookings). */
  awaitEmailConfirmation: boolean;
}

/** The status a new booking starts in (the workflow and the start request agree on it). */
export function initialStatus(input: BookingOpening, nowMs: number): BookingStatus {
  if (input.awaitEmailConfirmation) return 'awaiting_confirmation';
  const dispatchAt = Date.parse(input.job.pickupAt) - input.policy.dispatchLeadSeconds * 1000;
  return dispatchAt <= nowMs ? 'dispatching' : 'scheduled';
}

export const EXCHANGE_WITH_DRIVER: readonly BookingStatus[] = ['assigned', 'en_route', 'arrived', 'on_board'];

/** The fleet's statuses that are steps of a trip: ours takes the same name. */
const FLEET_TRIP_STATUSES: readonly string[] = [...EXCHANGE_WITH_DRIVER, 'completed', 'no_show'];

/**
 * Our status for the fleet's latest (null: unchanged). A trip step is ours too; anything else (its
 * driver gave the job back, it is looking again) is "offered" to the fleet once more, and leaves us
 * as we were before it found a driver.
 */
export function statusFromFleet(remote: string, ours: BookingStatus): { status: BookingStatus | null; trip: boolean } {
  const trip = FLEET_TRIP_STATUSES.includes(remote);
  const status = trip ? (remote as BookingStatus) : EXCHANGE_WITH_DRIVER.includes(ours) ? 'offered' : null;
  return { status, trip };
}

/** Our status while a fleet holds the job, by its last word: with a driver, or still offered to it. */
export function statusHeldByFleet(x: ExchangeState): BookingStatus {
  const last = (x.remoteStatus ?? '') as BookingStatus;
  return EXCHANGE_WITH_DRIVER.includes(last) ? last : 'offered';
}

/** What the fleet was sent, as a fingerprint: the job, and the route and fare an amendment may change. */
export function exchangeJobSent(s: BookingState): string {
  const { job: j, pickup, dropoff, fare } = s;
  const fields = [j.pickupAt, j.passengers, j.vehicleType, j.wheelchair, j.notes];
  return JSON.stringify([...fields, pickup?.label ?? null, dropoff?.label ?? null, fare ?? null]);
}

/** The exchange fleet holding the job (absent on bookings that never reached one). */
export interface ExchangeState {
  /** The fleet holding the job now; null once it gave it back (or none took it). */
  fleetId: string | null;
  fleetName: string | null;
  /** Fleets already handed this booking: never again. */
  tried: string[];
  /** The last sequence taken from the holding fleet. */
  sequence: number;
  /** Its latest status and driver, not yet applied by the main loop when `pending`. */
  remoteStatus: string | null;
  driver: ExchangeStatusInput['driver'];
  pending: boolean;
  /** The job as last sent to the fleet, as a fingerprint (an amendment is sent when it differs). */
  sent: string | null;
}

/** An exchange state with no fleet holding the job. */
export const NO_EXCHANGE: ExchangeState = {
  fleetId: null,
  fleetName: null,
  tried: [],
  sequence: 0,
  remoteStatus: null,
  driver: null,
  pending: false,
  sent: null,
};

/**
 * A booking's reference, as the HTTP contract and the pages accept it: "TX" and 10 Crockford base32
 * characters (src/bookings/identity.ts makes them); references made before random ones were 8
 * characters, and both stay valid.
 */
export const BOOKING_REF_PATTERN = /^TX[0-9A-Z]{8,10}$/;

/** Statuses in which a driver is committed to the job (dispatch counts them as the driver's other jobs). */
export const ACTIVE_STATUSES: readonly BookingStatus[] = ['assigned', 'en_route', 'arrived', 'on_board'];
