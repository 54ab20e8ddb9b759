import type { Sql } from '../db/sql.js';

// The rows the pages read, narrowed to what they show. Pages never write: every change goes
// through the public API (and so through its validation, idempotency and workflows).

export interface QuoteForPage {
  id: string;
  status: 'open' | 'redeemed' | 'expired';
  pickup_query: string;
  dropoff_query: string;
  pickup: { label: string };
  dropoff: { label: string };
  depart_at: Date;
  vehicle_type: string;
  passengers: number;
  meet_and_greet: boolean;
  worldwide: boolean;
  fare_pence: number;
  expires_at: Date;
  booking_ref: string | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function loadQuoteForPage(sql: Sql, quoteId: string): Promise<QuoteForPage | null> {
  // Anything but a uuid cannot name a quote (and would make Postgres reject the cast).
  if (!UUID.test(quoteId)) return null;
  const [row] = await sql<QuoteForPage[]>`
    select id, status, pickup_query, dropoff_query, pickup, dropoff, depart_at, vehicle_type, passengers,
           meet_and_greet, worldwide, fare_pence, expires_at, booking_ref
      from quotes where id = ${quoteId}`;
  return row ?? null;
}

export interface OfferForPage {
  id: string;
  booking_ref: string;
  driver_id: string;
  status: 'offered' | 'accepted' | 'declined' | 'timed_out' | 'withdrawn';
  expires_at: Date;
}

export async function loadOfferForPage(sql: Sql, offerId: string): Promise<OfferForPage | null> {
  const [row] = await sql<OfferForPage[]>`
    select id, booking_ref, driver_id, status, expires_at from offers where id = ${offerId}`;
  return row ?? null;
}
