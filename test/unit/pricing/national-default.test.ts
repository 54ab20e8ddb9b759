import { describe, expect, it } from 'vitest';
import { priceJourney } from '../../../src/pricing/index.js';
import { BRADFORD, HARROGATE, INVERNESS, ST_HELIER, codes, request, route, rule } from './fixtures.js';

// national-default (data/tariffs/national-default.json): the SERVICE's default, not a council's.
//   day   06:00-22:00: £3.20 for 254 m or 64 s, then 20p per 127 m or 32 s
//   night 22:00-06:00 and bank holidays: £4.00 for 190 m or 48 s, then 20p per 95 m or 24 s
//   minimum fare £4.20; Christmas/New Year £4.00 per hire; bank holidays follow the pickup's nation.

const price = (pickup: typeof HARROGATE, departAt: string, distance = 5000, seconds = 600) =>
  priceJourney(request({ pickup, dropoff: BRADFORD, route: route(distance, seconds), departAt: new Date(departAt) }));

describe('national default', () => {
  it('day, 5 km', () => {
    // (5000 - 254) / 127 = 37.37 -> 38; time (600 - 64) / 32 = 16.75 -> 17 -> £3.20 + 38 x 20p = £10.80
    const result = price(HARROGATE, '2026-06-17T09:00:00Z');
    expect(result.totalPence).toBe(1080);
    expect(result.tariff).toMatchObject({ areaId: 'national-default', status: 'service_default', provisional: true });
    expect(result.tariff.authority).toMatch(/not a council/);
  });

  it('minimum fare', () => {
    // 300 m in 60 s: (300 - 254) / 127 = 0.36 -> 1 unit; £3.20 + 20p = £3.40, raised to the £4.20 minimum
    const result = price(HARROGATE, '2026-06-17T09:00:00Z', 300, 60);
    expect(result.meterPence).toBe(420);
    expect(result.totalPence).toBe(420);
    expect(rule(result, 'tariff_period')?.description).toContain('minimum fare');
  });

  it("bank holidays follow the pickup's nation: St Andrew's Day is a holiday in Inverness, not in Harrogate", () => {
    // Night rate: (5000 - 190) / 95 = 50.63 -> 51; time (600 - 48) / 24 = 23 -> £4.00 + 51 x 20p = £14.20
    // Over the £10.80 day fare: £3.40
    const inverness = price(INVERNESS, '2026-11-30T12:00:00Z');
    expect(inverness.totalPence).toBe(1420);
    expect(rule(inverness, 'bank_holiday')?.amountPence).toBe(340);
    const harrogate = price(HARROGATE, '2026-11-30T12:00:00Z');
    expect(harrogate.totalPence).toBe(1080);
    expect(codes(harrogate)).toEqual(['national_default', 'tariff_period']);
    // and the other way round: Easter Monday is a holiday in England, not in Scotland
    expect(price(HARROGATE, '2026-04-06T11:00:00Z').totalPence).toBe(1420);
    expect(price(INVERNESS, '2026-04-06T11:00:00Z').totalPence).toBe(1080);
  });

  it('Christmas Eve 20:30: day rate plus the £4 Christmas extra', () => {
    // £10.80 + £4.00 = £14.80
    const result = price(HARROGATE, '2026-12-24T20:30:00Z');
    expect(rule(result, 'christmas_new_year')?.amountPence).toBe(400);
    expect(result.totalPence).toBe(1480);
  });

  it('says plainly that the national default applies and why', () => {
    // No council table is held for Harrogate, so the quote carries a zero-value national_default rule first.
    const result = price(HARROGATE, '2026-06-17T09:00:00Z');
    expect(codes(result)).toEqual(['national_default', 'tariff_period']);
    const line = rule(result, 'national_default')!;
    expect(line.amountPence).toBe(0);
    expect(line.description).toContain('National default fare');
    expect(line.description).toContain('(Harrogate)');
    expect(line.description).toContain('outside every licensing area whose council fare table this service holds');
    expect(line.description).toContain('medians of the council tables it holds');
    expect(line.description).toContain("not Harrogate's own table");
    expect(result.totalPence).toBe(1080); // the rule adds nothing
  });

  it('names the place even without a council, and is not added to council-priced or worldwide quotes', () => {
    const noCouncil = priceJourney(
      request({
        pickup: { ...HARROGATE, council: null, town: 'Knaresborough' },
        dropoff: BRADFORD,
        route: route(5000, 600),
        departAt: new Date('2026-06-17T09:00:00Z'),
      }),
    );
    expect(rule(noCouncil, 'national_default')?.description).toContain('(Knaresborough)');
    expect(rule(noCouncil, 'national_default')?.description).toContain("not the local council's own table");
    const worldwide = priceJourney(
      request({
        pickup: ST_HELIER,
        dropoff: ST_HELIER,
        route: route(5000, 600),
        departAt: new Date('2026-06-17T09:00:00Z'),
        worldwide: true,
      }),
    );
    expect(worldwide.tariff.areaId).toBe('national-default');
    expect(codes(worldwide)).not.toContain('national_default');
    expect(codes(worldwide)).toContain('worldwide');
  });
});
