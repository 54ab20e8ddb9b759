import { placeForPeople } from '../model/places.js';
import { DateTime } from 'luxon';
import { ACTIVE_STATUSES, type BookingWithDriver } from '../bookings/store.js';
import { precisionNote, precisionOf } from '../geo/precision.js';
import type { Services } from '../services.js';
import { listInvoices } from '../billing/subscription-store.js';
import { NEXT_TRIP_STEPS } from '../model/bookings.js';
import { LICENCE_REMINDER_DAYS } from '../model/drivers.js';
import { whyNotReceivingJobs, type NotReceivingJobs } from '../dispatch/policy.js';
import { findDriver, type DriverRow } from './store.js';
import { assertDriverMayWork } from './suspension.js';

// What the driver app shows a signed-in driver: their jobs (offers open to them and the jobs they
// hold) and how they are doing (rides, earnings, dead mileage, weeks and the subscription). A
// driver only ever sees their own.

type JobRow = BookingWithDriver & {
  offer_id: string;
  offer_status: string;
  offer_expires_at: Date;
  offer_fare_pence: number | null;
};

export async function jobsFor(s: Pick<Services, 'sql'>, driverId: string) {
  // A suspended driver sees no jobs, and so no passenger's name, phone or notes.
  await assertDriverMayWork(s, driverId);
  const rows = await s.sql<JobRow[]>`
    select b.*, o.id as offer_id, o.status as offer_status, o.expires_at as offer_expires_at, o.fare_pence as offer_fare_pence,
           null as d_name, null as d_vehicle, null as d_plate, null as d_payment_options,
           p.amount_pence as paid_pence, p.method as paid_method, p.recorded_at as paid_at
      from offers o join bookings b on b.ref = o.booking_ref
      left join lateral (
        select amount_pence, method, recorded_at from effective_payment_records e where e.booking_ref = b.ref order by e.id desc limit 1
      ) p on true
     where o.driver_id = ${driverId}
       and ((o.status = 'offered' and o.expires_at > now())
            or (o.status = 'accepted' and b.driver_id = ${driverId}
                and (b.status in ${s.sql(ACTIVE_STATUSES as string[])} or (b.status = 'completed' and p.amount_pence is null))))
     order by b.pickup_at, o.id`;
  return rows.map((r) => presentJob(r));
}

const awaitingConfirmation = (r: JobRow) =>
  r.status === 'assigned' && r.driver_confirm_asked_at != null && r.driver_confirmed_at == null;

function presentJob(r: JobRow) {
  const mine = r.offer_status === 'accepted';
  // An open card's fare is the one it offered (the driver's own approved rate, where they have
  // one); a job they hold, the booking's fare in force.
  const fare = mine ? r.fare_pence : (r.offer_fare_pence ?? r.fare_pence);
  return {
    offer_id: r.offer_id,
    offer: mine ? ('accepted' as const) : ('offered' as const),
    offer_expires_at: mine ? null : r.offer_expires_at.toISOString(),
    booking_reference: r.ref,
    status: r.status,
    pickup_time: r.pickup_at.toISOString(),
    pickup: placeForPeople(r.pickup_query, r.pickup),
    pickup_note: precisionNote(precisionOf(r.pickup)),
    dropoff: placeForPeople(r.dropoff_query, r.dropoff),
    passengers: r.passengers,
    vehicle_type: r.vehicle_type,
    wheelchair: r.wheelchair,
    fare_pence: fare,
    own_rate: fare !== (r.quoted_fare_pence ?? r.fare_pence),
    payment_method: r.payment_method,
    notes: r.notes,
    flight_number: r.flight_number,
    meet_and_greet: r.meet_and_greet,
    assistance_dog: r.assistance_dog,
    help_finding_vehicle: r.help_finding_vehicle,
    // Who to collect, only once the job is theirs.
    passenger: mine ? { name: r.passenger_name, phone: r.passenger_phone } : null,
    // A job accepted well ahead is confirmed on the day, once asked (workflows/bookings/workflow.ts).
    next_steps: mine ? [...(awaitingConfirmation(r) ? ['confirm'] : []), ...(NEXT_TRIP_STEPS[r.status] ?? [])] : [],
    awaiting_payment: mine && r.status === 'completed' && r.paid_pence === null,
  };
}
export type DriverJob = ReturnType<typeof presentJob>;

export async function dashboardFor(s: Pick<Services, 'sql' | 'subscriptions' | 'driverMaps'>, driverId: string) {
  const d = await findDriver(s.sql, driverId);
  if (!d) return null;
  const [stats] = await s.sql<{ completed: number; earnings: number; dead_m: number }[]>`
    select (select count(*)::int from bookings where driver_id = ${driverId} and status = 'completed') as completed,
           (select coalesce(sum(amount_pence), 0)::int from effective_payment_records where driver_id = ${driverId}) as earnings,
           -- Distance to each pickup when the job was offered (straight line), for the jobs driven.
           (select coalesce(sum(x.distance_m), 0)::int from bookings b
              join lateral (select distance_m from dispatch_decisions dd where dd.booking_ref = b.ref and dd.driver_id = b.driver_id
                            order by dd.round desc limit 1) x on true
             where b.driver_id = ${driverId} and b.status = 'completed') as dead_m`;
  const invoices = await listInvoices(s.sql, driverId);
  // Null for an applicant, or a driver from before subscriptions: nothing to show yet.
  const subscription = await s.subscriptions.state(driverId);
  return {
    driver: {
      id: d.id,
      name: d.name,
      status: d.status,
      online: d.online,
      tier: d.tier,
      vehicle: d.vehicle_description,
      plate: d.plate,
      driver_licence_expires: d.driver_licence_expires?.toISOString().slice(0, 10) ?? null,
      vehicle_licence_expires: d.vehicle_licence_expires?.toISOString().slice(0, 10) ?? null,
    },
    receiving_jobs: receivingJobs(d, new Date()),
    licence_notice: licenceNotice(d, new Date()),
    completed_rides: stats?.completed ?? 0,
    earnings_pence: stats?.earnings ?? 0,
    dead_mileage_miles: Math.round(((stats?.dead_m ?? 0) / 1609.344) * 10) / 10,
    paid_weeks: invoices.filter((i) => i.feePence > 0).length,
    free_weeks: invoices.filter((i) => i.feePence === 0).length,
    subscription: subscription && {
      state: subscription.state,
      trial_ends_at: subscription.trialEndsAt,
      trial_days_remaining: subscription.trialDaysRemaining,
      weeks_billed: subscription.weeksBilled,
    },
    invoices: invoices.map((i) => ({
      week_start: i.weekStart,
      week_end: i.weekEnd,
      earnings_pence: i.earningsPence,
      fee_pence: i.feePence,
      sms_count: i.smsCount,
      sms_pence: i.smsPence,
      total_pence: i.totalPence,
      status: i.status,
    })),
    map_service: await s.driverMaps.status(driverId),
  };
}

/**
 * Within a fortnight of a licence running out, the app says so on every look, as the licence
 * watch's texts do 14 and 3 days ahead (workflows/drivers/workflow.ts); null otherwise, or once it
 * has run out (receiving_jobs says that).
 */
export function licenceNotice(
  d: Pick<DriverRow, 'driver_licence_expires' | 'vehicle_licence_expires'>,
  now: Date,
): string | null {
  const day = now.toISOString().slice(0, 10);
  const soonest = (
    [
      ['driver licence', d.driver_licence_expires],
      ['vehicle licence', d.vehicle_licence_expires],
    ] as const
  )
    .flatMap(([what, at]) => (at ? [{ what, expires: at.toISOString().slice(0, 10) }] : []))
    .filter((x) => x.expires >= day)
    .sort((a, b) => a.expires.localeCompare(b.expires))[0];
  if (!soonest) return null;
  const daysLeft = Math.round((Date.parse(soonest.expires) - Date.parse(day)) / 86_400_000);
  if (daysLeft > LICENCE_REMINDER_DAYS) return null;
  const when = daysLeft === 0 ? 'today' : daysLeft === 1 ? 'tomorrow' : `in ${daysLeft} days`;
  return `Your ${soonest.what} runs out ${when} (${soonest.expires}): send the renewed one under Your papers, or job offers stop after that day.`;
}

/** What the driver is told when the service would pass them over for every job now (never silently). */
const NOT_RECEIVING: Record<NotReceivingJobs, (lastSeen: string | null) => string> = {
  not_approved: () => 'Your account is not approved to take jobs.',
  licence_expired: () =>
    'A licence we hold for you has expired: send the renewed one under Your papers; jobs come again once staff approve it.',
  offline: () => 'You are offline: go online to get jobs.',
  no_location: () => 'We have not had your location: allow location for this page and keep it open.',
  stale_location: (lastSeen) =>
    `We have not had your location since ${lastSeen}: keep this page open with location allowed, or you get no jobs.`,
};

/** Whether the driver gets offers now and, if not, why in plain words (src/dispatch/policy.ts decides). */
export function receivingJobs(
  d: Pick<DriverRow, 'status' | 'online' | 'location_at' | 'driver_licence_expires' | 'vehicle_licence_expires'>,
  now: Date,
) {
  const expiries = [d.driver_licence_expires, d.vehicle_licence_expires]
    .filter((x): x is Date => x !== null)
    .map((x) => x.getTime());
  // A licence is good through its expiry date (as dispatch reads it: src/dispatch/store.ts).
  const licenceInvalidFrom = expiries.length > 0 ? new Date(Math.min(...expiries) + 24 * 3600_000) : null;
  const reason = whyNotReceivingJobs(
    { approved: d.status === 'approved', online: d.online, locationAt: d.location_at, licenceInvalidFrom },
    now,
  );
  const lastSeen = d.location_at
    ? DateTime.fromJSDate(d.location_at, { zone: 'Europe/London' }).toFormat('HH:mm')
    : null;
  return {
    yes: reason === null,
    reason,
    message: reason ? NOT_RECEIVING[reason](lastSeen) : null,
    location_at: d.location_at?.toISOString() ?? null,
  };
}
