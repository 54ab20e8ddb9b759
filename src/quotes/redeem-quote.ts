import type { Sql } from '../db/sql.js';
import { Refusal } from '../refusal.js';
import type { RedeemQuoteInput } from '../../workflows/quotes/definitions.js';
import { quoteAlreadyRedeemed, type QuoteClient } from './client.js';
import type { QuoteRedemption } from '../model/quotes.js';

/**
 * Redeems a quote for a booking request, exactly once. The quote workflow decides; refused as
 * not_found (quote_not_found) when unknown, gone (quote_expired) when expired, conflict
 * (quote_already_redeemed) when redeemed by another request, never naming the booking it made.
 * The same request redeeming again gets the same redemption back, so a retried booking request is
 * not an error.
 */
export async function redeemQuote(
  deps: { quotes: QuoteClient; sql: Sql },
  quoteId: string,
  request: RedeemQuoteInput,
): Promise<QuoteRedemption> {
  // Expired and already-redeemed refusals are thrown by the client as they are told.
  // A closed workflow no longer takes updates; its record tells how it ended.
  return (await deps.quotes.redeem(quoteId, request)) ?? fromRecord(deps.sql, quoteId, request);
}

async function fromRecord(sql: Sql, quoteId: string, request: RedeemQuoteInput): Promise<QuoteRedemption> {
  const rows = await sql<
    { status: string; booking_ref: string | null; redemption_request_id: string | null; redeemed_at: Date | null }[]
  >`select status, booking_ref, redemption_request_id, redeemed_at from quotes where id = ${quoteId}`;
  const row = rows[0];
  if (!row) throw Refusal.notFound('quote_not_found', `No quote ${quoteId}.`);
  if (
    row.status === 'redeemed' &&
    row.redemption_request_id === request.requestId &&
    row.booking_ref &&
    row.redeemed_at
  ) {
    return {
      quoteId,
      requestId: request.requestId,
      bookingRef: row.booking_ref,
      redeemedAt: row.redeemed_at.toISOString(),
    };
  }
  if (row.status === 'redeemed') throw quoteAlreadyRedeemed();
  // 'open' with no running workflow means the quote's process is gone: it can never be redeemed.
  throw expired(quoteId);
}

const expired = (quoteId: string) =>
  Refusal.gone('quote_expired', `Quote ${quoteId} has expired. Ask for a new quote.`);
