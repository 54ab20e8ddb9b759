import type { Sql } from '../db/sql.js';

// The booking records a licensing officer may ask for (migration 00049, docs/records.md): written by
// triggers with every booking, allocation, amendment, hand-over and end; read here by authority and
// date, and erased here when their retention ends.

export interface RecordEntryRow {
  kind: 'allocated' | 'released' | 'amended' | 'subcontracted' | 'closed';
  at: Date;
  driver_id: string | null;
  driver_name: string | null;
  driver_licence_number: string | null;
  driver_licensing_authority: string | null;
  vehicle_registration: string | null;
  dispatched_by: string | null;
  operator: string | null;
  operator_licence: string | null;
  detail: string | null;
}

export interface BookingRecordRow {
  ref: string;
  area_id: string;
  received_at: Date;
  channel: string;
  taken_by: string;
  passenger_name: string;
  pickup: string;
  pickup_at: Date;
  destination: string;
  fare_quoted_pence: number;
  fare_basis: string;
  subcontracted_from: string | null;
  needs: string;
  entries: RecordEntryRow[];
}

/** The most a single export holds: an officer asking for more is asked for a shorter range. */
export const EXPORT_MAX_BOOKINGS = 50_000;

/**
 * One authority's records received in [from, to) (instants), oldest first, each with its entries in
 * the order they happened. Nothing of another authority is read.
 */
export async function recordsFor(
  sql: Sql,
  q: { areaId: string; from: Date; to: Date; limit?: number },
): Promise<BookingRecordRow[]> {
  const rows = await sql<(Omit<BookingRecordRow, 'entries'> & { entries: RecordEntryRow[] | null })[]>`
    select r.ref, r.area_id, r.received_at, r.channel, r.taken_by, r.passenger_name, r.pickup, r.pickup_at,
           r.destination, r.fare_quoted_pence, r.fare_basis, r.subcontracted_from, r.needs,
           (select json_agg(json_build_object(
                     'kind', e.kind, 'at', e.at, 'driver_id', e.driver_id, 'driver_name', e.driver_name,
                     'driver_licence_number', e.driver_licence_number,
                     'driver_licensing_authority', e.driver_licensing_authority,
                     'vehicle_registration', e.vehicle_registration, 'dispatched_by', e.dispatched_by,
                     'operator', e.operator, 'operator_licence', e.operator_licence, 'detail', e.detail)
                   order by e.id)
              from booking_record_entries e where e.ref = r.ref) as entries
      from booking_records r
     where r.area_id = ${q.areaId} and r.received_at >= ${q.from} and r.received_at < ${q.to}
     order by r.received_at, r.ref
     limit ${q.limit ?? EXPORT_MAX_BOOKINGS}`;
  return rows.map((r) => ({
    ...r,
    entries: (r.entries ?? []).map((e) => ({ ...e, at: new Date(e.at as unknown as string) })),
  }));
}

export async function recordExport(
  sql: Sql,
  e: {
    staffId: string;
    staffName: string;
    areaId: string;
    fromDate: string;
    toDate: string;
    format: 'csv' | 'json';
    bookings: number;
    reason: string;
  },
): Promise<void> {
  await sql`insert into booking_record_exports (staff_id, staff_name, area_id, from_date, to_date, format, bookings, reason)
            values (${e.staffId}, ${e.staffName}, ${e.areaId}, ${e.fromDate}, ${e.toDate}, ${e.format}, ${e.bookings}, ${e.reason})`;
}

export interface ExportLogRow {
  staff_name: string;
  area_id: string;
  from_date: string;
  to_date: string;
  format: string;
  bookings: number;
  reason: string;
  at: Date;
}

export async function recentExports(sql: Sql, limit = 50): Promise<ExportLogRow[]> {
  return sql<ExportLogRow[]>`
    select staff_name, area_id, to_char(from_date, 'YYYY-MM-DD') as from_date, to_char(to_date, 'YYYY-MM-DD') as to_date,
           format, bookings, reason, at
      from booking_record_exports order by id desc limit ${limit}`;
}

export async function retentionMonths(
  sql: Sql,
): Promise<{ area_id: string; months: number; set_by: string; set_at: Date }[]> {
  return sql`select area_id, months, set_by, set_at from booking_record_retention order by area_id`;
}

export async function setRetention(sql: Sql, r: { areaId: string; months: number; setBy: string }): Promise<void> {
  await sql`insert into booking_record_retention (area_id, months, set_by) values (${r.areaId}, ${r.months}, ${r.setBy})
            on conflict (area_id) do update set months = excluded.months, set_by = excluded.set_by, set_at = now()`;
}

/**
 * Ends the records whose retention is over at `now`: counted from the later of the booking's receipt
 * and its pickup, in its authority's months (`defaultMonths` where none is set), and only once the
 * booking itself has ended. The record and its entries are deleted, and with them the passenger's
 * personal data on the booking (name, phone, email, the addresses as typed and as found, notes,
 * flight, a partner's copy of the job) and every message sent about it; the booking row stays, anonymous, for the payments and
 * driver invoices that refer to it. A batch at a time; returns the refs erased.
 */
export async function deleteExpiredRecords(
  sql: Sql,
  q: { now: Date; defaultMonths: number; batch?: number },
): Promise<string[]> {
  return sql.begin(async (tx) => {
    const expired = await tx<{ ref: string }[]>`
      select r.ref
        from booking_records r
        join bookings b on b.ref = r.ref
        left join booking_record_retention t on t.area_id = r.area_id
       where r.received_at < ${q.now}::timestamptz - interval '1 month'
         and greatest(r.received_at, r.pickup_at)
               < ${q.now}::timestamptz - make_interval(months => coalesce(t.months, ${q.defaultMonths}::integer))
         and b.status in ('completed', 'cancelled', 'no_show')
       order by r.received_at
       limit ${q.batch ?? 500}
         for update of r skip locked`;
    const refs = expired.map((e) => e.ref);
    if (refs.length === 0) return [];
    await tx`update bookings
                set personal_erased_at = now(), passenger_name = 'erased', passenger_phone = '', passenger_email = null,
                    pickup_query = '', dropoff_query = '', notes = null, flight_number = null, agent = null,
                    pickup = jsonb_build_object('label', 'erased', 'lat', round((pickup ->> 'lat')::numeric, 2),
                                                'lon', round((pickup ->> 'lon')::numeric, 2)),
                    dropoff = jsonb_build_object('label', 'erased', 'lat', round((dropoff ->> 'lat')::numeric, 2),
                                                 'lon', round((dropoff ->> 'lon')::numeric, 2))
              where ref = any(${refs})`;
    await tx`update partner_jobs set booked = null, held = null where booking_ref = any(${refs})`;
    await tx`delete from outbox where booking_ref = any(${refs})`;
    await tx`delete from booking_records where ref = any(${refs})`;
    return refs;
  });
}
