import { describe, expect, it } from 'vitest';
import { PricingError, priceJourney } from '../../../src/pricing/index.js';
import { CAMDEN, HEATHROW, LONDON_CITY_AIRPORT, WESTMINSTER, codes, request, route, rule } from './fixtures.js';

// TfL (data/tariffs/london-tfl.json). The unit rates are DERIVED, not TfL's (see the file's
// "derivation"), so every London quote is provisional. The figures used below, per 20p:
//
//   from 2025-04-01 (min £4.20)  flag £4.20 covers    then 20p per
//     Tariff 1                   189.8 m or 40.8 s   94.9 m or 20.4 s
//     Tariff 2                   154.4 m or 33.2 s   77.2 m or 16.6 s
//     Tariff 3                   134.6 m or 29.0 s   67.3 m or 14.5 s
//   from 2026-04-25 (min £4.40)
//     Tariff 1                   184.4 m or 39.6 s   92.2 m or 19.8 s
//     Tariff 2                   150.0 m or 32.2 s   75.0 m or 16.1 s
//     Tariff 3                   130.8 m or 28.2 s   65.4 m or 14.1 s
//   Tariff 4: beyond 9,656.1 m the Tariff 2 unit rates apply, whatever the time.
//
// Periods (local time): T1 Mon-Fri 05:00-20:00; T2 Mon-Fri 20:00-22:00 and Sat/Sun 05:00-22:00;
// T3 22:00-05:00 every night and all day on public holidays.

const THREE_MILES = 4828.032;
const FIFTEEN_MIN = 900; // 4828.032 m / 900 s = 12 mph, above the ~10.4 mph changeover: distance governs

const price = (departAt: string, extra: Partial<Parameters<typeof request>[0]> = {}) =>
  priceJourney(
    request({
      pickup: WESTMINSTER,
      dropoff: CAMDEN,
      route: route(THREE_MILES, FIFTEEN_MIN),
      departAt: new Date(departAt),
      ...extra,
    }),
  );

describe('London (TfL)', () => {
  it('Tariff 1, weekday day, 3 miles (2025 rates)', () => {
    const result = price('2026-03-11T10:00:00Z'); // Wed 10:00 GMT
    // (4828.032 - 189.8) / 94.9 = 4638.232 / 94.9 = 48.88 -> 49; time (900 - 40.8) / 20.4 = 42.12 -> 43
    // 49 x 20p = £9.80; £4.20 + £9.80 = £14.00
    expect(result.totalPence).toBe(1400);
    expect(result.tariff).toMatchObject({
      areaId: 'london-tfl',
      effectiveFrom: '2025-04-01',
      provisional: true,
      period: 'Tariff 1 (weekday day)',
    });
  });

  it('effective-date selection: 24 Apr 2026 uses the 2025 table, 25 Apr onwards the 2026 table', () => {
    // Fri 24 Apr 10:00 BST: 2025 table, as above: £14.00
    expect(price('2026-04-24T09:00:00Z')).toMatchObject({ totalPence: 1400, tariff: { effectiveFrom: '2025-04-01' } });
    // Wed 29 Apr 10:00 BST, 2026 table: (4828.032 - 184.4) / 92.2 = 50.37 -> 51; time (900 - 39.6) / 19.8 = 43.45 -> 44
    // 51 x 20p = £10.20; £4.40 + £10.20 = £14.60
    expect(price('2026-04-29T09:00:00Z')).toMatchObject({
      totalPence: 1460,
      tariff: { effectiveFrom: '2026-04-25', status: 'recommended' },
    });
    // A version applies from the start of its local date: 00:30 BST on 25 Apr is 23:30 UTC on the 24th.
    expect(price('2026-04-24T23:30:00Z').tariff.effectiveFrom).toBe('2026-04-25');
  });

  it('23:30 on a bank holiday to Heathrow: Tariff 3, then Tariff 4 beyond six miles, plus the drop-off charge', () => {
    // Mon 25 May 2026 (Spring bank holiday) 23:30 BST; 24,000 m in 2,400 s (22 mph, distance governs).
    const result = priceJourney(
      request({
        pickup: WESTMINSTER,
        dropoff: HEATHROW,
        route: route(24000, 2400),
        departAt: new Date('2026-05-25T22:30:00Z'),
      }),
    );
    // Time is split in proportion to distance: before the switch 2400 x 9656.1 / 24000 = 965.61 s, after 1434.39 s.
    // Tariff 3 up to 9,656.1 m: (9656.1 - 130.8) / 65.4 = 145.65 -> 146; time (965.61 - 28.2) / 14.1 = 66.48 -> 67 -> 146 x 20p = £29.20
    // Tariff 4 beyond:          (24000 - 9656.1) / 75.0 = 191.25 -> 192; time 1434.39 / 16.1 = 89.09 -> 90 -> 192 x 20p = £38.40
    // Meter: £4.40 + £29.20 + £38.40 = £72.00
    // Day baseline, Tariff 1 up to 9,656.1 m: (9656.1 - 184.4) / 92.2 = 102.73 -> 103; time (965.61 - 39.6) / 19.8 = 46.77 -> 47
    //   -> £4.40 + 103 x 20p (£20.60) + the same Tariff 4 part £38.40 = £63.40
    // Bank holiday costs £72.00 - £63.40 = £8.60; Heathrow drop-off £5.20 (provisional). Total £63.40 + £8.60 + £5.20 = £77.20
    expect(result.meterPence).toBe(6340);
    expect(rule(result, 'bank_holiday')?.amountPence).toBe(860);
    expect(rule(result, 'airport_dropoff')?.amountPence).toBe(520);
    expect(result.totalPence).toBe(7720);
    expect(result.tariff.period).toBe('Tariff 3 (night / public holiday)');
    expect(rule(result, 'tariff_period')?.description).toMatch(
      /Mon 23:30 BST, Spring bank holiday.*146 x £0\.20.*192 x £0\.20 beyond 9,656\.1 m/,
    );
  });

  it('an ordinary night is coded night_rate', () => {
    // Tue 26 May 2026 23:30 BST, 3 miles, 2026 Tariff 3: (4828.032 - 130.8) / 65.4 = 71.82 -> 72; time (900 - 28.2) / 14.1 = 61.83 -> 62
    // 72 x 20p = £14.40 + £4.40 = £18.80; the day rate is £14.60, so night costs £4.20
    const result = price('2026-05-26T22:30:00Z');
    expect(result.totalPence).toBe(1880);
    expect(rule(result, 'night_rate')?.amountPence).toBe(420);
  });

  it('BST boundary: 05:30 BST Sunday is Tariff 2; 00:30 GMT the same morning is Tariff 3', () => {
    // 2025 Tariff 2: (4828.032 - 154.4) / 77.2 = 60.54 -> 61; time (900 - 33.2) / 16.6 = 52.22 -> 53 -> £4.20 + £12.20 = £16.40
    // 04:30 UTC on 29 Mar is 05:30 BST (UTC would wrongly say 04:30, Tariff 3)
    const morning = price('2026-03-29T04:30:00Z');
    expect(morning).toMatchObject({ totalPence: 1640, localDepartAt: '2026-03-29T05:30:00+01:00' });
    expect(rule(morning, 'weekend_rate')?.amountPence).toBe(240); // £16.40 - £14.00
    // 2025 Tariff 3: (4828.032 - 134.6) / 67.3 = 69.74 -> 70; time (900 - 29.0) / 14.5 = 60.07 -> 61 -> £4.20 + £14.00 = £18.20
    const night = price('2026-03-29T00:30:00Z');
    expect(night).toMatchObject({ totalPence: 1820, localDepartAt: '2026-03-29T00:30:00+00:00' });
    expect(rule(night, 'night_rate')?.amountPence).toBe(420);
    // Sat 28 Mar 21:30 GMT: weekend Tariff 2, £16.40
    expect(price('2026-03-28T21:30:00Z').totalPence).toBe(1640);
  });

  it('Christmas Eve 21:00: Tariff 2 (weekday evening) plus the £4 Christmas extra', () => {
    // Thu 24 Dec 2026 21:00 GMT, 2026 Tariff 2: (4828.032 - 150.0) / 75.0 = 62.37 -> 63; time (900 - 32.2) / 16.1 = 53.9 -> 54
    // 63 x 20p = £12.60 + £4.40 = £17.00; day baseline £14.60 -> evening_rate £2.40; Christmas extra £4.00
    // Total £14.60 + £2.40 + £4.00 = £21.00
    const result = price('2026-12-24T21:00:00Z');
    expect(rule(result, 'evening_rate')?.amountPence).toBe(240);
    expect(rule(result, 'christmas_new_year')?.amountPence).toBe(400);
    expect(result.totalPence).toBe(2100);
  });

  it('London City Airport drop-off extra exists only from the 2026 revision', () => {
    // 2026 Tariff 1 £14.60 + LCY £6.00 = £20.60
    expect(price('2026-04-29T09:00:00Z', { dropoff: LONDON_CITY_AIRPORT }).totalPence).toBe(2060);
    // 2025 table: no LCY extra, £14.00
    expect(price('2026-03-11T10:00:00Z', { dropoff: LONDON_CITY_AIRPORT }).totalPence).toBe(1400);
  });

  it('no extra for additional passengers in London', () => {
    expect(price('2026-03-11T10:00:00Z', { passengers: 4 }).totalPence).toBe(1400);
  });

  it('a very short hire is the minimum fare, which in London is the flag fall', () => {
    // 100 m in 30 s: nothing beyond the 184.4 m / 39.6 s the flag covers -> £4.40 = minimum £4.40
    const result = priceJourney(
      request({ pickup: WESTMINSTER, route: route(100, 30), departAt: new Date('2026-04-29T09:00:00Z') }),
    );
    expect(result.totalPence).toBe(440);
  });

  it('before the earliest London table the book has no tariff', () => {
    expect(() => price('2023-06-01T09:00:00Z')).toThrow(PricingError);
    try {
      price('2023-06-01T09:00:00Z');
    } catch (err) {
      expect((err as PricingError).code).toBe('no_tariff');
    }
  });

  it('every London quote says it is provisional', () => {
    expect(codes(price('2026-03-11T10:00:00Z'))).toEqual(['tariff_period']);
    expect(price('2026-03-11T10:00:00Z').tariff.provisional).toBe(true);
  });
});
