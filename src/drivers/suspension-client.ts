import { WorkflowExecutionAlreadyStartedError, WorkflowIdReusePolicy, type Client } from '@temporalio/client';
import { suspensionWorkflowId } from '../../workflows/drivers/definitions.js';

// The driver suspension workflow's one client (docs/refusals.md, "Temporal failures"): suspending a
// driver starts the short workflow that takes them off every booking they are in
// (workflows/drivers/suspension.ts) here, and Temporal's failures are read here.

/** The workflow type a suspension's workflow is started as. */
export const SUSPENSION_WORKFLOW_TYPE = 'driverSuspensionWorkflow';

export class SuspensionClient {
  constructor(
    private readonly temporal: Client,
    /** Where the suspensions' workflows run (the worker's task queue). */
    private readonly taskQueue: string,
  ) {}

  /** Starts taking the driver off their bookings, once per suspension: a repeat starts nothing again. */
  async start(driverId: string, suspendedAt: Date): Promise<void> {
    try {
      await this.temporal.workflow.start(SUSPENSION_WORKFLOW_TYPE, {
        workflowId: suspensionWorkflowId(driverId, suspendedAt),
        taskQueue: this.taskQueue,
        args: [{ driverId }],
        // One run per suspension, even once it has finished: a retried decision starts nothing again.
        workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
      });
    } catch (err) {
      if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
    }
  }
}
