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
  o: Omit<RateOverride, 'id' | 'approvedAt'> & { effectiveFrom?: Date; effectiveTo?: Date | null; vehicleTypes?: VehicleType[] | null },
): Promise<RateOverride> {
  const rows = await sql<Row[]>`
    insert into rate_overrides (id, scope, subject_id, adjustment_basis_points, minimum_fare_pence, approved_by,
                                approved_at, effective_from, effective_to, vehicle_types)
    values (gen_random_uuid(), ${o.scope}, ${o.subjectId}, ${o.adjustmentBasisPoints}, ${o.minimumFarePence},
            ${o.approvedBy}, now(), ${o.effectiveFrom ?? new Date(0)}, ${o.effectiveTo ?? null}, ${o.vehicleTypes ?? null})
    returning id, scope, subject_id, adjustment_basis_points, minimum_fare_pence, approved_by, approved_at`;
  return toOverride(rows[0] as Row);
}
