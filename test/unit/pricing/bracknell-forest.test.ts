import { describe, expect, it } from 'vitest';
import { priceJourney } from '../../../src/pricing/index.js';
import { BRACKNELL, codes, request, route, rule } from './fixtures.js';

// Bracknell Forest Council (data/tariffs/bracknell-forest.json), in yards:
//   first 700 yd (640.08 m) or 156 s: day £3.00, night/holiday £4.50, Christmas £6.00
//   each further 200 yd (182.88 m) or 45 s: day 20p, night 30p, Christmas 40p
// Day 07:00-23:00; night 23:00-07:00, bank holidays, and 18:00-24:00 on 24 and 31 Dec;
// Christmas Day to 07:00 Boxing Day. More than 4 passengers: +50 % of the meter.

const price = (departAt: string, extra: Partial<Parameters<typeof request>[0]> = {}) =>
  priceJourney(request({ pickup: BRACKNELL, route: route(6000, 600), departAt: new Date(departAt), ...extra }));

// 6 km in 600 s: (6000 - 640.08) / 182.88 = 5359.92 / 182.88 = 29.31 -> 30 units; time (600 - 156) / 45 = 9.87 -> 10
// day   £3.00 + 30 x 20p = £9.00;  night £4.50 + 30 x 30p = £13.50;  Christmas £6.00 + 30 x 40p = £18.00

describe('Bracknell Forest', () => {
  it('day, 6 km', () => {
    const result = price('2026-06-17T09:00:00Z');
    expect(result.totalPence).toBe(900);
    expect(result.tariff).toMatchObject({ areaId: 'bracknell-forest', provisional: false });
  });

  it('1 km in 10 minutes: time governs', () => {
    // distance (1000 - 640.08) / 182.88 = 1.97 -> 2; time (600 - 156) / 45 = 9.87 -> 10 -> £3.00 + 10 x 20p = £5.00
    expect(
      priceJourney(request({ pickup: BRACKNELL, route: route(1000, 600), departAt: new Date('2026-06-17T09:00:00Z') }))
        .totalPence,
    ).toBe(500);
  });

  it('night from 23:00 local', () => {
    const result = price('2026-06-17T22:30:00Z'); // 23:30 BST
    expect(result.totalPence).toBe(1350);
    expect(rule(result, 'night_rate')?.amountPence).toBe(450); // £13.50 - £9.00
    expect(price('2026-06-17T21:30:00Z').totalPence).toBe(900); // 22:30 BST: still day
  });

  it('more than 4 passengers: +50 % of the meter; the MPV itself adds nothing', () => {
    // £9.00 + 50 % = £4.50 -> £13.50; the council's large-group rule is the only uplift
    const result = price('2026-06-17T09:00:00Z', { passengers: 5, vehicleType: 'mpv' });
    expect(rule(result, 'large_group')?.amountPence).toBe(450);
    expect(codes(result)).toEqual(['tariff_period', 'large_group']);
    expect(result.totalPence).toBe(1350);
    // 4 passengers in an MPV: the council's table has no rule for it, so the day meter alone: £9.00
    const four = price('2026-06-17T09:00:00Z', { passengers: 4, vehicleType: 'mpv' });
    expect(codes(four)).toEqual(['tariff_period']);
    expect(four.totalPence).toBe(900);
  });

  it('Christmas Day: Christmas rate', () => {
    const result = price('2026-12-25T12:00:00Z');
    expect(result.totalPence).toBe(1800);
    expect(rule(result, 'christmas_new_year')?.amountPence).toBe(900);
  });

  it('Christmas Eve 19:00: the night rate, because it is Christmas Eve evening', () => {
    const result = price('2026-12-24T19:00:00Z');
    expect(result.totalPence).toBe(1350);
    expect(rule(result, 'christmas_new_year')?.amountPence).toBe(450);
  });

  it('Spring bank holiday noon: night rate', () => {
    const result = price('2026-05-25T11:00:00Z');
    expect(result.totalPence).toBe(1350);
    expect(rule(result, 'bank_holiday')?.amountPence).toBe(450);
  });
});
