import { recordStaffAction, type StaffMember } from '../auth/staff.js';
import { Refusal } from '../refusal.js';
import type { Services } from '../services.js';
import { findBooking } from './store.js';

/** A driver ops may take a job off: they hold it, and the passenger is not yet on board. */
const RELEASABLE = ['assigned', 'en_route', 'arrived'];

/**
 * Ops take a job off the driver who holds it (stuck, unreachable, no longer right for it): the
 * booking's workflow lets them go as if they had given it back, tells them and the passenger, and
 * dispatches it again from the start of the cascade, never to them. Recorded in staff_actions. A
 * trip with the passenger on board is ended instead (end-trip.ts); a booking without a driver has
 * nobody to release.
 */
export async function releaseDriverAsOps(
  s: Pick<Services, 'sql' | 'bookings'>,
  staff: StaffMember,
  ref: string,
  reason: string,
): Promise<{ ref: string; driverId: string }> {
  const row = await findBooking(s.sql, ref);
  if (!row) throw Refusal.notFound('booking_not_found', `No booking ${ref}.`);
  if (row.status === 'on_board')
    throw Refusal.conflict('trip_in_progress', `Booking ${ref} has its passenger on board: end the trip instead.`);
  if (!row.driver_id || !RELEASABLE.includes(row.status)) {
    throw Refusal.conflict(
      'no_driver_to_release',
      `Booking ${ref} is ${row.status.replace(/_/g, ' ')}: no driver holds it.`,
    );
  }
  if (!(await s.bookings.driverDropped(ref, { driverId: row.driver_id, reason: 'released' })))
    throw Refusal.conflict('booking_closed', `Booking ${ref} is no longer running.`);
  await recordStaffAction(s.sql, {
    staffId: staff.id,
    action: 'booking.release_driver',
    subjectKind: 'booking',
    subjectId: ref,
    reason,
    details: { driver_id: row.driver_id, status_before: row.status },
  });
  return { ref, driverId: row.driver_id };
}
