import { describe, expect, it } from 'vitest';
import { priceJourney } from '../../../src/pricing/index.js';
import { GLASGOW_CENTRE, GLASGOW_WEST_END, codes, request, route, rule } from './fixtures.js';

// Glasgow City Council (data/tariffs/glasgow.json). One scale at all times, in yards:
//   from 2025-10-01 (assumed date): £4.50 for 880 yd (804.672 m) or 165 s; 30p per 174 yd (159.1056 m) or 37 s
//   from 2024-09-01:                £4.40 for 889 yd (812.9016 m) or 167 s; 30p per 179 yd (163.6776 m) or 38 s
// Supplements per hire: night £1.50 (hires starting 21:00-06:00); Christmas/New Year £2.70.

const price = (departAt: string, distance = 5000, seconds = 600) =>
  priceJourney(
    request({
      pickup: GLASGOW_CENTRE,
      dropoff: GLASGOW_WEST_END,
      route: route(distance, seconds),
      departAt: new Date(departAt),
    }),
  );

describe('Glasgow', () => {
  it('day, 5 km in 10 minutes: distance governs', () => {
    // (5000 - 804.672) / 159.1056 = 4195.328 / 159.1056 = 26.37 -> 27; time (600 - 165) / 37 = 11.76 -> 12
    // 27 x 30p = £8.10; £4.50 + £8.10 = £12.60
    const result = price('2026-06-17T11:00:00Z');
    expect(result.totalPence).toBe(1260);
    expect(codes(result)).toEqual(['tariff_period']);
    expect(result.tariff).toMatchObject({ areaId: 'glasgow', effectiveFrom: '2025-10-01', provisional: false });
  });

  it('2 km in 15 minutes: time governs', () => {
    // distance (2000 - 804.672) / 159.1056 = 7.51 -> 8; time (900 - 165) / 37 = 19.86 -> 20
    // 20 x 30p = £6.00; £4.50 + £6.00 = £10.50
    expect(price('2026-06-17T11:00:00Z', 2000, 900).totalPence).toBe(1050);
  });

  it('night supplement from 21:00 LOCAL time (20:30 UTC in June is 21:30 BST)', () => {
    const result = price('2026-06-17T20:30:00Z');
    // £12.60 + £1.50 = £14.10
    expect(rule(result, 'night_rate')?.amountPence).toBe(150);
    expect(result.totalPence).toBe(1410);
    // 19:30 UTC = 20:30 BST: no supplement
    expect(price('2026-06-17T19:30:00Z').totalPence).toBe(1260);
  });

  it("St Andrew's Day (Mon 30 Nov 2026) is a Scottish bank holiday, but Glasgow's scale has no holiday rate", () => {
    const result = price('2026-11-30T12:00:00Z');
    expect(result.totalPence).toBe(1260);
    expect(rule(result, 'bank_holiday')).toBeUndefined();
    // The holiday is still recognised (Scotland's calendar, not England's) and named for the passenger.
    expect(rule(result, 'tariff_period')?.description).toMatch(/St Andrew/);
  });

  it('effective-date selection: September 2025 uses the September 2024 scale', () => {
    // (5000 - 812.9016) / 163.6776 = 4187.0984 / 163.6776 = 25.58 -> 26; time (600 - 167) / 38 = 11.39 -> 12
    // 26 x 30p = £7.80; £4.40 + £7.80 = £12.20
    const result = price('2025-09-17T11:00:00Z');
    expect(result.totalPence).toBe(1220);
    expect(result.tariff.effectiveFrom).toBe('2024-09-01');
  });

  it('Christmas Eve 22:00: the festive supplement replaces the night one (assumption, so provisional)', () => {
    // £12.60 + £2.70 = £15.30 (not + £1.50 as well)
    const result = price('2026-12-24T22:00:00Z');
    expect(codes(result)).toEqual(['tariff_period', 'christmas_new_year']);
    expect(result.totalPence).toBe(1530);
    expect(result.tariff.provisional).toBe(true);
  });
});
