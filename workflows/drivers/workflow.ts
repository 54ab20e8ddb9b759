import { condition, patched, setHandler } from '@temporalio/workflow';
import { acts } from '../activities.js';
import {
  licenceStateQuery,
  licencesRenewedSignal,
  type LicenceState,
  type LicenceWorkflowInput,
} from './definitions.js';
import { firstExpiry, LICENCE_WARNING_DAYS, reminderAt, warningAt } from '../../src/model/drivers.js';

/**
 * 0.4.0: a second text 3 days before the licence runs out (sendLicenceLapseWarning), after the
 * fortnight's reminder; each once per expiry date, and a renewal cancels both while they wait. A
 * watch that starts inside the last 3 days sends only the 3-day warning, not both at once.
 */
export const LICENCE_THREE_DAY_WARNING_PATCH = 'licence-three-day-warning';

/**
 * One per approved driver (`licence:<driverId>`): sleeps until a fortnight before the first of the
 * driver's licences runs out and texts them, and again 3 days before, each once per expiry date; a
 * renewal (new dates) starts the wait again. A renewal approved after the watch ended starts a new
 * one (src/drivers/licences.ts). It ends when no expiry is on record or the last one has passed unrenewed.
 */
export async function driverLicenceWorkflow(input: LicenceWorkflowInput): Promise<LicenceState> {
  const state: LicenceState = {
    driverLicenceExpires: input.driverLicenceExpires,
    vehicleLicenceExpires: input.vehicleLicenceExpires,
    expires: firstExpiry(input),
    remindedFor: [],
    warnedFor: [],
  };
  let renewed = false;
  setHandler(licenceStateQuery, () => state);
  setHandler(licencesRenewedSignal, (d) => {
    state.driverLicenceExpires = d.driverLicenceExpires;
    state.vehicleLicenceExpires = d.vehicleLicenceExpires;
    state.expires = firstExpiry(d);
    renewed = true;
  });

  for (;;) {
    renewed = false;
    const expires = state.expires;
    if (expires === null) return state;
    const remindAt = reminderAt(expires);
    if (patched(LICENCE_THREE_DAY_WARNING_PATCH)) {
      const warnAt = warningAt(expires);
      if (!state.remindedFor.includes(expires)) {
        if (await condition(() => renewed, Math.max(0, remindAt - Date.now()))) continue;
        // Already inside the last 3 days (approved or renewed late): the warning below says it all.
        if (Date.now() < warnAt) await acts.sendLicenceReminder({ driverId: input.driverId, expires });
        state.remindedFor.push(expires);
      }
      if (!state.warnedFor.includes(expires)) {
        if (await condition(() => renewed, Math.max(0, warnAt - Date.now()))) continue;
        await acts.sendLicenceLapseWarning({ driverId: input.driverId, expires, daysLeft: LICENCE_WARNING_DAYS });
        state.warnedFor.push(expires);
      }
    } else if (!state.remindedFor.includes(expires)) {
      if (await condition(() => renewed, Math.max(0, remindAt - Date.now()))) continue;
      await acts.sendLicenceReminder({ driverId: input.driverId, expires });
      state.remindedFor.push(expires);
    }
    // After the reminder: wait for a renewal until the licence has run out, then stop watching.
    const endOfExpiryDay = Date.parse(`${expires}T00:00:00Z`) + 86_400_000;
    if (!(await condition(() => renewed, Math.max(0, endOfExpiryDay - Date.now())))) return state;
  }
}
