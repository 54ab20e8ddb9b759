import { describe, expect, it } from 'vitest';
import { priceJourney } from '../../../src/pricing/index.js';
import { BIRKENHEAD, request, route, rule } from './fixtures.js';

// Wirral Council (data/tariffs/wirral.json), PROVISIONAL (hours, festive windows assumed; no time rate):
//   day £3.60 for 300 yd (274.32 m), 20p per 207 yd (189.2808 m)
//   night £3.80 for 350 yd (320.04 m), 25p per 165 yd (150.876 m)
//   bank holiday £4.50 for 350 yd, 25p per 165 yd; Christmas/New Year £5.70 for 880 yd (804.672 m), 40p per 165 yd

// 5 km in a full HOUR: with no published time rate, the slow hour adds nothing.
const price = (departAt: string) =>
  priceJourney(request({ pickup: BIRKENHEAD, route: route(5000, 3600), departAt: new Date(departAt) }));

describe('Wirral', () => {
  it('day: distance only', () => {
    // (5000 - 274.32) / 189.2808 = 4725.68 / 189.2808 = 24.97 -> 25 x 20p = £5.00; £3.60 + £5.00 = £8.60
    const result = price('2026-06-17T09:00:00Z');
    expect(result.totalPence).toBe(860);
    expect(result.tariff).toMatchObject({ areaId: 'wirral', provisional: true });
  });

  it('night (22:00-06:00 assumed)', () => {
    // (5000 - 320.04) / 150.876 = 4679.96 / 150.876 = 31.02 -> 32 x 25p = £8.00; £3.80 + £8.00 = £11.80
    const result = price('2026-06-17T22:00:00Z'); // 23:00 BST
    expect(result.totalPence).toBe(1180);
    expect(rule(result, 'night_rate')?.amountPence).toBe(320);
  });

  it('bank holiday', () => {
    // 32 x 25p = £8.00; £4.50 + £8.00 = £12.50
    const result = price('2026-05-25T11:00:00Z');
    expect(result.totalPence).toBe(1250);
    expect(rule(result, 'bank_holiday')?.amountPence).toBe(390);
  });

  it('Christmas Day', () => {
    // (5000 - 804.672) / 150.876 = 4195.328 / 150.876 = 27.81 -> 28 x 40p = £11.20; £5.70 + £11.20 = £16.90
    const result = price('2026-12-25T12:00:00Z');
    expect(result.totalPence).toBe(1690);
    expect(rule(result, 'christmas_new_year')?.amountPence).toBe(830);
  });
});
