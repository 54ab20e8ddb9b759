import { ApplicationFailure, allHandlersFinished, condition, proxyActivities, setHandler } from '@temporalio/workflow';
import type { Activities } from '../../activities/index.js';
import {
  QuoteFailure,
  quoteStateQuery,
  redeemQuoteUpdate,
  type QuoteState,
  type QuoteWorkflowInput,
  type RedeemQuoteInput,
} from './definitions.js';
import type { QuoteRedemption } from '../../src/model/quotes.js';

const { markQuoteRedeemed, markQuoteExpired } = proxyActivities<Activities>({
  startToCloseTimeout: '10 seconds',
  retry: { initialInterval: '500 ms', maximumInterval: '30 seconds' },
});

/**
 * A quote is open until it is redeemed once or its validity runs out. Redemption is an Update so
 * the booking request learns synchronously whether it won; the validator turns away late and
 * competing requests before they reach history.
 */
export async function quoteWorkflow(input: QuoteWorkflowInput): Promise<QuoteState> {
  const state: QuoteState = {
    quoteId: input.quoteId,
    status: 'open',
    expiresAt: input.expiresAt,
    redemption: null,
  };

  const rejectUnlessRedeemable = (req: RedeemQuoteInput): void => {
    if (state.status === 'expired') {
      throw ApplicationFailure.nonRetryable(
        `quote ${input.quoteId} expired at ${input.expiresAt}`,
        QuoteFailure.expired,
      );
    }
    if (state.redemption && state.redemption.requestId !== req.requestId) {
      throw ApplicationFailure.nonRetryable(
        `quote ${input.quoteId} was already redeemed by booking ${state.redemption.bookingRef}`,
        QuoteFailure.alreadyRedeemed,
        { bookingRef: state.redemption.bookingRef },
      );
    }
  };

  setHandler(quoteStateQuery, () => state);
  setHandler(
    redeemQuoteUpdate,
    async (req): Promise<QuoteRedemption> => {
      // Re-checked here as well as in the validator: the state may have moved between the two.
      rejectUnlessRedeemable(req);
      if (state.redemption) return state.redemption;
      // Claim synchronously, before the first await, so a competing update sees it.
      const redemption: QuoteRedemption = {
        quoteId: input.quoteId,
        requestId: req.requestId,
        bookingRef: req.bookingRef,
        redeemedAt: new Date().toISOString(),
      };
      state.status = 'redeemed';
      state.redemption = redemption;
      await markQuoteRedeemed(redemption);
      return redemption;
    },
    { validator: rejectUnlessRedeemable },
  );

  const remainingMs = Math.max(0, Date.parse(input.expiresAt) - Date.now());
  const redeemed = await condition(() => state.status !== 'open', remainingMs);
  if (!redeemed) {
    state.status = 'expired';
    await markQuoteExpired({ quoteId: input.quoteId });
  }
  await condition(allHandlersFinished);
  return state;
}
