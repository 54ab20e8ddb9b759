import { continueAsNew, setHandler, sleep } from '@temporalio/workflow';
import { acts } from '../activities.js';
import {
  OPS_WATCH_CHECKS_PER_RUN,
  OPS_WATCH_INTERVAL_MS,
  opsWatchStateQuery,
  type OpsWatchInput,
  type OpsWatchState,
} from './definitions.js';

/**
 * `ops-watch:unassigned`: each minute, alert ops about every booking still without a driver near
 * its pickup. Which bookings and the alert window are the activity's business (the window is
 * configuration, read by the worker, so changing it needs no new workflow); the alert itself is
 * claimed once per booking in Postgres, so a retried activity or two overlapping runs never send
 * two. History is bounded: after a day of looks the workflow continues as new.
 */
export async function opsWatchWorkflow(input: OpsWatchInput = {}): Promise<void> {
  const state: OpsWatchState = { checks: 0, alerted: 0, alertedTotal: input.alertedTotal ?? 0 };
  setHandler(opsWatchStateQuery, () => state);

  while (state.checks < OPS_WATCH_CHECKS_PER_RUN) {
    const { alerted } = await acts.alertUnassignedNearPickup();
    state.checks += 1;
    state.alerted += alerted.length;
    state.alertedTotal += alerted.length;
    await sleep(OPS_WATCH_INTERVAL_MS);
  }
  await continueAsNew<typeof opsWatchWorkflow>({ alertedTotal: state.alertedTotal });
}
