import { allHandlersFinished, condition, continueAsNew } from '@temporalio/workflow';
import { MIN_COLLECTION_PENCE, nextWeekStart, weekStartOf } from '../../src/model/billing.js';
import { acts } from '../activities.js';
import { startInvoiceCollection } from './collection.js';
import type { PartnerBillingInput } from './definitions.js';

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
      await startInvoiceCollection({ account: 'partner', accountId: partnerId, weekStart: week.weekStart, totalPence });
    }
    weekStart = weekEnd;
  }
  await condition(allHandlersFinished);
  return continueAsNew<typeof partnerBillingWorkflow>({ nextWeekStart: new Date(weekStart).toISOString() });
}
