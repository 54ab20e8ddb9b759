import type { Sql } from '../db/sql.js';
import type { Tier } from '../dispatch/candidates.js';

// The drivers table: who can be offered work, how to reach them, and where they are in onboarding.

export interface DriverRow {
  id: string;
  name: string;
  phone: string;
  whatsapp: string | null;
  tier: Tier;
  home_area: string | null;
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
  vehicleType: string;
  seats: number;
  wheelchairAccessible: boolean;
  homeArea: string | null;
  tier: Tier;
  partnerFleetId: string | null;
}

export interface DriverDocument {
  kind: 'driver_licence' | 'vehicle_licence' | 'insurance' | 'other';
  contentType: 'application/pdf' | 'image/jpeg' | 'image/png';
  data: Buffer;
  sha256: string;
}

/** A new applicant and their documents, in one transaction: nothing half-applied. */
export async function insertApplication(sql: Sql, id: string, a: DriverApplication, documents: DriverDocument[]): Promise<void> {
  await sql.begin(async (tx) => {
    await tx`
      insert into drivers (id, name, phone, email, tier, home_area, partner_fleet_id, approved, status, vehicle_type,
                           vehicle_description, plate, seats, wheelchair_accessible, online, licensing_authority,
                           driver_licence_number, driver_licence_expires, vehicle_licence_number, vehicle_licence_expires,
                           vehicle_make, vehicle_model, vehicle_registration, applied_at, status_changed_at)
      values (${id}, ${a.name}, ${a.phone}, ${a.email}, ${a.tier}, ${a.homeArea}, ${a.partnerFleetId}, false, 'applicant',
              ${a.vehicleType}, ${`${a.vehicleMake} ${a.vehicleModel}`}, ${a.vehicleLicenceNumber}, ${a.seats},
              ${a.wheelchairAccessible}, false, ${a.licensingAuthority}, ${a.driverLicenceNumber}, ${a.driverLicenceExpires},
              ${a.vehicleLicenceNumber}, ${a.vehicleLicenceExpires}, ${a.vehicleMake}, ${a.vehicleModel},
              ${a.vehicleRegistration}, now(), now())`;
    for (const d of documents) {
      await tx`insert into driver_documents (driver_id, kind, content_type, size_bytes, sha256, data)
               values (${id}, ${d.kind}, ${d.contentType}, ${d.data.length}, ${d.sha256}, ${d.data})`;
    }
  });
}

export async function partnerFleetExists(sql: Sql, id: string): Promise<boolean> {
  const rows = await sql`select 1 from partner_fleets where id = ${id}`;
  return rows.length > 0;
}

/** A driver already on the books under this phone (rejected applicants may apply again). */
export async function liveDriverWithPhone(sql: Sql, phone: string): Promise<string | null> {
  const [d] = await sql<{ id: string }[]>`select id from drivers where phone = ${phone} and status <> 'rejected' limit 1`;
  return d?.id ?? null;
}

/**
 * Moves a driver's status if it is one of `from`; answers the row as it now is, or null when the
 * move does not apply. `approved` follows the status, so dispatch reads one fact.
 */
export async function moveDriverStatus(sql: Sql, id: string, from: DriverStatus[], to: DriverStatus): Promise<DriverRow | null> {
  const [d] = await sql<DriverRow[]>`
    update drivers set status = ${to}, approved = ${to === 'approved'}, status_changed_at = now(),
                       online = case when ${to} = 'approved' then online else false end
     where id = ${id} and status in ${sql(from)}
     returning *`;
  return d ?? null;
}

export async function listDrivers(sql: Sql, status: DriverStatus | null, limit = 100): Promise<DriverRow[]> {
  return status
    ? sql<DriverRow[]>`select * from drivers where status = ${status} order by applied_at nulls last, created_at limit ${limit}`
    : sql<DriverRow[]>`select * from drivers order by created_at desc limit ${limit}`;
}

export async function driverDocuments(sql: Sql, driverId: string) {
  return sql<{ id: string; kind: string; content_type: string; size_bytes: number; sha256: string; uploaded_at: Date }[]>`
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
  const rows = await sql`update drivers set online = ${online} where id = ${id} and (${!online} or status = 'approved') returning id`;
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
