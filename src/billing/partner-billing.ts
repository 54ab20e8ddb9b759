import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import { PARTNER_BILLING_WORKFLOW_ID } from '../../workflows/billing/definitions.js';

/**
 * Starts the partners' weekly billing unless it runs. Every worker calls this at start (with the
 * ops watch): all but the first are no-ops, and one that ended is started again.
 */
export async function ensurePartnerBilling(
  client: Client,
  taskQueue: string,
  workflowId = PARTNER_BILLING_WORKFLOW_ID,
): Promise<void> {
  try {
    await client.workflow.start('partnerBillingWorkflow', {
      workflowId,
      taskQueue,
      args: [{}],
      workflowIdConflictPolicy: 'USE_EXISTING',
      workflowIdReusePolicy: 'ALLOW_DUPLICATE',
    });
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
}
