import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';

/**
 * Starts a workflow that runs once per cluster (the ops watch, the drivers' location watch, the
 * partners' billing) unless it is running. Every worker calls this at start: USE_EXISTING makes all
 * but the first a no-op, and one that ended (terminated by hand, failed) is started again by the
 * next worker to start.
 */
export async function startOnce(
  temporal: Client,
  opts: { workflowType: string; workflowId: string; taskQueue: string },
): Promise<void> {
  try {
    await temporal.workflow.start(opts.workflowType, {
      workflowId: opts.workflowId,
      taskQueue: opts.taskQueue,
      args: [{}],
      workflowIdConflictPolicy: 'USE_EXISTING',
      workflowIdReusePolicy: 'ALLOW_DUPLICATE',
    });
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
}
