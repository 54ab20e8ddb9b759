import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import { OPS_WATCH_WORKFLOW_ID } from '../../workflows/ops/definitions.js';

/**
 * Starts the ops watcher unless it is running. Every worker calls this at start: USE_EXISTING
 * makes all but the first a no-op, and a watcher that ended (terminated by hand, failed) is
 * started again by the next worker to start.
 */
export async function ensureOpsWatch(client: Client, taskQueue: string, workflowId = OPS_WATCH_WORKFLOW_ID): Promise<void> {
  try {
    await client.workflow.start('opsWatchWorkflow', {
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
