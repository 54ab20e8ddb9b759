import { placeForPeople } from '../model/places.js';
import {
  WithStartWorkflowOperation,
  WorkflowExecutionAlreadyStartedError,
  WorkflowIdConflictPolicy,
  WorkflowIdReusePolicy,
  type Client,
  type WorkflowHandle,
} from '@temporalio/client';
import { Refusal, type RefusalKind } from '../refusal.js';
import { applicationFailure, isWorkflowGone, refusalFromTemporal } from '../temporal/refusals.js';
import {
  amendBookingUpdate,
  assignFleetDriverUpdate,
  bookingCreatedUpdate,
  bookingStateQuery,
  bookingWorkflowId,
  cancelBookingUpdate,
  claimUpcomingJobUpdate,
  driverDroppedSignal,
  emailConfirmedSignal,
  endTripUpdate,
  exchangeStatusSignal,
  initialSearchAttributes,
  initialStatus,
  offerSeenSignal,
  offerToDriverUpdate,
  reportTripUpdate,
  respondToOfferUpdate,
  settleBookingUpdate,
  type AmendInput,
  type BookingWorkflowInput,
  type CancelInput,
  type ClaimUpcomingInput,
  type ClaimUpcomingResult,
  type DriverDroppedInput,
  type EndTripResult,
  type FleetAssignInput,
  type OfferResponseInput,
  type OfferResponseResult,
  type OfferSeenInput,
  type OpsOfferInput,
  type ReportTripInput,
} from '../../workflows/bookings/definitions.js';
import {
  BookingFailure,
  type BookingState,
  type BookingStatus,
  type EndTripInput,
  type ExchangeStatusInput,
  type PaymentRecord,
  type SettleInput,
} from '../model/bookings.js';

// The booking workflow's one client (docs/refusals.md, "Temporal failures"): every route, use
// case, activity and script that starts, signals, updates or queries a booking does it here, and
// Temporal's failures are read here and nowhere else. Each method is one business action:
//
// - A booking whose workflow is no longer running (it closed, or never started) answers `null`
//   (a signal: `false`). What was left is in Postgres; the caller decides what that means for it.
// - A refusal by the workflow (an update validator's typed failure) is thrown as the service's
//   Refusal, from the one table below: its kind and code, the workflow's own words. A caller that
//   says it in its own terms catches it by code (refusedAs).
// - Temporal out of reach is thrown as a Refusal too (unavailable, retry shortly); anything else
//   (a bug) as it is.
//
// Nothing else in src/, activities/ or scripts/ may import the booking workflow's messages (ESLint).

/**
 * The workflow type new bookings start. Running bookings keep the type they started with; messages
 * reach them by workflow id whatever it is. (Version 2 switches this one line: docs/versioning.md.)
 */
export const BOOKING_WORKFLOW_TYPE = 'bookingWorkflowV2';

/**
 * The booking workflows that read a driver's look at their card from offers.seen_at at the card's
 * unseen cut (docs/dispatch.md "Offer policy"); any other (0.4.0's) is told by the offerSeen signal.
 */
export const BOOKING_WORKFLOWS_READING_SEEN: readonly string[] = ['bookingWorkflowV2'];

type BookingFailureType = (typeof BookingFailure)[keyof typeof BookingFailure];

/**
 * Each of the workflow's refusals as the Refusal it is told as. The first eleven are told as they
 * were before this client (src/temporal/refusals.ts mapped them for every entry point); the rest
 * every caller put in its own words, and the code here is the one they use.
 */
const REFUSALS = {
  [BookingFailure.closed]: { kind: 'conflict', code: 'booking_closed' },
  [BookingFailure.identityMismatch]: { kind: 'conflict', code: 'booking_conflict' },
  [BookingFailure.notYourJob]: { kind: 'conflict', code: 'not_your_job' },
  [BookingFailure.invalidTripStep]: { kind: 'conflict', code: 'invalid_trip_step' },
  [BookingFailure.offerTaken]: { kind: 'conflict', code: 'job_taken' },
  [BookingFailure.offerExpired]: { kind: 'gone', code: 'offer_expired' },
  [BookingFailure.offerAlreadyAccepted]: { kind: 'conflict', code: 'job_already_accepted' },
  [BookingFailure.tripInProgress]: { kind: 'conflict', code: 'trip_in_progress' },
  [BookingFailure.tripNotInProgress]: { kind: 'conflict', code: 'trip_not_in_progress' },
  [BookingFailure.alreadySettled]: { kind: 'conflict', code: 'trip_already_settled' },
  [BookingFailure.invalidPayment]: { kind: 'invalid', code: 'invalid_payment' },
  [BookingFailure.notCompleted]: { kind: 'conflict', code: 'trip_not_completed' },
  [BookingFailure.notOperatorJob]: { kind: 'conflict', code: 'operator_job' },
  [BookingFailure.alreadyAssigned]: { kind: 'conflict', code: 'already_assigned' },
  [BookingFailure.driverOnTheWay]: { kind: 'conflict', code: 'amend_driver_on_the_way' },
  // A driver reads these in the app as they are: a sentence of the workflow's reason.
  [BookingFailure.notClaimable]: { kind: 'conflict', code: 'cannot_take_job', sentence: true },
  [BookingFailure.driverDoesNotFit]: { kind: 'conflict', code: 'cannot_take_job', sentence: true },
} as const satisfies Record<BookingFailureType, { kind: RefusalKind; code: string; sentence?: true }>;

/** The code of a Refusal this client throws for a workflow's refusal. */
export type BookingRefusalCode = (typeof REFUSALS)[BookingFailureType]['code'];

/** Whether `err` is the client's Refusal with this code: for a caller that tells it in its own words. */
export function refusedAs(err: unknown, code: BookingRefusalCode): err is Refusal {
  return err instanceof Refusal && err.code === code;
}

const sentence = (m: string) => {
  const t = m.trim();
  return (t.charAt(0).toUpperCase() + t.slice(1)).replace(/[^.]$/, (c) => `${c}.`);
};

/**
 * A failure from a booking's workflow as the caller is told it: the workflow's refusal or Temporal
 * failing as a Refusal (the Temporal error kept as its cause, for the logs), anything else as it is.
 */
export function bookingFailure(err: unknown): unknown {
  const failure = applicationFailure(err);
  const told = failure?.type ? (REFUSALS as Record<string, (typeof REFUSALS)[BookingFailureType]>)[failure.type] : null;
  let refusal: Refusal | null;
  if (failure && told) {
    const details = (failure.details?.[0] ?? {}) as Record<string, unknown>;
    refusal = new Refusal(told.kind, told.code, 'sentence' in told ? sentence(failure.message) : failure.message, {
      ...(typeof details.bookingRef === 'string' ? { details: { booking_reference: details.bookingRef } } : {}),
    });
  } else refusal = refusalFromTemporal(err);
  if (!refusal) return err;
  refusal.cause = err;
  return refusal;
}

/** Runs one call to a booking's workflow: `closed` when it is not running, its failures as bookingFailure says. */
async function call<T, C>(send: () => Promise<T>, closed: C): Promise<T | C> {
  try {
    return await send();
  } catch (err) {
    if (isWorkflowGone(err)) return closed;
    throw bookingFailure(err);
  }
}

/** What opening a booking gives: its state, or the news that its reference names another request's ride. */
export type Opened = { state: BookingState; refTaken?: never } | { refTaken: true; state?: never };

export class BookingClient {
  constructor(
    private readonly temporal: Client,
    /** Where new bookings' workflows run (the worker's task queue). */
    private readonly taskQueue: string,
  ) {}

  private handle(ref: string): WorkflowHandle {
    return this.temporal.workflow.getHandle(bookingWorkflowId(ref));
  }

  /**
   * Starts booking:<ref> (or joins the one already running for the same request) and answers once
   * its record exists. Update-with-start makes "create or find" one call: concurrent duplicates land
   * on the same workflow, and the reply waits until the first activity has written the row lookups
   * read. A finished booking is never started again: its final state answers. `refTaken` when the
   * reference names another request's ride (the caller draws a fresh one).
   */
  async open(input: BookingWorkflowInput): Promise<Opened> {
    const ref = input.booking.ref;
    const identity = input.booking.identity ?? null;
    const startWorkflowOperation = new WithStartWorkflowOperation(BOOKING_WORKFLOW_TYPE, {
      workflowId: bookingWorkflowId(ref),
      taskQueue: this.taskQueue,
      args: [input],
      workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
      // A finished booking is never started again under the same reference.
      workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
      memo: {
        pickup: placeForPeople(input.booking.pickupQuery, input.booking.pickup),
        dropoff: placeForPeople(input.booking.dropoffQuery, input.booking.dropoff),
        fare: (input.booking.farePence / 100).toFixed(2),
      },
      // Listed in the Web UI by status and pickup time from the start; the workflow upserts changes.
      typedSearchAttributes: initialSearchAttributes(input, initialStatus(input, Date.now())),
    });
    try {
      const state = await this.temporal.workflow.executeUpdateWithStart(bookingCreatedUpdate, {
        args: [{ identity }],
        startWorkflowOperation,
      });
      return { state };
    } catch (err) {
      if (applicationFailure(err)?.type === BookingFailure.identityMismatch) return { refTaken: true };
      // The reference's workflow has finished (REJECT_DUPLICATE): its final state answers.
      if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw bookingFailure(err);
    }
    let state: BookingState;
    try {
      state = await this.handle(ref).query(bookingStateQuery);
    } catch (err) {
      throw bookingFailure(err);
    }
    if (state.identity && identity && state.identity !== identity) return { refTaken: true };
    return { state };
  }

  /** A booking another request is making, once its record exists; null once its workflow has closed. */
  async whenCreated(ref: string): Promise<BookingState | null> {
    return call(() => this.handle(ref).executeUpdate(bookingCreatedUpdate, { args: [{ identity: null }] }), null);
  }

  /** The booking's state as its workflow holds it; null once it has closed. */
  async state(ref: string): Promise<BookingState | null> {
    return call(() => this.handle(ref).query(bookingStateQuery), null);
  }

  /**
   * A driver's answer to their offer. A repeated accept by the driver who has the job is a retry:
   * 'accepted'. A booking that has closed (cancelled, completed) takes no answers: 'expired'.
   */
  async respondToOffer(ref: string, input: OfferResponseInput): Promise<OfferResponseResult> {
    try {
      return await call(() => this.handle(ref).executeUpdate(respondToOfferUpdate, { args: [input] }), 'expired');
    } catch (err) {
      if (refusedAs(err, 'job_already_accepted') && input.decision === 'accept') return 'accepted';
      throw err;
    }
  }

  /** The driver looked at the job card; false once the booking has closed. */
  async offerSeen(ref: string, input: OfferSeenInput): Promise<boolean> {
    return call(
      () =>
        this.handle(ref)
          .signal(offerSeenSignal, input)
          .then(() => true),
      false,
    );
  }

  /** The assigned driver's trip report; the booking's status once it shows it, null once it has closed. */
  async reportTrip(ref: string, input: ReportTripInput): Promise<BookingStatus | null> {
    return call(() => this.handle(ref).executeUpdate(reportTripUpdate, { args: [input] }), null);
  }

  /** Settles a completed trip (once: a repeat answers the same record); null once the workflow has closed. */
  async settle(ref: string, input: SettleInput): Promise<PaymentRecord | null> {
    return call(() => this.handle(ref).executeUpdate(settleBookingUpdate, { args: [input] }), null);
  }

  /** Ops end a trip and settle it in one step; null once the workflow has closed. */
  async endTrip(ref: string, input: EndTripInput): Promise<EndTripResult | null> {
    return call(() => this.handle(ref).executeUpdate(endTripUpdate, { args: [input] }), null);
  }

  /** Cancels the booking (stops offers, withdraws the job card, tells the driver); null once it has closed. */
  async cancel(ref: string, input: CancelInput): Promise<BookingState | null> {
    return call(() => this.handle(ref).executeUpdate(cancelBookingUpdate, { args: [input] }), null);
  }

  /** Applies an amendment as the workflow takes it (src/bookings/amend.ts decides it); null once it has closed. */
  async amend(ref: string, input: AmendInput): Promise<BookingState | null> {
    return call(() => this.handle(ref).executeUpdate(amendBookingUpdate, { args: [input] }), null);
  }

  /** Ops hand the booking to a driver they name; answers once the card is out. Null once it has closed. */
  async offerToDriver(ref: string, input: OpsOfferInput): Promise<BookingState | null> {
    return call(() => this.handle(ref).executeUpdate(offerToDriverUpdate, { args: [input] }), null);
  }

  /** An operator gives its job to a driver of its fleet; answers once the card is out. Null once it has closed. */
  async assignFleetDriver(ref: string, input: FleetAssignInput): Promise<BookingState | null> {
    return call(() => this.handle(ref).executeUpdate(assignFleetDriverUpdate, { args: [input] }), null);
  }

  /** A driver takes a pre-booked job from their board; null once the booking has closed. */
  async claimUpcomingJob(ref: string, input: ClaimUpcomingInput): Promise<ClaimUpcomingResult | null> {
    return call(() => this.handle(ref).executeUpdate(claimUpcomingJobUpdate, { args: [input] }), null);
  }

  /** The driver holding the job lets it go (or ops take it off them); false once the booking has closed. */
  async driverDropped(ref: string, input: DriverDroppedInput): Promise<boolean> {
    return call(
      () =>
        this.handle(ref)
          .signal(driverDroppedSignal, input)
          .then(() => true),
      false,
    );
  }

  /** The passenger confirmed their email: a booking held for it goes ahead. False once it has closed. */
  async emailConfirmed(ref: string): Promise<boolean> {
    return call(
      () =>
        this.handle(ref)
          .signal(emailConfirmedSignal)
          .then(() => true),
      false,
    );
  }

  /** An exchange fleet's status event for the job it holds; false once the booking has closed. */
  async exchangeStatus(ref: string, input: ExchangeStatusInput): Promise<boolean> {
    return call(
      () =>
        this.handle(ref)
          .signal(exchangeStatusSignal, input)
          .then(() => true),
      false,
    );
  }
}
