import type { Sql } from '../db/sql.js';

// SQL of driver_medical_exemptions (migration 00051): a driver's medical exemption certificates,
// as staff record them from the council's certificate (docs/accessibility.md).

export const EXEMPTIONS = ['assistance_dogs', 'wheelchair_assistance'] as const;
export type Exempts = (typeof EXEMPTIONS)[number];

export interface ExemptionRow {
  exempts: Exempts;
  certificate_number: string;
  issued_by: string;
  /** YYYY-MM-DD, valid through this day. */
  expires_on: string;
  recorded_by: string;
  recorded_at: Date;
}

const COLUMNS = `exempts, certificate_number, issued_by, to_char(expires_on, 'YYYY-MM-DD') as expires_on, recorded_by, recorded_at`;

export async function driverExists(sql: Sql, driverId: string): Promise<boolean> {
  return (await sql`select 1 from drivers where id = ${driverId}`).length > 0;
}

/** One certificate per duty it exempts from: a new one replaces the last. */
export async function recordExemption(
  sql: Sql,
  e: Omit<ExemptionRow, 'recorded_at'> & { driver_id: string },
): Promise<void> {
  await sql`
    insert into driver_medical_exemptions (driver_id, exempts, certificate_number, issued_by, expires_on, recorded_by)
    values (${e.driver_id}, ${e.exempts}, ${e.certificate_number}, ${e.issued_by}, ${e.expires_on}, ${e.recorded_by})
    on conflict (driver_id, exempts) do update set certificate_number = excluded.certificate_number,
      issued_by = excluded.issued_by, expires_on = excluded.expires_on, recorded_by = excluded.recorded_by,
      recorded_at = now()`;
}

export async function removeExemption(sql: Sql, driverId: string, exempts: Exempts): Promise<boolean> {
  const rows =
    await sql`delete from driver_medical_exemptions where driver_id = ${driverId} and exempts = ${exempts} returning 1`;
  return rows.length > 0;
}

export async function exemptionsOf(sql: Sql, driverId: string): Promise<ExemptionRow[]> {
  return sql<ExemptionRow[]>`
    select ${sql.unsafe(COLUMNS)} from driver_medical_exemptions where driver_id = ${driverId} order by exempts`;
}
