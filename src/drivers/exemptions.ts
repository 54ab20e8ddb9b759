import type { Sql } from '../db/sql.js';
import { Refusal } from '../refusal.js';
import { londonDate } from '../pricing/periods.js';
import {
  driverExists,
  exemptionsOf,
  recordExemption,
  removeExemption,
  type ExemptionRow,
  type Exempts,
} from './exemption-store.js';

// A driver's medical exemption certificates (Equality Act 2010 s.166 for a wheelchair user's
// assistance, s.169 for assistance dogs), kept with their papers: staff record one from the
// council's certificate. Dispatch respects each only for what it exempts and while it is in date
// (src/dispatch/policy.ts, exempt_from_*); it is never a reason to charge a passenger.

export type DriverExemption = ExemptionRow & { inDate: boolean };

export async function driverExemptions(sql: Sql, driverId: string, now = new Date()): Promise<DriverExemption[]> {
  if (!(await driverExists(sql, driverId))) throw Refusal.notFound('driver_not_found', `No driver ${driverId}.`);
  const today = londonDate(now);
  return (await exemptionsOf(sql, driverId)).map((e) => ({ ...e, inDate: e.expires_on >= today }));
}

export async function recordDriverExemption(
  sql: Sql,
  driverId: string,
  e: { exempts: Exempts; certificateNumber: string; issuedBy: string; expiresOn: string },
  recordedBy: string,
): Promise<DriverExemption[]> {
  if (!(await driverExists(sql, driverId))) throw Refusal.notFound('driver_not_found', `No driver ${driverId}.`);
  await recordExemption(sql, {
    driver_id: driverId,
    exempts: e.exempts,
    certificate_number: e.certificateNumber,
    issued_by: e.issuedBy,
    expires_on: e.expiresOn,
    recorded_by: recordedBy,
  });
  return driverExemptions(sql, driverId);
}

export async function removeDriverExemption(sql: Sql, driverId: string, exempts: Exempts): Promise<DriverExemption[]> {
  if (!(await removeExemption(sql, driverId, exempts)))
    throw Refusal.notFound(
      'exemption_not_found',
      `Driver ${driverId} has no ${exempts.replace('_', ' ')} exemption on file.`,
    );
  return driverExemptions(sql, driverId);
}
