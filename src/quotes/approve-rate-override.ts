import { recordStaffAction, type StaffMember } from '../auth/staff.js';
import { findDriver } from '../drivers/store.js';
import { findPartner } from '../partners/store.js';
import type { RateOverride, VehicleType } from '../pricing/types.js';
import { Refusal } from '../refusal.js';
import type { Services } from '../services.js';
import { approveRateOverride } from './rate-overrides.js';

// Staff approve a driver's or partner's own rate (an override of the council tariff's meter).
// The rate's numbers are bounded by its schema (src/schemas/drivers.ts: -50 % to +100 % on the
// meter, a minimum fare of at most 200 GBP); here, what needs the database or the clock: the
// subject must exist, and the window must be one in which the rate can ever be in force.

/** How far ahead a rate may be approved to start: further is a typo more often than a plan. */
export const MAX_OVERRIDE_LEAD_DAYS = 366;
const DAY_MS = 86_400_000;

export interface RateOverrideApproval {
  scope: 'driver' | 'partner';
  subjectId: string;
  adjustmentBasisPoints: number;
  minimumFarePence: number | null;
  vehicleTypes: VehicleType[] | null;
  effectiveFrom: Date | null;
  effectiveTo: Date | null;
  reason: string;
}

export async function approveRate(
  s: Pick<Services, 'sql'>,
  staff: StaffMember,
  a: RateOverrideApproval,
  now = new Date(),
): Promise<RateOverride> {
  // An override for nobody was once recorded as approved: it priced nothing, and said it did.
  if (a.scope === 'driver' && !(await findDriver(s.sql, a.subjectId))) {
    throw Refusal.notFound('driver_not_found', `No driver ${a.subjectId}.`, {
      field: { name: 'subject_id', message: 'is no driver' },
    });
  }
  if (a.scope === 'partner' && !(await findPartner(s.sql, a.subjectId))) {
    throw Refusal.notFound('partner_not_found', `No partner ${a.subjectId}.`, {
      field: { name: 'subject_id', message: 'is no partner' },
    });
  }
  const from = a.effectiveFrom ?? now;
  const window = (field: string, message: string) =>
    Refusal.invalid('validation_failed', `${field} ${message}.`, { field: { name: field, message } });
  if (from.getTime() > now.getTime() + MAX_OVERRIDE_LEAD_DAYS * DAY_MS)
    throw window('effective_from', `is more than ${MAX_OVERRIDE_LEAD_DAYS} days ahead`);
  if (a.effectiveTo && a.effectiveTo.getTime() <= from.getTime()) throw window('effective_to', 'is before the start');
  if (a.effectiveTo && a.effectiveTo.getTime() <= now.getTime()) throw window('effective_to', 'has already passed');

  const o = await approveRateOverride(s.sql, {
    scope: a.scope,
    subjectId: a.subjectId,
    adjustmentBasisPoints: a.adjustmentBasisPoints,
    minimumFarePence: a.minimumFarePence,
    approvedBy: staff.name,
    ...(a.effectiveFrom ? { effectiveFrom: a.effectiveFrom } : {}),
    effectiveTo: a.effectiveTo,
    vehicleTypes: a.vehicleTypes,
  });
  await recordStaffAction(s.sql, {
    staffId: staff.id,
    action: 'rate_override.approve',
    subjectKind: a.scope,
    subjectId: a.subjectId,
    reason: a.reason,
    details: { id: o.id, adjustment_basis_points: a.adjustmentBasisPoints },
  });
  return o;
}
