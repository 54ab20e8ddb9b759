import {
  WithStartWorkflowOperation,
  WorkflowIdConflictPolicy,
  WorkflowIdReusePolicy,
  WorkflowUpdateStage,
  type Client,
} from '@temporalio/client';
import { isTemporalServiceFailure, isWorkflowGone } from '../temporal/refusals.js';
import { partnerJobWorkflowId, submitJobUpdate, type JobSubmission } from '../../workflows/partners/job-definitions.js';

// The partner job workflow's one client (docs/partners.md): partner intake hands each job to its
// reference's workflow (job:<sender>:<jobRef>) here, and a job lookup asks here whether one is still
// being taken in. Temporal's failures are read here: callers get answers, never a Temporal error.

/** The workflow type a job reference's workflow is started as. */
export const PARTNER_JOB_WORKFLOW_TYPE = 'partnerJobWorkflow';

/** After the reply budget, how much longer a job's workflow has to take the job in before it is `not_taken`. */
export const ACCEPT_GRACE_MS = 2_000;

export class PartnerJobClient {
  constructor(
    private readonly temporal: Client,
    /** Where the jobs' workflows run (the worker's task queue). */
    private readonly taskQueue: string,
  ) {}

  /**
   * Update-with-start on the job's workflow, waiting only until the workflow has taken the update in
   * (from then on it is in the workflow's history and is applied whatever happens to this request),
   * then for its outcome until the budget is spent. A run that closed as the update arrived is
   * started afresh. Answers the job's outcome; `processing` when it was taken in but not applied
   * within the budget; `not_taken` when it was not taken in even a little past it (it may be, after
   * all); `not_reached` when Temporal did not take it (nothing was applied).
   */
  async submit(partnerId: string, jobRef: string, submission: JobSubmission, budget: { until: number }) {
    for (let attempt = 1; ; attempt++) {
      const startWorkflowOperation = new WithStartWorkflowOperation(PARTNER_JOB_WORKFLOW_TYPE, {
        workflowId: partnerJobWorkflowId(partnerId, jobRef),
        taskQueue: this.taskQueue,
        args: [{ partnerId, jobRef }],
        workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
        // A closed run is followed by a new one, which carries on from the job's record in Postgres.
        workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE,
        memo: { partner: partnerId, jobRef },
      });
      try {
        const taken = this.temporal.workflow.startUpdateWithStart(submitJobUpdate, {
          args: [submission],
          startWorkflowOperation,
          waitForStage: WorkflowUpdateStage.ACCEPTED,
        });
        const handle = await within(taken, budget.until + ACCEPT_GRACE_MS - Date.now(), 'not_taken');
        if (handle === 'not_taken') return 'not_taken';
        const left = budget.until - Date.now();
        if (left <= 0) return 'processing';
        return await within(handle.result(), left, 'processing');
      } catch (err) {
        if (attempt < 3 && isWorkflowGone(err)) continue;
        if (isTemporalServiceFailure(err)) return 'not_reached';
        throw err;
      }
    }
  }

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

/** The promise's value, or `late` once `ms` have passed (the promise is left to settle on its own). */
async function within<T, L extends string>(promise: Promise<T>, ms: number, late: L): Promise<T | L> {
  if (ms <= 0) {
    promise.catch(() => {});
    return late;
  }
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<L>((resolve) => {
    timer = setTimeout(() => resolve(late), ms);
  });
  promise.catch(() => {});
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
