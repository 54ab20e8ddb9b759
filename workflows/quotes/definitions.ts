// The quote workflow's Temporal contract: its id, input, messages and failure types, which the HTTP
// layer and the worker must agree on. What a quote is (its statuses, its redemption) is
// src/model/quotes.ts. Imported by workflow code, so it stays free of Node built-ins and I/O.
import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { QuoteRedemption, QuoteStatus } from '../../src/model/quotes.js';

export const QUOTE_WORKFLOW_PREFIX = 'quote:';

export function quoteWorkflowId(quoteId: string): string {
  return `${QUOTE_WORKFLOW_PREFIX}${quoteId}`;
}

export function quoteIdFromWorkflowId(workflowId: string): string | null {
  return workflowId.startsWith(QUOTE_WORKFLOW_PREFIX) ? workflowId.slice(QUOTE_WORKFLOW_PREFIX.length) : null;
}

export interface QuoteWorkflowInput {
  quoteId: string;
  /** ISO instant after which the quote can no longer be redeemed. */
  expiresAt: string;
}

export interface QuoteState {
  quoteId: string;
  status: QuoteStatus;
  expiresAt: string;
  redemption: QuoteRedemption | null;
}

export interface RedeemQuoteInput {
  requestId: string;
  bookingRef: string;
}

/** ApplicationFailure types the redeem update fails with; the HTTP layer maps them to 410 / 409. */
export const QuoteFailure = {
  expired: 'QuoteExpired',
  alreadyRedeemed: 'QuoteAlreadyRedeemed',
} as const;

export const redeemQuoteUpdate = defineUpdate<QuoteRedemption, [RedeemQuoteInput]>('redeemQuote');
export const quoteStateQuery = defineQuery<QuoteState>('quoteState');
