import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import { licenceWorkflowId, type LicenceDates } from '../../workflows/drivers/definitions.js';

/** Starts watching an approved driver's licences (idempotent: a second start is the same watch). */
export async function watchLicences(client: Client, taskQueue: string, driverId: string, dates: LicenceDates): Promise<void> {
  try {
    await client.workflow.start('driverLicenceWorkflow', { workflowId: licenceWorkflowId(driverId), taskQueue, args: [{ driverId, ...dates }] });
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
}
