import {
  ChildWorkflowFailure,
  WorkflowIdReusePolicy,
  allHandlersFinished,
  condition,
  continueAsNew,
  executeChild,
  log,
  patched,
  setHandler,
  sleep,
  workflowInfo,
} from '@temporalio/workflow';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { MIN_COLLECTION_PENCE, nextWeekStart, weekStartAtOrAfter, type Invoice } from '../../src/model/billing.js';
import { acts } from '../activities.js';
import { startInvoiceCollection } from './collection.js';
import {
  COLLECT_INVOICES_PATCH,
  billWeekWorkflowId,
  cancelSubscriptionSignal,
  extendTrialUpdate,
  subscriptionStateQuery,
  type BillWeekInput,
  type DriverSubscriptionInput,
  type SubscriptionState,
} from './definitions.js';
import { Subscription } from './subscription.js';

// Design: one long-running workflow per driver, `subscription:<driverId>`, rather than a weekly
// Schedule scanning all drivers. Each driver's trial end moves (an administrator extends it) and
// their first billed week depends on their own approval time, which a per-driver timer states
// directly; the driver's whole subscription is one place to query and to update; and a week's
// billing is a child workflow whose id, `subscription-week:<driverId>:<Monday>`, Temporal refuses
// to run twice once it has completed. The invoice insert is idempotent as well, so neither a
// retried activity nor a worker dying mid-run can charge a week twice. Continue-as-new every
// WEEKS_PER_RUN weeks keeps the history a few dozen events long for years of billing.

/** Weeks billed per run before continuing as new (each week is about ten history events). */
const WEEKS_PER_RUN = 8;
/** A week's billing run that failed outright (it retries its activity without limit, so rarely) is tried again after this. */
const FAILED_WEEK_RETRY_MS = 60 * 60_000;

/** Bills one week for one driver; its workflow id makes it happen once per week. */
export async function billWeekWorkflow(input: BillWeekInput): Promise<Invoice> {
  return acts.billDriverWeek(input);
}

/**
 * A driver's subscription from approval: the free trial (90 days, 30 for partner-fleet drivers,
 * extendable through the extendTrial update), then one billing run per week from the first full
 * week after the trial, each run at the week's end (Monday 00:00 Europe/London). A driver whose
 * workflow starts after weeks have already ended (approved long ago, or a worker down over a
 * boundary) has those weeks billed at once, in order.
 */
export async function driverSubscriptionWorkflow(input: DriverSubscriptionInput): Promise<SubscriptionState> {
  const sub = new Subscription(input);
  setHandler(subscriptionStateQuery, () => sub.state());
  setHandler(extendTrialUpdate, (e) => sub.extendTrial(e), { validator: (e) => sub.refuseExtension(e) });
  setHandler(cancelSubscriptionSignal, ({ reason }) => sub.cancel(reason));

  if (!input.carried) await sub.save();
  await sub.waitOutTrial();

  let weekStart = input.carried ? Date.parse(input.carried.nextWeekStart) : weekStartAtOrAfter(sub.trialEndsMs());
  let billedThisRun = 0;
  while (sub.status === 'active') {
    const weekEnd = nextWeekStart(weekStart);
    if (!(await sub.activeAt(weekEnd))) break;
    await billAndCollect(sub, weekStart, weekEnd);
    billedThisRun += 1;
    weekStart = weekEnd;
    if (sub.status === 'active' && (billedThisRun >= WEEKS_PER_RUN || workflowInfo().continueAsNewSuggested)) {
      await condition(allHandlersFinished);
      const { driverId, tier, approvedAt } = input;
      return continueAsNew<typeof driverSubscriptionWorkflow>({
        driverId,
        tier,
        approvedAt,
        carried: sub.carried(weekStart),
      });
    }
  }

  await sub.save();
  await condition(allHandlersFinished);
  return sub.state();
}

/**
 * Bills the week that just ended and, when it owes enough to collect, starts its collection. The
 * collection is started from this long-lived workflow rather than from the week's short billing
 * run, so a collection that ends reports to a parent that is usually still running.
 */
async function billAndCollect(sub: Subscription, weekStart: number, weekEnd: number): Promise<void> {
  const invoice = await billWeek({
    driverId: sub.driverId,
    weekStart: new Date(weekStart).toISOString(),
    weekEnd: new Date(weekEnd).toISOString(),
  });
  sub.lastWeekBilled = invoice;
  // 0.4.0: a billed week with something to collect starts its collection. Histories of 0.3.0 go
  // straight on to the next week's timer here.
  if (patched(COLLECT_INVOICES_PATCH) && invoice.totalPence >= MIN_COLLECTION_PENCE) {
    const { driverId, weekStart: invoiceWeek, totalPence } = invoice;
    await startInvoiceCollection({ account: 'driver', accountId: driverId, weekStart: invoiceWeek, totalPence });
  }
  sub.weeksBilled += 1;
}

/**
 * Runs the week's billing child. A completed week's id cannot be started again
 * (ALLOW_DUPLICATE_FAILED_ONLY refuses it); one that failed or was terminated may be, since the
 * invoice's unique key already guarantees a single charge.
 */
async function billWeek(week: BillWeekInput): Promise<Invoice> {
  for (;;) {
    try {
      return await executeChild(billWeekWorkflow, {
        workflowId: billWeekWorkflowId(week.driverId, week.weekStart),
        args: [week],
        workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE_FAILED_ONLY,
      });
    } catch (err) {
      // The week's run exists already (an earlier run of this workflow started it before a reset,
      // or it is still running): it is billed or being billed. The same idempotent activity reads
      // its invoice back, and could only ever insert the one row.
      if (err instanceof WorkflowExecutionAlreadyStartedError) return acts.billDriverWeek(week);
      if (!(err instanceof ChildWorkflowFailure)) throw err;
      log.warn('weekly billing run failed; trying the week again later', { ...week, error: String(err.cause ?? err) });
      await sleep(FAILED_WEEK_RETRY_MS);
    }
  }
}
