import { WorkflowExecutionAlreadyStartedError, WorkflowIdReusePolicy, type Client } from '@temporalio/client';
import { licenceWorkflowId, licencesRenewedSignal } from '../../workflows/drivers/definitions.js';
import type { LicenceDates } from '../model/drivers.js';
import { isWorkflowGone } from '../temporal/refusals.js';

/** Starts watching an approved driver's licences (idempotent: a second start is the same watch). */
export async function watchLicences(
  client: Client,
  taskQueue: string,
  driverId: string,
  dates: LicenceDates,
): Promise<void> {
  try {
    await client.workflow.start('driverLicenceWorkflow', {
      workflowId: licenceWorkflowId(driverId),
      taskQueue,
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
export async function renewLicenceWatch(
  client: Client,
  taskQueue: string,
  driverId: string,
  dates: LicenceDates,
): Promise<'signalled' | 'restarted'> {
  const workflowId = licenceWorkflowId(driverId);
  const signal = () => client.workflow.getHandle(workflowId).signal(licencesRenewedSignal, dates);
  try {
    await signal();
    return 'signalled';
  } catch (err) {
    if (!isWorkflowGone(err)) throw err;
  }
  try {
    await client.workflow.start('driverLicenceWorkflow', {
      workflowId,
      taskQueue,
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
