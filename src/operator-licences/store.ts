import type { Sql } from '../db/sql.js';
import type { LicencesOnFile, OperatorLicenceHolder, OperatorLicenceKind } from '../model/operator-licences.js';

// SQL of operator_licences (migration 00050): the licences of the operators our bookings may be
// sub-contracted to, as staff put them on file.

export interface OperatorLicenceRow {
  holder_kind: OperatorLicenceHolder;
  holder_id: string;
  authority: string;
  number: string;
  kind: OperatorLicenceKind;
  /** YYYY-MM-DD, valid through this day. */
  expires_on: string;
  recorded_by: string;
  recorded_at: Date;
}

/** The fleet's name, or null when there is no such fleet. */
export async function holderName(sql: Sql, kind: OperatorLicenceHolder, id: string): Promise<string | null> {
  const [row] =
    kind === 'partner_fleet'
      ? await sql<{ name: string }[]>`select name from partner_fleets where id = ${id}`
      : await sql<{ name: string }[]>`select name from exchange_fleets where id = ${id}`;
  return row?.name ?? null;
}

/** On file: a new licence, or a renewal of one already there (same authority, number and kind) moving its expiry. */
export async function recordOperatorLicence(
  sql: Sql,
  l: Omit<OperatorLicenceRow, 'recorded_at'>,
): Promise<OperatorLicenceRow> {
  const [row] = await sql<OperatorLicenceRow[]>`
    insert into operator_licences (holder_kind, holder_id, authority, number, kind, expires_on, recorded_by)
    values (${l.holder_kind}, ${l.holder_id}, ${l.authority}, ${l.number}, ${l.kind}, ${l.expires_on}, ${l.recorded_by})
    on conflict (holder_kind, holder_id, authority, number, kind)
      do update set expires_on = excluded.expires_on, recorded_by = excluded.recorded_by, recorded_at = now()
    returning holder_kind, holder_id, authority, number, kind, to_char(expires_on, 'YYYY-MM-DD') as expires_on,
              recorded_by, recorded_at`;
  return row!;
}

/** Every licence on file for the holder, latest expiry first. */
export async function operatorLicences(
  sql: Sql,
  kind: OperatorLicenceHolder,
  id: string,
): Promise<OperatorLicenceRow[]> {
  return sql<OperatorLicenceRow[]>`
    select holder_kind, holder_id, authority, number, kind, to_char(expires_on, 'YYYY-MM-DD') as expires_on,
           recorded_by, recorded_at
      from operator_licences where holder_kind = ${kind} and holder_id = ${id}
     order by expires_on desc, id desc`;
}

/**
 * Each kind's latest licence as the first instant it is no longer valid (the day after its expiry,
 * as dispatch reads a driver's), for subcontractRefusal.
 */
export async function licencesOnFile(sql: Sql, kind: OperatorLicenceHolder, id: string): Promise<LicencesOnFile> {
  const [row] = await sql<{ private_hire: Date | null; psv: Date | null }[]>`
    select (max(expires_on) filter (where kind = 'private_hire') + 1)::timestamptz as private_hire,
           (max(expires_on) filter (where kind = 'psv') + 1)::timestamptz as psv
      from operator_licences where holder_kind = ${kind} and holder_id = ${id}`;
  return { private_hire: row?.private_hire ?? null, psv: row?.psv ?? null };
}

/**
 * The operator a booking was sub-contracted to, as the passenger is told and the booking record
 * shows it: its name and the licence it rests on (operator_licence_on_file, migration 00050).
 */
export async function providingOperator(
  sql: Sql,
  kind: OperatorLicenceHolder,
  id: string,
  psv = false,
): Promise<{ name: string; licence: string | null } | null> {
  const name = await holderName(sql, kind, id);
  if (name === null) return null;
  const [row] = await sql<{ licence: string | null }[]>`
    select operator_licence_on_file(${kind}, ${id}, ${psv}) as licence`;
  return { name, licence: row?.licence ?? null };
}
