import {
  ParentClosePolicy,
  WorkflowIdReusePolicy,
  allHandlersFinished,
  condition,
  continueAsNew,
  startChild,
} from '@temporalio/workflow';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { acts } from '../activities.js';
import { invoiceCollectionWorkflow } from './collection.js';
import { MIN_COLLECTION_PENCE, invoiceCollectionWorkflowId, type PartnerBillingInput } from './definitions.js';
import { nextWeekStart, weekStartOf } from './weeks.js';

/** Weeks billed per run before continuing as new. */
const WEEKS_PER_RUN = 8;

/**
 * Bills every partner's week at its end (Monday 00:00 Europe/London): one workflow,
 * `partner-billing`, for all partners, since a partner's charge (texts about its jobs) has no
 * trial or approval date of its own to time. Each invoice owing at least MIN_COLLECTION_PENCE is
 * collected by its own invoiceCollectionWorkflow, as a driver's is. Started by every worker (the
 * first start wins), like the ops watch.
 */
export async function partnerBillingWorkflow(input: PartnerBillingInput): Promise<void> {
  let weekStart = input.nextWeekStart ? Date.parse(input.nextWeekStart) : weekStartOf(Date.now());
  for (let billed = 0; billed < WEEKS_PER_RUN; billed++) {
    const weekEnd = nextWeekStart(weekStart);
    if (weekEnd > Date.now()) await condition(() => false, weekEnd - Date.now());
    const week = { weekStart: new Date(weekStart).toISOString(), weekEnd: new Date(weekEnd).toISOString() };
    for (const { partnerId, totalPence } of await acts.billPartnersWeek(week)) {
      if (totalPence < MIN_COLLECTION_PENCE) continue;
      const key = { account: 'partner' as const, accountId: partnerId, weekStart: week.weekStart };
      try {
        await startChild(invoiceCollectionWorkflow, {
          workflowId: invoiceCollectionWorkflowId(key),
          args: [{ ...key, totalPence }],
          parentClosePolicy: ParentClosePolicy.ABANDON,
          workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
        });
      } catch (err) {
        if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
      }
    }
    weekStart = weekEnd;
  }
  await condition(allHandlersFinished);
  return continueAsNew<typeof partnerBillingWorkflow>({ nextWeekStart: new Date(weekStart).toISOString() });
}
