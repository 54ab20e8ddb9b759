import { describe, expect, it } from 'vitest';
import { priceJourney } from '../../../src/pricing/index.js';
import { BRADFORD_CITY, FIVE_MILES, codes, request, route, rule } from './fixtures.js';

// City of Bradford MDC, from 1 Dec 2021 (data/tariffs/bradford.json), in metres:
//   Tariff 1 Mon-Sat 07:00-23:00:                          £2.00 for the first 97 m, then 10p per 88 m
//   Tariff 2 23:00-07:00 Mon-Sat, all Sunday, bank holidays: 10p per 80 m; its £2.00 / 97 m start is ASSUMED (provisional)
//   No waiting rate published, so distance only.
//
// 5 miles = 8,046.72 m: T1 (8,046.72 - 97) / 88 = 7,949.72 / 88 = 90.34 -> 91 units; £2.00 + 91 x 10p = £11.10
//                        T2 7,949.72 / 80 = 99.37 -> 100 units; £2.00 + 100 x 10p = £12.00

const price = (departAt: string, distance = FIVE_MILES, seconds = 900) =>
  priceJourney(request({ pickup: BRADFORD_CITY, route: route(distance, seconds), departAt: new Date(departAt) }));

describe('Bradford', () => {
  it('Tariff 1: 5 miles = £11.10, not provisional', () => {
    const result = price('2026-06-16T09:00:00Z'); // Tue 10:00 BST
    expect(result.totalPence).toBe(1110);
    expect(codes(result)).toEqual(['tariff_period']);
    expect(result.tariff).toMatchObject({ areaId: 'bradford', effectiveFrom: '2021-12-01', provisional: false });
  });

  it('Tariff 2 from 23:00 Monday-Saturday: £12.00, provisional (assumed start)', () => {
    expect(price('2026-06-16T21:59:00Z').totalPence).toBe(1110); // 22:59 BST
    const night = price('2026-06-16T22:00:00Z'); // 23:00 BST
    expect(night.totalPence).toBe(1200);
    expect(rule(night, 'night_rate')?.amountPence).toBe(90);
    expect(night.tariff.provisional).toBe(true);
    expect(price('2026-06-17T05:59:00Z').totalPence).toBe(1200); // Wed 06:59 BST
    expect(price('2026-06-17T06:00:00Z').totalPence).toBe(1110); // Wed 07:00 BST
  });

  it('all day Sunday and on bank holidays', () => {
    const sunday = price('2026-06-21T11:00:00Z'); // Sun noon
    expect(sunday.totalPence).toBe(1200);
    expect(rule(sunday, 'sunday_rate')?.amountPence).toBe(90);
    const holiday = price('2026-05-25T11:00:00Z'); // Spring bank holiday (Monday) noon
    expect(holiday.totalPence).toBe(1200);
    expect(rule(holiday, 'bank_holiday')?.amountPence).toBe(90);
  });

  it('distance only: slow traffic costs no more', () => {
    // 1 km in 30 minutes: (1,000 - 97) / 88 = 10.26 -> 11 units; £2.00 + £1.10 = £3.10
    expect(price('2026-06-16T09:00:00Z', 1000, 1800).totalPence).toBe(310);
  });
});
