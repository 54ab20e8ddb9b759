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
