import { acts } from '../activities.js';
import { watchEachMinute } from '../watch.js';
import { opsWatchStateQuery, type OpsWatchInput } from './definitions.js';

/**
 * `ops-watch:unassigned`: each minute, alert ops about every booking still without a driver near
 * its pickup. Which bookings and the alert window are the activity's business (the window is
 * configuration, read by the worker, so changing it needs no new workflow); the alert itself is
 * claimed once per booking in Postgres, so a retried activity or two overlapping runs never send
 * two. History is bounded: after a day of looks the workflow continues as new.
 */
export async function opsWatchWorkflow(input: OpsWatchInput = {}): Promise<void> {
  await watchEachMinute('alerted', input, opsWatchStateQuery, async () => {
    return (await acts.alertUnassignedNearPickup()).alerted;
  });
}
