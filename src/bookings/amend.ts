import type { Client } from '@temporalio/client';
import {
  DRIVER_ON_THE_WAY,
  TERMINAL_STATUSES,
  amendBookingUpdate,
  bookingStateQuery,
  bookingWorkflowId,
  type BookingState,
  type BookingStatus,
} from '../../workflows/bookings/definitions.js';
import { amendmentInput, type BookingAmendment } from './request/index.js';

// The one path that amends a booked job (partner intake's amend, through the job's workflow and
// its amendPartnerBooking activity; any later source that amends calls it the same way). Needs
// only a Temporal client, so the worker's activities call it without the API's services.

/** Statuses from which an amendment is refused: the passenger is on board, or it is over. */
export const TOO_LATE_TO_AMEND: readonly BookingStatus[] = ['on_board', ...TERMINAL_STATUSES];

export class AmendTooLate extends Error {
  constructor(readonly status: BookingStatus) {
    super(`the booking is ${status}: it can no longer be amended`);
  }
}

/** A new pickup or drop-off once the driver is on the way (or the workflow's own DriverOnTheWay refusal). */
export class AmendDriverOnTheWay extends Error {
  constructor(readonly status: BookingStatus) {
    super(`the booking is ${status}: the driver is on the way, the pickup and drop-off can no longer change`);
  }
}

/**
 * Applies an amendment to a running booking, with the rules a new request gets
 * (src/bookings/request/amendment.ts); the workflow re-dispatches if the driver no longer fits.
 * AmendTooLate once the passenger is on board or the booking is over; AmendDriverOnTheWay for a new
 * pickup or drop-off once the driver is on the way; the workflow's own refusals (BookingClosed,
 * DriverOnTheWay) or WorkflowNotFoundError when the booking moved on in between.
 */
export async function amendBooking(
  deps: { temporal: Client },
  ref: string,
  amendment: BookingAmendment,
): Promise<BookingState> {
  const handle = deps.temporal.workflow.getHandle(bookingWorkflowId(ref));
  const now = await handle.query(bookingStateQuery);
  if (TOO_LATE_TO_AMEND.includes(now.status)) throw new AmendTooLate(now.status);
  if (amendment.route && DRIVER_ON_THE_WAY.includes(now.status)) throw new AmendDriverOnTheWay(now.status);
  return handle.executeUpdate(amendBookingUpdate, { args: [amendmentInput(now.job, amendment)] });
}
