// The partner job workflow's Temporal contract: its id, input and messages, which the intake routes
// and the worker agree on. What a job's actions, states and outcomes mean is src/model/partners.ts.
// Imported by workflow code, so it stays free of Node built-ins and I/O.
import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { JobAction, JobOutcome, JobState } from '../../src/model/partners.js';
import type { BookingWorkflowInput } from '../bookings/definitions.js';

/** One workflow per sender and job reference: every new, amend and cancel for it is applied there, in turn. */
export function partnerJobWorkflowId(partnerId: string, jobRef: string): string {
  return `job:${partnerId}:${jobRef}`;
}

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

export interface PartnerJobView {
  partnerId: string;
  jobRef: string;
  state: JobState;
  bookingRef: string | null;
}

export const submitJobUpdate = defineUpdate<JobOutcome, [JobSubmission]>('submitJob');
export const partnerJobQuery = defineQuery<PartnerJobView>('partnerJob');
