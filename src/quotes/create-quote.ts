import { randomUUID } from 'node:crypto';
import { WorkflowIdConflictPolicy, WorkflowIdReusePolicy, type Client } from '@temporalio/client';
import type { ApiKey } from '../auth/api-keys.js';
import type { Sql } from '../db/sql.js';
import type { GeoLocation, Geocoder, Router } from '../geo/types.js';
import { ProblemError } from '../http/problem.js';
import { priceJourney } from '../pricing/index.js';
import { PricingError, type PriceResult, type RateOverride, type VehicleType } from '../pricing/types.js';
import { quoteWorkflowId, type QuoteWorkflowInput } from '../../workflows/quote-definitions.js';
import { findPartnerRateOverride } from './rate-overrides.js';

/** A pickup a few minutes in the past is clock skew or a "now" typed slowly, not a mistake. */
const PAST_TOLERANCE_MS = 5 * 60_000;
/** Tariff tables and bank-holiday data do not reach further than this with any confidence. */
const MAX_AHEAD_MS = 366 * 24 * 3600_000;

export type QuoteInput = Omit<TripInput, 'fields'> & { contract: 'simple' | 'v1' };

export interface QuoteDeps {
  sql: Sql;
  temporal: Client;
  geocoder: Geocoder;
  router: Router;
  taskQueue: string;
  quoteTtlSeconds: number;
  now?: () => Date;
}

export interface CreatedQuote {
  quoteId: string;
  input: QuoteInput;
  pickup: GeoLocation;
  dropoff: GeoLocation;
  departAt: Date;
  expiresAt: Date;
  distanceMeters: number;
  durationSeconds: number;
  price: PriceResult;
}

async function locate(geocoder: Geocoder, query: string, field: string): Promise<GeoLocation> {
  const place = await geocoder.geocode(query);
  if (!place) {
    throw new ProblemError(422, 'address_not_found', `Could not locate ${field} "${query}".`, {
      errors: [{ field: `body.${field}`, message: 'could not be located; try a postcode, station or airport name' }],
    });
  }
  return place;
}

function departureTime(raw: string | undefined, now: Date, field: string): Date {
  if (raw === undefined) return now;
  const at = new Date(raw);
  if (at.getTime() < now.getTime() - PAST_TOLERANCE_MS) {
    throw new ProblemError(400, 'depart_at_in_past', 'The pickup time is in the past.', {
      errors: [{ field: `body.${field}`, message: 'must not be in the past' }],
    });
  }
  if (at.getTime() > now.getTime() + MAX_AHEAD_MS) {
    throw new ProblemError(400, 'depart_at_too_far', 'Quotes are given up to one year ahead.', {
      errors: [{ field: `body.${field}`, message: 'must be within one year' }],
    });
  }
  return at;
}

export interface TripInput {
  /** Names the request's fields in error messages: the simple and v1 contracts spell them differently. */
  fields: { pickup: string; dropoff: string; departAt: string };
  pickup: string;
  dropoff: string;
  departAt?: string | undefined;
  vehicleType: VehicleType;
  passengers: number;
  meetAndGreet: boolean;
  worldwide: boolean;
  apiKey: ApiKey | null;
}

export interface PricedTrip {
  pickup: GeoLocation;
  dropoff: GeoLocation;
  departAt: Date;
  distanceMeters: number;
  durationSeconds: number;
  price: PriceResult;
  override: RateOverride | null;
}

/**
 * Locate, route and price a journey: the one pricing path behind both quote endpoints and every
 * booking route that prices on the tariff.
 */
export async function priceTrip(deps: Pick<QuoteDeps, 'sql' | 'geocoder' | 'router' | 'now'>, input: TripInput): Promise<PricedTrip> {
  const now = deps.now?.() ?? new Date();
  const departAt = departureTime(input.departAt, now, input.fields.departAt);
  const [pickup, dropoff] = await Promise.all([
    locate(deps.geocoder, input.pickup, input.fields.pickup),
    locate(deps.geocoder, input.dropoff, input.fields.dropoff),
  ]);
  const route = await deps.router.route(pickup, dropoff);
  const override: RateOverride | null = input.apiKey?.partnerId
    ? await findPartnerRateOverride(deps.sql, input.apiKey.partnerId, departAt)
    : null;
  try {
    const price = priceJourney({
      pickup,
      dropoff,
      route,
      departAt,
      vehicleType: input.vehicleType,
      passengers: input.passengers,
      meetAndGreet: input.meetAndGreet,
      worldwide: input.worldwide,
      override,
    });
    return { pickup, dropoff, departAt, distanceMeters: route.distanceMeters, durationSeconds: route.durationSeconds, price, override };
  } catch (err) {
    if (err instanceof PricingError) throw new ProblemError(422, err.code, err.message);
    throw err;
  }
}

/**
 * A quote: a priced trip recorded in Postgres with its workflow (quote:<id>), which owns redemption
 * and expiry from here on.
 */
export async function createQuote(deps: QuoteDeps, input: QuoteInput): Promise<CreatedQuote> {
  const now = deps.now?.() ?? new Date();
  const simple = input.contract === 'simple';
  const trip = await priceTrip(deps, {
    ...input,
    fields: simple
      ? { pickup: 'pickup_address', dropoff: 'dropoff_address', departAt: 'depart_at' }
      : { pickup: 'pickup', dropoff: 'dropoff', departAt: 'departAt' },
  });
  const { pickup, dropoff, departAt, price, override } = trip;
  const route = { distanceMeters: trip.distanceMeters, durationSeconds: trip.durationSeconds };

  const quoteId = randomUUID();
  const expiresAt = new Date(now.getTime() + deps.quoteTtlSeconds * 1000);
  const workflowInput: QuoteWorkflowInput = { quoteId, expiresAt: expiresAt.toISOString() };

  // The row and the workflow are written concurrently: the id is fresh and not yet known to anyone,
  // so if either write fails the caller gets an error and the other half is never redeemable.
  await Promise.all([
    deps.sql`
      insert into quotes (id, contract, pickup_query, dropoff_query, pickup, dropoff, depart_at, vehicle_type,
                          passengers, meet_and_greet, worldwide, fare_pence, distance_m, duration_s, rules, tariff,
                          api_key_id, rate_override_id, created_at, expires_at)
      values (${quoteId}, ${input.contract}, ${input.pickup}, ${input.dropoff}, ${deps.sql.json(toJson(pickup))},
              ${deps.sql.json(toJson(dropoff))}, ${departAt}, ${input.vehicleType}, ${input.passengers},
              ${input.meetAndGreet}, ${input.worldwide}, ${price.totalPence}, ${route.distanceMeters},
              ${route.durationSeconds}, ${deps.sql.json(toJson(price.rules))}, ${deps.sql.json(toJson(price.tariff))},
              ${input.apiKey?.id ?? null}, ${override?.id ?? null}, ${now}, ${expiresAt})`,
    deps.temporal.workflow.start('quoteWorkflow', {
      workflowId: quoteWorkflowId(quoteId),
      taskQueue: deps.taskQueue,
      args: [workflowInput],
      workflowIdConflictPolicy: WorkflowIdConflictPolicy.FAIL,
      workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
      // Shown in the Web UI so ops can tell quotes apart without opening each one.
      memo: {
        fare: (price.totalPence / 100).toFixed(2),
        pickup: pickup.label,
        dropoff: dropoff.label,
        tariff: price.tariff.areaId,
      },
    }),
  ]);

  return {
    quoteId,
    input,
    pickup,
    dropoff,
    departAt,
    expiresAt,
    distanceMeters: route.distanceMeters,
    durationSeconds: route.durationSeconds,
    price,
  };
}

function toJson<T>(value: T): Parameters<Sql['json']>[0] {
  return JSON.parse(JSON.stringify(value)) as Parameters<Sql['json']>[0];
}
