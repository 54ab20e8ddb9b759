import type { Client } from '@temporalio/client';
import { startOnce } from '../temporal/start-once.js';
import { OPS_WATCH_WORKFLOW_ID } from '../../workflows/ops/definitions.js';

// The ops watch's one client (docs/refusals.md, "Temporal failures"): the worker starts the watch
// that alerts ops about bookings still without a driver near pickup (workflows/ops/) here, and
// Temporal's failures are read here.

/** The workflow type the ops watch runs as. */
export const OPS_WATCH_WORKFLOW_TYPE = 'opsWatchWorkflow';

export class OpsWatchClient {
  constructor(
    private readonly temporal: Client,
    /** Where the watch runs (the worker's task queue). */
    private readonly taskQueue: string,
  ) {}

  /**
   * Starts the ops watcher unless it is running. Every worker calls this at start: USE_EXISTING
   * makes all but the first a no-op, and a watcher that ended (terminated by hand, failed) is
   * started again by the next worker to start.
   */
  async ensure(workflowId = OPS_WATCH_WORKFLOW_ID): Promise<void> {
    await startOnce(this.temporal, { workflowType: OPS_WATCH_WORKFLOW_TYPE, workflowId, taskQueue: this.taskQueue });
  }
}
