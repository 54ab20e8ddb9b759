import { describe, expect, it } from 'vitest';
import { priceJourney } from '../../../src/pricing/index.js';
import { EDINBURGH_AIRPORT, EDINBURGH_CENTRE, codes, request, route, rule } from './fixtures.js';

// City of Edinburgh (data/tariffs/edinburgh.json), PROVISIONAL: the council's 9 Dec 2024 table was
// not retrieved; a third-party summary gives £3.00 for 0.3 mile (528 yd = 482.8032 m), then 25p per
// 0.1 mile (176 yd = 160.9344 m) or 37 s. No initial time, so time units count from 0 s.

const price = (departAt: string, extra: Partial<Parameters<typeof request>[0]> = {}) =>
  priceJourney(request({ pickup: EDINBURGH_CENTRE, route: route(5000, 600), departAt: new Date(departAt), ...extra }));

describe('Edinburgh', () => {
  it('5 km in 10 minutes', () => {
    // (5000 - 482.8032) / 160.9344 = 4517.1968 / 160.9344 = 28.07 -> 29; time 600 / 37 = 16.22 -> 17
    // 29 x 25p = £7.25; £3.00 + £7.25 = £10.25
    const result = price('2026-06-17T11:00:00Z');
    expect(result.totalPence).toBe(1025);
    expect(result.tariff).toMatchObject({ areaId: 'edinburgh', status: 'provisional', provisional: true });
  });

  it('passengers beyond three and the Edinburgh Airport drop-off extra', () => {
    // £10.25 + (5 - 3) x 40p = 80p + Airport Extra £6.00 = £17.05
    const result = price('2026-06-17T11:00:00Z', { dropoff: EDINBURGH_AIRPORT, passengers: 5 });
    expect(rule(result, 'extra_passengers')?.amountPence).toBe(80);
    expect(rule(result, 'airport_dropoff')?.amountPence).toBe(600);
    expect(result.totalPence).toBe(1705);
    // three passengers: nothing extra
    expect(codes(price('2026-06-17T11:00:00Z', { passengers: 3 }))).toEqual(['tariff_period']);
  });

  it("St Andrew's Day is recognised as a Scottish holiday; no holiday figures are known, so no uplift", () => {
    const result = price('2026-11-30T12:00:00Z');
    expect(result.totalPence).toBe(1025);
    expect(rule(result, 'tariff_period')?.description).toMatch(/St Andrew/);
  });
});
