// Everything the HTTP layer and the worker must agree on about the booking workflow, declared once.
// Imported by workflow code, so it stays free of Node built-ins and I/O.
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';

export const BOOKING_WORKFLOW_PREFIX = 'booking:';

export function bookingWorkflowId(ref: string): string {
  return `${BOOKING_WORKFLOW_PREFIX}${ref}`;
}

export function bookingRefFromWorkflowId(workflowId: string): string | null {
  return workflowId.startsWith(BOOKING_WORKFLOW_PREFIX) ? workflowId.slice(BOOKING_WORKFLOW_PREFIX.length) : null;
}

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
  'unassigned', // every tier exhausted; retrying on a backoff until pickup time
] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];

export const TERMINAL_STATUSES: readonly BookingStatus[] = ['completed', 'cancelled'];

export type Tier = 'local' | 'national' | 'partner';

/** What dispatch needs to match drivers, and what an amendment can change. */
export interface JobSpec {
  pickupAt: string;
  passengers: number;
  vehicleType: string;
  wheelchair: boolean;
  notes: string | null;
}

export interface DispatchPolicy {
  /** How long before pickup a pre-booked journey starts looking for a driver. */
  dispatchLeadSeconds: number;
  /** How long a driver has to accept or decline a job card. */
  offerTimeoutSeconds: number;
  /** First wait before retrying an exhausted cascade; doubles up to maxRetrySeconds. */
  retryBaseSeconds: number;
  maxRetrySeconds: number;
  /** An assigned driver not at the pickup this long after pickup time is a no-show: reassign. */
  noShowGraceSeconds: number;
}

/** Where a place resolved to, as stored with the booking. */
export interface PlaceSnapshot {
  label: string;
  kind: string;
  lat: number;
  lon: number;
  postcodeDistrict: string | null;
  council: string | null;
}

/** The booking record as the route built it; the workflow's first activity persists it. */
export interface NewBooking {
  ref: string;
  source: 'agent_create' | 'agent_instant' | 'v1_direct' | 'v1_quote' | 'partner';
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
  requestFingerprint: string | null;
}

export interface BookingWorkflowInput {
  booking: NewBooking;
  job: JobSpec;
  policy: DispatchPolicy;
  /** Hold dispatch until the passenger confirms their email (unverified v1 bookings). */
  awaitEmailConfirmation: boolean;
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
}

export interface BookingState {
  ref: string;
  status: BookingStatus;
  job: JobSpec;
  round: number;
  driverId: string | null;
  offer: CurrentOffer | null;
  candidates: CandidateRecord[];
  /** Drivers who dropped this booking are never offered it again. */
  droppedDriverIds: string[];
  cancelReason: string | null;
}

export function offerId(ref: string, round: number, driverId: string): string {
  return `${ref}:${round}:${driverId}`;
}

export function parseOfferId(id: string): { ref: string; round: number; driverId: string } | null {
  const m = /^([A-Z0-9-]+):(\d+):(.+)$/.exec(id);
  return m ? { ref: m[1]!, round: Number(m[2]), driverId: m[3]! } : null;
}

export interface OfferResponseInput {
  offerId: string;
  driverId: string;
  decision: 'accept' | 'decline';
}
/** accepted/declined: recorded; taken: someone else has the job; expired: the offer is no longer open. */
export type OfferResponseResult = 'accepted' | 'declined' | 'taken' | 'expired';

export interface CancelInput {
  reason: string | null;
  by: 'passenger' | 'partner' | 'ops';
}

export interface AmendInput {
  pickupAt?: string;
  passengers?: number;
  vehicleType?: string;
  wheelchair?: boolean;
  notes?: string | null;
}

export interface DriverDroppedInput {
  driverId: string;
  reason: 'dropped' | 'no_show';
}

export type TripProgress = 'en_route' | 'arrived' | 'on_board' | 'completed';

export const respondToOfferUpdate = defineUpdate<OfferResponseResult, [OfferResponseInput]>('respondToOffer');
export const cancelBookingUpdate = defineUpdate<BookingState, [CancelInput]>('cancelBooking');
export const amendBookingUpdate = defineUpdate<BookingState, [AmendInput]>('amendBooking');
/** Sent with update-with-start by every booking route: returns once the booking record exists. */
export const bookingCreatedUpdate = defineUpdate<BookingState, []>('bookingCreated');
export const emailConfirmedSignal = defineSignal('emailConfirmed');
export const driverDroppedSignal = defineSignal<[DriverDroppedInput]>('driverDropped');
export const tripProgressSignal = defineSignal<[{ driverId: string; progress: TripProgress }]>('tripProgress');
export const bookingStateQuery = defineQuery<BookingState>('bookingState');

/** ApplicationFailure types of booking updates; the HTTP layer maps them. */
export const BookingFailure = {
  closed: 'BookingClosed',
} as const;
