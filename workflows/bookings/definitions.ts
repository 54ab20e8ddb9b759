// The booking workflow's Temporal contract, which the client (src/bookings/client.ts) and the worker
// must agree on; its vocabulary is src/model/bookings.ts. Imported by workflow code: no Node built-ins, no I/O.
import { SearchAttributeType, defineSearchAttributeKey } from '@temporalio/common';
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type * as model from '../../src/model/bookings.js';

/** A booking's workflow id is its reference, prefixed: one workflow per booking. */
export const bookingWorkflowId = (ref: string): string => `booking:${ref}`;

export interface BookingWorkflowInput extends model.BookingOpening {
  /**
   * Email the passenger their booking confirmation before dispatch begins (the v1 API's bookings
   * with an email). Absent on bookings started by release 0.1.0, which decided it from the
   * booking's source: see confirmationFirst in workflows/bookings/run.ts.
   */
  emailConfirmationFirst?: boolean;
}

/** The status a new booking starts in (the workflow and the start request agree on it). */
export { initialStatus } from '../../src/model/bookings.js';

/**
 * Upserted on each status change, so ops can list in the Web UI, e.g.
 * `BookingStatus = "unassigned" AND BookingPickupAt < "2026-11-23T18:00:00Z"`. Registered by the worker at start.
 */
export const BookingSearchAttributes = {
  status: defineSearchAttributeKey('BookingStatus', SearchAttributeType.KEYWORD),
  pickupAt: defineSearchAttributeKey('BookingPickupAt', SearchAttributeType.DATETIME),
  driver: defineSearchAttributeKey('BookingDriverId', SearchAttributeType.KEYWORD),
  source: defineSearchAttributeKey('BookingSource', SearchAttributeType.KEYWORD),
  partner: defineSearchAttributeKey('BookingPartnerId', SearchAttributeType.KEYWORD),
} as const;

/** The search attributes a booking starts with: the start request carries them, so no upsert is needed. */
export function initialSearchAttributes(input: BookingWorkflowInput, status: model.BookingStatus) {
  return [
    { key: BookingSearchAttributes.status, value: status },
    { key: BookingSearchAttributes.pickupAt, value: new Date(input.job.pickupAt) },
    { key: BookingSearchAttributes.source, value: input.booking.source },
    ...(input.booking.partnerId ? [{ key: BookingSearchAttributes.partner, value: input.booking.partnerId }] : []),
  ];
}

/**
 * Sent with update-with-start by every booking route, naming the request it is creating: returns
 * once the booking record exists, refused when the booking was made for another request.
 */
export const bookingCreatedUpdate = defineUpdate<model.BookingState, [{ identity: string | null }]>('bookingCreated');

export interface OfferResponseInput {
  offerId: string;
  driverId: string;
  decision: 'accept' | 'decline';
}
/** accepted/declined: recorded; taken: someone else has the job; expired: the offer is no longer open. */
export type OfferResponseResult = 'accepted' | 'declined' | 'taken' | 'expired';
export const respondToOfferUpdate = defineUpdate<OfferResponseResult, [OfferResponseInput]>('respondToOffer');

/** The driver opened the job card (its page, or the app showing it): the card gets its full window. */
export type OfferSeenInput = { offerId: string; driverId: string };
export const offerSeenSignal = defineSignal<[OfferSeenInput]>('offerSeen');

export type CancelInput = { reason: string | null; by: 'passenger' | 'partner' | 'ops' };
export const cancelBookingUpdate = defineUpdate<model.BookingState, [CancelInput]>('cancelBooking');

/** Any of the job's fields, and a new route or fare. */
export interface AmendInput extends Partial<model.JobSpec> {
  /** A new pickup or drop-off, geocoded and priced (partner intake); refused once the driver is on the way. */
  route?: model.AmendedRoute;
  /** The fare of the amended job: the sender's agreed fare, or the tariff's for the new time or route. */
  fare?: model.AmendedFare;
}
export const amendBookingUpdate = defineUpdate<model.BookingState, [AmendInput]>('amendBooking');

/**
 * A driver takes a pre-booked job from the upcoming-jobs board (src/drivers/upcoming.ts): assigned as
 * an accepted offer is, without a job card; refused as BookingFailure.driverDoesNotFit when their locked
 * claim finds they no longer fit. Answers their offer: the driver app's job id for the trip reports.
 */
export type ClaimUpcomingInput = { driverId: string; driverName: string };
export type ClaimUpcomingResult = { offerId: string };
export const claimUpcomingJobUpdate = defineUpdate<ClaimUpcomingResult, [ClaimUpcomingInput]>('claimUpcomingJob');

/**
 * Ops hand a booking nobody holds to a driver they name (src/drivers/offer-to-driver.ts). Answers
 * once the named driver's job card is out (or they were found busy: `offer` is then not theirs).
 */
export type OpsOfferInput = { driverId: string; driverName: string };
export const offerToDriverUpdate = defineUpdate<model.BookingState, [OpsOfferInput]>('offerToDriver');

/** An operator picks a driver of its own fleet for one of its jobs (operator bridge bookings only); answers as offerToDriver. */
export type FleetAssignInput = { operatorId: string; driverId: string; driverName: string };
export const assignFleetDriverUpdate = defineUpdate<model.BookingState, [FleetAssignInput]>('assignFleetDriver');

/** The passenger opened the emailed confirmation link (a held v1 booking). */
export const emailConfirmedSignal = defineSignal('emailConfirmed');

export type DriverDroppedInput = { driverId: string; reason: model.DriverDropReason };
export const driverDroppedSignal = defineSignal<[DriverDroppedInput]>('driverDropped');

/**
 * Staff suspended this driver: sent to every booking with an open job card or an active job of theirs
 * (workflows/drivers/suspension.ts); the card is withdrawn and a job they hold is taken off them.
 * Idempotent. A trip with the passenger on board is left to finish; ops are told and end it (endTrip).
 */
export const driverSuspendedSignal = defineSignal<[{ driverId: string }]>('driverSuspended');

/** The assigned driver's trip report; refused (out of history) when closed, not theirs or not the next step. */
export type ReportTripInput = { driverId: string; event: model.TripEvent };
export const reportTripUpdate = defineUpdate<model.BookingStatus, [ReportTripInput]>('reportTrip');
/** Superseded by reportTripUpdate (which can refuse); kept for clients of the earlier release. */
export const tripProgressSignal = defineSignal<[{ driverId: string; progress: model.TripProgress }]>('tripProgress');

export const bookingStateQuery = defineQuery<model.BookingState>('bookingState');

/** Settles a completed trip, once; answers the payment record. */
export const settleBookingUpdate = defineUpdate<model.PaymentRecord, [model.SettleInput]>('settleBooking');
/** `endedNow` is false for a repeat (a retry): the trip had already been ended by ops. */
export type EndTripResult = { payment: model.PaymentRecord; endedNow: boolean };
/**
 * Ops end a trip with the passenger on board (its driver suspended, their app broken), or a completed
 * trip nobody has settled: completed and settled as ops say, in one step.
 */
export const endTripUpdate = defineUpdate<EndTripResult, [model.EndTripInput]>('endTrip');

/** Sent by the booking-status hook; a repeated or older event changes nothing. */
export const exchangeStatusSignal = defineSignal<[model.ExchangeStatusInput]>('exchangeStatus');
