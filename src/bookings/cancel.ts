import { recordStaffActionOnce, type StaffMember } from '../auth/staff.js';
import { Refusal } from '../refusal.js';
import { screenedOrDropped } from '../screening/free-text.js';
import type { Services } from '../services.js';
import type { CancelInput } from '../../workflows/bookings/definitions.js';
import { bookingForHolder, type BookingProof } from './access.js';
import { findBooking, markCancelled, type BookingWithDriver } from './store.js';

/**
 * Cancels a booking for whoever holds it. Idempotent: cancelling a cancelled booking answers with
 * it again. A completed journey cannot be cancelled (409 booking_closed), nor one with the
 * passenger on board (409 trip_in_progress): a trip under way is ended by ops, with a settlement
 * (src/bookings/end-trip.ts), never cancelled into "nothing due". The reason is kept with the
 * booking (its lookup, the ops view) when it passes the free-text screen, and dropped when it does
 * not: a cancel is never refused for its reason. It goes into no message: the driver is told the
 * job is cancelled, never why in the passenger's words.
 */
export async function cancelBooking(
  s: Services,
  r: { ref: string; proof: BookingProof; reason: string | null; by: CancelInput['by'] },
): Promise<BookingWithDriver> {
  const row = await bookingForHolder(s, r.ref, r.proof);
  const reason = screenedOrDropped('reason', r.reason, { maxLength: 300, multiline: true });
  return cancelRow(s, row, reason, r.by);
}

/**
 * Ops cancel a live booking, saying why (kept with the booking and in staff_actions, once): the
 * passenger is told it was cancelled by Direct Taxi operations and the driver that it is, never why.
 */
export async function cancelAsOps(
  s: Services,
  staff: StaffMember,
  ref: string,
  reason: string,
): Promise<BookingWithDriver> {
  const row = await findBooking(s.sql, ref);
  if (!row) throw Refusal.notFound('booking_not_found', `No booking ${ref}.`);
  const after = await cancelRow(
    s,
    row,
    screenedOrDropped('reason', reason, { maxLength: 300, multiline: true }),
    'ops',
  );
  await recordStaffActionOnce(s.sql, {
    staffId: staff.id,
    action: 'booking.cancel',
    subjectKind: 'booking',
    subjectId: ref,
    reason,
    details: { status_before: row.status, driver_id: row.driver_id },
  });
  return after;
}

async function cancelRow(
  s: Services,
  row: BookingWithDriver,
  reason: string | null,
  by: CancelInput['by'],
): Promise<BookingWithDriver> {
  if (row.status === 'completed') throw bookingClosed(row.ref);
  if (row.status === 'on_board') throw tripInProgress(row.ref);
  // The workflow stops offers, withdraws the job card and tells the driver; it refuses if the
  // journey completed or the passenger boarded in the meantime (a conflict: src/bookings/client.ts).
  // It closes once a booking can no longer be served (unassigned past pickup): nothing is running
  // to stop then, so the record alone is marked.
  if (row.status !== 'cancelled' && !(await s.bookings.cancel(row.ref, { reason, by }))) {
    await markCancelled(s.sql, row.ref, reason);
  }
  const after = await findBooking(s.sql, row.ref);
  if (after?.status === 'completed') throw bookingClosed(row.ref);
  return after ?? row;
}

const bookingClosed = (ref: string) =>
  Refusal.conflict('booking_closed', `Booking ${ref} is already completed and cannot be cancelled.`);

export const tripInProgress = (ref: string) =>
  Refusal.conflict(
    'trip_in_progress',
    `Booking ${ref} has its passenger on board: a trip under way cannot be cancelled.`,
  );
