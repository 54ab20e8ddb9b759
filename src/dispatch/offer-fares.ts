import type { Sql } from '../db/sql.js';
import type { Country } from '../geo/types.js';
import { tripMeterWith } from '../pricing/price-journey.js';
import { defaultPricingData, type PricingData } from '../pricing/pricing-data.js';
import { driverHasRate, findDriverRateOverrides, findRateOverrideById } from '../quotes/rate-overrides.js';
import { driverFareFor, offerFareFor, type DriverFare, type FareBasis, type OfferFare } from './driver-fare.js';
import { readBookingFareFacts } from './store.js';

// The reads behind a driver's own fare for a job (src/dispatch/driver-fare.ts decides it): the
// booking's quoted fare and meter, the partner rate it was priced with, and each candidate's
// approved rate in force at the pickup for the booking's vehicle class.

export interface DriverFares {
  basis: FareBasis;
  /** Candidates with their own rate in force for this job; the rest are offered the quoted fare. */
  fares: Map<string, DriverFare>;
}

/**
 * Each of these drivers' fare for booking `ref` at their own approved rate, where they have one.
 * Most drivers have none: the booking's meter (a tariff walk, the pricing's CPU) is worked out only
 * when one of them does, since only a driver's own rate re-prices the trip (driverFareFor).
 */
export async function driverFares(
  sql: Sql,
  ref: string,
  driverIds: readonly string[],
  data: PricingData = defaultPricingData(),
): Promise<DriverFares> {
  const b = await readBookingFareFacts(sql, ref);
  const pricedWith = b.rate_override_id ? await findRateOverrideById(sql, b.rate_override_id) : null;
  const fares = new Map<string, DriverFare>();
  // An agreed fare is not re-priced (driverFareFor): no rates read, no meter needed.
  const rates =
    driverIds.length === 0 || b.fare_source === 'partner'
      ? new Map<string, never>()
      : await findDriverRateOverrides(sql, driverIds, b.pickup_at, b.vehicle_type);
  const meter =
    rates.size === 0
      ? null
      : tripMeterWith(data, {
          areaId: b.pickup_area,
          departAt: b.pickup_at,
          route: { distanceMeters: b.distance_m, durationSeconds: b.duration_s },
          country: b.country as Country | null,
        });
  const basis: FareBasis = { quotedFarePence: b.quoted_fare_pence, fareSource: b.fare_source, meter, pricedWith };
  for (const [driverId, rate] of rates) {
    const fare = driverFareFor(basis, rate);
    if (fare) fares.set(driverId, fare);
  }
  return { basis, fares };
}

/** The fare booking `ref` is offered to this driver at (never above the quote). */
export async function offerFare(
  sql: Sql,
  ref: string,
  driverId: string,
  data: PricingData = defaultPricingData(),
): Promise<OfferFare> {
  const { basis, fares } = await driverFares(sql, ref, [driverId], data);
  return offerFareFor(basis, fares.get(driverId) ?? null);
}

/**
 * What the jobs on a driver's upcoming-jobs board pay them (src/drivers/upcoming.ts), in `refs`'
 * order: a claim is priced as an offer is (offerFare), so a driver with their own approved rate sees
 * what taking each job would pay them, not the quote. Most drivers have none, and cost one read:
 * for them the list is empty and each job pays its booking's fare.
 */
export async function boardFares(sql: Sql, refs: string[], driverId: string, now: Date): Promise<OfferFare[]> {
  if (!(await driverHasRate(sql, driverId, now))) return [];
  return Promise.all(refs.map((ref) => offerFare(sql, ref, driverId)));
}
