import type { Client } from '@temporalio/client';
import { amendBookingUpdate, bookingWorkflowId, type AmendInput, type BookingState } from '../../workflows/booking-definitions.js';

/** Applies an amendment to a running booking; the workflow re-dispatches if the driver no longer fits. */
export function amendBooking(client: Client, ref: string, changes: AmendInput): Promise<BookingState> {
  return client.workflow.getHandle(bookingWorkflowId(ref)).executeUpdate(amendBookingUpdate, { args: [changes] });
}
