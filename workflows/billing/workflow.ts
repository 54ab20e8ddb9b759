import {
  ApplicationFailure,
  ChildWorkflowFailure,
  WorkflowIdReusePolicy,
  allHandlersFinished,
  condition,
  continueAsNew,
  executeChild,
  log,
  ParentClosePolicy,
  patched,
  setHandler,
  startChild,
  sleep,
  workflowInfo,
} from '@temporalio/workflow';
import { acts } from '../activities.js';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import {
  COLLECT_INVOICES_PATCH,
  MAX_EXTENSION_DAYS,
  MIN_COLLECTION_PENCE,
  MAX_TRIAL_DAYS,
  SubscriptionFailure,
  TRIAL_DAYS,
  billWeekWorkflowId,
  cancelSubscriptionSignal,
  extendTrialUpdate,
  invoiceCollectionWorkflowId,
  subscriptionStateQuery,
  type BillWeekInput,
  type DriverSubscriptionInput,
  type ExtendTrialInput,
  type Invoice,
  type SubscriptionState,
  type SubscriptionStatus,
} from './definitions.js';
import { nextWeekStart, weekStartAtOrAfter } from './weeks.js';
import { invoiceCollectionWorkflow } from './collection.js';

// Design: one long-running workflow per driver, `subscription:<driverId>`, rather than a weekly
// Schedule scanning all drivers. Each driver's trial end moves (an administrator extends it) and
// their first billed week depends on their own approval time, which a per-driver timer states
// directly; the driver's whole subscription is one place to query and to update; and a week's
// billing is a child workflow whose id, `subscription-week:<driverId>:<Monday>`, Temporal refuses
// to run twice once it has completed. The invoice insert is idempotent as well, so neither a
// retried activity nor a worker dying mid-run can charge a week twice. Continue-as-new every
// WEEKS_PER_RUN weeks keeps the history a few dozen events long for years of billing.

const DAY_MS = 86_400_000;
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
  const { driverId, tier, approvedAt, carried } = input;
  const approvedMs = Date.parse(approvedAt);
  const trialDays = TRIAL_DAYS[tier];
  let extendedDays = carried?.extendedDays ?? 0;
  let extensions = carried?.extensions ?? 0;
  let weeksBilled = carried?.weeksBilled ?? 0;
  let lastWeekBilled: Invoice | null = carried?.lastWeekBilled ?? null;

  const trialEndsMs = () => approvedMs + (trialDays + extendedDays) * DAY_MS;
  let status: SubscriptionStatus = carried || Date.now() >= trialEndsMs() ? 'active' : 'trial';

  const state = (): SubscriptionState => ({
    driverId,
    tier,
    approvedAt,
    trialEndsAt: new Date(trialEndsMs()).toISOString(),
    trialDaysRemaining: status === 'trial' ? Math.max(0, Math.ceil((trialEndsMs() - Date.now()) / DAY_MS)) : 0,
    state: status,
    weeksBilled,
    lastWeekBilled,
  });
  const saveRecord = () =>
    acts.saveSubscription({ driverId, tier, approvedAt, trialDays, trialExtendedDays: extendedDays, state: status });

  const refuseExtension = (e: ExtendTrialInput): void => {
    if (status !== 'trial' || Date.now() >= trialEndsMs()) {
      throw ApplicationFailure.nonRetryable(
        `the trial of driver ${driverId} ${status === 'cancelled' ? 'was cancelled' : `ended at ${new Date(trialEndsMs()).toISOString()}`}`,
        SubscriptionFailure.trialEnded,
      );
    }
    const bad =
      !Number.isInteger(e.days) || e.days < 1 || e.days > MAX_EXTENSION_DAYS
        ? `days must be a whole number from 1 to ${MAX_EXTENSION_DAYS}`
        : typeof e.by !== 'string' || e.by.trim() === ''
          ? 'by must name the administrator'
          : typeof e.reason !== 'string' || e.reason.trim() === ''
            ? 'a reason is required'
            : null;
    if (bad) throw ApplicationFailure.nonRetryable(bad, SubscriptionFailure.invalidExtension);
    const total = trialDays + extendedDays;
    if (total + e.days > MAX_TRIAL_DAYS) {
      throw ApplicationFailure.nonRetryable(
        `a trial is at most ${MAX_TRIAL_DAYS} days in all; this one is ${total} days, so it can be extended by ${Math.max(0, MAX_TRIAL_DAYS - total)} more at most`,
        SubscriptionFailure.trialTooLong,
      );
    }
  };

  setHandler(subscriptionStateQuery, state);
  setHandler(
    extendTrialUpdate,
    async (e) => {
      // The validator (never run on replay) refused most; checked again here against the state
      // this update finds, as two extensions accepted in one task both passed the validator.
      refuseExtension(e);
      // Moved synchronously, before the first await, so the trial timer is re-armed at once and a
      // second extension in the same task builds on this one.
      extendedDays += e.days;
      extensions += 1;
      await acts.recordTrialExtension({
        id: `${driverId}:${extensions}`,
        driverId,
        days: e.days,
        by: e.by.trim(),
        reason: e.reason.trim(),
        totalExtendedDays: extendedDays,
        at: new Date().toISOString(),
      });
      return state();
    },
    { validator: (e) => refuseExtension(e) },
  );
  setHandler(cancelSubscriptionSignal, ({ reason }) => {
    if (status === 'cancelled') return;
    log.info('subscription cancelled', { driverId, reason });
    status = 'cancelled';
  });

  if (!carried) await saveRecord();

  while (status === 'trial' && Date.now() < trialEndsMs()) {
    const seen = extensions;
    await condition(() => status !== 'trial' || extensions !== seen, trialEndsMs() - Date.now());
  }
  if (status === 'trial') {
    status = 'active';
    await saveRecord();
  }

  let weekStart = carried ? Date.parse(carried.nextWeekStart) : weekStartAtOrAfter(trialEndsMs());
  let billedThisRun = 0;
  while (status === 'active') {
    const weekEnd = nextWeekStart(weekStart);
    if (weekEnd > Date.now() && (await condition(() => status !== 'active', weekEnd - Date.now()))) break;
    lastWeekBilled = await billWeek({
      driverId,
      weekStart: new Date(weekStart).toISOString(),
      weekEnd: new Date(weekEnd).toISOString(),
    });
    // 0.4.0: a billed week with something to collect starts its collection. Histories of 0.3.0 go
    // straight on to the next week's timer here.
    if (patched(COLLECT_INVOICES_PATCH) && lastWeekBilled.totalPence >= MIN_COLLECTION_PENCE)
      await startCollection(lastWeekBilled);
    weeksBilled += 1;
    billedThisRun += 1;
    weekStart = weekEnd;
    if (status === 'active' && (billedThisRun >= WEEKS_PER_RUN || workflowInfo().continueAsNewSuggested)) {
      await condition(allHandlersFinished);
      return continueAsNew<typeof driverSubscriptionWorkflow>({
        driverId,
        tier,
        approvedAt,
        carried: {
          extendedDays,
          extensions,
          weeksBilled,
          lastWeekBilled,
          nextWeekStart: new Date(weekStart).toISOString(),
        },
      });
    }
  }

  await saveRecord();
  await condition(allHandlersFinished);
  return state();
}

/**
 * Starts the invoice's collection, a workflow of its own that outlives this run (ABANDON): it
 * follows the invoice up for weeks while billing goes on. Started from this long-lived workflow
 * rather than from the week's short billing run, so a collection that ends reports to a parent
 * that is usually still running. A collection already started (this week replayed after a reset)
 * is the same collection.
 */
async function startCollection(invoice: Invoice): Promise<void> {
  const key = { account: 'driver' as const, accountId: invoice.driverId, weekStart: invoice.weekStart };
  try {
    await startChild(invoiceCollectionWorkflow, {
      workflowId: invoiceCollectionWorkflowId(key),
      args: [{ ...key, totalPence: invoice.totalPence }],
      parentClosePolicy: ParentClosePolicy.ABANDON,
      workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
    });
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
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
