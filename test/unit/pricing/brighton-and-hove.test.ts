import { describe, expect, it } from 'vitest';
import { priceJourney } from '../../../src/pricing/index.js';
import { BRIGHTON, HOVE, codes, place, request, route, rule } from './fixtures.js';

// Brighton & Hove City Council (data/tariffs/brighton-and-hove.json), in yards:
//   all tariffs: initial 293 yd (267.9192 m) or 76 s; then per 138.1 yd (126.27864 m) or 36 s
//   T1 normal £3.00 + 20p; T2 late night / Sunday / bank holiday £4.00 + 20p; T3 Christmas £4.50 + 30p;
//   T4 New Year £6.00 + 40p (40p assumed: cut off in the notice). 5+ passengers: 1.5 x (provisional).

const price = (departAt: string, extra: Partial<Parameters<typeof request>[0]> = {}) =>
  priceJourney(
    request({ pickup: BRIGHTON, dropoff: HOVE, route: route(4000, 480), departAt: new Date(departAt), ...extra }),
  );

// 4 km in 480 s: (4000 - 267.9192) / 126.27864 = 3732.0808 / 126.27864 = 29.55 -> 30 units; time (480 - 76) / 36 = 11.22 -> 12
// T1 £3.00 + 30 x 20p = £9.00; T2 £4.00 + £6.00 = £10.00; T4 £6.00 + 30 x 40p = £18.00

describe('Brighton & Hove', () => {
  it('normal tariff, 4 km', () => {
    const result = price('2026-06-17T09:00:00Z');
    expect(result.totalPence).toBe(900);
    expect(result.tariff).toMatchObject({ areaId: 'brighton-and-hove', provisional: false });
  });

  it('Sunday daytime is Tariff 2', () => {
    const result = price('2026-06-21T11:00:00Z'); // Sun 12:00 BST
    expect(result.totalPence).toBe(1000);
    expect(rule(result, 'sunday_rate')?.amountPence).toBe(100);
  });

  it('late night from 21:00 local is Tariff 2', () => {
    const result = price('2026-06-17T20:30:00Z'); // Wed 21:30 BST
    expect(rule(result, 'night_rate')?.amountPence).toBe(100);
    expect(price('2026-06-17T19:30:00Z').totalPence).toBe(900); // 20:30 BST
  });

  it('five passengers: tariffs 5-8 = 1.5 x (provisional)', () => {
    // £9.00 x 50 % = £4.50 -> £13.50
    const result = price('2026-06-17T09:00:00Z', { passengers: 5, vehicleType: '5seater' });
    expect(rule(result, 'large_group')?.amountPence).toBe(450);
    expect(codes(result)).toEqual(['tariff_period', 'large_group']);
    expect(result.totalPence).toBe(1350);
    expect(result.tariff.provisional).toBe(true);
  });

  it("New Year's Eve 23:00: Tariff 4 (increment assumed, so provisional)", () => {
    const result = price('2026-12-31T23:00:00Z');
    expect(result.totalPence).toBe(1800);
    expect(rule(result, 'christmas_new_year')?.amountPence).toBe(900);
    expect(result.tariff.provisional).toBe(true);
  });

  it('"Brighton & Hove" and OS\'s "The City of Brighton and Hove" are the same licensing area', () => {
    const everyday = place('BN2 1TW', 'Brighton & Hove', 'South East', 'England');
    expect(
      priceJourney(request({ pickup: everyday, route: route(4000, 480), departAt: new Date('2026-06-17T09:00:00Z') }))
        .tariff.areaId,
    ).toBe('brighton-and-hove');
  });
});
