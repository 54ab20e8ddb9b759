import { describe, expect, it } from 'vitest';
import { driverFareFor, offerFareFor, type FareBasis } from '../../../src/dispatch/driver-fare.js';
import { passOverAboveQuote, type CandidateDecision } from '../../../src/dispatch/policy.js';
import { priceJourney } from '../../../src/pricing/index.js';
import { tripMeterWith } from '../../../src/pricing/price-journey.js';
import { defaultPricingData } from '../../../src/pricing/pricing-data.js';
import type { RateOverride } from '../../../src/pricing/types.js';
import { DIDSBURY, MANCHESTER_AIRPORT, MANCHESTER_CENTRE, MILE, request, route } from '../pricing/fixtures.js';

// A driver's own approved rate re-prices a booked job on the meter its quote was priced on, as a
// partner's rate is applied to a quote. Against Manchester's real table (data/tariffs/manchester.json):
//   Tariff 1 day   £3.40 for the first 348.44 m, then 20p per 123 m or 31.57 s (no minimum fare)
//   Tariff 2 night £3.80 for the first 210.67 m, then 20p per 92.5 m or 23.84 s
// 5 miles (8046.72 m) in 600 s: day (8046.72 - 348.44) / 123 = 62.59 -> 63 units = £12.60 + £3.40 = £16.00;
// night (8046.72 - 210.67) / 92.5 = 84.71 -> 85 units = £17.00 + £3.80 = £20.80.

const FIVE_MILES = 5 * MILE;
const DAY = new Date('2026-06-17T09:00:00Z'); // Wed 10:00 BST
const NIGHT = new Date('2026-06-17T21:30:00Z'); // Wed 22:30 BST

const rate = (
  scope: 'driver' | 'partner',
  adjustmentBasisPoints: number,
  minimumFarePence: number | null = null,
): RateOverride => ({
  id: `${scope}-${adjustmentBasisPoints}-${minimumFarePence ?? 'none'}`,
  scope,
  subjectId: scope === 'driver' ? 'drv-1' : 'ptn-1',
  adjustmentBasisPoints,
  minimumFarePence,
  approvedBy: 'Ops Lead',
  approvedAt: '2026-06-01T09:00:00.000Z',
});

/** A booking as it keeps its fare: the quote's total, and the meter read back from its area, time and route. */
function booked(
  departAt: Date,
  quotedFarePence: number,
  pricedWith: RateOverride | null = null,
  fareSource = 'quote',
): FareBasis {
  const meter = tripMeterWith(defaultPricingData(), {
    areaId: 'manchester',
    departAt,
    route: { distanceMeters: FIVE_MILES, durationSeconds: 600 },
    country: 'England',
  });
  return { quotedFarePence, fareSource, meter, pricedWith };
}

describe('a driver’s own fare for a booked job', () => {
  it('reads back the meter the quote was priced on', () => {
    expect(
      tripMeterWith(defaultPricingData(), {
        areaId: 'manchester',
        departAt: DAY,
        route: { distanceMeters: FIVE_MILES, durationSeconds: 600 },
        country: 'England',
      }),
    ).toMatchObject({ rawPence: 1600, pence: 1600, tariffMinimumPence: null, period: 'Tariff 1 (day)' });
    expect(
      tripMeterWith(defaultPricingData(), {
        areaId: 'nowhere',
        departAt: DAY,
        route: { distanceMeters: 1, durationSeconds: 1 },
        country: null,
      }),
    ).toBeNull();
  });

  it('10 % below the meter, day: £16.00 quoted, £14.40 at the driver’s rate', () => {
    // 1600 x -10 % = -160 -> £14.40
    const fare = driverFareFor(booked(DAY, 1600), rate('driver', -1000));
    expect(fare).toEqual({ farePence: 1440, overrideId: 'driver--1000-none', aboveQuote: false });
    expect(offerFareFor(booked(DAY, 1600), fare)).toEqual({ farePence: 1440, overrideId: 'driver--1000-none' });
  });

  it('is what the quote would have been at the driver’s rate', () => {
    const quote = priceJourney(
      request({ pickup: MANCHESTER_CENTRE, dropoff: DIDSBURY, route: route(FIVE_MILES, 600), departAt: NIGHT }),
    );
    const atDriverRate = priceJourney(
      request({
        pickup: MANCHESTER_CENTRE,
        dropoff: DIDSBURY,
        route: route(FIVE_MILES, 600),
        departAt: NIGHT,
        override: rate('driver', -1500),
      }),
    );
    expect(quote.totalPence).toBe(2080);
    // Night: 2080 x -15 % = -312 -> £17.68
    expect(driverFareFor(booked(NIGHT, quote.totalPence), rate('driver', -1500))?.farePence).toBe(1768);
    expect(atDriverRate.totalPence).toBe(1768);
  });

  it('keeps every extra the quote carried: the airport pick-up barrier is not discounted', () => {
    const quote = priceJourney(
      request({ pickup: MANCHESTER_AIRPORT, dropoff: DIDSBURY, route: route(FIVE_MILES, 600), departAt: DAY }),
    );
    // £16.00 on the meter + £1.80 barrier = £17.80; at -10 %: £14.40 + £1.80 = £16.20
    expect(quote.totalPence).toBe(1780);
    expect(driverFareFor(booked(DAY, quote.totalPence), rate('driver', -1000))?.farePence).toBe(1620);
  });

  it('above the quote: 10 % over the meter, or a minimum fare above it, is not offered', () => {
    // 1600 + 160 = £17.60 > £16.00
    const over = driverFareFor(booked(DAY, 1600), rate('driver', 1000));
    expect(over).toEqual({ farePence: 1760, overrideId: 'driver-1000-none', aboveQuote: true });
    // -10 % is £14.40, raised to the driver's own £20.00 minimum
    expect(driverFareFor(booked(DAY, 1600), rate('driver', -1000, 2000))).toMatchObject({
      farePence: 2000,
      aboveQuote: true,
    });
    // A driver named by staff is offered it at the quoted fare, never their higher one.
    expect(offerFareFor(booked(DAY, 1600), over)).toEqual({ farePence: 1600, overrideId: null });
  });

  it('at exactly the quote is offered (the quote is a ceiling, not a bar)', () => {
    expect(driverFareFor(booked(DAY, 1600), rate('driver', 0))).toMatchObject({ farePence: 1600, aboveQuote: false });
  });

  it('replaces a partner’s approved rate the quote was priced with, never stacks on it', () => {
    // Partner -5 %: 1600 - 80 = £15.20 quoted. Driver -10 % on the same meter: £14.40 (not 1520 x 0.9 = £13.68).
    const quoted = priceJourney(
      request({
        pickup: MANCHESTER_CENTRE,
        dropoff: DIDSBURY,
        route: route(FIVE_MILES, 600),
        departAt: DAY,
        override: rate('partner', -500),
      }),
    );
    expect(quoted.totalPence).toBe(1520);
    expect(driverFareFor(booked(DAY, 1520, rate('partner', -500)), rate('driver', -1000))).toMatchObject({
      farePence: 1440,
      aboveQuote: false,
    });
    // Driver at the plain tariff: £16.00, above the partner's £15.20.
    expect(driverFareFor(booked(DAY, 1520, rate('partner', -500)), rate('driver', 0))).toMatchObject({
      farePence: 1600,
      aboveQuote: true,
    });
  });

  it('does not apply to a fare a partner agreed, nor without a rate', () => {
    expect(driverFareFor(booked(DAY, 2500, null, 'partner'), rate('driver', -1000))).toBeNull();
    expect(driverFareFor(booked(DAY, 1600), null)).toBeNull();
    expect(offerFareFor(booked(DAY, 1600), null)).toEqual({ farePence: 1600, overrideId: null });
  });
});

describe('passOverAboveQuote', () => {
  const decision = (driverId: string, distanceMeters: number, eligible = true): CandidateDecision => ({
    driverId,
    driverName: driverId,
    tier: 'local',
    distanceMeters,
    eligible,
    skipReason: eligible ? null : 'offline',
  });

  it('passes over the eligible drivers whose own fare is above the quote, with the reason, and ranks again', () => {
    const ranked = [decision('near', 100), decision('far', 900), decision('off', 50, false)];
    const out = passOverAboveQuote(ranked, new Set(['near', 'off']));
    expect(out.map((d) => [d.driverId, d.eligible, d.skipReason])).toEqual([
      ['far', true, null],
      ['off', false, 'offline'],
      ['near', false, 'own_rate_above_fare'],
    ]);
  });
});
