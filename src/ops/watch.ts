import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import { LOCATION_WATCH_WORKFLOW_ID } from '../../workflows/drivers/definitions.js';
import { OPS_WATCH_WORKFLOW_ID } from '../../workflows/ops/definitions.js';

/**
 * Starts the ops watcher unless it is running. Every worker calls this at start: USE_EXISTING
 * makes all but the first a no-op, and a watcher that ended (terminated by hand, failed) is
 * started again by the next worker to start.
 */
export async function ensureOpsWatch(
  client: Client,
  taskQueue: string,
  workflowId = OPS_WATCH_WORKFLOW_ID,
): Promise<void> {
  await ensureWatch(client, taskQueue, 'opsWatchWorkflow', workflowId);
}

/** The same for the drivers' location watch (workflows/drivers/location-watch.ts). */
export async function ensureLocationWatch(
  client: Client,
  taskQueue: string,
  workflowId = LOCATION_WATCH_WORKFLOW_ID,
): Promise<void> {
  await ensureWatch(client, taskQueue, 'driverLocationWatchWorkflow', workflowId);
}

async function ensureWatch(client: Client, taskQueue: string, workflowType: string, workflowId: string): Promise<void> {
  try {
    await client.workflow.start(workflowType, {
      workflowId,
      taskQueue,
      args: [{}],
      workflowIdConflictPolicy: 'USE_EXISTING',
      workflowIdReusePolicy: 'ALLOW_DUPLICATE',
    });
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
}
