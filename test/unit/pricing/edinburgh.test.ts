import { describe, expect, it } from 'vitest';
import { loadPricingData, priceJourney, readMeter } from '../../../src/pricing/index.js';
import { EDINBURGH_AIRPORT, EDINBURGH_CENTRE, codes, request, route, rule } from './fixtures.js';

// City of Edinburgh (data/tariffs/edinburgh.json), PROVISIONAL: the council's table was not
// retrieved. Each tariff is fitted to the council's published 2-mile maximum (2023 review, in
// effect 9 Jun 2023): a flag covering 528 yd (0.3 mile = 482.8032 m), then 25p per 176 yd
// (0.1 mile = 160.9344 m) or 37 s, no initial time. 2 miles = 3,520 yd = 528 + 17 x 176, so
// flag = maximum - 17 x 25p: T1 £4.15, T2 £5.35, T3 £6.38, T4 £9.25. The table from 9 Dec 2024
// was not found; the fit is carried forward, with the £6.00 Airport Extra.

const TWO_MILES = 3218.688;
const TEN_MIN = 600; // 600 / 37 = 16.2 -> 17 time units, no more than the 17 distance units: distance governs

const price = (departAt: string, extra: Partial<Parameters<typeof request>[0]> = {}) =>
  priceJourney(request({ pickup: EDINBURGH_CENTRE, route: route(5000, 600), departAt: new Date(departAt), ...extra }));
const twoMiles = (departAt: string) => price(departAt, { route: route(TWO_MILES, TEN_MIN) });

describe('Edinburgh', () => {
  describe("the council's published 2-mile maximum fares (2023 review)", () => {
    // (3218.688 - 482.8032) / 160.9344 = 2735.8848 / 160.9344 = 17 exactly -> 17; time 600 / 37 = 16.22 -> 17
    it('Tariff 1 (Mon-Fri 06:00-18:00): £7.00 -> £8.40', () => {
      // Wed 14 Jun 2023 11:00 BST: £4.15 + 17 x 25p (£4.25) = £8.40
      const result = twoMiles('2023-06-14T10:00:00Z');
      expect(result).toMatchObject({ totalPence: 840, tariff: { effectiveFrom: '2023-06-09', provisional: true } });
      // The same on the table carried forward from 9 Dec 2024
      expect(twoMiles('2026-06-17T10:00:00Z')).toMatchObject({
        totalPence: 840,
        tariff: { effectiveFrom: '2024-12-09' },
      });
    });

    it('Tariff 2 (18:00-06:00): £8.00 -> £9.60', () => {
      // Wed 14 Jun 2023 20:00 BST: £5.35 + £4.25 = £9.60
      const result = twoMiles('2023-06-14T19:00:00Z');
      expect(result.totalPence).toBe(960);
      expect(rule(result, 'night_rate')?.amountPence).toBe(120); // £9.60 - £8.40
    });

    it("Tariff 4 (Christmas Day, New Year's Day): £11.75 -> £13.50", () => {
      // Mon 25 Dec 2023 12:00 GMT: £9.25 + £4.25 = £13.50
      expect(twoMiles('2023-12-25T12:00:00Z').totalPence).toBe(1350);
      // Mon 1 Jan 2024 03:00 GMT: Tariff 4 all day, before the night tariff
      expect(twoMiles('2024-01-01T03:00:00Z').totalPence).toBe(1350);
    });

    it('Tariff 3 (festive daytime): £9.25 -> £10.63, in the file though its dates are not known', () => {
      // £6.38 + £4.25 = £10.63 on the meter of the Tariff 3 rate itself
      const v = loadPricingData().tariffs.versionFor('edinburgh', '2023-06-14')!;
      expect(readMeter(v.rates.tariff3!, { distanceMeters: TWO_MILES, durationSeconds: TEN_MIN }).pence).toBe(1063);
    });
  });

  it('5 km in 10 minutes, Tariff 1', () => {
    // (5000 - 482.8032) / 160.9344 = 4517.1968 / 160.9344 = 28.07 -> 29; time 600 / 37 = 16.22 -> 17
    // 29 x 25p = £7.25; £4.15 + £7.25 = £11.40
    const result = price('2026-06-17T11:00:00Z');
    expect(result.totalPence).toBe(1140);
    expect(result.tariff).toMatchObject({ areaId: 'edinburgh', status: 'provisional', provisional: true });
  });

  it('passengers beyond three and the Edinburgh Airport drop-off extra (£6.00 from 9 Dec 2024)', () => {
    // £11.40 + (5 - 3) x 40p = 80p + Airport Extra £6.00 = £18.20
    const result = price('2026-06-17T11:00:00Z', { dropoff: EDINBURGH_AIRPORT, passengers: 5 });
    expect(rule(result, 'extra_passengers')?.amountPence).toBe(80);
    expect(rule(result, 'airport_dropoff')?.amountPence).toBe(600);
    expect(result.totalPence).toBe(1820);
    // 2023 table: the Dec 2021 drop-off figure, £4.00
    expect(rule(price('2023-06-14T10:00:00Z', { dropoff: EDINBURGH_AIRPORT }), 'airport_dropoff')?.amountPence).toBe(
      400,
    );
    // three passengers: nothing extra
    expect(codes(price('2026-06-17T11:00:00Z', { passengers: 3 }))).toEqual(['tariff_period']);
  });

  it("St Andrew's Day is recognised as a Scottish holiday; no holiday figures are known, so no uplift", () => {
    const result = price('2026-11-30T12:00:00Z');
    expect(result.totalPence).toBe(1140);
    expect(rule(result, 'tariff_period')?.description).toMatch(/St Andrew/);
  });
});
