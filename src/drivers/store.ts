import type { Sql } from '../db/sql.js';
import type { Tier } from '../model/bookings.js';

// The drivers table: who can be offered work, how to reach them, and where they are in onboarding.

export interface DriverRow {
  id: string;
  name: string;
  phone: string;
  whatsapp: string | null;
  tier: Tier;
  home_area: string | null;
  /** The fleet the driver belongs to: only ever set by a grant (the operator's, or staff's). */
  partner_fleet_id: string | null;
  approved: boolean;
  vehicle_type: string;
  vehicle_description: string;
  plate: string;
  seats: number;
  wheelchair_accessible: boolean;
  online: boolean;
  lat: number | null;
  lon: number | null;
  location_at: Date | null;
  status: DriverStatus;
  email: string | null;
  licensing_authority: string | null;
  driver_licence_number: string | null;
  driver_licence_expires: Date | null;
  vehicle_licence_number: string | null;
  vehicle_licence_expires: Date | null;
  vehicle_make: string | null;
  vehicle_model: string | null;
  vehicle_registration: string | null;
  /** As the driver gave it (migration 00024); null when they did not. */
  vehicle_colour: string | null;
  payment_options: unknown;
  applied_at: Date | null;
  status_changed_at: Date | null;
  created_at: Date;
}

export type DriverStatus = 'applicant' | 'approved' | 'rejected' | 'suspended';

/** What an applicant sends (validated by the route's schema). */
export interface DriverApplication {
  name: string;
  phone: string;
  email: string;
  licensingAuthority: string;
  driverLicenceNumber: string;
  driverLicenceExpires: string;
  vehicleLicenceNumber: string;
  vehicleLicenceExpires: string;
  vehicleMake: string;
  vehicleModel: string;
  vehicleRegistration: string;
  /** Optional: "silver", "dark blue". */
  vehicleColour: string | null;
  vehicleType: string;
  seats: number;
  wheelchairAccessible: boolean;
  homeArea: string | null;
  tier: Tier;
  /** The fleet the applicant asks to join: a request the fleet's operator answers, never membership. */
  requestedFleetId: string | null;
}

export interface DriverDocument {
  kind: 'driver_licence' | 'vehicle_licence' | 'insurance' | 'other';
  contentType: 'application/pdf' | 'image/jpeg' | 'image/png';
  /** The file as sent, padded base64: Postgres decodes it, so no decoded copy is built here. */
  base64: string;
  sizeBytes: number;
  sha256: string;
}

/**
 * A new applicant, their documents and the fleet they ask to join, in one transaction: nothing
 * half-applied. The driver joins no fleet here, whatever they named.
 */
export async function insertApplication(
  sql: Sql,
  id: string,
  a: DriverApplication,
  documents: DriverDocument[],
): Promise<void> {
  await sql.begin(async (tx) => {
    await tx`
      insert into drivers (id, name, phone, email, tier, home_area, partner_fleet_id, approved, status, vehicle_type,
                           vehicle_description, plate, seats, wheelchair_accessible, online, licensing_authority,
                           driver_licence_number, driver_licence_expires, vehicle_licence_number, vehicle_licence_expires,
                           vehicle_make, vehicle_model, vehicle_registration, vehicle_colour, applied_at, status_changed_at)
      values (${id}, ${a.name}, ${a.phone}, ${a.email}, ${a.tier}, ${a.homeArea}, null, false, 'applicant',
              ${a.vehicleType}, ${`${a.vehicleMake} ${a.vehicleModel}`}, ${a.vehicleLicenceNumber}, ${a.seats},
              ${a.wheelchairAccessible}, false, ${a.licensingAuthority}, ${a.driverLicenceNumber}, ${a.driverLicenceExpires},
              ${a.vehicleLicenceNumber}, ${a.vehicleLicenceExpires}, ${a.vehicleMake}, ${a.vehicleModel},
              ${a.vehicleRegistration}, ${a.vehicleColour}, now(), now())`;
    for (const d of documents) {
      // A Buffer would go as a hex string twice its size (and a copy of it); the base64 is already here.
      await tx`insert into driver_documents (driver_id, kind, content_type, size_bytes, sha256, data)
               values (${id}, ${d.kind}, ${d.contentType}, ${d.sizeBytes}, ${d.sha256}, decode(${d.base64}, 'base64'))`;
    }
    if (a.requestedFleetId)
      await tx`insert into driver_fleet_requests (driver_id, fleet_id) values (${id}, ${a.requestedFleetId})`;
  });
}

export async function partnerFleetExists(sql: Sql, id: string): Promise<boolean> {
  const rows = await sql`select 1 from partner_fleets where id = ${id}`;
  return rows.length > 0;
}

/** A driver already on the books under this phone (rejected applicants may apply again). */
export async function liveDriverWithPhone(sql: Sql, phone: string): Promise<string | null> {
  const [d] = await sql<
    { id: string }[]
  >`select id from drivers where phone = ${phone} and status <> 'rejected' limit 1`;
  return d?.id ?? null;
}

/**
 * Moves a driver's status if it is one of `from`; answers the row as it now is, or null when the
 * move does not apply. `approved` follows the status, so dispatch reads one fact.
 */
export async function moveDriverStatus(
  sql: Sql,
  id: string,
  from: DriverStatus[],
  to: DriverStatus,
): Promise<DriverRow | null> {
  const [d] = await sql<DriverRow[]>`
    update drivers set status = ${to}, approved = ${to === 'approved'}, status_changed_at = now(),
                       online = case when ${to} = 'approved' then online else false end
     where id = ${id} and status in ${sql(from)}
     returning *`;
  return d ?? null;
}

/** A driver as staff see them: with the fleet they have asked to join and not yet been answered on. */
export type DriverWithRequest = DriverRow & { requested_fleet_id: string | null };

export async function listDrivers(sql: Sql, status: DriverStatus | null, limit = 100): Promise<DriverWithRequest[]> {
  return status
    ? sql<DriverWithRequest[]>`
        select d.*, r.fleet_id as requested_fleet_id
          from drivers d left join driver_fleet_requests r on r.driver_id = d.id and r.status = 'pending'
         where d.status = ${status} order by d.applied_at nulls last, d.created_at limit ${limit}`
    : sql<DriverWithRequest[]>`
        select d.*, r.fleet_id as requested_fleet_id
          from drivers d left join driver_fleet_requests r on r.driver_id = d.id and r.status = 'pending'
         order by d.created_at desc limit ${limit}`;
}

/**
 * What staff search drivers by: words matched against the name, email, id and registration (any
 * order, each somewhere), a phone in E.164 (the caller normalises a national number first), and the
 * digits typed, matched inside the stored phone (a part of a number, typed either way).
 */
export interface DriverSearch {
  text: string | null;
  phone: string | null;
  digits: readonly string[];
}

/**
 * One page of drivers for staff, with how many match in all: by status (applicants oldest first,
 * in line; everyone else by name; every status newest first), optionally searched.
 */
export async function searchDriverPage(
  sql: Sql,
  q: { status: DriverStatus | null; search: DriverSearch | null; limit: number; offset: number },
): Promise<{ rows: DriverWithRequest[]; total: number }> {
  const s = q.search;
  const words = (s?.text ?? '').split(/\s+/).filter(Boolean).slice(0, 6);
  const like = (w: string) => `%${w.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const wordMatch =
    words.length === 0
      ? sql`false`
      : words
          .map(
            (w) =>
              sql`(d.name ilike ${like(w)} or d.email ilike ${like(w)} or d.id = ${w} or d.vehicle_registration ilike ${like(w)} or d.plate ilike ${like(w)})`,
          )
          .reduce((a, b) => sql`${a} and ${b}`);
  const phoneMatch = [
    ...(s?.phone ? [sql`d.phone = ${s.phone}`] : []),
    ...(s?.digits ?? []).map((x) => sql`d.phone like ${like(x)}`),
  ].reduce((a, b) => sql`${a} or ${b}`, sql`false`);
  const where = sql`
     where ${q.status ? sql`d.status = ${q.status}` : sql`true`}
       ${s ? sql`and (${wordMatch} or ${phoneMatch})` : sql``}`;
  const order =
    q.status === 'applicant'
      ? sql`d.applied_at nulls last, d.created_at, d.id`
      : q.status
        ? sql`d.name, d.id`
        : sql`d.created_at desc, d.id`;
  const rows = await sql<(DriverWithRequest & { total: number })[]>`
    select d.*, r.fleet_id as requested_fleet_id, count(*) over ()::int as total
      from drivers d
      left join lateral (select fleet_id from driver_fleet_requests where driver_id = d.id and status = 'pending' order by requested_at desc limit 1) r on true
    ${where}
     order by ${order}
     limit ${q.limit} offset ${q.offset}`;
  if (rows.length > 0 || q.offset === 0)
    return { rows: rows.map(({ total: _total, ...d }) => d as DriverWithRequest), total: rows[0]?.total ?? 0 };
  // Past the last page: still say how many there are.
  const [c] = await sql<{ n: number }[]>`select count(*)::int as n from drivers d ${where}`;
  return { rows: [], total: c?.n ?? 0 };
}

export async function driverDocuments(sql: Sql, driverId: string) {
  return sql<
    { id: string; kind: string; content_type: string; size_bytes: number; sha256: string; uploaded_at: Date }[]
  >`
    select id, kind, content_type, size_bytes, sha256, uploaded_at from driver_documents where driver_id = ${driverId} order by id`;
}

export async function driverDocument(sql: Sql, driverId: string, documentId: string) {
  if (!/^\d{1,18}$/.test(documentId)) return null;
  const [d] = await sql<{ content_type: string; data: Buffer; kind: string }[]>`
    select content_type, data, kind from driver_documents where driver_id = ${driverId} and id = ${documentId}`;
  return d ?? null;
}

export async function setAvailability(sql: Sql, id: string, online: boolean): Promise<boolean> {
  // Only an approved driver can be online; going offline is always allowed.
  const rows =
    await sql`update drivers set online = ${online} where id = ${id} and (${!online} or status = 'approved') returning id`;
  return rows.length > 0;
}

export async function setLocation(sql: Sql, id: string, lat: number, lon: number): Promise<void> {
  await sql`update drivers set lat = ${lat}, lon = ${lon}, location_at = now() where id = ${id}`;
}

export async function setPaymentOptions(sql: Sql, id: string, options: unknown): Promise<void> {
  await sql`update drivers set payment_options = ${sql.json(options as never)} where id = ${id}`;
}

/** When the first of the driver's licences runs out (for the fortnight's warning). */
export async function licenceExpiries(sql: Sql, id: string): Promise<Date | null> {
  const [d] = await sql<{ expires: Date | null }[]>`
    select least(driver_licence_expires, vehicle_licence_expires)::timestamptz as expires from drivers where id = ${id}`;
  return d?.expires ?? null;
}

/**
 * The bookings a driver is in, as far as Postgres knows: a job card open to them (answered or not,
 * until its booking closes it) or a job they hold (assigned, on the way, arrived, on board). What
 * a suspension must reach; each booking's workflow decides what it means.
 */
export async function bookingsOfDriver(sql: Sql, driverId: string): Promise<string[]> {
  const rows = await sql<{ ref: string }[]>`
    select booking_ref as ref from offers where driver_id = ${driverId} and status = 'offered'
    union
    select ref from bookings where driver_id = ${driverId} and status in ('assigned', 'en_route', 'arrived', 'on_board')
    order by ref`;
  return rows.map((r) => r.ref);
}

/** The driver's status, or null for no such driver. */
export async function driverStatus(sql: Sql, id: string): Promise<DriverStatus | null> {
  const [d] = await sql<{ status: DriverStatus }[]>`select status from drivers where id = ${id}`;
  return d?.status ?? null;
}

/** What a passenger is told to look for: the car as it is seen in the street, and who drives it. */
export type DriverCar = Pick<
  DriverRow,
  | 'name'
  | 'vehicle_description'
  | 'plate'
  | 'vehicle_make'
  | 'vehicle_model'
  | 'vehicle_registration'
  | 'vehicle_colour'
>;

export async function findDriverCar(sql: Sql, id: string): Promise<DriverCar | null> {
  const [d] = await sql<DriverCar[]>`
    select name, vehicle_description, plate, vehicle_make, vehicle_model, vehicle_registration, vehicle_colour
      from drivers where id = ${id}`;
  return d ?? null;
}

export async function findDriver(sql: Sql, id: string): Promise<DriverRow | null> {
  const [d] = await sql<DriverRow[]>`select * from drivers where id = ${id}`;
  return d ?? null;
}

/** For activities: a driver named by a workflow must exist (a missing one is a bug worth retrying loudly). */
export async function loadDriver(sql: Sql, id: string): Promise<DriverRow> {
  const d = await findDriver(sql, id);
  if (!d) throw new Error(`driver ${id} not found`);
  return d;
}

// --- Fleet membership: requests, grants, refusals and removals (migration 00019). ---

export type FleetRequestStatus = 'pending' | 'granted' | 'refused' | 'closed';

export interface FleetRequestRow {
  id: string;
  driver_id: string;
  fleet_id: string;
  status: FleetRequestStatus;
  requested_at: Date;
  decided_at: Date | null;
}

/** Who changed a membership: an operator (by its bridge key) or a staff member. */
export interface FleetActor {
  kind: 'operator' | 'staff';
  id: string;
  key: string | null;
}

const REQUEST_ID = /^\d{1,18}$/;

export async function pendingFleetRequest(sql: Sql, driverId: string): Promise<FleetRequestRow | null> {
  const [r] = await sql<FleetRequestRow[]>`
    select id::text, driver_id, fleet_id, status, requested_at, decided_at
      from driver_fleet_requests where driver_id = ${driverId} and status = 'pending'`;
  return r ?? null;
}

/** The open requests to join one fleet, oldest first, with what an operator needs to recognise the driver. */
export async function pendingRequestsForFleet(sql: Sql, fleetId: string, limit = 200) {
  return sql<
    {
      id: string;
      driver_id: string;
      requested_at: Date;
      name: string;
      phone: string;
      status: DriverStatus;
      tier: Tier;
      vehicle_description: string;
      vehicle_registration: string | null;
      seats: number;
      wheelchair_accessible: boolean;
      licensing_authority: string | null;
    }[]
  >`
    select r.id::text, r.driver_id, r.requested_at, d.name, d.phone, d.status, d.tier, d.vehicle_description,
           d.vehicle_registration, d.seats, d.wheelchair_accessible, d.licensing_authority
      from driver_fleet_requests r join drivers d on d.id = r.driver_id
     where r.fleet_id = ${fleetId} and r.status = 'pending'
     order by r.requested_at, r.id limit ${limit}`;
}

export type FleetDecisionOutcome =
  | { result: 'decided'; request: FleetRequestRow }
  | { result: 'not_found' }
  | { result: 'already_decided'; request: FleetRequestRow }
  | { result: 'in_another_fleet' };

/**
 * Grants or refuses one request to join `fleetId`. A request of another fleet is not found, so an
 * operator can neither answer nor learn of another's. A grant moves the driver into the fleet only
 * if they belong to no other; the request, the membership and the record change together.
 */
export async function decideFleetRequest(
  sql: Sql,
  q: { requestId: string; fleetId: string; decision: 'granted' | 'refused'; by: FleetActor; reason: string | null },
): Promise<FleetDecisionOutcome> {
  if (!REQUEST_ID.test(q.requestId)) return { result: 'not_found' };
  return sql.begin(async (tx): Promise<FleetDecisionOutcome> => {
    const [r] = await tx<FleetRequestRow[]>`
      select id::text, driver_id, fleet_id, status, requested_at, decided_at
        from driver_fleet_requests where id = ${q.requestId} and fleet_id = ${q.fleetId} for update`;
    if (!r) return { result: 'not_found' };
    if (r.status !== 'pending') return { result: 'already_decided', request: r };
    if (q.decision === 'granted') {
      const joined = await tx`
        update drivers set partner_fleet_id = ${r.fleet_id}
         where id = ${r.driver_id} and (partner_fleet_id is null or partner_fleet_id = ${r.fleet_id}) returning id`;
      if (joined.length === 0) return { result: 'in_another_fleet' };
    }
    const [decided] = await tx<FleetRequestRow[]>`
      update driver_fleet_requests set status = ${q.decision}, decided_at = now() where id = ${r.id}
      returning id::text, driver_id, fleet_id, status, requested_at, decided_at`;
    await tx`
      insert into driver_fleet_events (driver_id, fleet_id, event, request_id, by_kind, by_id, by_key, reason)
      values (${r.driver_id}, ${r.fleet_id}, ${q.decision}, ${r.id}, ${q.by.kind}, ${q.by.id}, ${q.by.key}, ${q.reason})`;
    return { result: 'decided', request: decided! };
  });
}

/** Takes a driver out of `fleetId` (on the record); false when they are not in it. */
export async function removeFromFleet(
  sql: Sql,
  q: { driverId: string; fleetId: string; by: FleetActor; reason: string | null },
): Promise<boolean> {
  return sql.begin(async (tx) => {
    const left =
      await tx`update drivers set partner_fleet_id = null where id = ${q.driverId} and partner_fleet_id = ${q.fleetId} returning id`;
    if (left.length === 0) return false;
    await tx`
      insert into driver_fleet_events (driver_id, fleet_id, event, by_kind, by_id, by_key, reason)
      values (${q.driverId}, ${q.fleetId}, 'removed', ${q.by.kind}, ${q.by.id}, ${q.by.key}, ${q.reason})`;
    return true;
  });
}

/** A rejected applicant's open request is nobody's to answer any more. */
export async function closeFleetRequests(sql: Sql, driverId: string): Promise<void> {
  await sql`update driver_fleet_requests set status = 'closed', decided_at = now() where driver_id = ${driverId} and status = 'pending'`;
}

/** Every request a driver made and every membership change, for staff. */
export async function fleetHistory(sql: Sql, driverId: string) {
  const requests = await sql<(FleetRequestRow & { fleet_name: string })[]>`
    select r.id::text, r.driver_id, r.fleet_id, f.name as fleet_name, r.status, r.requested_at, r.decided_at
      from driver_fleet_requests r join partner_fleets f on f.id = r.fleet_id
     where r.driver_id = ${driverId} order by r.requested_at, r.id`;
  const events = await sql<
    {
      event: string;
      fleet_id: string;
      by_kind: 'operator' | 'staff';
      by_id: string;
      by_name: string;
      reason: string | null;
      at: Date;
    }[]
  >`
    select e.event, e.fleet_id, e.by_kind, e.by_id, coalesce(s.name, p.name, e.by_id) as by_name, e.reason, e.at
      from driver_fleet_events e
      left join staff s on e.by_kind = 'staff' and s.id::text = e.by_id
      left join partners p on e.by_kind = 'operator' and p.id = e.by_id
     where e.driver_id = ${driverId} order by e.at, e.id`;
  return { requests, events };
}
