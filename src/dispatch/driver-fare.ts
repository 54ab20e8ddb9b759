import type { TripMeter } from '../pricing/price-journey.js';
import { rateOverrideRule } from '../pricing/surcharges.js';
import type { RateOverride } from '../pricing/types.js';

// A driver's approved own rate (spec 1: fares follow the council tariff or an approved driver or
// partner override) prices the jobs offered to that driver. The passenger's quoted fare is a
// ceiling they were promised: a driver whose fare for the job is above it is not offered the job
// (the decision log's 'own_rate_above_fare'), and one at or below it is offered the job at their
// fare, which the passenger then pays. Pure: the caller reads the booking, the meter and the rates
// (src/dispatch/offer-fares.ts). docs/pricing.md, "Driver rates", says it for people.

/** What a booking's fare was priced on, as the booking keeps it. */
export interface FareBasis {
  /** The fare quoted to the passenger (the ceiling). */
  quotedFarePence: number;
  /** 'partner': a fare the sender agreed, not the tariff's; a driver's rate does not re-price it. */
  fareSource: string;
  /** The council meter the fare was priced on; null when no tariff of the booking's area is in force. */
  meter: TripMeter | null;
  /** The approved partner rate the quoted fare was priced with, if any (replaced by the driver's, never stacked). */
  pricedWith: RateOverride | null;
}

/** A driver's fare for one job, at their own approved rate. */
export interface DriverFare {
  farePence: number;
  overrideId: string;
  /** Above the quoted fare: the cascade does not offer them the job. */
  aboveQuote: boolean;
}

/**
 * The job's fare at this driver's own rate: the quoted fare with the rate the quote was priced at
 * (the tariff's, or a partner's approved rate) replaced by the driver's, applied to the same meter
 * exactly as a partner's rate is applied to a quote (rateOverrideRule: the adjustment on the raw
 * meter, the driver's minimum fare replacing the tariff's). Every extra the quote carried (night
 * or holiday rate, supplements, airport charges, meet and greet) is kept as quoted. Null when the
 * driver has no rate in force or it does not apply: an agreed fare, or no tariff to re-price on.
 */
export function driverFareFor(basis: FareBasis, driverRate: RateOverride | null): DriverFare | null {
  if (!driverRate || basis.fareSource === 'partner' || !basis.meter) return null;
  const { rawPence, pence, tariffMinimumPence } = basis.meter;
  const quotedAdjustment = basis.pricedWith
    ? rateOverrideRule(basis.pricedWith, rawPence, pence, tariffMinimumPence).amountPence
    : 0;
  const driverAdjustment = rateOverrideRule(driverRate, rawPence, pence, tariffMinimumPence).amountPence;
  const farePence = Math.max(0, basis.quotedFarePence - quotedAdjustment + driverAdjustment);
  return { farePence, overrideId: driverRate.id, aboveQuote: farePence > basis.quotedFarePence };
}

/** What a job card is offered at: the driver's fare, never above the quoted fare. */
export interface OfferFare {
  farePence: number;
  /** The driver's rate that priced it; null: the quoted fare. */
  overrideId: string | null;
}

/**
 * The fare an offer is made at. The cascade never offers a job to a driver whose own fare is above
 * the quote; a driver staff or an operator name themselves is offered it at the quoted fare then,
 * which they may decline.
 */
export function offerFareFor(basis: FareBasis, fare: DriverFare | null): OfferFare {
  if (!fare || fare.aboveQuote) return { farePence: basis.quotedFarePence, overrideId: null };
  return { farePence: fare.farePence, overrideId: fare.overrideId };
}
