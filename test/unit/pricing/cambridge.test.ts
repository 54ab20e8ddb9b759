import { describe, expect, it } from 'vitest';
import { PricingError, priceJourney } from '../../../src/pricing/index.js';
import { AT_20_MPH, CAMBRIDGE_CENTRE, FIVE_MILES, codes, request, route, rule } from './fixtures.js';

// Cambridge City Council table from 1 Apr 2023 (data/tariffs/cambridge.json), reported by a local operator:
//   flag fall covers the first 90 m: T1 £3.65, T2 £4.85, T3 £5.95; then 20p per 143.5 m or 32 s
// T1 09:00-23:00 Mon-Sat; T2 23:00-09:00, Sundays and bank holidays; T3 19:00 24 Dec - 07:00 26 Dec,
// 19:00 31 Dec - 07:00 1 Jan. 5 or more passengers: £3.50 per hire.
// From 1 Apr 2024 the same figures are carried forward as PROVISIONAL: the council revises its table
// every April and no later table was found. No initial time, so time units count from 0 s.

const price = (departAt: string, extra: Partial<Parameters<typeof request>[0]> = {}) =>
  priceJourney(
    request({ pickup: CAMBRIDGE_CENTRE, route: route(FIVE_MILES, AT_20_MPH), departAt: new Date(departAt), ...extra }),
  );

// 5 miles at 20 mph: (8,046.72 - 90) / 143.5 = 7,956.72 / 143.5 = 55.45 -> 56 units; time 900 / 32 = 28.1 -> 29
// T1 £3.65 + 56 x 20p = £14.85; T2 £4.85 + £11.20 = £16.05; T3 £5.95 + £11.20 = £17.15

describe('Cambridge', () => {
  it('worked example: 5 miles on Tariff 1 = £14.85, as published (2023 table, not provisional)', () => {
    const result = price('2023-06-13T09:00:00Z'); // Tue 10:00 BST
    expect(result.totalPence).toBe(1485);
    expect(codes(result)).toEqual(['tariff_period']);
    expect(result.tariff).toMatchObject({
      areaId: 'cambridge',
      effectiveFrom: '2023-04-01',
      status: 'in_force_reported',
      provisional: false,
    });
  });

  it('from 1 April 2024 the same figures, marked provisional (the annual revision was not found)', () => {
    const result = price('2026-06-16T09:00:00Z'); // Tue 10:00 BST
    expect(result.totalPence).toBe(1485);
    expect(result.tariff).toMatchObject({ effectiveFrom: '2024-04-01', status: 'provisional', provisional: true });
    expect(price('2024-03-31T12:00:00Z').tariff.provisional).toBe(false);
    expect(() => price('2023-03-31T12:00:00Z')).toThrow(PricingError);
  });

  it('worked example variants: Tariff 2 (Sunday) £16.05, Tariff 3 £17.15', () => {
    const sunday = price('2026-06-21T11:00:00Z'); // Sun 12:00 BST
    expect(sunday.totalPence).toBe(1605);
    expect(rule(sunday, 'sunday_rate')?.amountPence).toBe(120);
    const christmasEve = price('2026-12-24T19:30:00Z');
    expect(christmasEve.totalPence).toBe(1715);
    expect(rule(christmasEve, 'christmas_new_year')?.amountPence).toBe(230);
    expect(price('2026-12-24T18:59:00Z').totalPence).toBe(1485); // Thu 18:59 GMT: Tariff 1
  });

  it('Tariff 2 from 23:00 to 09:00 every night, and all day on bank holidays', () => {
    expect(rule(price('2026-06-17T22:30:00Z'), 'night_rate')?.amountPence).toBe(120); // Wed 23:30 BST
    expect(price('2026-06-22T07:30:00Z').totalPence).toBe(1605); // Mon 08:30 BST, after Sunday
    expect(price('2026-06-22T08:00:00Z').totalPence).toBe(1485); // Mon 09:00 BST
    const holiday = price('2026-05-25T11:00:00Z'); // Spring bank holiday noon
    expect(holiday.totalPence).toBe(1605);
    expect(rule(holiday, 'bank_holiday')?.amountPence).toBe(120);
  });

  it('5 or more passengers: £3.50 per hire, not per head', () => {
    // £14.85 + £3.50 = £18.35, for 5 and for 8 passengers alike
    const five = price('2026-06-16T09:00:00Z', { passengers: 5, vehicleType: '6seater' });
    expect(rule(five, 'extra_passengers')?.amountPence).toBe(350);
    expect(five.totalPence).toBe(1835);
    expect(price('2026-06-16T09:00:00Z', { passengers: 8, vehicleType: 'mpv' }).totalPence).toBe(1835);
    expect(codes(price('2026-06-16T09:00:00Z', { passengers: 4 }))).toEqual(['tariff_period']);
  });
});
