import { WorkflowNotFoundError } from '@temporalio/common';
import { ProblemError } from '../http/problem.js';
import { screenedOrDropped } from '../screening/free-text.js';
import type { Services } from '../services.js';
import { bookingWorkflowId, cancelBookingUpdate, type CancelInput } from '../../workflows/bookings/definitions.js';
import { bookingForHolder, type BookingProof } from './access.js';
import { findBooking, markCancelled, type BookingWithDriver } from './store.js';

/**
 * Cancels a booking for whoever holds it. Idempotent: cancelling a cancelled booking answers with
 * it again. A completed journey cannot be cancelled (409). The reason is kept with the booking
 * (its lookup, the ops view) when it passes the free-text screen, and dropped when it does not: a
 * cancel is never refused for its reason. It goes into no message: the driver is told the job is
 * cancelled, never why in the passenger's words.
 */
export async function cancelBooking(
  s: Services,
  r: { ref: string; proof: BookingProof; reason: string | null; by: CancelInput['by'] },
): Promise<BookingWithDriver> {
  const row = await bookingForHolder(s, r.ref, r.proof);
  const reason = screenedOrDropped('reason', r.reason, { maxLength: 300, multiline: true });
  if (row.status === 'completed') throw bookingClosed(r.ref);
  if (row.status !== 'cancelled') {
    try {
      // The workflow stops offers, withdraws the job card and tells the driver; its validator
      // refuses if the journey completed in the meantime (mapped to 409 by the error handler).
      await s.temporal.workflow.getHandle(bookingWorkflowId(r.ref)).executeUpdate(cancelBookingUpdate, { args: [{ reason, by: r.by }] });
    } catch (err) {
      // The workflow closes once a booking can no longer be served (unassigned past pickup):
      // nothing is running to stop, so the record alone is marked.
      if (!(err instanceof WorkflowNotFoundError)) throw err;
      await markCancelled(s.sql, r.ref, reason);
    }
  }
  const after = await findBooking(s.sql, r.ref);
  if (after?.status === 'completed') throw bookingClosed(r.ref);
  return after ?? row;
}

const bookingClosed = (ref: string) => new ProblemError(409, 'booking_closed', `Booking ${ref} is already completed and cannot be cancelled.`);
