import type { FareProvenance } from '../model/bookings.js';
import type { PriceResult } from '../pricing/types.js';
import type { QuoteRow } from './store.js';

// How a fare was reached, as a booking keeps it (issue 36, item 6; migration 00038): from a trip
// priced on the spot or from the quote it redeems.

export function fareProvenance(
  price: PriceResult,
  route: { distanceMeters: number; durationSeconds: number; model?: string | undefined },
): FareProvenance {
  const t = price.tariff;
  return {
    tariff: {
      areaId: t.areaId,
      authority: t.authority,
      period: t.period,
      effectiveFrom: t.effectiveFrom,
      status: t.status,
      provisional: t.provisional,
    },
    rules: price.rules.map((r) => ({ code: r.code, description: r.description, amountPence: r.amountPence })),
    distanceM: route.distanceMeters,
    durationS: route.durationSeconds,
    ...(route.model ? { route: route.model } : {}),
  };
}

/** A quote's table, rules and distance, and how the distance was found where the quote kept it. */
export function quoteProvenance(q: QuoteRow): FareProvenance {
  return fareProvenance(
    {
      totalPence: q.fare_pence,
      currency: 'GBP',
      meterPence: q.fare_pence,
      rules: q.rules,
      tariff: q.tariff,
      localDepartAt: '',
    },
    { distanceMeters: q.distance_m, durationSeconds: q.duration_s, model: q.route_model ?? undefined },
  );
}
