import { describe, expect, it } from 'vitest';
import { priceJourney } from '../../../src/pricing/index.js';
import { AT_20_MPH, FIVE_MILES, NEWPORT_WALES, codes, request, route, rule } from './fixtures.js';

// Newport City Council (Wales), from 23 Sep 2022 (data/tariffs/newport.json), in yards:
//   T1 (06:00-23:00) £3.50 for the first 100 yd (91.44 m); T2 (23:00-06:00) £4.50; then 10p per 100 yd or 30 s
//   T3 public holidays: +£1.50 on T1 / T2; T4 Christmas (20:00 24 Dec - 06:00 27 Dec) and New Year
//   (midnight 31 Dec - 06:00 2 Jan): twice T1. £1 per passenger beyond four. No initial time.

const price = (departAt: string, extra: Partial<Parameters<typeof request>[0]> = {}) =>
  priceJourney(
    request({ pickup: NEWPORT_WALES, route: route(FIVE_MILES, AT_20_MPH), departAt: new Date(departAt), ...extra }),
  );

// 5 miles at 20 mph: (8,800 - 100) / 100 = 87 exactly -> 87 x 10p = £8.70; time 900 / 30 = 30 -> distance governs
// T1 £3.50 + £8.70 = £12.20; T2 £4.50 + £8.70 = £13.20; T4 2 x £12.20 = £24.40

describe('Newport (Wales)', () => {
  it('worked example: 5 miles on Tariff 1 = £12.20, as published', () => {
    const result = price('2026-06-16T09:00:00Z'); // Tue 10:00 BST
    expect(result.totalPence).toBe(1220);
    expect(codes(result)).toEqual(['tariff_period']);
    expect(result.tariff).toMatchObject({ areaId: 'newport', effectiveFrom: '2022-09-23', provisional: false });
    expect(result.tariff.authority).toMatch(/Newport City Council/);
  });

  it('worked example variants: Tariff 2 £13.20; bank holiday day £13.70; Tariff 4 £24.40', () => {
    const night = price('2026-06-17T22:30:00Z'); // Wed 23:30 BST
    expect(night.totalPence).toBe(1320);
    expect(rule(night, 'night_rate')?.amountPence).toBe(100);
    const holiday = price('2026-05-25T11:00:00Z'); // Spring bank holiday noon
    expect(codes(holiday)).toEqual(['tariff_period', 'bank_holiday']);
    expect(holiday.totalPence).toBe(1370);
    const christmas = price('2026-12-25T12:00:00Z');
    expect(christmas.totalPence).toBe(2440);
    // the £1.50 is an extra on Tariffs 1 and 2 only, so Christmas Day (a bank holiday) does not get it
    expect(codes(christmas)).toEqual(['tariff_period', 'christmas_new_year']);
  });

  it('bank holiday night: Tariff 2 plus £1.50', () => {
    // Spring bank holiday 23:30 BST: £13.20 + £1.50 = £14.70
    expect(price('2026-05-25T22:30:00Z').totalPence).toBe(1470);
  });

  it('festive windows: from 20:00 on Christmas Eve; New Year from midnight at the end of 31 December', () => {
    expect(price('2026-12-24T19:59:00Z').totalPence).toBe(1220);
    expect(price('2026-12-24T20:00:00Z').totalPence).toBe(2440);
    expect(price('2026-12-31T22:00:00Z').totalPence).toBe(1220); // New Year's Eve 22:00: Tariff 1
    expect(price('2026-12-31T23:30:00Z').totalPence).toBe(1320); // 23:30: Tariff 2
    const newYear = price('2027-01-01T00:30:00Z');
    expect(newYear.totalPence).toBe(2440);
    expect(codes(newYear)).toEqual(['tariff_period', 'christmas_new_year']);
    expect(price('2027-01-02T06:00:00Z').totalPence).toBe(1220);
  });

  it('£1 for each passenger beyond four', () => {
    expect(price('2026-06-16T09:00:00Z', { passengers: 4 }).totalPence).toBe(1220);
    const six = price('2026-06-16T09:00:00Z', { passengers: 6, vehicleType: '6seater' });
    // £12.20 + 2 x £1.00 = £14.20
    expect(rule(six, 'extra_passengers')?.amountPence).toBe(200);
    expect(six.totalPence).toBe(1420);
  });
});
