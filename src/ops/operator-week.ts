import { placeForPeople } from '../model/places.js';
import { DateTime } from 'luxon';
import { fleetRequestsFor } from '../drivers/fleet-membership.js';
import { fleetDrivers, type OperatorJob } from '../partners/operator-fleet.js';
import type { Partner } from '../partners/store.js';
import { Refusal } from '../refusal.js';
import type { Services } from '../services.js';
import type { BookingStatus } from '../model/bookings.js';

// The operator dashboard in one request (issue 24): the operator's jobs for seven days from a day
// (today by default, Europe/London), each placed on its London pickup day for the week calendar,
// the drivers of its fleet and the drivers asking to join it. The page polls this one request.

type S = Pick<Services, 'sql' | 'now'>;

export const LONDON = 'Europe/London';
export const WEEK_DAYS = 7;

export type WeekJob = OperatorJob & { day: string };

/** The operator's jobs picking up from `from` (inclusive) to `until` (exclusive), by pickup time. */
export async function operatorJobsBetween(
  s: Pick<Services, 'sql'>,
  operatorId: string,
  from: Date,
  until: Date,
): Promise<WeekJob[]> {
  const rows = await s.sql<
    {
      ref: string;
      partner_job_ref: string | null;
      status: BookingStatus;
      pickup_at: Date;
      pickup: { label: string };
      dropoff: { label: string };
      pickup_query: string;
      dropoff_query: string;
      passengers: number;
      vehicle_type: string;
      passenger_name: string;
      notes: string | null;
      driver_id: string | null;
      driver_name: string | null;
      offered_to: string | null;
    }[]
  >`
    select b.ref, b.partner_job_ref, b.status, b.pickup_at, b.pickup, b.dropoff, b.pickup_query, b.dropoff_query, b.passengers, b.vehicle_type, b.passenger_name, b.notes,
           b.driver_id, d.name as driver_name,
           (select o.driver_id from offers o where o.booking_ref = b.ref and o.status = 'offered' order by o.offered_at desc limit 1) as offered_to
      from bookings b left join drivers d on d.id = b.driver_id
     where b.operator_id = ${operatorId} and b.pickup_at >= ${from} and b.pickup_at < ${until}
     order by b.pickup_at, b.ref`;
  return rows.map((r) => {
    const local = DateTime.fromJSDate(r.pickup_at, { zone: LONDON });
    return {
      ref: r.ref,
      jobRef: r.partner_job_ref,
      status: r.status,
      pickupAt: r.pickup_at.toISOString(),
      pickupLocal: local.toFormat('HH:mm'),
      day: local.toISODate()!,
      pickup: placeForPeople(r.pickup_query, r.pickup),
      dropoff: placeForPeople(r.dropoff_query, r.dropoff),
      passengers: r.passengers,
      vehicleType: r.vehicle_type,
      passengerName: r.passenger_name,
      notes: r.notes,
      driverId: r.driver_id,
      driverName: r.driver_name,
      offeredTo: r.offered_to,
    };
  });
}

/** The seven London days from `from` (default today), each with its label as the calendar shows it. */
export function weekFrom(now: Date, from?: string) {
  const today = DateTime.fromJSDate(now, { zone: LONDON }).startOf('day');
  const start = from ? DateTime.fromISO(from, { zone: LONDON }).startOf('day') : today;
  if (!start.isValid) throw Refusal.invalid('validation_failed', 'from must be a date, e.g. 2026-12-24.');
  const days = Array.from({ length: WEEK_DAYS }, (_, i) => {
    const d = start.plus({ days: i });
    return { date: d.toISODate(), label: d.toFormat('ccc d LLL'), today: d.hasSame(today, 'day') };
  });
  return { today: today.toISODate()!, start, end: start.plus({ days: WEEK_DAYS }), days };
}

export async function operatorDashboard(s: S, operator: Partner, from?: string) {
  const week = weekFrom(s.now(), from);
  const [jobs, drivers, requests] = await Promise.all([
    operatorJobsBetween(s, operator.id, week.start.toJSDate(), week.end.toJSDate()),
    fleetDrivers(s, operator),
    fleetRequestsFor(s, operator),
  ]);
  return {
    operator: operator.name,
    today: week.today,
    from: week.days[0]!.date,
    days: week.days,
    jobs,
    drivers,
    requests,
  };
}
