import type { Client } from '@temporalio/client';
import { WorkflowNotFoundError } from '@temporalio/common';
import type { Sql } from '../db/sql.js';
import { ProblemError } from '../http/problem.js';
import { quoteAlreadyRedeemed } from '../http/temporal-problems.js';
import {
  quoteWorkflowId,
  redeemQuoteUpdate,
  type QuoteRedemption,
  type RedeemQuoteInput,
} from '../../workflows/quotes/definitions.js';

/**
 * Redeems a quote for a booking request, exactly once. The quote workflow decides; this maps its
 * answer to the statuses every booking route uses: 404 unknown, 410 expired, 409 redeemed by
 * another request (never naming the booking it made). The same request redeeming again gets the same
 * redemption back, so a retried booking request is not an error.
 */
export async function redeemQuote(
  deps: { temporal: Client; sql: Sql },
  quoteId: string,
  request: RedeemQuoteInput,
): Promise<QuoteRedemption> {
  try {
    return await deps.temporal.workflow
      .getHandle(quoteWorkflowId(quoteId))
      .executeUpdate(redeemQuoteUpdate, { args: [request] });
  } catch (err) {
    // Expired and already-redeemed refusals reach the error handler as they are
    // (src/http/temporal-problems.ts). A closed workflow no longer takes updates; its record tells how it ended.
    if (err instanceof WorkflowNotFoundError || isNotFoundRpc(err)) return fromRecord(deps.sql, quoteId, request);
    throw err;
  }
}

async function fromRecord(sql: Sql, quoteId: string, request: RedeemQuoteInput): Promise<QuoteRedemption> {
  const rows = await sql<
    { status: string; booking_ref: string | null; redemption_request_id: string | null; redeemed_at: Date | null }[]
  >`select status, booking_ref, redemption_request_id, redeemed_at from quotes where id = ${quoteId}`;
  const row = rows[0];
  if (!row) throw new ProblemError(404, 'quote_not_found', `No quote ${quoteId}.`);
  if (row.status === 'redeemed' && row.redemption_request_id === request.requestId && row.booking_ref && row.redeemed_at) {
    return { quoteId, requestId: request.requestId, bookingRef: row.booking_ref, redeemedAt: row.redeemed_at.toISOString() };
  }
  if (row.status === 'redeemed') throw quoteAlreadyRedeemed();
  // 'open' with no running workflow means the quote's process is gone: it can never be redeemed.
  throw expired(quoteId);
}

const expired = (quoteId: string) =>
  new ProblemError(410, 'quote_expired', `Quote ${quoteId} has expired. Ask for a new quote.`);


function isNotFoundRpc(err: unknown): boolean {
  // gRPC NOT_FOUND (5) surfaces as a ServiceError whose cause carries the code.
  const code = (err as { cause?: { code?: number } } | null)?.cause?.code;
  return code === 5;
}
