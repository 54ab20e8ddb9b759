import { describe, expect, it } from 'vitest';
import { priceJourney } from '../../../src/pricing/index.js';
import { AT_20_MPH, BRADFORD, FIVE_MILES, LEEDS, MILE, codes, request, route, rule } from './fixtures.js';

// Leeds City Council (data/tariffs/leeds.json), read from a research repository's reproduction of the
// council page "as of Jan 2026" (every figure provisional), in yards:
//   Tariff 1 Mon-Fri 06:00-18:00:                            £3.60 for the first 140 yd or 36 s, 20p per 140 yd or 36 s up to £6.00, then 20p per 153 yd or 36 s
//   Tariff 2 Sat-Sun 06:00-18:00, Mon-Thu nights 18:00-06:00: £4.00 for the first 121 yd, 20p per 121 yd up to £6.80, then 20p per 153 yd
//   Tariff 3 Fri, Sat and Sun nights 18:00-06:00:            £4.00 for the first 103 yd, 20p per 103 yd up to £7.20, then 20p per 140 yd
//   Christmas/New Year 18:00 24 Dec - 06:00 27 Dec, 18:00 31 Dec - 06:00 2 Jan:
//                                                            £6.00 for the first 103 yd, 30p per 103 yd up to £10.80, then 30p per 140 yd
// The change of rate comes at a fare, so at 13 x 140 = 1,820 yd (T1), 15 x 121 = 1,815 yd (T2), 17 x 103 = 1,751 yd (T3, Christmas).
//
// 5 miles (8,800 yd) at 20 mph, distance governs throughout:
//   T1 £3.60 + 12 x 20p (to 1,820 yd) + ceil(6,980 / 153 = 45.6) = 46 x 20p = £3.60 + £2.40 + £9.20 = £15.20
//   T2 £4.00 + 14 x 20p (to 1,815 yd) + ceil(6,985 / 153 = 45.7) = 46 x 20p = £4.00 + £2.80 + £9.20 = £16.00
//   T3 £4.00 + 16 x 20p (to 1,751 yd) + ceil(7,049 / 140 = 50.4) = 51 x 20p = £4.00 + £3.20 + £10.20 = £17.40
//   Christmas £6.00 + 16 x 30p + 51 x 30p = £6.00 + £4.80 + £15.30 = £26.10

const price = (departAt: string, distance = FIVE_MILES, seconds = AT_20_MPH) =>
  priceJourney(
    request({ pickup: LEEDS, dropoff: BRADFORD, route: route(distance, seconds), departAt: new Date(departAt) }),
  );

describe('Leeds', () => {
  it('Tariff 1, weekday daytime: 5 miles = £15.20, provisional', () => {
    const result = price('2026-06-16T09:00:00Z'); // Tue 10:00 BST
    expect(result.totalPence).toBe(1520);
    expect(codes(result)).toEqual(['tariff_period']);
    expect(result.tariff).toMatchObject({ areaId: 'leeds', status: 'provisional', provisional: true });
    expect(rule(result, 'tariff_period')?.description).toContain('beyond 1,664.208 m');
  });

  it('1 mile = £6.00: the change of rate is at £6.00 (1,820 yd), just past a mile', () => {
    // (1,760 - 140) / 140 = 11.6 -> 12 units; time (180 - 36) / 36 = 4 -> £3.60 + 12 x 20p = £6.00
    expect(price('2026-06-16T09:00:00Z', MILE, 180).totalPence).toBe(600);
    // exactly at 1,820 yd the meter shows £6.00; the next yard starts a 153 yd unit: £6.20
    expect(price('2026-06-16T09:00:00Z', 1820 * 0.9144, 180).totalPence).toBe(600);
    expect(price('2026-06-16T09:00:00Z', 1821 * 0.9144, 180).totalPence).toBe(620);
  });

  it('in slow traffic time governs on both sides of the change: 2 km in 20 minutes = £10.20', () => {
    // Up to 1,664.208 m: time 1,200 x 1,664.208 / 2,000 = 998.5 s; (998.5 - 36) / 36 = 26.7 -> 27 units (distance 12)
    // Beyond: 335.792 m = 2.4 x 153 yd -> 3; time 201.5 s / 36 = 5.6 -> 6 units
    // £3.60 + (27 + 6) x 20p = £10.20
    expect(price('2026-06-16T09:00:00Z', 2000, 1200).totalPence).toBe(1020);
  });

  it('Tariff 2 on weekday evenings (Monday-Thursday) and weekend days: £16.00', () => {
    expect(price('2026-06-16T16:59:00Z').totalPence).toBe(1520); // Tue 17:59 BST
    const evening = price('2026-06-16T17:00:00Z'); // Tue 18:00 BST
    expect(evening.totalPence).toBe(1600);
    expect(rule(evening, 'evening_rate')?.amountPence).toBe(80);
    expect(price('2026-06-19T04:59:00Z').totalPence).toBe(1600); // Fri 05:59 BST: Thursday night
    expect(price('2026-06-19T05:00:00Z').totalPence).toBe(1520); // Fri 06:00 BST
    const saturday = price('2026-06-20T11:00:00Z'); // Sat 12:00 BST
    expect(saturday.totalPence).toBe(1600);
    expect(rule(saturday, 'weekend_rate')?.amountPence).toBe(80);
  });

  it('Tariff 3 on Friday, Saturday and Sunday nights: £17.40', () => {
    const friday = price('2026-06-19T17:00:00Z'); // Fri 18:00 BST
    expect(friday.totalPence).toBe(1740);
    expect(rule(friday, 'night_rate')?.amountPence).toBe(220);
    expect(price('2026-06-20T04:59:00Z').totalPence).toBe(1740); // Sat 05:59 BST
    expect(price('2026-06-20T05:00:00Z').totalPence).toBe(1600); // Sat 06:00 BST: Tariff 2
    expect(price('2026-06-22T04:59:00Z').totalPence).toBe(1740); // Mon 05:59 BST: Sunday night
    expect(price('2026-06-22T05:00:00Z').totalPence).toBe(1520); // Mon 06:00 BST
  });

  it('Christmas and New Year: £26.10', () => {
    expect(price('2026-12-24T17:59:00Z').totalPence).toBe(1520); // Thu 17:59 GMT
    const christmas = price('2026-12-24T18:00:00Z');
    expect(christmas.totalPence).toBe(2610);
    expect(rule(christmas, 'christmas_new_year')?.amountPence).toBe(1090);
    expect(price('2027-01-02T05:59:00Z').totalPence).toBe(2610);
    expect(price('2027-01-02T06:00:00Z').totalPence).toBe(1600); // Sat 2 Jan 06:00: Tariff 2
  });

  it('no bank-holiday tariff was found, so a weekday holiday is Tariff 1', () => {
    expect(price('2026-05-25T11:00:00Z').totalPence).toBe(1520); // Spring bank holiday, Mon 12:00 BST
  });

  it('Bradford is another council', () => {
    const bradford = priceJourney(
      request({
        pickup: BRADFORD,
        dropoff: LEEDS,
        route: route(FIVE_MILES, AT_20_MPH),
        departAt: new Date('2026-06-16T09:00:00Z'),
      }),
    );
    expect(bradford.tariff.areaId).toBe('bradford');
  });
});
