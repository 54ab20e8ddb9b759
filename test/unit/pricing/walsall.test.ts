import { describe, expect, it } from 'vitest';
import { priceJourney } from '../../../src/pricing/index.js';
import { MILE, WALSALL, codes, request, route, rule } from './fixtures.js';

// Walsall Council, from 18 Dec 2023 (data/tariffs/walsall.json), in yards:
//   Tariff 1 (day and night): £3.00 for the first 335 yd or 93.1 s; 15p per 129.5 yd or 36 s up to £4.80 on the meter,
//            then 15p per 117.3 yd or 36 s. The switch is at 335 + 11 x 129.5 = 1,759.5 yd (the meter shows £4.65).
//   Tariff 2 (18:00 24 Dec - 06:00 27 Dec, 18:00 31 Dec - 06:00 2 Jan): £6.00, 30p units over the same distances.
//   £1 per person beyond five (provisional reading).
//
// At 20 mph (3 minutes a mile) distance governs: 1 mile = 180 s -> (180 - 93.1) / 36 = 2.4 -> 3 time units against 12 distance units.
// n miles (n >= 1): first part (1,759.5 - 335) / 129.5 = 11 units exactly; beyond: (1,760n - 1,759.5) / 117.3 -> ceil
//   1 mile:  0.5 / 117.3 = 0.004 -> 1;            11 + 1 = 12 units; £3.00 + 12 x 15p = £4.80
//   2 miles: 1,760.5 / 117.3 = 15.009 -> 16;      27 units -> £3.00 + £4.05 = £7.05
//   3 miles: 3,520.5 / 117.3 = 30.013 -> 31;      42 units -> £9.30
//   4 miles: 5,280.5 / 117.3 = 45.017 -> 46;      57 units -> £11.55
//   5 miles: 7,040.5 / 117.3 = 60.021 -> 61;      72 units -> £13.80
//   10 miles: 15,840.5 / 117.3 = 135.04 -> 136;   147 units -> £3.00 + £22.05 = £25.05
// Tariff 2: the same units at 30p on £6.00: 12 -> £9.60; 27 -> £14.10; 42 -> £18.60; 57 -> £23.10; 72 -> £27.60; 147 -> £50.10

const price = (departAt: string, miles: number, extra: Partial<Parameters<typeof request>[0]> = {}) =>
  priceJourney(
    request({ pickup: WALSALL, route: route(miles * MILE, miles * 180), departAt: new Date(departAt), ...extra }),
  );

const TUESDAY_10AM_BST = '2026-06-16T09:00:00Z';
const CHRISTMAS_DAY_NOON = '2026-12-25T12:00:00Z';

describe('Walsall', () => {
  it("the council's Tariff 1 price guide, reproduced exactly", () => {
    const guide: Array<[number, number]> = [
      [1, 480],
      [2, 705],
      [3, 930],
      [4, 1155],
      [5, 1380],
      [10, 2505],
    ];
    for (const [miles, pence] of guide) expect(price(TUESDAY_10AM_BST, miles).totalPence, `${miles} miles`).toBe(pence);
    const five = price(TUESDAY_10AM_BST, 5);
    expect(codes(five)).toEqual(['tariff_period']);
    expect(five.tariff).toMatchObject({
      areaId: 'walsall',
      effectiveFrom: '2023-12-18',
      status: 'in_force_reported',
      provisional: false,
    });
  });

  it('Tariff 1 applies day and night alike', () => {
    expect(price('2026-06-16T23:30:00Z', 5).totalPence).toBe(1380); // Wed 00:30 BST
  });

  it("the council's Tariff 2 (Christmas and New Year) price guide, reproduced exactly", () => {
    const guide: Array<[number, number]> = [
      [1, 960],
      [2, 1410],
      [3, 1860],
      [4, 2310],
      [5, 2760],
      [10, 5010],
    ];
    for (const [miles, pence] of guide)
      expect(price(CHRISTMAS_DAY_NOON, miles).totalPence, `${miles} miles`).toBe(pence);
    // 5 miles: £27.60 against £13.80 on Tariff 1
    expect(rule(price(CHRISTMAS_DAY_NOON, 5), 'christmas_new_year')?.amountPence).toBe(1380);
    expect(price('2026-12-24T17:59:00Z', 5).totalPence).toBe(1380);
    expect(price('2026-12-24T18:00:00Z', 5).totalPence).toBe(2760);
    expect(price('2027-01-02T06:00:00Z', 5).totalPence).toBe(1380);
  });

  it('£1 per person beyond five, a provisional reading', () => {
    const five = price(TUESDAY_10AM_BST, 5, { passengers: 5, vehicleType: 'mpv' });
    expect(five.totalPence).toBe(1380);
    expect(five.tariff.provisional).toBe(false);
    const seven = price(TUESDAY_10AM_BST, 5, { passengers: 7, vehicleType: '7seater' });
    // £13.80 + 2 x £1.00 = £15.80
    expect(rule(seven, 'extra_passengers')?.amountPence).toBe(200);
    expect(seven.totalPence).toBe(1580);
    expect(seven.tariff.provisional).toBe(true);
  });
});
