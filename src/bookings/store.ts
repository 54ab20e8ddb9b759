import type { Sql } from '../db/sql.js';
import type { VehicleType } from '../pricing/types.js';
import { shownDriverDetail } from '../screening/driver-details.js';
import type { DriverPaymentOptions } from '../settlement/payment-options.js';
import { SEARCH_PAST_PICKUP_MS, TERMINAL_STATUSES } from '../model/bookings.js';
import type {
  AmendedFare,
  AmendedRoute,
  BookingStatus,
  JobSpec,
  NewBooking,
  FareProvenance,
  PlaceSnapshot,
} from '../model/bookings.js';

// The bookings table: what lookups, pages and job cards read. The booking workflow owns every
// transition and writes it here through activities; routes only read (and the one exception, a
// cancel after the workflow has closed, is markCancelled below).

export interface BookingRow {
  ref: string;
  status: BookingStatus;
  source: string;
  quote_id: string | null;
  passenger_name: string;
  passenger_phone: string;
  passenger_email: string | null;
  email_verified: boolean;
  payment_method: string;
  flight_number: string | null;
  meet_and_greet: boolean;
  assistance_dog: boolean;
  help_finding_vehicle: boolean;
  notes: string | null;
  agent: string | null;
  pickup_query: string;
  dropoff_query: string;
  pickup: PlaceSnapshot;
  dropoff: PlaceSnapshot;
  pickup_area: string;
  pickup_at: Date;
  passengers: number;
  vehicle_type: VehicleType;
  wheelchair: boolean;
  fare_pence: number;
  fare_source: string;
  distance_m: number;
  duration_s: number;
  driver_id: string | null;
  assigned_at: Date | null;
  cancelled_at: Date | null;
  cancel_reason: string | null;
  payment_state: string;
  request_identity: string | null;
  /**
   * The fare quoted to the passenger, kept aside while the driver who took the job charges their own
   * approved rate (fare_pence, never above it); null when fare_pence is the quoted fare (migration 00028).
   */
  quoted_fare_pence?: number | null;
  /** The driver's approved rate that priced fare_pence, when one does. */
  driver_rate_override_id?: string | null;
  /** The signed-in passenger an assistant booked for (MCP); null for every other route. */
  passenger_account_id: string | null;
  /** A driver who accepted well ahead: when they were asked to confirm on the day, and when they did (migration 00027). */
  driver_confirm_asked_at?: Date | null;
  driver_confirmed_at?: Date | null;
  /**
   * Why this booking is an exchange fleet's job, recorded when it was written (migration 00035): its
   * job came marked as handed over by an exchange, or its sender is our partner record of an
   * exchange fleet. Such a booking is never handed to a fleet (docs/exchange.md, "One hop").
   */
  exchange_origin?: 'handed_over' | 'fleet_partner' | null;
  /** Bumped by each claim through the passenger's phone (migration 00036, src/bookings/ownership.ts). */
  claim_generation?: number;
  /** A sandbox booking (migration 00023, docs/partners.md "Sandbox keys"). */
  sandbox?: boolean;
  /** How the fare was reached (migration 00038); null for agreed fares and older bookings. */
  fare_provenance?: FareProvenance | null;
  created_at: Date;
}

/**
 * A booking with the public facts of its driver, as lookups and pages show it: our driver's, or
 * the driver of the exchange fleet holding the job (then driver_id is null and d_name is set).
 */
export type BookingWithDriver = BookingRow & {
  d_name: string | null;
  d_vehicle: string | null;
  d_plate: string | null;
  /** How the assigned driver takes payment (drivers.payment_options). */
  d_payment_options: DriverPaymentOptions | null;
  /**
   * Another licensed operator providing the ride, when the booking was sub-contracted (a partner
   * fleet's driver holds it, or an exchange fleet): its name and the licence on file (docs/records.md).
   */
  provider_name?: string | null;
  provider_licence?: string | null;
  /** The payment record in force, if the trip has been settled. */
  paid_pence: number | null;
  paid_method: string | null;
  paid_at: Date | null;
};

/** Statuses in which a driver is committed to the job: the model's, where dispatch reads them too. */
export { ACTIVE_STATUSES } from '../model/bookings.js';

/**
 * `workflowType`: the booking workflow writing the record (bookings.workflow_type, migration 00048).
 * The row as written (its triggers' `sandbox` and all), or null when it was there already (a retry).
 */
export async function insertBooking(
  sql: Sql,
  b: NewBooking,
  job: JobSpec,
  status: BookingStatus,
  workflowType: string | null = null,
): Promise<BookingRow | null> {
  const [row] = await sql<BookingRow[]>`
    insert into bookings (ref, status, source, quote_id, passenger_name, passenger_phone, passenger_email, email_verified,
                          payment_method, flight_number, meet_and_greet, notes, agent, pickup_query, dropoff_query, pickup,
                          dropoff, pickup_area, pickup_at, passengers, vehicle_type, wheelchair, fare_pence, fare_source,
                          distance_m, duration_s, request_identity, partner_id, partner_job_ref, operator_id,
                          passenger_account_id, rate_override_id, fare_provenance, workflow_type, exchange_origin,
                          assistance_dog, help_finding_vehicle)
    values (${b.ref}, ${status}, ${b.source}, ${b.quoteId}, ${b.passengerName}, ${b.passengerPhone}, ${b.passengerEmail},
            ${b.emailVerified}, ${b.paymentMethod}, ${b.flightNumber}, ${b.meetAndGreet ?? false}, ${job.notes}, ${b.agent},
            ${b.pickupQuery}, ${b.dropoffQuery}, ${sql.json(b.pickup as never)}, ${sql.json(b.dropoff as never)}, ${b.pickupArea},
            ${job.pickupAt}, ${job.passengers}, ${job.vehicleType}, ${job.wheelchair}, ${b.farePence}, ${b.fareSource},
            ${b.distanceM}, ${b.durationS}, ${b.identity ?? b.requestFingerprint ?? null}, ${b.partnerId ?? null},
            ${b.partnerJobRef ?? null}, ${b.operatorId ?? null}, ${b.passengerAccountId ?? null},
            ${b.rateOverrideId ?? null}, ${b.fareProvenance ? sql.json(b.fareProvenance as never) : null}, ${workflowType},
            -- Its origin, from the job itself (the intake recorded an x-exchange-hop job) or its sender
            -- (our partner record of an exchange fleet): such a job is never handed on (one hop).
            case when exists (select 1 from exchange_hop_jobs h where h.partner_id = ${b.partnerId ?? null} and h.job_ref = ${b.partnerJobRef ?? null})
                   then 'handed_over'
                 when exists (select 1 from exchange_fleets f where f.partner_id = ${b.partnerId ?? null})
                   then 'fleet_partner' end,
            ${job.assistanceDog ?? false}, ${job.helpFindingVehicle ?? false})
    on conflict (ref) do nothing
    returning *`;
  return row ?? null;
}

/**
 * A booking just written, as findBooking would read it back: no driver, provider or payment yet
 * (each needs a later step), so the card that follows its insert needs no second read.
 */
export function newBookingView(row: BookingRow): BookingWithDriver {
  return {
    ...row,
    d_name: null,
    d_vehicle: null,
    d_plate: null,
    d_payment_options: null,
    provider_name: null,
    provider_licence: null,
    paid_pence: null,
    paid_method: null,
    paid_at: null,
  };
}

export async function findBooking(sql: Sql, ref: string): Promise<BookingWithDriver | null> {
  // The payment in force comes from the immutable payment records, never from a column someone
  // could overwrite: the booking's payment state is derived from them (src/settlement/payment-state.ts).
  const [row] = await sql<BookingWithDriver[]>`
    select b.*, coalesce(d.name, x.driver_name) as d_name, coalesce(d.vehicle_description, x.driver_vehicle) as d_vehicle,
           coalesce(d.plate, x.driver_plate) as d_plate,
           d.payment_options as d_payment_options,
           coalesce(xf.name, pf.name) as provider_name,
           case when xf.id is not null then operator_licence_on_file('exchange_fleet', xf.id, false)
                when pf.id is not null then operator_licence_on_file('partner_fleet', pf.id, d.seats > 8) end as provider_licence,
           p.amount_pence as paid_pence, p.method as paid_method, p.recorded_at as paid_at
      from bookings b left join drivers d on d.id = b.driver_id
      -- A job an exchange fleet holds (docs/exchange.md): its driver, as its events named them.
      left join exchange_jobs x on x.booking_ref = b.ref and x.state = 'sent' and b.driver_id is null
      -- Who provides a sub-contracted ride: the exchange fleet, or the partner fleet of our driver.
      left join exchange_fleets xf on xf.id = x.fleet_id
      left join partner_fleets pf on pf.id = d.partner_fleet_id and d.tier = 'partner'
      left join lateral (
        select amount_pence, method, recorded_at from effective_payment_records e
         where e.booking_ref = b.ref order by e.id desc limit 1
      ) p on true
     where b.ref = ${ref}`;
  if (!row) return null;
  // An exchange fleet's driver reaches our pages and lookups only as our own drivers' details may
  // (its events are screened as they come; this is for what was written before that).
  if (row.driver_id === null && row.d_name !== null) {
    row.d_name = shownDriverDetail('name', row.d_name);
    row.d_vehicle = shownDriverDetail('vehicle', row.d_vehicle);
    row.d_plate = shownDriverDetail('licence', row.d_plate);
  }
  return row;
}

/** For activities: the workflow's booking must exist, its first activity wrote it. */
export async function loadBooking(sql: Sql, ref: string): Promise<BookingWithDriver> {
  const b = await findBooking(sql, ref);
  if (!b) throw new Error(`booking ${ref} not found`);
  return b;
}

/** Closed bookings never change status again, whatever a late or retried activity says. */
export async function setBookingStatus(sql: Sql, ref: string, status: BookingStatus): Promise<void> {
  await sql`update bookings set status = ${status}, updated_at = now()
             where ref = ${ref} and status not in ('cancelled', 'completed')`;
}

export async function updateJob(sql: Sql, ref: string, job: JobSpec): Promise<void> {
  await sql`update bookings set pickup_at = ${job.pickupAt}, passengers = ${job.passengers}, vehicle_type = ${job.vehicleType},
                   wheelchair = ${job.wheelchair}, notes = ${job.notes}, updated_at = now()
             where ref = ${ref}`;
}

/**
 * An amended job, with its new pickup or drop-off and fare when the amendment brought them (partner
 * intake re-priced the job), in one statement: a partner's booking records one booking.amended
 * event for it (migration 00021).
 */
export async function updateAmendedJob(
  sql: Sql,
  ref: string,
  job: JobSpec,
  change: { route: AmendedRoute | null; fare: AmendedFare | null },
): Promise<void> {
  const { route, fare } = change;
  const place = (p: PlaceSnapshot | undefined) => (p ? sql.json(p as never) : null);
  await sql`update bookings set pickup_at = ${job.pickupAt}, passengers = ${job.passengers}, vehicle_type = ${job.vehicleType},
                   wheelchair = ${job.wheelchair}, notes = ${job.notes},
                   pickup_query = coalesce(${route?.pickupQuery ?? null}, pickup_query),
                   dropoff_query = coalesce(${route?.dropoffQuery ?? null}, dropoff_query),
                   pickup = coalesce(${place(route?.pickup)}::jsonb, pickup),
                   dropoff = coalesce(${place(route?.dropoff)}::jsonb, dropoff),
                   pickup_area = coalesce(${route?.pickupArea ?? null}, pickup_area),
                   distance_m = coalesce(${route?.distanceM ?? null}::integer, distance_m),
                   duration_s = coalesce(${route?.durationS ?? null}::integer, duration_s),
                   fare_pence = coalesce(${fare?.farePence ?? null}::integer, fare_pence),
                   fare_source = coalesce(${fare?.fareSource ?? null}, fare_source),
                   -- A new fare says how it was reached, or the booking says nothing: never an old way.
                   fare_provenance = case when ${fare !== null} then ${fare?.provenance ? sql.json(fare.provenance as never) : null}::jsonb
                                          else fare_provenance end,
                   -- A re-priced job is a new quote: a driver's own fare for the old one no longer stands
                   -- (applyAmendment prices the holder's again, activities/bookings/records.ts).
                   quoted_fare_pence = case when ${fare !== null} then null else quoted_fare_pence end,
                   driver_rate_override_id = case when ${fare !== null} then null else driver_rate_override_id end,
                   updated_at = now()
             where ref = ${ref}`;
}

/**
 * The fare of the job the driver holds, at their own approved rate (src/dispatch/driver-fare.ts):
 * the quoted fare kept aside when it is lower than quoted. A fare at the quote leaves it as it is.
 */
export async function setDriverFare(
  sql: Sql,
  ref: string,
  driverId: string,
  fare: { farePence: number; overrideId: string | null },
): Promise<void> {
  if (!fare.overrideId) return;
  await sql`update bookings set quoted_fare_pence = coalesce(quoted_fare_pence, fare_pence),
                   fare_pence = least(${fare.farePence}::integer, coalesce(quoted_fare_pence, fare_pence)),
                   driver_rate_override_id = ${fare.overrideId}, updated_at = now()
             where ref = ${ref} and driver_id = ${driverId} and status not in ('cancelled', 'completed')`;
}

export async function unassignDriver(sql: Sql, ref: string, driverId: string): Promise<void> {
  // A fare at the driver's own rate went with the driver: the next one is offered the quoted fare again.
  await sql`update bookings set driver_id = null, assigned_at = null, status = 'dispatching', updated_at = now(),
                   fare_pence = coalesce(quoted_fare_pence, fare_pence), quoted_fare_pence = null, driver_rate_override_id = null
             where ref = ${ref} and driver_id = ${driverId} and status not in ('cancelled', 'completed')`;
}

/** Cancels the record and withdraws any job card still open; a completed booking stays completed. */
export async function markCancelled(sql: Sql, ref: string, reason: string | null): Promise<void> {
  await sql.begin(async (tx) => {
    await tx`update bookings set status = 'cancelled', cancelled_at = coalesce(cancelled_at, now()),
                    cancel_reason = coalesce(cancel_reason, ${reason}), updated_at = now()
              where ref = ${ref} and status <> 'completed'`;
    await tx`update offers set status = 'withdrawn', responded_at = clock_timestamp() where booking_ref = ${ref} and status = 'offered'`;
  });
}

/** Bookings held until this passenger email is confirmed. */
export async function bookingsAwaitingEmail(sql: Sql, email: string): Promise<string[]> {
  const rows = await sql<{ ref: string }[]>`
    select ref from bookings where lower(passenger_email) = ${email} and email_verified = false`;
  return rows.map((r) => r.ref);
}

export async function markEmailVerified(sql: Sql, ref: string): Promise<void> {
  await sql`update bookings set email_verified = true where ref = ${ref}`;
}

/** Who made the request behind a trip identity (src/bookings/ownership.ts). */
export interface RequestOwner {
  /** 'key:<id>', 'account:<id>', 'partner:<id>', 'idem:<hash>' or 'anonymous'. */
  principal: string;
  /** The mailbox (src/passengers/email.ts mailboxKey) the request gave, if any. */
  mailbox: string | null;
  /**
   * The request itself, by its Idempotency-Key (a digest of the key and its scope), when it carried
   * one: under a shared credential (an API key) only this request, retried, is the owner (issue 33).
   */
  request?: string | null;
  /**
   * The digest of the request's body, and the address it came from (addressKey), for telling a
   * client's verbatim retry (issue 37): null for partner jobs and for requests made before them.
   */
  bodyHash?: string | null;
  address?: string | null;
}

export interface RefClaim {
  ref: string;
  /** True when this request made the claim (a new ride); false when it found an earlier request's. */
  created: boolean;
  owner: RequestOwner;
  /** Seconds since the ride's request was claimed (its first request). */
  ageSeconds: number;
}

/**
 * The reference of the ride this request identity names, allocating `candidateRef` when there is
 * none yet, with who asked first. Atomic under the primary key: concurrent identical requests all
 * get the first one's reference. The mapping moves to `candidateRef` (and to this owner) when its
 * booking was cancelled (booking the same trip again is a new ride), and, for a "now" identity
 * (no pickup time of its own), once its booking has ended in any way (completed, cancelled, a
 * no-show, or left unassigned when the search for a driver is over): until then, however long
 * after, the same trip asked for now is that ride (issue 37).
 */
export async function claimBookingRef(
  sql: Sql,
  identity: { key: string; endsWithRide: boolean },
  candidateRef: string,
  owner: RequestOwner,
): Promise<RefClaim> {
  const ended = identity.endsWithRide ? TERMINAL_STATUSES : (['cancelled'] as const);
  // A "now" ride nobody took is over once its search is (src/model/bookings.ts searchEndsAt).
  const searchOverSeconds = identity.endsWithRide ? SEARCH_PAST_PICKUP_MS / 1000 : null;
  const [moved] = await sql<{ ref: string }[]>`
    insert into booking_requests as r (identity, ref, created_at, owner, owner_mailbox, owner_request, owner_body_hash, owner_address)
    values (${identity.key}, ${candidateRef}, now(), ${owner.principal}, ${owner.mailbox}, ${owner.request ?? null},
            ${owner.bodyHash ?? null}, ${owner.address ?? null})
    on conflict (identity) do update set ref = excluded.ref, created_at = excluded.created_at, owner = excluded.owner,
                                         owner_mailbox = excluded.owner_mailbox, owner_request = excluded.owner_request,
                                         owner_body_hash = excluded.owner_body_hash, owner_address = excluded.owner_address
     where exists (select 1 from bookings b
                    where b.ref = r.ref
                      and (b.status = any(${[...ended]}::text[])
                           or (b.status = 'unassigned' and ${searchOverSeconds}::int is not null
                               and b.pickup_at < now() - make_interval(secs => ${searchOverSeconds}::int))))
    returning ref`;
  if (moved) return { ref: moved.ref, created: true, owner, ageSeconds: 0 };
  const [kept] = await sql<
    {
      ref: string;
      owner: string;
      owner_mailbox: string | null;
      owner_request: string | null;
      owner_body_hash: string | null;
      owner_address: string | null;
      age_seconds: number;
    }[]
  >`
    select ref, owner, owner_mailbox, owner_request, owner_body_hash, owner_address,
           extract(epoch from now() - created_at)::float8 as age_seconds
      from booking_requests where identity = ${identity.key}`;
  if (!kept) throw new Error(`booking request ${identity.key} vanished`);
  return {
    ref: kept.ref,
    created: false,
    owner: {
      principal: kept.owner,
      mailbox: kept.owner_mailbox,
      request: kept.owner_request,
      bodyHash: kept.owner_body_hash,
      address: kept.owner_address,
    },
    ageSeconds: kept.age_seconds,
  };
}

/** After a reference collision (another ride already has it): point the identity at a fresh one. */
export async function reassignBookingRef(
  sql: Sql,
  identityKey: string,
  fromRef: string,
  toRef: string,
): Promise<string> {
  const [row] = await sql<{ ref: string }[]>`
    update booking_requests set ref = case when ref = ${fromRef} then ${toRef} else ref end
     where identity = ${identityKey} returning ref`;
  return row?.ref ?? toRef;
}

/** A driver who accepted well ahead was asked to confirm on the day (once). */
export async function markDriverAskedToConfirm(sql: Sql, ref: string, driverId: string): Promise<void> {
  await sql`update bookings set driver_confirm_asked_at = coalesce(driver_confirm_asked_at, now()) where ref = ${ref} and driver_id = ${driverId}`;
}

/** ...and confirmed. */
export async function markDriverConfirmed(sql: Sql, ref: string, driverId: string): Promise<void> {
  await sql`update bookings set driver_confirmed_at = coalesce(driver_confirmed_at, now()) where ref = ${ref} and driver_id = ${driverId}`;
}
