import { Refusal } from '../refusal.js';
import type { Services } from '../services.js';
import { revokeDriverSessions } from './session-store.js';
import { driverStatus } from './store.js';

// What suspending a driver does at once, and what a suspended driver can no longer do. The status
// itself (drivers.status, with online and approved cleared) is written first by decideDriver; from
// then on no job card can be claimed for them (src/dispatch/store.ts claimOffer) and no sign-in
// code is sent. Then, here: every session ends, and a short workflow takes the driver off every
// booking they are in (workflows/drivers/suspension.ts, started by suspension-client.ts). Both are safe to repeat, and a retried
// decision repeats them, so a crash between the status and the withdrawal is finished by a retry.

export async function takeSuspendedDriverOffJobs(
  s: Pick<Services, 'sql' | 'suspensions'>,
  driver: { id: string; status_changed_at: Date | null },
): Promise<void> {
  await revokeDriverSessions(s.sql, driver.id);
  await s.suspensions.start(driver.id, driver.status_changed_at ?? new Date(0));
}

/**
 * Refuses anything a suspended driver tries to do with a job (answer a card, report a trip, confirm
 * a payment, read their feed), however they prove who they are: a job-card link outlives a
 * suspension, and a partner fleet speaks for its drivers.
 */
export async function assertDriverMayWork(s: Pick<Services, 'sql'>, driverId: string): Promise<void> {
  const status = await driverStatus(s.sql, driverId);
  if (status === 'suspended') {
    throw Refusal.forbidden(
      'driver_suspended',
      'This driver account is suspended: its jobs cannot be taken, worked or settled from it. Contact Direct Taxi.',
    );
  }
  if (status !== 'approved')
    throw Refusal.forbidden('driver_not_approved', 'This driver account is not approved to work jobs.');
}
