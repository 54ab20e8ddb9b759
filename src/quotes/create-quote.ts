import { randomUUID } from 'node:crypto';
import type { ApiKey } from '../auth/api-keys.js';
import type { GeoLocation, Geocoder } from '../geo/types.js';
import { meetAndGreetApplies, priceJourney } from '../pricing/index.js';
import { PricingError, type PriceResult, type RateOverride, type VehicleType } from '../pricing/types.js';
import { Refusal } from '../refusal.js';
import type { Services } from '../services.js';
import type { QuoteWorkflowInput } from '../../workflows/quotes/definitions.js';
import { findPartnerRateOverride } from './rate-overrides.js';
import { insertQuote } from './store.js';
import { screenedPlace } from '../screening/place-text.js';

/** A pickup a few minutes in the past is clock skew or a "now" typed slowly, not a mistake. */
const PAST_TOLERANCE_MS = 5 * 60_000;
/** Tariff tables and bank-holiday data do not reach further than this with any confidence. */
const MAX_AHEAD_MS = 366 * 24 * 3600_000;

export type QuoteInput = Omit<TripInput, 'fields'> & { contract: 'simple' | 'v1' };

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
  /** The router's model the distance came from ("osrm", "estimate:…"): the quote says road or estimate. */
  routeModel: string;
}

/**
 * Where a query is, or refused as unprocessable: `address_not_found` when nothing matched,
 * `address_uncertain` when nothing matched confidently enough to send a driver there; both carry up
 * to five `suggestions` (label, kind, town, precision) a client can offer the passenger and send
 * back as the query.
 */
async function locate(geocoder: Geocoder, query: string, field: string): Promise<GeoLocation> {
  const result = await geocoder.resolve(query);
  if (result.status === 'found') return result.place;
  const suggestions = result.suggestions;
  if (result.ask) {
    // A house number on a street we cannot place: the postcode settles it (docs/geocoding.md).
    const { street, town } = result.ask;
    const where = town ? `${street} in ${town}` : street;
    const choose = suggestions.length > 0 ? ', or choose a suggestion' : '';
    throw Refusal.unprocessable(
      'address_uncertain',
      `We could not find ${where}. Add its postcode to "${query}"${choose}.`,
      {
        field: { name: field, message: `needs its postcode: we could not find ${where}${choose}` },
        details: { suggestions, question: 'postcode' },
      },
    );
  }
  if (result.status === 'uncertain') {
    // Mention suggestions only when the refusal carries some (issue 37: refusals carry what they mention).
    const choose = suggestions.length > 0 ? ', or choose a suggestion' : '';
    throw Refusal.unprocessable(
      'address_uncertain',
      `Not sure where ${field} "${query}" is${suggestions.length > 0 ? '; did you mean one of the suggestions?' : '.'}`,
      {
        field: {
          name: field,
          message: `is not precise enough to send a driver to; name the place, street or postcode${choose}`,
        },
        details: { suggestions },
      },
    );
  }
  throw Refusal.unprocessable('address_not_found', `Could not locate ${field} "${query}".`, {
    field: { name: field, message: 'could not be located; try a postcode, station, landmark or airport name' },
    details: { suggestions },
  });
}

function departureTime(raw: string | undefined, now: Date, field: string): Date {
  if (raw === undefined) return now;
  const at = new Date(raw);
  if (at.getTime() < now.getTime() - PAST_TOLERANCE_MS) {
    throw Refusal.invalid('depart_at_in_past', 'The pickup time is in the past.', {
      field: { name: field, message: 'must not be in the past' },
    });
  }
  if (at.getTime() > now.getTime() + MAX_AHEAD_MS) {
    throw Refusal.invalid('depart_at_too_far', 'Quotes are given up to one year ahead.', {
      field: { name: field, message: 'must be within one year' },
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
  /** An assistance dog travels: itemised at zero, never priced (docs/accessibility.md). */
  assistanceDog?: boolean | undefined;
  /**
   * Whose approved rate prices the trip: a sender's own job names its sender here; otherwise the
   * API key's partner (a quote or booking made with a partner's key). Absent: the key's partner.
   */
  ratePartnerId?: string | null | undefined;
}

export interface PricedTrip {
  pickup: GeoLocation;
  dropoff: GeoLocation;
  departAt: Date;
  distanceMeters: number;
  durationSeconds: number;
  price: PriceResult;
  override: RateOverride | null;
  /** How the distance and time were found (the router's model, e.g. "estimate:circuity-v1"). */
  routeModel: string;
}

/**
 * Locate, route and price a journey: the one pricing path behind both quote endpoints and every
 * booking route that prices on the tariff.
 */
export async function priceTrip(deps: Pick<Services, 'sql' | 'geo' | 'now'>, input: TripInput): Promise<PricedTrip> {
  const now = deps.now();
  const departAt = departureTime(input.departAt, now, input.fields.departAt);
  const [pickup, dropoff] = await Promise.all([
    locate(deps.geo.geocoder, input.pickup, input.fields.pickup),
    locate(deps.geo.geocoder, input.dropoff, input.fields.dropoff),
  ]);
  const route = await deps.geo.router.route(pickup, dropoff);
  const ratePartnerId = input.ratePartnerId ?? input.apiKey?.partnerId ?? null;
  const override: RateOverride | null = ratePartnerId
    ? await findPartnerRateOverride(deps.sql, ratePartnerId, departAt, input.vehicleType)
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
      assistanceDog: input.assistanceDog ?? false,
    });
    return {
      pickup,
      dropoff,
      departAt,
      distanceMeters: route.distanceMeters,
      durationSeconds: route.durationSeconds,
      price,
      override,
      routeModel: route.model,
    };
  } catch (err) {
    if (err instanceof PricingError) throw Refusal.unprocessable(err.code, err.message);
    throw err;
  }
}

/**
 * A quote: a priced trip recorded in Postgres with its workflow (quote:<id>), which owns redemption
 * and expiry from here on.
 */
export async function createQuote(deps: Services, asked: QuoteInput): Promise<CreatedQuote> {
  const now = deps.now();
  const simple = asked.contract === 'simple';
  const fields = simple
    ? { pickup: 'pickup_address', dropoff: 'dropoff_address', departAt: 'depart_at' }
    : { pickup: 'pickup', dropoff: 'dropoff', departAt: 'departAt' };
  // The places as typed are kept with the quote and reach the booking: screened as other free text is.
  const input = {
    ...asked,
    pickup: screenedPlace(fields.pickup, asked.pickup),
    dropoff: screenedPlace(fields.dropoff, asked.dropoff),
  };
  const trip = await priceTrip(deps, { ...input, fields });
  const { pickup, dropoff, departAt, price, override } = trip;
  const route = { distanceMeters: trip.distanceMeters, durationSeconds: trip.durationSeconds };

  const quoteId = randomUUID();
  const expiresAt = new Date(now.getTime() + deps.config.QUOTE_TTL_SECONDS * 1000);
  const workflowInput: QuoteWorkflowInput = { quoteId, expiresAt: expiresAt.toISOString() };

  // The row and the workflow are written concurrently: the id is fresh and not yet known to anyone,
  // so if either write fails the caller gets an error and the other half is never redeemable.
  await Promise.all([
    insertQuote(deps.sql, {
      id: quoteId,
      contract: input.contract,
      pickupQuery: input.pickup,
      dropoffQuery: input.dropoff,
      pickup,
      dropoff,
      departAt,
      vehicleType: input.vehicleType,
      passengers: input.passengers,
      // Kept only where it is provided (an airport at either end): the driver is told of it.
      meetAndGreet: input.meetAndGreet && meetAndGreetApplies(pickup, dropoff),
      worldwide: input.worldwide,
      price,
      distanceMeters: route.distanceMeters,
      durationSeconds: route.durationSeconds,
      routeModel: trip.routeModel,
      apiKeyId: input.apiKey?.id ?? null,
      rateOverrideId: override?.id ?? null,
      createdAt: now,
      expiresAt,
    }),
    // The memo is shown in the Web UI so ops can tell quotes apart without opening each one.
    deps.quotes.start(workflowInput, {
      fare: (price.totalPence / 100).toFixed(2),
      pickup: pickup.label,
      dropoff: dropoff.label,
      tariff: price.tariff.areaId,
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
    routeModel: trip.routeModel,
  };
}
