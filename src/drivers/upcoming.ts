import { DateTime } from 'luxon';
import { Refusal } from '../refusal.js';
import type { Services } from '../services.js';
import { findDriver } from './store.js';
import { assertDriverMayWork } from './suspension.js';
import { refusedAs } from '../bookings/client.js';
import type { PlaceSnapshot } from '../model/bookings.js';
import { boardBookingHolder, readBoard, type BoardRow } from '../dispatch/board-store.js';
import { boardFares } from '../dispatch/offer-fares.js';

// The upcoming-jobs board (issue 24, advance allocation): pre-booked jobs nobody holds yet, picking
// up within UPCOMING_JOBS_HORIZON_HOURS, that this driver could take (in their home area or within a
// local driver's reach of where they are, and fitting them as dispatch would: src/dispatch/board-store.ts).
// A driver claims one ahead (the booking's claimUpcomingJob update); it is then theirs exactly as an
// accepted offer is: the passenger is told who is coming, and they confirm it on the day.

/** Jobs on one page of the board. */
export const BOARD_PAGE_SIZE = 20;

export interface BoardJob {
  booking_reference: string;
  pickup_time: string;
  pickup_time_london: string;
  pickup_area: string;
  dropoff_area: string;
  passengers: number;
  vehicle_type: string;
  wheelchair: boolean;
  /** What taking it pays this driver: their own approved rate's fare where it is below the quote. */
  fare_pence: number;
  own_rate: boolean;
  distance_miles: number;
  payment_method: string;
  meet_and_greet: boolean;
  assistance_dog: boolean;
  help_finding_vehicle: boolean;
  /** Miles from where the driver last was to the pickup, as the crow flies; null without a position. */
  miles_from_you: number | null;
}

/**
 * Where a place is, without the door: an airport or a station by its name (a public place), any
 * other by its postcode district and town. The full address is the claimant's only.
 */
export function areaOf(p: PlaceSnapshot): string {
  if (p.kind === 'airport' || p.kind === 'station') return p.label;
  const town = p.council ?? null;
  if (p.postcodeDistrict && town) return `${p.postcodeDistrict}, ${town}`;
  if (p.postcodeDistrict) return p.postcodeDistrict;
  if (town) return town;
  // No district or council held: the last part of the label is its town (never the house number).
  const parts = p.label
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  // A full postcode there is cut to its district: the full one all but names the door.
  return parts.length > 1
    ? parts[parts.length - 1]!.replace(/\b([A-Z]{1,2}\d[A-Z\d]?)\s*\d[A-Z]{2}$/i, '$1')
    : 'See the job once you take it';
}

const miles = (m: number) => Math.round((m / 1609.344) * 10) / 10;

function present(r: BoardRow, fare: { farePence: number; overrideId: string | null } | undefined): BoardJob {
  return {
    booking_reference: r.ref,
    pickup_time: r.pickup_at.toISOString(),
    pickup_time_london: DateTime.fromJSDate(r.pickup_at, { zone: 'Europe/London' }).toFormat('ccc d LLL, HH:mm'),
    pickup_area: areaOf(r.pickup),
    dropoff_area: areaOf(r.dropoff),
    passengers: r.passengers,
    vehicle_type: r.vehicle_type,
    wheelchair: r.wheelchair,
    fare_pence: fare?.farePence ?? r.fare_pence,
    own_rate: (fare?.overrideId ?? null) !== null,
    distance_miles: miles(r.distance_m),
    payment_method: r.payment_method,
    meet_and_greet: r.meet_and_greet,
    assistance_dog: r.assistance_dog,
    help_finding_vehicle: r.help_finding_vehicle,
    miles_from_you: r.from_driver_m === null ? null : miles(r.from_driver_m),
  };
}

/** One page (from 1) of the driver's board, soonest first, and whether another follows. */
export async function upcomingJobsFor(
  s: Pick<Services, 'sql' | 'config'>,
  driverId: string,
  page: number,
  now = new Date(),
): Promise<{ jobs: BoardJob[]; page: number; more: boolean; horizon_hours: number }> {
  // A suspended driver sees no jobs.
  await assertDriverMayWork(s, driverId);
  const hours = s.config.UPCOMING_JOBS_HORIZON_HOURS;
  const rows = await readBoard(s.sql, {
    driverId,
    now,
    until: new Date(now.getTime() + hours * 3600_000),
    limit: BOARD_PAGE_SIZE,
    offset: (page - 1) * BOARD_PAGE_SIZE,
  });
  const shown = rows.slice(0, BOARD_PAGE_SIZE);
  // Priced as an offer is, for a driver with their own approved rate; empty for any other.
  const fares = await boardFares(
    s.sql,
    shown.map((r) => r.ref),
    driverId,
    now,
  );
  return {
    jobs: shown.map((r, i) => present(r, fares[i])),
    page,
    more: rows.length > BOARD_PAGE_SIZE,
    horizon_hours: hours,
  };
}

const taken = () => Refusal.conflict('job_taken', 'Another driver has already taken this job.');

/**
 * The driver takes a job from their board. Answers their offer (the job's id in the app's feed);
 * a repeat by the driver who has it answers the same. Refused (conflict) when someone else has it,
 * it has closed or started, or it is not one they can take (no longer on their board, or the
 * booking's own claim finds them busy or no longer fitting).
 */
export async function claimUpcomingJob(
  s: Pick<Services, 'sql' | 'config' | 'bookings'>,
  driverId: string,
  ref: string,
  now = new Date(),
): Promise<{ ref: string; offerId: string }> {
  await assertDriverMayWork(s, driverId);
  const holder = await boardBookingHolder(s.sql, ref);
  if (!holder) throw Refusal.notFound('booking_not_found', `No upcoming job ${ref}.`);
  if (holder.driver_id === driverId && holder.offer_id) return { ref, offerId: holder.offer_id };
  if (holder.driver_id !== null) throw taken();
  if (['cancelled', 'completed', 'no_show'].includes(holder.status))
    throw Refusal.conflict('booking_closed', `Booking ${ref} is ${holder.status.replace('_', ' ')}.`);
  const until = new Date(now.getTime() + s.config.UPCOMING_JOBS_HORIZON_HOURS * 3600_000);
  const [onBoard] = await readBoard(s.sql, { driverId, now, until, limit: 1, offset: 0, ref });
  if (!onBoard) {
    throw Refusal.conflict(
      'not_on_your_board',
      `Booking ${ref} is not a job you can take now: it is out of your area or time, being offered to a driver, or does not fit your car or your other jobs.`,
    );
  }
  const driver = await findDriver(s.sql, driverId);
  let claimed;
  try {
    // Not a job they can take after all (busy then, no longer fitting): cannot_take_job, in the
    // workflow's words (src/bookings/client.ts).
    claimed = await s.bookings.claimUpcomingJob(ref, { driverId, driverName: driver?.name ?? driverId });
  } catch (err) {
    if (refusedAs(err, 'already_assigned')) throw taken();
    if (refusedAs(err, 'booking_closed'))
      throw Refusal.conflict('booking_closed', `Booking ${ref} is closed or being cancelled.`);
    throw err;
  }
  if (!claimed) throw Refusal.conflict('booking_closed', `Booking ${ref} has closed.`);
  return { ref, offerId: claimed.offerId };
}
