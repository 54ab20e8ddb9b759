import { describe, expect, it } from 'vitest';
import { priceJourney } from '../../../src/pricing/index.js';
import { AT_20_MPH, FIVE_MILES, LEYLAND, PRESTON, codes, request, route, rule } from './fixtures.js';

// South Ribble Borough Council (data/tariffs/south-ribble.json; the council page is undated), in yards:
//   Tariff 1 06:00-midnight:                  £2.70 for the first two tenths of a mile (352 yd), then 20p per tenth (176 yd)
//   Tariff 2 midnight-06:00 and bank holidays: £3.50, then 25p per tenth
//   Tariff 3 18:00 24 Dec - 06:00 27 Dec, 18:00 31 Dec - 06:00 2 Jan: £4.50, then 35p per tenth
//   20p per passenger beyond the first. Waiting (10p per 30 s) is not modelled.
//
// 5 miles: (8,800 - 352) / 176 = 8,448 / 176 = 48 units exactly.
// T1 £2.70 + 48 x 20p = £12.30; T2 £3.50 + 48 x 25p = £15.50; T3 £4.50 + 48 x 35p = £21.30

const price = (departAt: string, extra: Partial<Parameters<typeof request>[0]> = {}) =>
  priceJourney(
    request({ pickup: LEYLAND, route: route(FIVE_MILES, AT_20_MPH), departAt: new Date(departAt), ...extra }),
  );

describe('South Ribble', () => {
  it('Tariff 1: 5 miles = £12.30', () => {
    const result = price('2026-06-16T09:00:00Z'); // Tue 10:00 BST
    expect(result.totalPence).toBe(1230);
    expect(codes(result)).toEqual(['tariff_period']);
    expect(result.tariff).toMatchObject({ areaId: 'south-ribble', status: 'in_force', provisional: false });
  });

  it('Tariff 2 from midnight to 06:00: £15.50', () => {
    expect(price('2026-06-16T22:59:00Z').totalPence).toBe(1230); // 23:59 BST
    const night = price('2026-06-16T23:00:00Z'); // Wed 00:00 BST
    expect(night.totalPence).toBe(1550);
    expect(rule(night, 'night_rate')?.amountPence).toBe(320);
    expect(price('2026-06-17T05:00:00Z').totalPence).toBe(1230); // 06:00 BST
  });

  it('Tariff 2 all day on a bank holiday', () => {
    const holiday = price('2026-05-25T11:00:00Z'); // Spring bank holiday, noon
    expect(holiday.totalPence).toBe(1550);
    expect(rule(holiday, 'bank_holiday')?.amountPence).toBe(320);
  });

  it('Tariff 3 at Christmas and New Year: £21.30', () => {
    expect(price('2026-12-24T17:59:00Z').totalPence).toBe(1230);
    const christmas = price('2026-12-24T18:00:00Z');
    expect(christmas.totalPence).toBe(2130);
    expect(rule(christmas, 'christmas_new_year')?.amountPence).toBe(900);
    expect(price('2027-01-02T05:59:00Z').totalPence).toBe(2130);
    expect(price('2027-01-02T06:00:00Z').totalPence).toBe(1230);
  });

  it('20p for each passenger beyond the first', () => {
    // £12.30 + 2 x 20p = £12.70
    const three = price('2026-06-16T09:00:00Z', { passengers: 3 });
    expect(rule(three, 'extra_passengers')?.amountPence).toBe(40);
    expect(three.totalPence).toBe(1270);
  });

  it('Preston is another council', () => {
    const preston = priceJourney(
      request({ pickup: PRESTON, route: route(FIVE_MILES, AT_20_MPH), departAt: new Date('2026-06-16T09:00:00Z') }),
    );
    expect(preston.tariff.areaId).toBe('national-default');
  });
});
