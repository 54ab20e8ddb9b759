// A deliberately incompatible edit of quoteWorkflow: it writes the expiry before waiting. Replaying
// recorded histories against it must fail, which proves the replay test can catch such a change.
import { proxyActivities, sleep } from '@temporalio/workflow';
import type { createQuoteActivities } from '../../../activities/quotes.js';
import type { QuoteWorkflowInput } from '../../../workflows/quotes/definitions.js';

const { markQuoteExpired } = proxyActivities<ReturnType<typeof createQuoteActivities>>({ startToCloseTimeout: '10 seconds' });

export async function quoteWorkflow(input: QuoteWorkflowInput): Promise<void> {
  await markQuoteExpired({ quoteId: input.quoteId });
  await sleep(1000);
}
