import type { Sql } from '../db/sql.js';
import type { RateOverride, VehicleType } from '../pricing/types.js';

interface Row {
  id: string;
  scope: 'driver' | 'partner';
  subject_id: string;
  adjustment_basis_points: number;
  minimum_fare_pence: number | null;
  approved_by: string;
  approved_at: Date;
}

const toOverride = (r: Row): RateOverride => ({
  id: r.id,
  scope: r.scope,
  subjectId: r.subject_id,
  adjustmentBasisPoints: r.adjustment_basis_points,
  minimumFarePence: r.minimum_fare_pence,
  approvedBy: r.approved_by,
  approvedAt: r.approved_at.toISOString(),
});

/**
 * The approved rate in force for a driver or partner at the pickup time and for this vehicle
 * class, newest approval first. One approved for particular classes applies to those only.
 */
export async function findRateOverride(
  sql: Sql,
  scope: 'driver' | 'partner',
  subjectId: string,
  at: Date,
  vehicleType: VehicleType,
): Promise<RateOverride | null> {
  const rows = await sql<Row[]>`
    select id, scope, subject_id, adjustment_basis_points, minimum_fare_pence, approved_by, approved_at
      from rate_overrides
     where scope = ${scope} and subject_id = ${subjectId}
       and effective_from <= ${at} and (effective_to is null or effective_to > ${at})
       and (vehicle_types is null or ${vehicleType} = any (vehicle_types))
     order by approved_at desc
     limit 1`;
  return rows[0] ? toOverride(rows[0]) : null;
}

export const findPartnerRateOverride = (sql: Sql, partnerId: string, at: Date, vehicleType: VehicleType) =>
  findRateOverride(sql, 'partner', partnerId, at, vehicleType);

export async function approveRateOverride(
  sql: Sql,
  o: Omit<RateOverride, 'id' | 'approvedAt'> & {
    effectiveFrom?: Date;
    effectiveTo?: Date | null;
    vehicleTypes?: VehicleType[] | null;
  },
): Promise<RateOverride> {
  const rows = await sql<Row[]>`
    insert into rate_overrides (id, scope, subject_id, adjustment_basis_points, minimum_fare_pence, approved_by,
                                approved_at, effective_from, effective_to, vehicle_types)
    values (gen_random_uuid(), ${o.scope}, ${o.subjectId}, ${o.adjustmentBasisPoints}, ${o.minimumFarePence},
            ${o.approvedBy}, now(), ${o.effectiveFrom ?? new Date(0)}, ${o.effectiveTo ?? null}, ${o.vehicleTypes ?? null})
    returning id, scope, subject_id, adjustment_basis_points, minimum_fare_pence, approved_by, approved_at`;
  return toOverride(rows[0] as Row);
}

/** One approved rate by id (the partner rate a booking's quoted fare was priced with); null when gone. */
export async function findRateOverrideById(sql: Sql, id: string): Promise<RateOverride | null> {
  const rows = await sql<Row[]>`
    select id, scope, subject_id, adjustment_basis_points, minimum_fare_pence, approved_by, approved_at
      from rate_overrides where id = ${id}`;
  return rows[0] ? toOverride(rows[0]) : null;
}

/**
 * The approved driver rate in force for each of these drivers at the pickup time and for this
 * vehicle class (findRateOverride's rule, newest approval first), in one statement however many
 * candidates a dispatch page holds. Drivers with none are absent from the map.
 */
export async function findDriverRateOverrides(
  sql: Sql,
  driverIds: readonly string[],
  at: Date,
  vehicleType: string,
): Promise<Map<string, RateOverride>> {
  if (driverIds.length === 0) return new Map();
  const rows = await sql<Row[]>`
    select distinct on (subject_id) id, scope, subject_id, adjustment_basis_points, minimum_fare_pence, approved_by, approved_at
      from rate_overrides
     where scope = 'driver' and subject_id = any (${sql.array([...driverIds])}::text[])
       and effective_from <= ${at} and (effective_to is null or effective_to > ${at})
       and (vehicle_types is null or ${vehicleType} = any (vehicle_types))
     order by subject_id, approved_at desc`;
  return new Map(rows.map((r) => [r.subject_id, toOverride(r)]));
}

/** Whether the driver has an approved rate in force now or later (the board prices their jobs then). */
export async function driverHasRate(sql: Sql, driverId: string, now: Date): Promise<boolean> {
  const rows = await sql`
    select 1 from rate_overrides
     where scope = 'driver' and subject_id = ${driverId} and (effective_to is null or effective_to > ${now})
     limit 1`;
  return rows.length > 0;
}
