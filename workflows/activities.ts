// The two ways workflows call activities, declared once for every workflow.
import { proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';

/**
 * Work that leaves the service or takes a while (messages, billing runs, alerts): full activities,
 * visible in history and retried by the server.
 */
export const acts = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

/**
 * Short Postgres reads and writes: local activities, run inside the workflow task with no server
 * round trip per step.
 */
export const db = proxyLocalActivities<Activities>({
  startToCloseTimeout: '10 seconds',
  retry: { initialInterval: '500 ms', maximumInterval: '30 seconds' },
});

/**
 * A job awarded to a driver (assignDriver: the acceptance recorded, the other cards withdrawn, the
 * texts owed to the winner, the other drivers and the passenger): a local activity in the workflow
 * task that took the acceptance, so no server round trip stands between the driver's tap and its
 * answer and the award costs the booking no workflow task of its own. It sends messages, so it gets
 * the time a provider may take; each message has its outbox key, so a retry sends nothing twice.
 */
export const award = proxyLocalActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});
