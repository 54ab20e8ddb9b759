import type { Sql } from '../src/db/sql.js';
import { markQuoteExpired, markQuoteRedeemed } from '../src/quotes/store.js';
import type { QuoteRedemption } from '../src/model/quotes.js';

/** The quote workflow's writes to its record; each is idempotent (see src/quotes/store.ts). */
export function createQuoteActivities({ sql }: { sql: Sql }) {
  return {
    async markQuoteRedeemed(r: QuoteRedemption): Promise<void> {
      await markQuoteRedeemed(sql, r);
    },
    async markQuoteExpired({ quoteId }: { quoteId: string }): Promise<void> {
      await markQuoteExpired(sql, quoteId);
    },
  };
}
