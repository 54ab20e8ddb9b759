import type { Sql } from '../src/db/sql.js';
import type { QuoteRedemption } from '../workflows/quote-definitions.js';

/**
 * Writes the quote workflow's transitions to the quote record. Each statement is idempotent so a
 * retried activity leaves the same row, and never overwrites a different terminal state.
 */
export function createQuoteActivities({ sql }: { sql: Sql }) {
  return {
    async markQuoteRedeemed(r: QuoteRedemption): Promise<void> {
      await sql`
        update quotes
           set status = 'redeemed', redeemed_at = ${r.redeemedAt}, redemption_request_id = ${r.requestId},
               booking_ref = ${r.bookingRef}
         where id = ${r.quoteId} and (status = 'open' or redemption_request_id = ${r.requestId})`;
    },
    async markQuoteExpired({ quoteId }: { quoteId: string }): Promise<void> {
      await sql`update quotes set status = 'expired', expired_at = now() where id = ${quoteId} and status = 'open'`;
    },
  };
}
