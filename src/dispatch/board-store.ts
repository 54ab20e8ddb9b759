import type { Sql } from '../db/sql.js';
import { NATIONAL_DEFAULT_AREA } from '../pricing/tariff-book.js';
import { ACTIVE_STATUSES, type PlaceSnapshot } from '../model/bookings.js';
import { PHV_MAX_PASSENGER_SEATS } from '../model/operator-licences.js';
import { DEFAULT_CASCADE_POLICY, JOB_BUFFER_MINUTES, VEHICLE_SERVED_BY } from './policy.js';

// The upcoming-jobs board's read (src/drivers/upcoming.ts): pre-booked jobs nobody holds that one
// driver could take, in one statement. The rules are policy.ts's, said where they are applied in
// SQL so that the board never lists a job the claim (activities/bookings/dispatch.ts,
// claimUpcomingJob, which decides with policy.ts itself) would refuse for the same reason:
// - reach: the pickup is in the driver's own council area, or within a local driver's reach
//   (DEFAULT_CASCADE_POLICY.maxDistanceMeters.local) of where they last were; a local driver's
//   only ever in their own area ('out_of_area'), a partner driver's only with their fleet approved;
// - seats, class (VEHICLE_SERVED_BY), wheelchair access, a licence valid at pickup;
// - 'busy': none of their own active jobs within JOB_BUFFER_MINUTES of the trip;
// - approved, and the sandbox and live service never meet.

/** Booking statuses the board lists: pre-booked and waiting, or every tier exhausted for now. */
export const BOARD_STATUSES = ['scheduled', 'unassigned'] as const;

export interface BoardRow {
  ref: string;
  pickup_at: Date;
  pickup: PlaceSnapshot;
  dropoff: PlaceSnapshot;
  pickup_area: string;
  fare_pence: number;
  distance_m: number;
  duration_s: number;
  passengers: number;
  vehicle_type: string;
  wheelchair: boolean;
  payment_method: string;
  meet_and_greet: boolean;
  assistance_dog: boolean;
  help_finding_vehicle: boolean;
  /** Straight-line metres from the driver's last position to the pickup; null without a position. */
  from_driver_m: number | null;
}

/** Straight-line metres between the driver's position (d) and the booking's pickup (b), as src/geo/haversine.ts. */
const DRIVER_TO_PICKUP = `2 * 6371008.8 * asin(least(1, sqrt(
    power(sin(radians(((b.pickup->>'lat')::float8 - d.lat) / 2)), 2)
  + cos(radians(d.lat)) * cos(radians((b.pickup->>'lat')::float8)) * power(sin(radians(((b.pickup->>'lon')::float8 - d.lon) / 2)), 2))))`;

/**
 * One page of the board for a driver, soonest pickup first (`limit` + 1 rows are read to tell
 * whether there is more), or only booking `ref` when named (the claim's check). Empty for a driver
 * who is not approved.
 */
export async function readBoard(
  sql: Sql,
  q: { driverId: string; now: Date; until: Date; limit: number; offset: number; ref?: string },
): Promise<BoardRow[]> {
  const buffer = `${JOB_BUFFER_MINUTES} minutes`;
  const distance = sql.unsafe(DRIVER_TO_PICKUP);
  return sql<BoardRow[]>`
    select b.ref, b.pickup_at, b.pickup, b.dropoff, b.pickup_area, b.fare_pence, b.distance_m, b.duration_s, b.passengers,
           b.vehicle_type, b.wheelchair, b.payment_method, b.meet_and_greet, b.assistance_dog, b.help_finding_vehicle,
           case when d.lat is null or d.lon is null then null else round(${distance})::int end as from_driver_m
      from drivers d
      join bookings b
        on b.status in ${sql(BOARD_STATUSES as unknown as string[])} and b.driver_id is null and b.operator_id is null
       and b.pickup_at > ${q.now} and b.pickup_at <= ${q.until}
       and b.sandbox = d.sandbox
       -- A local driver takes jobs of their own area only (policy.ts's out_of_area)...
       and (d.tier <> 'local' or b.pickup_area = d.home_area)
       -- ...and, as anyone, one in their own council's area, or near where they last were (the
       -- national default is no place but every area without a council table of its own).
       and ((b.pickup_area = d.home_area and d.home_area <> ${NATIONAL_DEFAULT_AREA})
            or (d.lat is not null and d.lon is not null and ${distance} <= ${DEFAULT_CASCADE_POLICY.maxDistanceMeters.local}))
       and (d.tier <> 'partner' or exists (select 1 from partner_fleets f where f.id = d.partner_fleet_id and f.approved))
       -- A partner fleet's driver takes our job as a sub-contract: the fleet's operator licence of the
       -- kind the vehicle needs is on file and valid at pickup (policy.ts's operator_licence_* rules).
       and (d.tier <> 'partner' or exists (
             select 1 from operator_licences l
              where l.holder_kind = 'partner_fleet' and l.holder_id = d.partner_fleet_id
                and l.kind = case when d.seats > ${PHV_MAX_PASSENGER_SEATS} then 'psv' else 'private_hire' end
                and (l.expires_on + 1)::timestamptz > greatest(b.pickup_at, ${q.now})))
       and b.passengers <= d.seats
       and (b.vehicle_type = d.vehicle_type or coalesce((${sql.json(VEHICLE_SERVED_BY)}::jsonb -> b.vehicle_type) @> to_jsonb(d.vehicle_type), false))
       and (not (b.wheelchair or b.vehicle_type = 'wav') or d.wheelchair_accessible)
       -- A medical exemption in date at pickup, for what it exempts (policy.ts's exempt_from_* rules).
       and not exists (
             select 1 from driver_medical_exemptions e
              where e.driver_id = d.id and (e.expires_on + 1)::timestamptz > greatest(b.pickup_at, ${q.now})
                and ((e.exempts = 'assistance_dogs' and b.assistance_dog)
                     or (e.exempts = 'wheelchair_assistance' and (b.wheelchair or b.vehicle_type = 'wav'))))
       -- A licence is valid through its expiry date, and must be at pickup (policy.ts's licence_expired).
       and coalesce((least(d.driver_licence_expires, d.vehicle_licence_expires) + 1)::timestamptz > b.pickup_at, true)
       and not exists (
         select 1 from bookings o
          where o.driver_id = d.id and o.ref <> b.ref and o.status in ${sql(ACTIVE_STATUSES as string[])}
            and o.pickup_at - ${buffer}::interval < b.pickup_at + make_interval(secs => b.duration_s)
            and o.pickup_at + make_interval(secs => o.duration_s) + ${buffer}::interval > b.pickup_at)
       -- Not one this driver held and gave back, nor one whose job card is out to someone now.
       and not exists (select 1 from offers x where x.booking_ref = b.ref and x.driver_id = d.id and x.status = 'accepted')
       and not exists (select 1 from offers x where x.booking_ref = b.ref and x.status = 'offered' and x.expires_at > ${q.now})
     where d.id = ${q.driverId} and d.approved and d.status = 'approved'
       and (${q.ref ?? null}::text is null or b.ref = ${q.ref ?? null})
     order by b.pickup_at, b.ref
     limit ${q.limit + 1} offset ${q.offset}`;
}

/** Who holds booking `ref` now, and through which accepted offer (for a repeated claim and a clear refusal). */
export async function boardBookingHolder(
  sql: Sql,
  ref: string,
): Promise<{ status: string; driver_id: string | null; operator_id: string | null; offer_id: string | null } | null> {
  const [row] = await sql<
    { status: string; driver_id: string | null; operator_id: string | null; offer_id: string | null }[]
  >`
    select b.status, b.driver_id, b.operator_id,
           (select o.id from offers o where o.booking_ref = b.ref and o.driver_id = b.driver_id and o.status = 'accepted'
             order by o.round desc limit 1) as offer_id
      from bookings b where b.ref = ${ref}`;
  return row ?? null;
}

/** Marks the offer a driver took from the board (the decision log and the ops view say so). */
export async function markClaimedFromBoard(sql: Sql, offerId: string): Promise<void> {
  await sql`update offers set claimed_from_board = true where id = ${offerId}`;
}
