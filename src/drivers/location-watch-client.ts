import type { Client } from '@temporalio/client';
import { startOnce } from '../temporal/start-once.js';
import { LOCATION_WATCH_WORKFLOW_ID } from '../../workflows/drivers/definitions.js';

// The drivers' location watch's one client (docs/refusals.md, "Temporal failures"): the worker
// starts the watch that texts online drivers whose app has gone quiet
// (workflows/drivers/location-watch.ts) here, and Temporal's failures are read here.

/** The workflow type the location watch runs as. */
export const LOCATION_WATCH_WORKFLOW_TYPE = 'driverLocationWatchWorkflow';

export class LocationWatchClient {
  constructor(
    private readonly temporal: Client,
    /** Where the watch runs (the worker's task queue). */
    private readonly taskQueue: string,
  ) {}

  /**
   * Starts the location watch unless it is running. Every worker calls this at start (with the ops
   * watch): all but the first are no-ops, and one that ended is started again.
   */
  async ensure(workflowId = LOCATION_WATCH_WORKFLOW_ID): Promise<void> {
    await startOnce(this.temporal, {
      workflowType: LOCATION_WATCH_WORKFLOW_TYPE,
      workflowId,
      taskQueue: this.taskQueue,
    });
  }
}
