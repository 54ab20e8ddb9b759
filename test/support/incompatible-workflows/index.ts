// Deliberately incompatible edits of the service's workflows. Replaying recorded histories against
// them must fail, which proves the replay test can catch such a change.
import { proxyActivities, proxyLocalActivities, sleep } from '@temporalio/workflow';
import type { Activities } from '../../../activities/index.js';
import type { BookingWorkflowInput } from '../../../workflows/bookings/definitions.js';
import type { QuoteWorkflowInput } from '../../../workflows/quotes/definitions.js';

const { markQuoteExpired, alertOps } = proxyActivities<Activities>({ startToCloseTimeout: '10 seconds' });
const db = proxyLocalActivities<Activities>({ startToCloseTimeout: '10 seconds' });

/** Writes the expiry before waiting. */
export async function quoteWorkflow(input: QuoteWorkflowInput): Promise<void> {
  await markQuoteExpired({ quoteId: input.quoteId });
  await sleep(1000);
}

/** Alerts ops before the booking record is written: the first command no longer matches. */
export async function bookingWorkflow(input: BookingWorkflowInput): Promise<void> {
  await alertOps({ ref: input.booking.ref, round: 0 });
  await db.persistBooking({ booking: input.booking, job: input.job, status: 'dispatching' });
}

/** The same edit of version 2, which every booking recorded from release 1.0.0 runs. */
export const bookingWorkflowV2 = bookingWorkflow;
