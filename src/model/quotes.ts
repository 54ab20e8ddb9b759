// A quote as the business states it: a priced journey that is open until it expires or is
// redeemed, once, by one booking request. Shared by src/, activities/ and workflows/ (whose contract
// is workflows/quotes/definitions.ts), so it stays pure: no Node built-ins, no I/O, nothing imported
// from outside src/model/.

export type QuoteStatus = 'open' | 'redeemed' | 'expired';

/** A quote's one redemption, as the workflow decides it and the quotes table records it. */
export interface QuoteRedemption {
  quoteId: string;
  /** Identifies the booking request; the same request redeeming twice gets the same answer. */
  requestId: string;
  bookingRef: string;
  redeemedAt: string;
}
