import { condition, setHandler } from '@temporalio/workflow';
import { acts } from '../activities.js';
import {
  firstExpiry,
  licenceStateQuery,
  licencesRenewedSignal,
  reminderAt,
  type LicenceState,
  type LicenceWorkflowInput,
} from './definitions.js';


/**
 * One per approved driver (`licence:<driverId>`): sleeps until a fortnight before the first of the
 * driver's licences runs out and texts them, once per expiry date; a renewal (new dates) starts
 * the wait again. It ends when no expiry is on record or the last one has passed unrenewed.
 */
export async function driverLicenceWorkflow(input: LicenceWorkflowInput): Promise<LicenceState> {
  const state: LicenceState = {
    driverLicenceExpires: input.driverLicenceExpires,
    vehicleLicenceExpires: input.vehicleLicenceExpires,
    expires: firstExpiry(input),
    remindedFor: [],
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
    if (!state.remindedFor.includes(expires)) {
      if (await condition(() => renewed, Math.max(0, remindAt - Date.now()))) continue;
      await acts.sendLicenceReminder({ driverId: input.driverId, expires });
      state.remindedFor.push(expires);
    }
    // After the reminder: wait for a renewal until the licence has run out, then stop watching.
    const endOfExpiryDay = Date.parse(`${expires}T00:00:00Z`) + 86_400_000;
    if (!(await condition(() => renewed, Math.max(0, endOfExpiryDay - Date.now())))) return state;
  }
}
