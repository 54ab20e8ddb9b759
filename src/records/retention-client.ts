import type { Client } from '@temporalio/client';
import { startOnce } from '../temporal/start-once.js';
import { RECORDS_RETENTION_WORKFLOW_ID } from '../../workflows/records/definitions.js';

// The records retention watch's one client: every worker starts it at start (docs/records.md).

/** The workflow type the retention watch runs as. */
export const RECORDS_RETENTION_WORKFLOW_TYPE = 'recordsRetentionWorkflow';

export class RecordsRetentionClient {
  constructor(
    private readonly temporal: Client,
    /** Where the watch runs (the worker's task queue). */
    private readonly taskQueue: string,
  ) {}

  /** Starts the watch unless it is running (USE_EXISTING: every worker but the first is a no-op). */
  async ensure(workflowId = RECORDS_RETENTION_WORKFLOW_ID): Promise<void> {
    await startOnce(this.temporal, {
      workflowType: RECORDS_RETENTION_WORKFLOW_TYPE,
      workflowId,
      taskQueue: this.taskQueue,
    });
  }
}
