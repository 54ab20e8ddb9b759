import { recordStaffAction, type StaffMember } from '../auth/staff.js';
import { findDriver } from './store.js';
import { Refusal } from '../refusal.js';
import type { Services } from '../services.js';
import type { BookingState } from '../model/bookings.js';
import { refusedAs } from '../bookings/client.js';
import { findBooking } from '../bookings/store.js';

/**
 * Ops hand a booking nobody holds to a driver they name (a stuck booking, a driver who rang in):
 * that driver alone gets the job card, in a round of its own, and accepts or declines in the app as
 * for any offer; a decline or silence puts the booking back in the cascade. Answered once the card
 * is out. Refused when a driver holds the job (release them first), when the driver named cannot
 * work (not approved, suspended) or is busy with another job card, and for an operator's job.
 */
export async function offerToDriverAsOps(
  s: Pick<Services, 'sql' | 'bookings'>,
  staff: StaffMember,
  ref: string,
  driverId: string,
  reason: string,
): Promise<BookingState> {
  const row = await findBooking(s.sql, ref);
  if (!row) throw Refusal.notFound('booking_not_found', `No booking ${ref}.`);
  const driver = await findDriver(s.sql, driverId);
  if (!driver)
    throw Refusal.notFound('driver_not_found', `No driver ${driverId}.`, {
      field: { name: 'driver_id', message: 'is not a driver' },
    });
  if (driver.status !== 'approved' || !driver.approved) {
    throw Refusal.conflict(
      'driver_cannot_work',
      `Driver ${driverId} is ${driver.status}: only an approved driver can be offered a job.`,
    );
  }
  let state: BookingState | null;
  try {
    state = await s.bookings.offerToDriver(ref, { driverId, driverName: driver.name });
  } catch (err) {
    if (refusedAs(err, 'already_assigned'))
      throw Refusal.conflict(
        'already_assigned',
        `Booking ${ref} has a driver (take the job off them first) or a driver already named for it.`,
      );
    if (refusedAs(err, 'operator_job'))
      throw Refusal.conflict('operator_job', `Booking ${ref} is an operator's job: its operator picks the driver.`);
    throw err;
  }
  if (!state) throw Refusal.conflict('booking_closed', `Booking ${ref} is no longer running.`);
  await recordStaffAction(s.sql, {
    staffId: staff.id,
    action: 'booking.offer_to_driver',
    subjectKind: 'booking',
    subjectId: ref,
    reason,
    details: { driver_id: driverId },
  });
  if (state.offer?.driverId !== driverId && state.driverId !== driverId) {
    throw Refusal.conflict(
      'driver_busy',
      `Driver ${driverId} holds another job card or a job at that time: the booking stays in the cascade.`,
    );
  }
  return state;
}
