import { recordStaffActionOnce, type StaffMember } from '../auth/staff.js';
import { Refusal } from '../refusal.js';
import type { Services } from '../services.js';
import type { EndTripSettlement, PaymentRecord } from '../model/bookings.js';
import { effectivePayments } from '../settlement/payments-store.js';
import { findBooking } from './store.js';

/**
 * Ops end a trip with the passenger on board: it is completed and settled in one step, with what
 * was received or with nothing due (and why). The booking's workflow writes the immutable payment
 * record (recorded by ops) and tells the passenger and the driver; the staff action is recorded
 * here, once. A completed trip nobody has settled yet is settled the same way. Anything else is
 * refused: 409 trip_not_in_progress, or trip_already_settled. Idempotent: a repeat answers the
 * record the first one wrote.
 */
export async function endTrip(
  s: Pick<Services, 'sql' | 'bookings'>,
  staff: StaffMember,
  ref: string,
  r: { reason: string; settlement: EndTripSettlement },
): Promise<{ ref: string; payment: PaymentRecord; endedNow: boolean }> {
  const row = await findBooking(s.sql, ref);
  if (!row) throw Refusal.notFound('booking_not_found', `No booking ${ref}.`);
  let result = await s.bookings.endTrip(ref, r);
  if (!result) {
    // Closed: settled (or closed unsettled a week after completing), cancelled, or never served.
    // Once its trip is ended and settled the workflow closes: a repeat is answered from the record.
    const settled = row.status === 'completed' ? (await effectivePayments(s.sql, ref)).at(-1) : undefined;
    if (settled?.recordedBy === 'ops') result = { payment: settled, endedNow: false };
    else if (settled) throw Refusal.conflict('trip_already_settled', `Booking ${ref} is already settled.`);
    else
      throw Refusal.conflict(
        'trip_not_in_progress',
        `Booking ${ref} is ${row.status} and no longer running: there is no trip to end.`,
      );
  }
  const { payment } = result;
  // Recorded by whichever request ended it; a retry after a crash between the two records it then.
  await recordStaffActionOnce(s.sql, {
    staffId: staff.id,
    action: 'booking.end_trip',
    subjectKind: 'booking',
    subjectId: ref,
    reason: r.reason,
    details: {
      driver_id: row.driver_id,
      payment_record: payment.id,
      amount_pence: payment.amountPence,
      method: payment.method,
      ...('nothingDue' in r.settlement ? { nothing_due: r.settlement.nothingDue } : {}),
    },
  });
  return { ref, payment: result.payment, endedNow: result.endedNow };
}
