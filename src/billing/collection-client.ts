import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { InvoiceKey } from '../model/billing.js';
import {
  invoiceCollectionWorkflowId,
  invoicePaymentSignal,
  type InvoicePaymentEvent,
} from '../../workflows/billing/definitions.js';

// The invoice collection workflow's one client (docs/refusals.md, "Temporal failures"; docs/
// billing.md, "Collection"): the week's billing run starts each invoice's collection (a child
// workflow), and the payment provider's webhook tells it of a payment here. Temporal's failures are
// read here. Nothing else in src/, activities/ or scripts/ may import the workflow's messages (ESLint).

export class InvoiceCollectionClient {
  constructor(private readonly temporal: Client) {}

  /** Tells the invoice's collection of a payment event; false when no collection runs for it (the caller marks the record). */
  async payment(key: InvoiceKey, event: InvoicePaymentEvent): Promise<boolean> {
    try {
      await this.temporal.workflow.getHandle(invoiceCollectionWorkflowId(key)).signal(invoicePaymentSignal, event);
      return true;
    } catch (err) {
      if (!(err instanceof WorkflowNotFoundError)) throw err;
      return false;
    }
  }
}
