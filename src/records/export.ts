import { DateTime } from 'luxon';
import type { Sql } from '../db/sql.js';
import { ProblemError } from '../http/problem.js';
import { meterAreas } from '../pricing/meter-calculator.js';
import type { StaffMember } from '../auth/staff.js';
import { recordExport, recordsFor, EXPORT_MAX_BOOKINGS, type BookingRecordRow, type RecordEntryRow } from './store.js';

// A licensing officer's export of the booking records (docs/records.md): one authority, a range of
// London dates (inclusive), as CSV to print or open in a spreadsheet or as JSON with every entry;
// each export recorded with who gave it and why.

export type RecordFormat = 'csv' | 'json';

export interface RecordExportQuery {
  areaId: string;
  from: string;
  to: string;
  format: RecordFormat;
  reason: string;
}

/** The longest range one export covers: the longest retention any authority sets (24 months) and a margin. */
const MAX_RANGE_DAYS = 800;

/** The licensing areas an officer can ask for, with their authority's name. */
export function recordAuthorities(): { id: string; authority: string }[] {
  return meterAreas();
}

let authorityNames: Map<string, string> | null = null;

/** The authority's name for a licensing area (read once: every record of an export asks). */
export function authorityName(areaId: string): string {
  authorityNames ??= new Map(recordAuthorities().map((a) => [a.id, a.authority]));
  return authorityNames.get(areaId) ?? areaId;
}

/** London's days [from, to] as instants [start of from, start of the day after to). */
export function londonDayRange(from: string, to: string): { start: Date; end: Date } {
  const a = DateTime.fromISO(from, { zone: 'Europe/London' });
  const b = DateTime.fromISO(to, { zone: 'Europe/London' });
  if (!a.isValid || !b.isValid) throw new ProblemError(400, 'invalid_dates', 'from and to are dates (YYYY-MM-DD).');
  if (b < a) throw new ProblemError(400, 'invalid_dates', 'to is before from.');
  if (b.diff(a, 'days').days > MAX_RANGE_DAYS)
    throw new ProblemError(400, 'range_too_long', `One export covers at most ${MAX_RANGE_DAYS} days.`);
  return { start: a.startOf('day').toJSDate(), end: b.plus({ days: 1 }).startOf('day').toJSDate() };
}

const london = (d: Date | null) =>
  d ? DateTime.fromJSDate(d, { zone: 'Europe/London' }).toFormat('yyyy-MM-dd HH:mm') : '';

/** A record as an officer reads it: the driver who holds (or held) the job, and how it went. */
export function presentRecord(r: BookingRecordRow) {
  const allocations = r.entries.filter((e) => e.kind === 'allocated');
  const last: RecordEntryRow | undefined = allocations.at(-1);
  const subcontracts = r.entries.filter((e) => e.kind === 'subcontracted');
  // Each receiving operator with the licence the sub-contract rested on, as it was on file then.
  const withLicence = (e: RecordEntryRow) =>
    [e.operator ?? e.detail ?? '', e.operator_licence].filter(Boolean).join(', ');
  const partnerFleet = allocations.filter((a) => a.operator).map(withLicence);
  const closed = r.entries.filter((e) => e.kind === 'closed').at(-1);
  return {
    ref: r.ref,
    licensing_authority: authorityName(r.area_id),
    area_id: r.area_id,
    received_at: r.received_at.toISOString(),
    received_london: london(r.received_at),
    channel: r.channel,
    taken_by: r.taken_by,
    passenger_name: r.passenger_name,
    pickup: r.pickup,
    pickup_at: r.pickup_at.toISOString(),
    pickup_london: london(r.pickup_at),
    destination: r.destination,
    fare_quoted_pence: r.fare_quoted_pence,
    fare_basis: r.fare_basis,
    needs: r.needs,
    driver_name: last?.driver_name ?? null,
    driver_licence_number: last?.driver_licence_number ?? null,
    driver_licensing_authority: last?.driver_licensing_authority ?? null,
    vehicle_registration: last?.vehicle_registration ?? null,
    allocated_at: last?.at.toISOString() ?? null,
    allocated_london: london(last?.at ?? null),
    dispatched_by: last?.dispatched_by ?? null,
    allocations: allocations.length,
    subcontracted_from: r.subcontracted_from,
    subcontracted_to: [...subcontracts.map(withLicence), ...partnerFleet].join('; ') || null,
    outcome: closed?.detail ?? 'open',
    entries: r.entries.map((e) => ({ ...e, at: e.at.toISOString(), at_london: london(e.at) })),
  };
}
export type PresentedRecord = ReturnType<typeof presentRecord>;

const CSV_COLUMNS: [string, (r: PresentedRecord) => string | number | null][] = [
  ['Booking ref', (r) => r.ref],
  ['Licensing authority', (r) => r.licensing_authority],
  ['Booking received (London)', (r) => r.received_london],
  ['How booked', (r) => r.channel],
  ['Taken by', (r) => r.taken_by],
  ['Passenger name', (r) => r.passenger_name],
  ['Pick-up point', (r) => r.pickup],
  ['Requested pick-up time (London)', (r) => r.pickup_london],
  ['Destination', (r) => r.destination],
  ['Fare quoted (GBP)', (r) => (r.fare_quoted_pence / 100).toFixed(2)],
  ['Fare basis', (r) => r.fare_basis],
  ['Passenger needs', (r) => r.needs],
  ['Driver name', (r) => r.driver_name],
  ['Driver licence number', (r) => r.driver_licence_number],
  ['Driver licensing authority', (r) => r.driver_licensing_authority],
  ['Vehicle registration', (r) => r.vehicle_registration],
  ['Driver allocated (London)', (r) => r.allocated_london],
  ['Dispatched by', (r) => r.dispatched_by],
  ['Allocations', (r) => r.allocations],
  ['Sub-contracted from', (r) => r.subcontracted_from],
  ['Sub-contracted to', (r) => r.subcontracted_to],
  ['Outcome', (r) => r.outcome],
  [
    'History (London)',
    (r) =>
      r.entries
        .map((e) =>
          [e.at_london, e.kind, e.driver_name, e.driver_licence_number, e.vehicle_registration, e.operator, e.detail]
            .filter(Boolean)
            .join(' '),
        )
        .join(' | '),
  ],
];

/**
 * One CSV cell, quoted, and kept from being read as a formula: a spreadsheet runs a cell that starts
 * with = + - @ (or a tab or carriage return before one), so such a cell is prefixed with an apostrophe
 * (OWASP's advice), and a name a passenger typed as "=HYPERLINK(...)" stays text.
 */
export function csvCell(value: string | number | null): string {
  let s = value === null ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return `"${s.replace(/"/g, '""')}"`;
}

export function recordsCsv(records: PresentedRecord[]): string {
  const lines = [CSV_COLUMNS.map(([h]) => csvCell(h)).join(',')];
  for (const r of records) lines.push(CSV_COLUMNS.map(([, f]) => csvCell(f(r))).join(','));
  return lines.join('\r\n') + '\r\n';
}

/** The export an officer is given, and the record that it was given. */
export async function exportRecords(
  s: { sql: Sql },
  staff: StaffMember,
  q: RecordExportQuery,
): Promise<{ contentType: string; filename: string; body: string; bookings: number }> {
  if (!recordAuthorities().some((a) => a.id === q.areaId))
    throw new ProblemError(400, 'unknown_authority', `No licensing area ${q.areaId}.`);
  const { start, end } = londonDayRange(q.from, q.to);
  const rows = await recordsFor(s.sql, { areaId: q.areaId, from: start, to: end, limit: EXPORT_MAX_BOOKINGS + 1 });
  if (rows.length > EXPORT_MAX_BOOKINGS)
    throw new ProblemError(
      400,
      'range_too_long',
      `More than ${EXPORT_MAX_BOOKINGS} bookings: ask for a shorter range.`,
    );
  const records = rows.map(presentRecord);
  await recordExport(s.sql, {
    staffId: staff.id,
    staffName: staff.name,
    areaId: q.areaId,
    fromDate: q.from,
    toDate: q.to,
    format: q.format,
    bookings: records.length,
    reason: q.reason,
  });
  const filename = `booking-records-${q.areaId}-${q.from}-to-${q.to}.${q.format}`;
  if (q.format === 'csv')
    // A byte-order mark, so a spreadsheet opens "Zoë" and "£" as written.
    return {
      contentType: 'text/csv; charset=utf-8',
      filename,
      body: '\ufeff' + recordsCsv(records),
      bookings: records.length,
    };
  const body = JSON.stringify({
    licensing_authority: authorityName(q.areaId),
    area_id: q.areaId,
    from: q.from,
    to: q.to,
    exported_at: new Date().toISOString(),
    exported_by: staff.name,
    reason: q.reason,
    bookings: records,
  });
  return { contentType: 'application/json; charset=utf-8', filename, body, bookings: records.length };
}
