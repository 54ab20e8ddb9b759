import { describe, expect, it } from 'vitest';
import { priceJourney } from '../../../src/pricing/index.js';
import { AT_20_MPH, FIVE_MILES, MILE, YORK, codes, request, route, rule } from './fixtures.js';

// City of York Council: the table in force on 13 June 2023 (data/tariffs/york.json), PROVISIONAL because a higher
// table was then proposed (data/tariffs/proposed/york.json) and its adoption was not confirmed. In yards:
//   Tariff 1 07:00-22:00: £3.00 for the first 157.8 yd or 39.8 s, then 20p per 168.2 yd or 42.4 s
//   Tariff 2 22:00-07:00: £3.90 for the first 77.6 yd or 19.3 s, then as Tariff 1
//
// 5 miles at 20 mph: T1 (8,800 - 157.8) / 168.2 = 8,642.2 / 168.2 = 51.38 -> 52; time (900 - 39.8) / 42.4 = 20.3 -> 21
//   £3.00 + 52 x 20p = £13.40. T2 (8,800 - 77.6) / 168.2 = 8,722.4 / 168.2 = 51.86 -> 52; £3.90 + £10.40 = £14.30

const price = (departAt: string, distance = FIVE_MILES, seconds = AT_20_MPH) =>
  priceJourney(request({ pickup: YORK, route: route(distance, seconds), departAt: new Date(departAt) }));

describe('York (last confirmed table, provisional)', () => {
  it('Tariff 1: 5 miles = £13.40, marked provisional', () => {
    const result = price('2026-06-16T09:00:00Z');
    expect(result.totalPence).toBe(1340);
    expect(codes(result)).toEqual(['tariff_period']);
    expect(result.tariff).toMatchObject({
      areaId: 'york',
      status: 'in_force_reported',
      effectiveFrom: '2023-06-13',
      provisional: true,
    });
  });

  it('1 mile = £5.00 (the press: "approximately £4.90")', () => {
    // 1 mile in 180 s: (1,760 - 157.8) / 168.2 = 9.53 -> 10 units; time (180 - 39.8) / 42.4 = 3.3 -> 4; £3.00 + £2.00
    expect(price('2026-06-16T09:00:00Z', MILE, 180).totalPence).toBe(500);
  });

  it('Tariff 2 from 22:00 to 07:00: £14.30', () => {
    expect(price('2026-06-16T20:59:00Z').totalPence).toBe(1340); // 21:59 BST
    const night = price('2026-06-16T21:00:00Z'); // 22:00 BST
    expect(night.totalPence).toBe(1430);
    expect(rule(night, 'night_rate')?.amountPence).toBe(90);
    expect(price('2026-06-17T06:00:00Z').totalPence).toBe(1340); // 07:00 BST
  });

  it('below the proposed table and the national default for the same journey', () => {
    // proposed T1 £15.40 (proposed-tables.test.ts); national default day: (8,046.72 - 254) / 127 = 61.4 -> 62 units; £3.20 + £12.40 = £15.60
    expect(price('2026-06-16T09:00:00Z').totalPence).toBeLessThan(1540);
  });
});
