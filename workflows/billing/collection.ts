import { allHandlersFinished, condition, log, setHandler } from '@temporalio/workflow';
import { acts } from '../activities.js';
import {
  COLLECTION_POLICY,
  invoiceCollectionStateQuery,
  invoicePaymentSignal,
  type CollectionStatus,
  type InvoiceCollectionInput,
  type InvoiceCollectionState,
  type InvoicePaymentEvent,
} from './definitions.js';

const DAY_MS = 86_400_000;

/**
 * Collects one invoice: asks the payment provider for a pay link (texted to the driver), then waits
 * for the provider's signed webhook, which the API passes on as the invoicePayment signal. Unpaid,
 * the driver is reminded every few days (capped), and after COLLECTION_POLICY.overdueAfterDays the
 * invoice is overdue and ops are alerted. The first successful payment marks it paid, once: later
 * events (a replay the API let through, the provider's second event for the same payment) change
 * nothing. Every step's activity is idempotent by the invoice, so a retry repeats nothing.
 */
export async function invoiceCollectionWorkflow(input: InvoiceCollectionInput): Promise<InvoiceCollectionState> {
  let status: CollectionStatus = 'unpaid';
  let remindersSent = 0;
  // Cast, not annotated: set in the signal handler, which TypeScript's narrowing cannot see.
  let payment = null as InvoicePaymentEvent | null;
  let lastFailure = null as string | null;
  const state = (): InvoiceCollectionState => ({
    ...input,
    status,
    remindersSent,
    paidBy: payment?.eventId ?? null,
    lastFailure,
  });

  setHandler(invoiceCollectionStateQuery, state);
  setHandler(invoicePaymentSignal, (e) => {
    if (payment) return;
    if (e.outcome === 'succeeded' && e.amountPence >= input.totalPence) payment = e;
    else {
      lastFailure = e.eventId;
      log.warn('invoice payment did not settle it', {
        ...input,
        event: e.eventId,
        outcome: e.outcome,
        amountPence: e.amountPence,
      });
    }
  });

  const opened = Date.now();
  /** Waits until `days` after opening for a payment; true when one arrived. */
  const paidWithin = async (days: number): Promise<boolean> => {
    const left = opened + days * DAY_MS - Date.now();
    if (payment || left <= 0) return payment !== null;
    return condition(() => payment !== null, left);
  };

  await acts.openInvoiceCollection(input);
  const { reminderEveryDays, maxReminders, overdueAfterDays, followForDays } = COLLECTION_POLICY;
  let paid = false;
  for (let n = 1; n <= maxReminders && n * reminderEveryDays < overdueAfterDays; n++) {
    if ((paid = await paidWithin(n * reminderEveryDays))) break;
    await acts.remindInvoice({ ...input, reminder: n });
    remindersSent = n;
  }
  if (!paid && !(paid = await paidWithin(overdueAfterDays))) {
    await acts.markInvoiceOverdue(input);
    status = 'overdue';
    paid = await paidWithin(followForDays);
  }
  if (paid && payment) {
    await acts.markInvoicePaid({
      ...input,
      eventId: payment.eventId,
      amountPence: payment.amountPence,
      providerRef: payment.providerRef,
    });
    status = 'paid';
  }
  await condition(allHandlersFinished);
  return state();
}
