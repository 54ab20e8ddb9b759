// Partners' jobs and the status events sent back to them, as the business states them (docs/partners.md):
// what a sender may do with a job reference, the stable codes of what happened to it, and how
// long its events are retried. Shared by src/, activities/ and workflows/ (whose contracts are
// workflows/partners/job-definitions.ts and delivery-definitions.ts), so it stays pure: no Node
// built-ins, no I/O, nothing imported from outside src/model/.
import type { BookingStatus } from './bookings.js';

export const JOB_ACTIONS = ['new', 'amend', 'cancel'] as const;
export type JobAction = (typeof JOB_ACTIONS)[number];

/** none: nothing yet; pending: an amendment arrived before its new; live: booked; cancelled. */
export type JobState = 'none' | 'pending' | 'live' | 'cancelled';

/**
 * Stable codes of what happened to a job (published in the OpenAPI document).
 * Accepted: created, duplicate, amended, amendment_held, cancelled, cancel_held, already_cancelled
 * (also a cancelled job's own new sent again), cancelled_before_new, rebooked (a cancelled job's
 * reference sent as a new with different details: a new booking). Rejected: job_ref_conflict,
 * job_cancelled, amend_too_late, amend_driver_on_the_way (a new pickup or drop-off once the driver is
 * on the way), amend_route_change (a changed pickup, drop-off or fare, refused by release 0.1.0's
 * workers: kept for the answers they give during a rolling deploy), job_completed, trip_in_progress (a cancel with the passenger on board),
 * daily_limit_reached (plus the intake's own: invalid_job and the pricing codes, which never reach
 * the workflow).
 */
export const JOB_OUTCOME_CODES = [
  'created',
  'duplicate',
  'amended',
  'amendment_held',
  'cancelled',
  'cancel_held',
  'already_cancelled',
  'cancelled_before_new',
  'job_ref_conflict',
  'job_cancelled',
  'amend_too_late',
  'amend_route_change',
  'job_completed',
  'trip_in_progress',
  'daily_limit_reached',
  'rebooked',
  'amend_driver_on_the_way',
] as const;
export type JobOutcomeCode = (typeof JOB_OUTCOME_CODES)[number];

/** A cancelled job's own new (or an amendment it had) sent again: a retry, which changes nothing. */
export const CANCELLED_RETRY_MESSAGE =
  'This job was cancelled and this is the same job sent again: its booking stays cancelled. To book it again, send it as a new job with a new jobRef or with the details changed.';

export interface JobOutcome {
  outcome: 'accepted' | 'rejected';
  code: JobOutcomeCode;
  message: string;
  bookingRef: string | null;
  /** The booking's status as this job left it (null while there is no booking). */
  bookingStatus: BookingStatus | null;
  state: JobState;
}

/** What the activities answer when a change to the booking is refused. */
export type BookingChange =
  | { ok: true; status: BookingStatus }
  | {
      ok: false;
      code: 'amend_too_late' | 'amend_driver_on_the_way' | 'job_completed' | 'trip_in_progress';
      status: BookingStatus | null;
    };

// Delivering a booking's status events to its sender.

export interface DeliveryPolicy {
  /** First wait after a failed attempt; doubles each time up to maxRetrySeconds. */
  initialRetrySeconds: number;
  maxRetrySeconds: number;
  /** An event not delivered this long after its first attempt is given up (marked failed), and the next one goes. */
  giveUpAfterSeconds: number;
  /** With nothing left to deliver and nothing new for this long, the workflow closes (the next event starts it again). */
  idleSeconds: number;
}

/**
 * 10 s, 20 s, 40 s ... then every 30 minutes, for 72 hours: about 150 attempts, so a receiver down
 * for a weekend still gets everything once it is back.
 */
export const DEFAULT_DELIVERY_POLICY: DeliveryPolicy = {
  initialRetrySeconds: 10,
  maxRetrySeconds: 30 * 60,
  giveUpAfterSeconds: 72 * 3600,
  idleSeconds: 10 * 60,
};
