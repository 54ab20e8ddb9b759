import { describe, expect, it } from 'vitest';
import { priceJourney } from '../../../src/pricing/index.js';
import { BIRMINGHAM_CENTRE, MILE, request, route } from './fixtures.js';

// Birmingham City Council (data/tariffs/birmingham.json), PROVISIONAL: the reported figures are
// "initial charge £3.20, first mile £5.40, £1.92 per mile thereafter". Derived meter:
//   £3.20, then 20p per 146.31 m or 40.4 s up to 1 mile (1,609.344 m); after it 20p per 167.6 m or 40.4 s.

const price = (distance: number, seconds: number) =>
  priceJourney(
    request({ pickup: BIRMINGHAM_CENTRE, route: route(distance, seconds), departAt: new Date('2026-06-17T09:00:00Z') }),
  );

describe('Birmingham', () => {
  it('one mile reproduces the reported £5.40', () => {
    // 1609.344 / 146.31 = 10.9996 -> 11; time 180 / 40.4 = 4.46 -> 5 -> £3.20 + 11 x 20p = £5.40
    const result = price(MILE, 180);
    expect(result.totalPence).toBe(540);
    expect(result.tariff).toMatchObject({ areaId: 'birmingham', provisional: true });
  });

  it('three miles: first mile, then the per-mile rate', () => {
    // 4828.032 m in 540 s (20 mph); time before the switch 540 x 1609.344 / 4828.032 = 180 s, after 360 s
    // first mile: 11 units (as above) = £2.20; after: 3218.688 / 167.6 = 19.20 -> 20; time 360 / 40.4 = 8.91 -> 9 -> £4.00
    // £3.20 + £2.20 + £4.00 = £9.40 (reported £5.40 + 2 x £1.92 = £9.24; partial units add up to 20p)
    expect(price(3 * MILE, 540).totalPence).toBe(940);
  });
});
