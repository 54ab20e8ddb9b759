import type { Client } from '@temporalio/client';
import { startOnce } from '../temporal/start-once.js';
import { PARTNER_BILLING_WORKFLOW_ID } from '../../workflows/billing/definitions.js';

// The partners' weekly billing workflow's one client (docs/refusals.md, "Temporal failures"): the
// worker starts it here (docs/billing.md), and Temporal's failures are read here.

/** The workflow type the partners' billing runs as. */
export const PARTNER_BILLING_WORKFLOW_TYPE = 'partnerBillingWorkflow';

export class PartnerBillingClient {
  constructor(
    private readonly temporal: Client,
    /** Where the billing runs (the worker's task queue). */
    private readonly taskQueue: string,
  ) {}

  /**
   * Starts the partners' weekly billing unless it runs. Every worker calls this at start (with the
   * ops watch): all but the first are no-ops, and one that ended is started again.
   */
  async ensure(workflowId = PARTNER_BILLING_WORKFLOW_ID): Promise<void> {
    await startOnce(this.temporal, {
      workflowType: PARTNER_BILLING_WORKFLOW_TYPE,
      workflowId,
      taskQueue: this.taskQueue,
    });
  }
}
