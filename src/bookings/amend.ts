import { DRIVER_ON_THE_WAY, TERMINAL_STATUSES, type BookingState, type BookingStatus } from '../model/bookings.js';
import type { BookingClient } from './client.js';
import { amendmentInput, type BookingAmendment } from './request/index.js';

// The one path that amends a booked job (partner intake's amend, through the job's workflow and
// its amendPartnerBooking activity; any later source that amends calls it the same way). Needs
// only the booking client, so the worker's activities call it without the API's services.

/** Statuses from which an amendment is refused: the passenger is on board, or it is over. */
export const TOO_LATE_TO_AMEND: readonly BookingStatus[] = ['on_board', ...TERMINAL_STATUSES];

export class AmendTooLate extends Error {
  constructor(readonly status: BookingStatus) {
    super(`the booking is ${status}: it can no longer be amended`);
  }
}

/** A new pickup or drop-off once the driver is on the way. */
export class AmendDriverOnTheWay extends Error {
  constructor(readonly status: BookingStatus) {
    super(`the booking is ${status}: the driver is on the way, the pickup and drop-off can no longer change`);
  }
}

/**
 * Applies an amendment to a running booking, with the rules a new request gets
 * (src/bookings/request/amendment.ts); the workflow re-dispatches if the driver no longer fits.
 * AmendTooLate once the passenger is on board or the booking is over; AmendDriverOnTheWay for a new
 * pickup or drop-off once the driver is on the way; when the booking moved on in between, the
 * workflow's own refusals (Refusals booking_closed, amend_driver_on_the_way: src/bookings/client.ts),
 * or null once its workflow has closed.
 */
export async function amendBooking(
  deps: { bookings: BookingClient },
  ref: string,
  amendment: BookingAmendment,
): Promise<BookingState | null> {
  const now = await deps.bookings.state(ref);
  if (!now) return null;
  if (TOO_LATE_TO_AMEND.includes(now.status)) throw new AmendTooLate(now.status);
  if (amendment.route && DRIVER_ON_THE_WAY.includes(now.status)) throw new AmendDriverOnTheWay(now.status);
  return deps.bookings.amend(ref, amendmentInput(now.job, amendment));
}
