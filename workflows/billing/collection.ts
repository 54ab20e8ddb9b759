import {
  ParentClosePolicy,
  WorkflowIdReusePolicy,
  allHandlersFinished,
  condition,
  log,
  setHandler,
  startChild,
} from '@temporalio/workflow';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { COLLECTION_POLICY, type CollectionStatus } from '../../src/model/billing.js';
import { acts } from '../activities.js';
import {
  invoiceCollectionStateQuery,
  invoiceCollectionWorkflowId,
  invoicePaymentSignal,
  type InvoiceCollectionInput,
  type InvoiceCollectionState,
  type InvoicePaymentEvent,
} from './definitions.js';

const DAY_MS = 86_400_000;

/** One invoice being collected: what the query reports, and the payment the signal brought. */
class Collection {
  status: CollectionStatus = 'unpaid';
  remindersSent = 0;
  payment: InvoicePaymentEvent | null = null;
  lastFailure: string | null = null;
  private readonly opened = Date.now();

  constructor(readonly input: InvoiceCollectionInput) {}

  state(): InvoiceCollectionState {
    return {
      ...this.input,
      status: this.status,
      remindersSent: this.remindersSent,
      paidBy: this.payment?.eventId ?? null,
      lastFailure: this.lastFailure,
    };
  }

  /** The invoicePayment signal: the first event that pays the invoice in full is its payment. */
  paymentEvent(e: InvoicePaymentEvent): void {
    if (this.payment) return;
    if (e.outcome === 'succeeded' && e.amountPence >= this.input.totalPence) this.payment = e;
    else {
      this.lastFailure = e.eventId;
      log.warn('invoice payment did not settle it', {
        ...this.input,
        event: e.eventId,
        outcome: e.outcome,
        amountPence: e.amountPence,
      });
    }
  }

  /** Waits until `days` after opening for a payment; true when one arrived. */
  async paidWithin(days: number): Promise<boolean> {
    const left = this.opened + days * DAY_MS - Date.now();
    if (this.payment || left <= 0) return this.payment !== null;
    return condition(() => this.payment !== null, left);
  }
}

/**
 * Collects one invoice: asks the payment provider for a pay link (texted to the driver), then waits
 * for the provider's signed webhook, which the API passes on as the invoicePayment signal. Unpaid,
 * the driver is reminded every few days (capped), and after COLLECTION_POLICY.overdueAfterDays the
 * invoice is overdue and ops are alerted. The first successful payment marks it paid, once: later
 * events (a replay the API let through, the provider's second event for the same payment) change
 * nothing. Every step's activity is idempotent by the invoice, so a retry repeats nothing.
 */
export async function invoiceCollectionWorkflow(input: InvoiceCollectionInput): Promise<InvoiceCollectionState> {
  const invoice = new Collection(input);
  setHandler(invoiceCollectionStateQuery, () => invoice.state());
  setHandler(invoicePaymentSignal, (e) => invoice.paymentEvent(e));

  await acts.openInvoiceCollection(input);
  const paid = (await remindUntilPaid(invoice)) || (await overdueUntilPaid(invoice));
  if (paid && invoice.payment) {
    await acts.markInvoicePaid({
      ...input,
      eventId: invoice.payment.eventId,
      amountPence: invoice.payment.amountPence,
      providerRef: invoice.payment.providerRef,
    });
    invoice.status = 'paid';
  }
  await condition(allHandlersFinished);
  return invoice.state();
}

/** A reminder every few days while unpaid, the last before the invoice is overdue; true once paid. */
async function remindUntilPaid(invoice: Collection): Promise<boolean> {
  const { reminderEveryDays, maxReminders, overdueAfterDays } = COLLECTION_POLICY;
  for (let n = 1; n <= maxReminders && n * reminderEveryDays < overdueAfterDays; n++) {
    if (await invoice.paidWithin(n * reminderEveryDays)) return true;
    await acts.remindInvoice({ ...invoice.input, reminder: n });
    invoice.remindersSent = n;
  }
  return false;
}

/** Unpaid when it falls due: overdue (ops are alerted), then followed a while longer; true once paid. */
async function overdueUntilPaid(invoice: Collection): Promise<boolean> {
  const { overdueAfterDays, followForDays } = COLLECTION_POLICY;
  if (await invoice.paidWithin(overdueAfterDays)) return true;
  await acts.markInvoiceOverdue(invoice.input);
  invoice.status = 'overdue';
  return invoice.paidWithin(followForDays);
}

/**
 * Starts an invoice's collection, a workflow of its own that outlives its starter (ABANDON): it
 * follows the invoice up for weeks while billing goes on. A collection already started (the week
 * replayed after a reset) is the same collection.
 */
export async function startInvoiceCollection(input: InvoiceCollectionInput): Promise<void> {
  try {
    await startChild(invoiceCollectionWorkflow, {
      workflowId: invoiceCollectionWorkflowId(input),
      args: [input],
      parentClosePolicy: ParentClosePolicy.ABANDON,
      workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
    });
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
}
