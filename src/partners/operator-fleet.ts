import { placeForPeople } from '../model/places.js';
import { DateTime } from 'luxon';
import { Refusal } from '../refusal.js';
import type { Services } from '../services.js';
import { refusedAs } from '../bookings/client.js';
import type { BookingStatus } from '../model/bookings.js';
import type { Partner } from './store.js';

// The operator's own dashboard, calendar and fleet dispatch (spec 3 "Partner job", 4.11): jobs sent
// through the operator bridge never enter central dispatch. The operator sees them by day and
// assigns each to a driver of its own fleet, who gets the job card as usual.

export interface OperatorJob {
  ref: string;
  jobRef: string | null;
  status: BookingStatus;
  pickupAt: string;
  pickupLocal: string;
  pickup: string;
  dropoff: string;
  passengers: number;
  vehicleType: string;
  passengerName: string;
  notes: string | null;
  driverId: string | null;
  driverName: string | null;
  /** The driver a job card is out with, waiting for an answer. */
  offeredTo: string | null;
}

export interface FleetDriver {
  id: string;
  name: string;
  vehicle: string;
  plate: string;
  seats: number;
  wheelchairAccessible: boolean;
  online: boolean;
}

/** The operator's jobs picking up on a London calendar day, by pickup time. */
export async function operatorJobsOn(s: Pick<Services, 'sql'>, operator: Partner, day: string): Promise<OperatorJob[]> {
  const start = DateTime.fromISO(day, { zone: 'Europe/London' }).startOf('day');
  if (!start.isValid) throw Refusal.invalid('validation_failed', 'day must be a date, e.g. 2026-12-24.');
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
     where b.operator_id = ${operator.id}
       and b.pickup_at >= ${start.toJSDate()} and b.pickup_at < ${start.plus({ days: 1 }).toJSDate()}
     order by b.pickup_at, b.ref`;
  return rows.map((r) => ({
    ref: r.ref,
    jobRef: r.partner_job_ref,
    status: r.status,
    pickupAt: r.pickup_at.toISOString(),
    pickupLocal: DateTime.fromJSDate(r.pickup_at, { zone: 'Europe/London' }).toFormat('HH:mm'),
    pickup: placeForPeople(r.pickup_query, r.pickup),
    dropoff: placeForPeople(r.dropoff_query, r.dropoff),
    passengers: r.passengers,
    vehicleType: r.vehicle_type,
    passengerName: r.passenger_name,
    notes: r.notes,
    driverId: r.driver_id,
    driverName: r.driver_name,
    offeredTo: r.offered_to,
  }));
}

/**
 * The approved drivers the operator has let into its fleet. partner_fleet_id is set only by a grant
 * (src/drivers/fleet-membership.ts), never by what an applicant named, so assigning reads this.
 */
export async function fleetDrivers(s: Pick<Services, 'sql'>, operator: Partner): Promise<FleetDriver[]> {
  if (!operator.fleetId) return [];
  const rows = await s.sql<
    {
      id: string;
      name: string;
      vehicle_description: string;
      plate: string;
      seats: number;
      wheelchair_accessible: boolean;
      online: boolean;
    }[]
  >`
    select id, name, vehicle_description, plate, seats, wheelchair_accessible, online from drivers
     where partner_fleet_id = ${operator.fleetId} and approved order by name, id`;
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    vehicle: r.vehicle_description,
    plate: r.plate,
    seats: r.seats,
    wheelchairAccessible: r.wheelchair_accessible,
    online: r.online,
  }));
}

/** Offers one of the operator's jobs to a driver of its fleet; answers once the job card is out. */
export async function assignOperatorJob(
  s: Services,
  operator: Partner,
  ref: string,
  driverId: string,
): Promise<OperatorJob> {
  const [booking] = await s.sql<
    { pickup_at: Date }[]
  >`select pickup_at from bookings where ref = ${ref} and operator_id = ${operator.id}`;
  if (!booking) throw Refusal.notFound('job_not_found', `No job ${ref} of yours.`);
  const driver = (await fleetDrivers(s, operator)).find((d) => d.id === driverId);
  if (!driver) throw Refusal.notFound('driver_not_in_fleet', `No driver ${driverId} in your fleet.`);
  // The operator is told in its own terms: a job, not a booking; closed whether the workflow
  // refused or has already finished.
  let state;
  try {
    state = await s.bookings.assignFleetDriver(ref, { operatorId: operator.id, driverId, driverName: driver.name });
  } catch (err) {
    if (refusedAs(err, 'already_assigned'))
      throw Refusal.conflict('already_assigned', 'This job already has a driver or a job card waiting for an answer.');
    if (refusedAs(err, 'booking_closed')) throw jobClosed();
    throw err;
  }
  if (!state) throw jobClosed();
  if (state.offer?.driverId !== driverId && state.driverId !== driverId) {
    throw Refusal.conflict('driver_busy', `${driver.name} is on another job; pick another driver.`);
  }
  const day = DateTime.fromJSDate(booking.pickup_at, { zone: 'Europe/London' }).toISODate()!;
  const job = (await operatorJobsOn(s, operator, day)).find((j) => j.ref === ref);
  return job!;
}

const jobClosed = () => Refusal.conflict('job_closed', 'This job is closed.');
