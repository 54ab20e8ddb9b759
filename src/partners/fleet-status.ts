import { tripInProgress } from '../bookings/cancel.js';
import { findBooking } from '../bookings/store.js';
import { reportTrip, respondToOffer } from '../drivers/offers.js';
import { Refusal } from '../refusal.js';
import type { BookingStatusUpdate } from '../schemas/partner-events.js';
import type { Services } from '../services.js';
import { offerId, type BookingStatus, type TripProgress } from '../model/bookings.js';
import type { Partner } from './store.js';

// A partner fleet's own dispatch system reporting on a job our cascade (or an operator) gave to one
// of its drivers (spec 4.13, booking-status hook). The fleet speaks for that driver: its updates go
// through exactly what the driver's own app calls (respondToOffer, reportTrip), so the same
// rules hold: first accept wins, trips only move forward, a dropped job is offered to another driver.

const TRIP_STEP: Record<'on_the_way' | 'arrived' | 'on_board' | 'completed', TripProgress> = {
  on_the_way: 'en_route',
  arrived: 'arrived',
  on_board: 'on_board',
  completed: 'completed',
};

interface FleetView {
  status: BookingStatus;
  /** The fleet's driver the booking is assigned to, and the offer they accepted. */
  assigned: { driverId: string; offerId: string } | null;
  /** The fleet's driver a job card is out with, waiting for an answer. */
  offered: { driverId: string; offerId: string } | null;
}

/** The booking as this fleet may see it: null unless one of its drivers holds the job or its open offer. */
async function fleetView(s: Pick<Services, 'sql'>, fleetId: string, ref: string): Promise<FleetView | null> {
  const [row] = await s.sql<
    {
      status: BookingStatus;
      driver_id: string | null;
      assigned_fleet: string | null;
      assigned_offer: string | null;
      offer_id: string | null;
      offered_driver: string | null;
      offered_fleet: string | null;
    }[]
  >`
    select b.status, b.driver_id, ad.partner_fleet_id as assigned_fleet,
           (select a.id from offers a where a.booking_ref = b.ref and a.driver_id = b.driver_id order by a.offered_at desc limit 1) as assigned_offer,
           o.id as offer_id, o.driver_id as offered_driver, od.partner_fleet_id as offered_fleet
      from bookings b
      left join drivers ad on ad.id = b.driver_id
      left join lateral (
        select id, driver_id from offers where booking_ref = b.ref and status = 'offered' order by offered_at desc limit 1
      ) o on true
      left join drivers od on od.id = o.driver_id
     where b.ref = ${ref}`;
  if (!row) return null;
  const assigned =
    row.driver_id && row.assigned_fleet === fleetId
      ? { driverId: row.driver_id, offerId: row.assigned_offer ?? offerId(ref, 0, row.driver_id) }
      : null;
  const offered =
    row.offer_id && row.offered_driver && row.offered_fleet === fleetId
      ? { driverId: row.offered_driver, offerId: row.offer_id }
      : null;
  return assigned || offered ? { status: row.status, assigned, offered } : null;
}

export async function applyFleetStatus(
  s: Services,
  fleet: Partner,
  u: BookingStatusUpdate,
): Promise<{ bookingReference: string; status: BookingStatus; driverId: string | null }> {
  if (!fleet.fleetId)
    throw Refusal.forbidden('not_a_fleet', 'Only a partner with a fleet of drivers reports booking statuses.');
  const ref = u.bookingReference;
  const view = await fleetView(s, fleet.fleetId, ref);
  // Someone else's booking, or one that left this fleet, is as good as not there.
  if (!view) throw Refusal.notFound('booking_not_found', `No booking ${ref} with a driver of yours.`);

  const answer = async (status?: BookingStatus) => {
    const row = await findBooking(s.sql, ref);
    return { bookingReference: ref, status: status ?? row?.status ?? view.status, driverId: row?.driver_id ?? null };
  };

  if (u.status === 'accepted') {
    // Already theirs: a retry.
    if (view.assigned) return answer();
    await respondToOffer(s, { ...view.offered!, decision: 'accept' });
    return answer();
  }
  if (u.status === 'cancelled') {
    // Giving back a job whose passenger is on board would strand them: refused, as any cancel then is.
    if (view.assigned && view.status === 'on_board') throw tripInProgress(ref);
    if (view.assigned) {
      await reportTrip(s, { ...view.assigned, event: 'drop' });
      return answer();
    }
    await respondToOffer(s, { ...view.offered!, decision: 'decline' });
    return answer();
  }

  if (!view.assigned)
    throw Refusal.conflict(
      'not_accepted',
      `Booking ${ref} is offered to your driver but not accepted yet: send accepted first.`,
    );
  // A fleet's system may know only "completed": from the pickup, the passenger was on board.
  if (u.status === 'completed' && view.status === 'arrived')
    await reportTrip(s, { ...view.assigned, event: 'on_board' });
  const { status } = await reportTrip(s, { ...view.assigned, event: TRIP_STEP[u.status] });
  return answer(status);
}
