import type { Sql } from '../db/sql.js';
import type { GeoLocation } from '../geo/types.js';
import type { AppliedRule, PriceResult, VehicleType } from '../pricing/types.js';
import type { QuoteRedemption, QuoteStatus } from '../model/quotes.js';

// The quotes table. The quote workflow (quote:<id>) owns open -> redeemed | expired and writes it
// here through activities; routes and pages only read.

export interface QuoteRow {
  id: string;
  status: QuoteStatus;
  contract: 'simple' | 'v1';
  pickup_query: string;
  dropoff_query: string;
  pickup: GeoLocation;
  dropoff: GeoLocation;
  depart_at: Date;
  vehicle_type: VehicleType;
  passengers: number;
  meet_and_greet: boolean;
  worldwide: boolean;
  fare_pence: number;
  distance_m: number;
  duration_s: number;
  rules: AppliedRule[];
  tariff: PriceResult['tariff'];
  expires_at: Date;
  redeemed_at: Date | null;
  redemption_request_id: string | null;
  booking_ref: string | null;
  /** The approved partner rate that priced it, if any. */
  rate_override_id: string | null;
  /** How its distance was found (the router's model); null for quotes from before it was kept. */
  route_model: string | null;
}

export interface NewQuoteRecord {
  id: string;
  contract: 'simple' | 'v1';
  pickupQuery: string;
  dropoffQuery: string;
  pickup: GeoLocation;
  dropoff: GeoLocation;
  departAt: Date;
  vehicleType: VehicleType;
  passengers: number;
  meetAndGreet: boolean;
  worldwide: boolean;
  price: PriceResult;
  distanceMeters: number;
  durationSeconds: number;
  /** The router's model the distance came from ("osrm", "estimate:…"). */
  routeModel: string;
  apiKeyId: string | null;
  rateOverrideId: string | null;
  createdAt: Date;
  expiresAt: Date;
}

const json = (sql: Sql, value: unknown) => sql.json(JSON.parse(JSON.stringify(value)) as never);

export async function insertQuote(sql: Sql, q: NewQuoteRecord): Promise<void> {
  await sql`
    insert into quotes (id, contract, pickup_query, dropoff_query, pickup, dropoff, depart_at, vehicle_type,
                        passengers, meet_and_greet, worldwide, fare_pence, distance_m, duration_s, rules, tariff,
                        api_key_id, rate_override_id, route_model, created_at, expires_at)
    values (${q.id}, ${q.contract}, ${q.pickupQuery}, ${q.dropoffQuery}, ${json(sql, q.pickup)}, ${json(sql, q.dropoff)},
            ${q.departAt}, ${q.vehicleType}, ${q.passengers}, ${q.meetAndGreet}, ${q.worldwide}, ${q.price.totalPence},
            ${q.distanceMeters}, ${q.durationSeconds}, ${json(sql, q.price.rules)}, ${json(sql, q.price.tariff)},
            ${q.apiKeyId}, ${q.rateOverrideId}, ${q.routeModel}, ${q.createdAt}, ${q.expiresAt})`;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function findQuote(sql: Sql, quoteId: string): Promise<QuoteRow | null> {
  // Anything but a uuid cannot name a quote (and would make Postgres reject the cast).
  if (!UUID.test(quoteId)) return null;
  const [row] = await sql<QuoteRow[]>`
    select id, status, contract, pickup_query, dropoff_query, pickup, dropoff, depart_at, vehicle_type, passengers,
           meet_and_greet, worldwide, fare_pence, distance_m, duration_s, rules, tariff, expires_at, redeemed_at,
           redemption_request_id, booking_ref, rate_override_id, route_model
      from quotes where id = ${quoteId}`;
  return row ?? null;
}

/** Idempotent: a retried activity writes the same redemption, and never overwrites another one. */
export async function markQuoteRedeemed(sql: Sql, r: QuoteRedemption): Promise<void> {
  await sql`
    update quotes
       set status = 'redeemed', redeemed_at = ${r.redeemedAt}, redemption_request_id = ${r.requestId},
           booking_ref = ${r.bookingRef}
     where id = ${r.quoteId} and (status = 'open' or redemption_request_id = ${r.requestId})`;
}

export async function markQuoteExpired(sql: Sql, quoteId: string): Promise<void> {
  await sql`update quotes set status = 'expired', expired_at = now() where id = ${quoteId} and status = 'open'`;
}
