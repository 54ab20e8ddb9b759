import { precisionOf } from '../geo/precision.js';
import { distanceSourceOf } from '../geo/route-source.js';
import type { GeoLocation } from '../geo/types.js';
import { gbp } from '../schemas/common.js';
import type { V1QuoteResponseBody } from '../schemas/quote.js';
import type { CreatedQuote } from './create-quote.js';

const METERS_PER_MILE = 1609.344;

function place(query: string, g: GeoLocation) {
  return {
    query,
    label: g.label,
    kind: g.kind,
    // Quotes stored before precision was kept carry none; their kind says as much.
    precision: precisionOf(g),
    town: g.town ?? g.council,
    latitude: g.lat,
    longitude: g.lon,
    postcode_district: g.postcodeDistrict,
    council: g.council,
  };
}

export function bookingUrl(baseUrl: string, quoteId: string): string {
  return `${baseUrl}/book/${quoteId}`;
}

export function presentV1Quote(q: CreatedQuote, baseUrl: string): V1QuoteResponseBody {
  return {
    quote_id: q.quoteId,
    fare: gbp(q.price.totalPence),
    fare_pence: q.price.totalPence,
    currency: 'GBP',
    distance: {
      meters: q.distanceMeters,
      miles: Math.round((q.distanceMeters / METERS_PER_MILE) * 100) / 100,
      source: distanceSourceOf(q.routeModel),
    },
    duration: { seconds: q.durationSeconds, minutes: Math.ceil(q.durationSeconds / 60) },
    depart_at: q.departAt.toISOString(),
    depart_at_local: q.price.localDepartAt,
    pickup: place(q.input.pickup, q.pickup),
    dropoff: place(q.input.dropoff, q.dropoff),
    vehicle_type: q.input.vehicleType,
    passengers: q.input.passengers,
    applied_rules: q.price.rules.map((r) => ({
      code: r.code,
      description: r.description,
      amount: gbp(r.amountPence),
      amount_pence: r.amountPence,
    })),
    tariff_source: {
      area_id: q.price.tariff.areaId,
      authority: q.price.tariff.authority,
      period: q.price.tariff.period,
      effective_from: q.price.tariff.effectiveFrom,
      status: q.price.tariff.status,
      provisional: q.price.tariff.provisional,
      sources: q.price.tariff.sources,
    },
    booking_url: bookingUrl(baseUrl, q.quoteId),
    expires_at: q.expiresAt.toISOString(),
  };
}

export function presentSimpleQuote(q: CreatedQuote) {
  return {
    quote_id: q.quoteId,
    fare: gbp(q.price.totalPence),
    currency: 'GBP' as const,
    expires_at: q.expiresAt.toISOString(),
  };
}
