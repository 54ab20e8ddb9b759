import {
  WithStartWorkflowOperation,
  WorkflowIdConflictPolicy,
  WorkflowIdReusePolicy,
  type Client,
} from '@temporalio/client';
import { isWorkflowGone } from '../temporal/refusals.js';
import { partnerJobWorkflowId, submitJobUpdate, type JobSubmission } from '../../workflows/partners/job-definitions.js';

// The partner job workflow's one client (docs/partners.md): the inbox's drain hands each job to its
// reference's workflow (job:<sender>:<jobRef>) here, and a job lookup asks here whether one is still
// being taken in. A closed run is read here; Temporal out of reach is the drain's to wait out.

/** The workflow type a job reference's workflow is started as. */
export const PARTNER_JOB_WORKFLOW_TYPE = 'partnerJobWorkflow';

export class PartnerJobClient {
  constructor(
    private readonly temporal: Client,
    /** Where the jobs' workflows run (the worker's task queue). */
    private readonly taskQueue: string,
  ) {}

  /**
   * Applies one inbox row (src/partners/inbox-drain.ts) in its reference's workflow and answers its
   * outcome. The update's id is the row's (`inbox-<id>`): sent again after a drain died, or by a
   * second drain whose lease on the row began when the first one's ran out, it is the same update
   * (Temporal answers the first one's outcome), never a second application. A run that closed as
   * the update arrived is started afresh (it carries on from the job's record). Temporal out of
   * reach is thrown: the row stays in the inbox and is taken again.
   */
  async apply(row: { id: string; partnerId: string; jobRef: string; submission: JobSubmission }) {
    for (let attempt = 1; ; attempt++) {
      const startWorkflowOperation = new WithStartWorkflowOperation(PARTNER_JOB_WORKFLOW_TYPE, {
        workflowId: partnerJobWorkflowId(row.partnerId, row.jobRef),
        taskQueue: this.taskQueue,
        args: [{ partnerId: row.partnerId, jobRef: row.jobRef }],
        workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
        workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE,
        memo: { partner: row.partnerId, jobRef: row.jobRef },
      });
      try {
        return await this.temporal.workflow.executeUpdateWithStart(submitJobUpdate, {
          args: [row.submission],
          updateId: inboxUpdateId(row.id),
          startWorkflowOperation,
        });
      } catch (err) {
        if (attempt < 3 && isWorkflowGone(err)) continue;
        throw err;
      }
    }
  }

  /** Whether the job's workflow is running: a job taken in whose workflow has not yet written its record. */
  async isRunning(partnerId: string, jobRef: string): Promise<boolean> {
    try {
      const d = await this.temporal.workflow.getHandle(partnerJobWorkflowId(partnerId, jobRef)).describe();
      return d.status.name === 'RUNNING';
    } catch (err) {
      if (isWorkflowGone(err)) return false;
      throw err;
    }
  }
}

/** The job workflow update an inbox row is applied as: one per row, whoever sends it. */
export const inboxUpdateId = (rowId: string) => `inbox-${rowId}`;
