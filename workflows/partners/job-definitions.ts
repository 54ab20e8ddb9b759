// Everything the intake routes and the worker agree on about a sender's job reference, declared
// once. Imported by workflow code, so it stays free of Node built-ins and I/O.
import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { BookingStatus, BookingWorkflowInput } from '../bookings/definitions.js';

/** One workflow per sender and job reference: every new, amend and cancel for it is applied there, in turn. */
export function partnerJobWorkflowId(partnerId: string, jobRef: string): string {
  return `job:${partnerId}:${jobRef}`;
}

export const JOB_ACTIONS = ['new', 'amend', 'cancel'] as const;
export type JobAction = (typeof JOB_ACTIONS)[number];

/** none: nothing yet; pending: an amendment arrived before its new; live: booked; cancelled. */
export type JobState = 'none' | 'pending' | 'live' | 'cancelled';

export interface PartnerJobStart {
  partnerId: string;
  jobRef: string;
}

export interface JobSubmission {
  action: JobAction;
  /** The job's meaning, hashed by the intake: tells a retry from a different job under the same reference. */
  fingerprint: string;
  /** new and amend: the job priced and ready to book (booking.ref is filled in when it is booked). */
  booking?: BookingWorkflowInput;
  /** new: the London day and the sender's daily limit it counts against. */
  limit?: { day: string; limit: number };
  /** cancel: the sender's reason, if it gave one. */
  reason?: string | null;
}

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

export interface PartnerJobView {
  partnerId: string;
  jobRef: string;
  state: JobState;
  bookingRef: string | null;
}

export const submitJobUpdate = defineUpdate<JobOutcome, [JobSubmission]>('submitJob');
export const partnerJobQuery = defineQuery<PartnerJobView>('partnerJob');

/** What the activities answer when a change to the booking is refused. */
export type BookingChange =
  | { ok: true; status: BookingStatus }
  | {
      ok: false;
      code: 'amend_too_late' | 'amend_driver_on_the_way' | 'job_completed' | 'trip_in_progress';
      status: BookingStatus | null;
    };
