import type { Services } from '../services.js';
import { amendBookingUpdate, bookingWorkflowId, type AmendInput, type BookingState } from '../../workflows/bookings/definitions.js';

/** Applies an amendment to a running booking; the workflow re-dispatches if the driver no longer fits. */
export function amendBooking(s: Pick<Services, 'temporal'>, ref: string, changes: AmendInput): Promise<BookingState> {
  return s.temporal.workflow.getHandle(bookingWorkflowId(ref)).executeUpdate(amendBookingUpdate, { args: [changes] });
}
