import { WorkflowExecutionAlreadyStartedError, WorkflowIdReusePolicy, type Client } from '@temporalio/client';
import type { LicenceDates } from '../model/drivers.js';
import { isWorkflowGone } from '../temporal/refusals.js';
import { licenceWorkflowId, licencesRenewedSignal } from '../../workflows/drivers/definitions.js';

// The driver licence watch's one client (docs/refusals.md, "Temporal failures"): driver approval
// starts the watch of a driver's licences (licence:<driver id>) here, and approved renewals tell it
// the new dates here. Temporal's failures are read here. Nothing else in src/, activities/ or
// scripts/ may import the workflow's messages (ESLint).

/** The workflow type a driver's licence watch is started as. */
export const LICENCE_WORKFLOW_TYPE = 'driverLicenceWorkflow';

export class LicenceWatchClient {
  constructor(
    private readonly temporal: Client,
    /** Where the watches run (the worker's task queue). */
    private readonly taskQueue: string,
  ) {}

  /** Starts watching an approved driver's licences (idempotent: a second start is the same watch). */
  async watch(driverId: string, dates: LicenceDates): Promise<void> {
    try {
      await this.temporal.workflow.start(LICENCE_WORKFLOW_TYPE, {
        workflowId: licenceWorkflowId(driverId),
        taskQueue: this.taskQueue,
        args: [{ driverId, ...dates }],
      });
    } catch (err) {
      if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
    }
  }

  /**
   * Staff approved renewed licences: the running watch is told the new dates (its pending warnings
   * are cancelled and worked out again). A watch that has ended, because the licence lapsed or no
   * date was on record, is started afresh under the same id (ALLOW_DUPLICATE: a closed run of it
   * may be reused, a running one never is). Started by someone else in between: that one is told.
   */
  async renew(driverId: string, dates: LicenceDates): Promise<'signalled' | 'restarted'> {
    const workflowId = licenceWorkflowId(driverId);
    const signal = () => this.temporal.workflow.getHandle(workflowId).signal(licencesRenewedSignal, dates);
    try {
      await signal();
      return 'signalled';
    } catch (err) {
      if (!isWorkflowGone(err)) throw err;
    }
    try {
      await this.temporal.workflow.start(LICENCE_WORKFLOW_TYPE, {
        workflowId,
        taskQueue: this.taskQueue,
        args: [{ driverId, ...dates }],
        workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE,
      });
      return 'restarted';
    } catch (err) {
      if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
      await signal();
      return 'signalled';
    }
  }
}
