import type { Sql } from '../db/sql.js';
import type { DriverRow } from './store.js';

// Changes a driver asks for to their papers (migration 00030): stored pending with their documents,
// one per kind per driver, until staff approve (written onto the driver row) or refuse them.

export type ChangeKind = 'licences' | 'vehicle' | 'phone';
export type ChangeStatus = 'pending' | 'approved' | 'refused' | 'replaced';

export interface LicenceChange {
  driverLicenceExpires: string | null;
  vehicleLicenceExpires: string | null;
}
export interface VehicleChange {
  vehicleRegistration: string;
  vehicleColour: string | null;
  vehicleType: string;
  seats: number;
  wheelchairAccessible: boolean;
}
export interface PhoneChange {
  phone: string;
}
export type ChangeDetails = LicenceChange | VehicleChange | PhoneChange;

export interface ChangeDocument {
  kind: 'driver_licence' | 'vehicle_licence';
  contentType: 'application/pdf' | 'image/jpeg' | 'image/png';
  base64: string;
  sizeBytes: number;
  sha256: string;
}

export interface ChangeRow {
  id: string;
  driver_id: string;
  kind: ChangeKind;
  status: ChangeStatus;
  details: Record<string, unknown>;
  submitted_at: Date;
  decided_at: Date | null;
  decided_by: string | null;
  reason: string | null;
  documents: Array<{ id: string; kind: ChangeDocument['kind']; content_type: string; size_bytes: number }>;
}

const DOCS = (sql: Sql) => sql`
  coalesce((select json_agg(json_build_object('id', x.id::text, 'kind', x.kind, 'content_type', x.content_type, 'size_bytes', x.size_bytes) order by x.id)
              from driver_change_documents x where x.change_id = c.id), '[]'::json) as documents`;

/**
 * The change and its documents in one transaction; a pending change of the same kind is marked
 * replaced first (the partial unique index holds one pending per kind). Answers whether one was.
 */
export async function insertChange(
  sql: Sql,
  driverId: string,
  kind: ChangeKind,
  details: ChangeDetails,
  documents: ChangeDocument[],
): Promise<{ id: string; replaced: boolean }> {
  return sql.begin(async (tx) => {
    // Two submissions at once: the second waits here for the first, then replaces it.
    await tx`select id from drivers where id = ${driverId} for update`;
    const replaced = await tx`
      update driver_changes set status = 'replaced', decided_at = now()
       where driver_id = ${driverId} and kind = ${kind} and status = 'pending' returning id`;
    const [row] = await tx<{ id: string }[]>`
      insert into driver_changes (driver_id, kind, details) values (${driverId}, ${kind}, ${tx.json(details as never)}) returning id::text`;
    for (const d of documents) {
      await tx`insert into driver_change_documents (change_id, kind, content_type, size_bytes, sha256, data)
               values (${row!.id}, ${d.kind}, ${d.contentType}, ${d.sizeBytes}, ${d.sha256}, decode(${d.base64}, 'base64'))`;
    }
    return { id: row!.id, replaced: replaced.length > 0 };
  });
}

export async function findChange(sql: Sql, id: string): Promise<ChangeRow | null> {
  const [c] = await sql<ChangeRow[]>`
    select c.id::text, c.driver_id, c.kind, c.status, c.details, c.submitted_at, c.decided_at, c.decided_by::text, c.reason, ${DOCS(sql)}
      from driver_changes c where c.id = ${id}`;
  return c ?? null;
}

/** The driver's own: what waits for review, and what was decided in the last 30 days, newest first. */
export async function changesOfDriver(sql: Sql, driverId: string): Promise<ChangeRow[]> {
  return sql<ChangeRow[]>`
    select c.id::text, c.driver_id, c.kind, c.status, c.details, c.submitted_at, c.decided_at, c.decided_by::text, c.reason, ${DOCS(sql)}
      from driver_changes c
     where c.driver_id = ${driverId}
       and (c.status = 'pending' or (c.status in ('approved', 'refused') and c.decided_at > now() - interval '30 days'))
     order by c.submitted_at desc, c.id desc limit 20`;
}

/** The driver as on record, beside what they ask to change (dates as YYYY-MM-DD). */
export type DriverOnRecord = Pick<
  DriverRow,
  | 'name'
  | 'phone'
  | 'status'
  | 'vehicle_registration'
  | 'vehicle_colour'
  | 'vehicle_type'
  | 'seats'
  | 'wheelchair_accessible'
> & {
  driver_licence_expires: string | null;
  vehicle_licence_expires: string | null;
};
export type PendingChange = ChangeRow & { driver: DriverOnRecord };

/** What staff review, oldest first, with each driver as on record now. */
export async function pendingChanges(sql: Sql, limit = 100): Promise<PendingChange[]> {
  return sql<PendingChange[]>`
    select c.id::text, c.driver_id, c.kind, c.status, c.details, c.submitted_at, c.decided_at, c.decided_by::text, c.reason, ${DOCS(sql)},
           json_build_object('name', d.name, 'phone', d.phone, 'status', d.status, 'vehicle_registration', d.vehicle_registration,
                             'vehicle_colour', d.vehicle_colour, 'vehicle_type', d.vehicle_type, 'seats', d.seats,
                             'wheelchair_accessible', d.wheelchair_accessible, 'driver_licence_expires', d.driver_licence_expires::text,
                             'vehicle_licence_expires', d.vehicle_licence_expires::text) as driver
      from driver_changes c join drivers d on d.id = c.driver_id
     where c.status = 'pending'
     order by c.submitted_at, c.id limit ${limit}`;
}

export async function changeDocument(sql: Sql, changeId: string, documentId: string) {
  const [d] = await sql<{ content_type: string; data: Buffer; kind: string; driver_id: string }[]>`
    select x.content_type, x.data, x.kind, c.driver_id
      from driver_change_documents x join driver_changes c on c.id = x.change_id
     where x.change_id = ${changeId} and x.id = ${documentId}`;
  return d ?? null;
}

export type DecideOutcome =
  { result: 'decided'; change: ChangeRow } | { result: 'phone_taken' } | { result: 'not_pending' };

/**
 * Approves or refuses one pending change. Approval writes it onto the driver (and its documents
 * among theirs) in the same transaction as the decision, so a change is never half-applied.
 */
export async function decideChange(
  sql: Sql,
  q: { changeId: string; decision: 'approved' | 'refused'; staffId: string; reason: string | null },
): Promise<DecideOutcome> {
  return sql
    .begin(async (tx) => {
      const [c] = await tx<ChangeRow[]>`
      update driver_changes set status = ${q.decision}, decided_at = now(), decided_by = ${q.staffId}, reason = ${q.reason}
       where id = ${q.changeId} and status = 'pending'
       returning id::text, driver_id, kind, status, details, submitted_at, decided_at, decided_by::text, reason, '[]'::json as documents`;
      if (!c) return { result: 'not_pending' as const };
      if (q.decision === 'approved') {
        const d = c.details;
        if (c.kind === 'licences') {
          await tx`
          update drivers set driver_licence_expires = coalesce(${(d.driverLicenceExpires as string | null) ?? null}::date, driver_licence_expires),
                             vehicle_licence_expires = coalesce(${(d.vehicleLicenceExpires as string | null) ?? null}::date, vehicle_licence_expires)
           where id = ${c.driver_id}`;
          await tx`
          insert into driver_documents (driver_id, kind, content_type, size_bytes, sha256, data)
          select ${c.driver_id}, kind, content_type, size_bytes, sha256, data from driver_change_documents where change_id = ${c.id} order by id`;
        } else if (c.kind === 'vehicle') {
          await tx`
          update drivers set vehicle_registration = ${d.vehicleRegistration as string}, vehicle_colour = ${(d.vehicleColour as string | null) ?? null},
                             vehicle_type = ${d.vehicleType as string}, seats = ${d.seats as number},
                             wheelchair_accessible = ${d.wheelchairAccessible as boolean}
           where id = ${c.driver_id}`;
        } else {
          const phone = d.phone as string;
          const taken =
            await tx`select 1 from drivers where phone = ${phone} and id <> ${c.driver_id} and status <> 'rejected' limit 1`;
          if (taken.length > 0) throw new PhoneTaken();
          await tx`update drivers set phone = ${phone} where id = ${c.driver_id}`;
        }
      }
      return { result: 'decided' as const, change: c };
    })
    .catch((err: unknown) => {
      if (err instanceof PhoneTaken) return { result: 'phone_taken' as const };
      throw err;
    });
}

/** Rolls the approval back: the number went to another driver while the change waited. */
class PhoneTaken extends Error {}

// --- A new phone's code (one at a time per driver, hashed). ---

export async function savePhoneCode(
  sql: Sql,
  driverId: string,
  phone: string,
  codeHash: string,
  expiresAt: Date,
): Promise<void> {
  await sql`
    insert into driver_phone_codes (driver_id, phone, code_hash, expires_at)
    values (${driverId}, ${phone}, ${codeHash}, ${expiresAt})
    on conflict (driver_id) do update set phone = excluded.phone, code_hash = excluded.code_hash, expires_at = excluded.expires_at,
                                          attempts = 0, created_at = now()`;
}

/** Counts a try and answers the code to check it against, unless spent, expired, for another number or tried too often. */
export async function takePhoneCodeAttempt(
  sql: Sql,
  driverId: string,
  phone: string,
  maxAttempts: number,
): Promise<string | null> {
  const [row] = await sql<{ code_hash: string }[]>`
    update driver_phone_codes set attempts = attempts + 1
     where driver_id = ${driverId} and phone = ${phone} and expires_at > now() and attempts < ${maxAttempts}
     returning code_hash`;
  return row?.code_hash ?? null;
}

export async function spendPhoneCode(sql: Sql, driverId: string): Promise<void> {
  await sql`delete from driver_phone_codes where driver_id = ${driverId}`;
}
