import { describe, expect, it } from 'vitest';
import { loadPricingData } from '../../../src/pricing/pricing-data.js';
import { PricingError, priceJourney } from '../../../src/pricing/index.js';
import { CAMDEN, HEATHROW, LONDON_CITY_AIRPORT, WESTMINSTER, codes, request, route, rule } from './fixtures.js';

// TfL (data/tariffs/london-tfl.json). The unit rates are DERIVED, not TfL's (see each version's
// "derivation"): the 2016-18 table (kimptoc/taxi-meter TflTaxiMeter2017.java: 20p per 117.4 m /
// 25.2 s on Tariff 1, 95.5 m / 20.5 s on Tariff 2, 81.2 m / 17.5 s on Tariff 3, 86.9 m / 18.7 s
// beyond the switch) divided by each sourced rise in order, rounded UP to 0.1 m / 0.1 s:
//   T1/T2: Oct 2018 +0.6 %, Jan 2020 +1.9 %, Apr 2022 +5.5 %; T1-T3: Apr 2023 +7.61 %,
//   Apr 2024 +8.92 %, Apr 2025 +5.05 %, 25 Apr 2026 +2.88 %. (Tariff 3 was frozen until 2023.)
// The flag fall is the minimum fare and covers two units. So every London quote is provisional.
//
//   version (minimum)      Tariff 1             Tariff 2             Tariff 3             Tariff 4 (beyond the switch)
//   2022-04-30 (£3.80)     108.6 m / 23.4 s     88.4 m / 19.0 s      81.2 m / 17.5 s      86.9 m / 18.7 s
//   2023-04-30 (£3.80)     100.9 m / 21.7 s     82.1 m / 17.7 s      75.5 m / 16.3 s      86.9 m / 18.7 s
//   2024-04-20 (£3.80)      92.7 m / 19.9 s     75.4 m / 16.2 s      69.3 m / 15.0 s      = Tariff 2
//   2025-04-30 (£4.20)      88.2 m / 19.0 s     71.8 m / 15.4 s      66.0 m / 14.3 s      = Tariff 2
//   2026-04-25 (£4.40)      85.7 m / 18.4 s     69.8 m / 15.0 s      64.2 m / 13.9 s      = Tariff 2
//
// Tariff 4 starts at the end of the whole number of the running tariff's own units nearest six
// miles (9,656.1 m), e.g. 2026: T1 113 x 85.7 = 9,684.1 m; T2 138 x 69.8 = 9,632.4 m; T3 150 x 64.2 = 9,630 m.
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
    // (4828.032 - 176.4) / 88.2 = 52.74 -> 53; time (900 - 38.0) / 19.0 = 45.37 -> 46
    // 53 x 20p = £10.60; £4.20 + £10.60 = £14.80
    expect(result.totalPence).toBe(1480);
    expect(result.tariff).toMatchObject({
      areaId: 'london-tfl',
      effectiveFrom: '2025-04-30',
      provisional: true,
      period: 'Tariff 1 (weekday day)',
    });
  });

  it('each year since 2022 prices on the table then in force (3 miles, Tariff 1, a Wednesday 10:00)', () => {
    // 2022: (4828.032 - 217.2) / 108.6 = 42.46 -> 43; time (900 - 46.8) / 23.4 = 36.46 -> 37 -> £3.80 + £8.60 = £12.40
    expect(price('2022-06-01T09:00:00Z')).toMatchObject({ totalPence: 1240, tariff: { effectiveFrom: '2022-04-30' } });
    // 2023: (4828.032 - 201.8) / 100.9 = 45.85 -> 46; time (900 - 43.4) / 21.7 = 39.47 -> 40 -> £3.80 + £9.20 = £13.00
    expect(price('2023-06-07T09:00:00Z')).toMatchObject({ totalPence: 1300, tariff: { effectiveFrom: '2023-04-30' } });
    // 2024: (4828.032 - 185.4) / 92.7 = 50.08 -> 51; time (900 - 39.8) / 19.9 = 43.23 -> 44 -> £3.80 + £10.20 = £14.00
    expect(price('2024-06-05T09:00:00Z')).toMatchObject({ totalPence: 1400, tariff: { effectiveFrom: '2024-04-20' } });
    // 2025: £14.80 (above)
    expect(price('2025-06-04T09:00:00Z')).toMatchObject({ totalPence: 1480, tariff: { effectiveFrom: '2025-04-30' } });
    // 2026: (4828.032 - 171.4) / 85.7 = 54.34 -> 55; time (900 - 36.8) / 18.4 = 46.91 -> 47 -> £4.40 + £11.00 = £15.40
    expect(price('2026-06-03T09:00:00Z')).toMatchObject({ totalPence: 1540, tariff: { effectiveFrom: '2026-04-25' } });
    // Only the month of the 2023 and 2025 changes is known: earlier April days keep the lower table.
    expect(price('2025-04-29T09:00:00Z').tariff.effectiveFrom).toBe('2024-04-20');
    expect(price('2023-04-29T09:00:00Z').tariff.effectiveFrom).toBe('2022-04-30');
  });

  it('effective-date selection: 24 Apr 2026 uses the 2025 table, 25 Apr onwards the 2026 table', () => {
    // Fri 24 Apr 10:00 BST: 2025 table, as above: £14.80
    expect(price('2026-04-24T09:00:00Z')).toMatchObject({ totalPence: 1480, tariff: { effectiveFrom: '2025-04-30' } });
    // Wed 29 Apr 10:00 BST, 2026 table: £15.40 (above)
    expect(price('2026-04-29T09:00:00Z')).toMatchObject({
      totalPence: 1540,
      tariff: { effectiveFrom: '2026-04-25', status: 'recommended' },
    });
    // A version applies from the start of its local date: 00:30 BST on 25 Apr is 23:30 UTC on the 24th.
    expect(price('2026-04-24T23:30:00Z').tariff.effectiveFrom).toBe('2026-04-25');
  });

  it('a 2-mile Tariff 1 day fare (2026 table)', () => {
    // 3218.688 m in 600 s: (3218.688 - 171.4) / 85.7 = 35.56 -> 36; time (600 - 36.8) / 18.4 = 30.61 -> 31
    // £4.40 + 36 x 20p (£7.20) = £11.60 (the first derivation gave £11.00)
    const result = price('2026-06-03T09:00:00Z', { route: route(3218.688, 600) });
    expect(result.totalPence).toBe(1160);
  });

  it('Tariff 4 starts on a Tariff 1 unit boundary: 113 x 85.7 = 9,684.1 m (2026)', () => {
    // Exactly at the switch: (9684.1 - 171.4) / 85.7 = 111 -> £4.40 + £22.20 = £26.60, no Tariff 4 part
    const at = price('2026-06-03T09:00:00Z', { route: route(9684.1, 968) });
    expect(at.totalPence).toBe(2660);
    // 9,770 m in 980 s: before the switch 980 x 9684.1 / 9770 = 971.38 s: 111 units (time 50.79 -> 51);
    // beyond: (9770 - 9684.1) / 69.8 = 1.23 -> 2 Tariff 2 units; time 8.62 / 15.0 -> 1 -> £4.40 + £22.20 + £0.40 = £27.00
    const past = price('2026-06-03T09:00:00Z', { route: route(9770, 980) });
    expect(past.totalPence).toBe(2700);
    expect(rule(past, 'tariff_period')?.description).toMatch(/111 x £0\.20.*2 x £0\.20 beyond 9,684\.1 m/);
  });

  it('23:30 on a bank holiday to Heathrow: Tariff 3, then Tariff 4 beyond its switch, plus the drop-off charge', () => {
    // Mon 25 May 2026 (Spring bank holiday) 23:30 BST; 24,000 m in 2,400 s (22 mph, distance governs).
    const result = priceJourney(
      request({
        pickup: WESTMINSTER,
        dropoff: HEATHROW,
        route: route(24000, 2400),
        departAt: new Date('2026-05-25T22:30:00Z'),
      }),
    );
    // Tariff 3's switch: 150 x 64.2 = 9,630 m. Time split: before 2400 x 9630 / 24000 = 963 s, after 1437 s.
    // Tariff 3 up to 9,630 m: (9630 - 128.4) / 64.2 = 148 -> 148; time (963 - 27.8) / 13.9 = 67.28 -> 68 -> £29.60
    // Tariff 4 beyond:       (24000 - 9630) / 69.8 = 205.87 -> 206; time 1437 / 15.0 = 95.8 -> 96 -> £41.20
    // Meter: £4.40 + £29.60 + £41.20 = £75.20
    // Day baseline, Tariff 1 up to 9,684.1 m: 111 units (time (968.41 - 36.8) / 18.4 = 50.63 -> 51) -> £22.20;
    //   beyond (24000 - 9684.1) / 69.8 = 205.10 -> 206 (time 1431.59 / 15.0 -> 96) -> £41.20; £4.40 + £22.20 + £41.20 = £67.80
    // Bank holiday costs £75.20 - £67.80 = £7.40; TfL's Heathrow drop-off extra £5.20 (provisional; Heathrow's own
    // £7 is not passed through). Total £67.80 + £7.40 + £5.20 = £80.40
    expect(result.meterPence).toBe(6780);
    expect(rule(result, 'bank_holiday')?.amountPence).toBe(740);
    expect(rule(result, 'airport_dropoff')?.amountPence).toBe(520);
    expect(result.totalPence).toBe(8040);
    expect(result.tariff.period).toBe('Tariff 3 (night / public holiday)');
    expect(rule(result, 'tariff_period')?.description).toMatch(
      /Mon 23:30 BST, Spring bank holiday.*148 x £0\.20.*206 x £0\.20 beyond 9,630 m/,
    );
  });

  it('before April 2024 Tariff 4 had its own (2016-18) rate, 86.9 m per 20p', () => {
    // Wed 7 Jun 2023 10:00 BST, 24,000 m in 2,400 s, 2023 Tariff 1: switch 96 x 100.9 = 9,686.4 m
    // time split: before 2400 x 9686.4 / 24000 = 968.64 s, after 1431.36 s
    // up to the switch: (9686.4 - 201.8) / 100.9 = 94 -> 94; time (968.64 - 43.4) / 21.7 = 42.64 -> 43 -> £18.80
    // beyond: (24000 - 9686.4) / 86.9 = 164.71 -> 165; time 1431.36 / 18.7 = 76.54 -> 77 -> £33.00
    // £3.80 + £18.80 + £33.00 = £55.60
    expect(price('2023-06-07T09:00:00Z', { route: route(24000, 2400) }).totalPence).toBe(5560);
  });

  it('an ordinary night is coded night_rate', () => {
    // Tue 26 May 2026 23:30 BST, 3 miles, 2026 Tariff 3: (4828.032 - 128.4) / 64.2 = 73.20 -> 74; time (900 - 27.8) / 13.9 = 62.75 -> 63
    // 74 x 20p = £14.80 + £4.40 = £19.20; the day rate is £15.40, so night costs £3.80
    const result = price('2026-05-26T22:30:00Z');
    expect(result.totalPence).toBe(1920);
    expect(rule(result, 'night_rate')?.amountPence).toBe(380);
  });

  it('2022: Tariff 3 kept the 2016-18 rates (the night tariff was frozen)', () => {
    // Wed 1 Jun 2022 23:30 BST: (4828.032 - 162.4) / 81.2 = 57.46 -> 58; time (900 - 35.0) / 17.5 = 49.43 -> 50
    // £3.80 + 58 x 20p (£11.60) = £15.40
    expect(price('2022-06-01T22:30:00Z').totalPence).toBe(1540);
  });

  it('BST boundary: 05:30 BST Sunday is Tariff 2; 00:30 GMT the same morning is Tariff 3', () => {
    // 2025 Tariff 2: (4828.032 - 143.6) / 71.8 = 65.24 -> 66; time (900 - 30.8) / 15.4 = 56.44 -> 57 -> £4.20 + £13.20 = £17.40
    // 04:30 UTC on 29 Mar is 05:30 BST (UTC would wrongly say 04:30, Tariff 3)
    const morning = price('2026-03-29T04:30:00Z');
    expect(morning).toMatchObject({ totalPence: 1740, localDepartAt: '2026-03-29T05:30:00+01:00' });
    expect(rule(morning, 'weekend_rate')?.amountPence).toBe(260); // £17.40 - £14.80
    // 2025 Tariff 3: (4828.032 - 132.0) / 66.0 = 71.15 -> 72; time (900 - 28.6) / 14.3 = 60.94 -> 61 -> £4.20 + £14.40 = £18.60
    const night = price('2026-03-29T00:30:00Z');
    expect(night).toMatchObject({ totalPence: 1860, localDepartAt: '2026-03-29T00:30:00+00:00' });
    expect(rule(night, 'night_rate')?.amountPence).toBe(380);
    // Sat 28 Mar 21:30 GMT: weekend Tariff 2, £17.40
    expect(price('2026-03-28T21:30:00Z').totalPence).toBe(1740);
  });

  it('Christmas Eve 21:00: Tariff 2 (weekday evening) plus the £4 Christmas extra', () => {
    // Thu 24 Dec 2026 21:00 GMT, 2026 Tariff 2: (4828.032 - 139.6) / 69.8 = 67.17 -> 68; time (900 - 30.0) / 15.0 = 58 -> 58
    // 68 x 20p = £13.60 + £4.40 = £18.00; day baseline £15.40 -> evening_rate £2.60; Christmas extra £4.00
    // Total £15.40 + £2.60 + £4.00 = £22.00
    const result = price('2026-12-24T21:00:00Z');
    expect(rule(result, 'evening_rate')?.amountPence).toBe(260);
    expect(rule(result, 'christmas_new_year')?.amountPence).toBe(400);
    expect(result.totalPence).toBe(2200);
  });

  it('London City Airport drop-off extra exists only from the 2026 revision', () => {
    // 2026 Tariff 1 £15.40 + LCY £6.00 = £21.40
    expect(price('2026-04-29T09:00:00Z', { dropoff: LONDON_CITY_AIRPORT }).totalPence).toBe(2140);
    // 2025 table: no LCY extra, £14.80
    expect(price('2026-03-11T10:00:00Z', { dropoff: LONDON_CITY_AIRPORT }).totalPence).toBe(1480);
  });

  it("Heathrow drop-off: TfL's £5.20 meter extra in every version, Heathrow's own charge recorded but not added", () => {
    for (const at of ['2022-06-01T09:00:00Z', '2024-06-05T09:00:00Z', '2026-06-03T09:00:00Z']) {
      expect(rule(price(at, { dropoff: HEATHROW }), 'airport_dropoff')?.amountPence).toBe(520);
    }
    const v2026 = loadPricingData().tariffs.versionFor('london-tfl', '2026-06-03')!;
    expect(v2026.extras.find((e) => e.name.startsWith("Heathrow's own terminal drop-off"))).toMatchObject({
      type: 'not_applied',
      amountPence: 700,
    });
  });

  it("every version's units are the 2016-18 table divided by the sourced rises, rounded up to 0.1", () => {
    // [effectiveFrom, minimum, rises applied to T1/T2, rises applied to T3]
    const oct2018 = 1.006,
      jan2020 = 1.019,
      apr2022 = 1.055,
      apr2023 = 1.0761,
      apr2024 = 1.0892;
    const apr2025 = 1.0505,
      apr2026 = 1.0288;
    const versions: [string, number, number[], number[]][] = [
      ['2022-04-30', 380, [oct2018, jan2020, apr2022], []],
      ['2023-04-30', 380, [oct2018, jan2020, apr2022, apr2023], [apr2023]],
      ['2024-04-20', 380, [oct2018, jan2020, apr2022, apr2023, apr2024], [apr2023, apr2024]],
      ['2025-04-30', 420, [oct2018, jan2020, apr2022, apr2023, apr2024, apr2025], [apr2023, apr2024, apr2025]],
      [
        '2026-04-25',
        440,
        [oct2018, jan2020, apr2022, apr2023, apr2024, apr2025, apr2026],
        [apr2023, apr2024, apr2025, apr2026],
      ],
    ];
    const base = { tariff1: [117.4, 25.2], tariff2: [95.5, 20.5], tariff3: [81.2, 17.5] } as const;
    const up = (x: number) => Math.ceil(x * 10 - 1e-9) / 10;
    const book = loadPricingData().tariffs;
    for (const [from, minimum, t12, t3] of versions) {
      const v = book.versionFor('london-tfl', from)!;
      expect(v.effectiveFrom).toBe(from);
      expect(v.minimumFarePence).toBe(minimum);
      for (const id of ['tariff1', 'tariff2', 'tariff3'] as const) {
        const factor = (id === 'tariff3' ? t3 : t12).reduce((a, b) => a * b, 1);
        const rate = v.rates[id]!;
        // e.g. 2026 Tariff 1: 117.4 / (1.006 x 1.019 x 1.055 x 1.0761 x 1.0892 x 1.0505 x 1.0288) = 117.4 / 1.369973 = 85.695 -> 85.7 m
        expect([rate.unitDistance, rate.unitSeconds]).toEqual([up(base[id][0] / factor), up(base[id][1] / factor)]);
        // the flag is the minimum and covers two units
        expect(rate.flagFallPence).toBe(minimum);
        expect(rate.initialDistance).toBeCloseTo(2 * rate.unitDistance, 6);
        expect(rate.initialSeconds).toBeCloseTo(2 * rate.unitSeconds!, 6);
        // Tariff 4 starts at the end of this tariff's whole unit nearest six miles (9,656.1 m)
        const at = v.switchRate!.afterMetersByRate![id]!;
        const units = Math.round(9656.1 / rate.unitDistance);
        expect(at).toBeCloseTo(units * rate.unitDistance, 6);
        expect(Math.abs(at - 9656.1)).toBeLessThanOrEqual(rate.unitDistance / 2);
      }
      // Tariff 4's rate: the 2016-18 one (86.9 m / 18.7 s) before 20 Apr 2024, Tariff 2's from then
      const t4 = v.rates[v.switchRate!.rate]!;
      if (from < '2024-04-20') expect([t4.unitDistance, t4.unitSeconds]).toEqual([86.9, 18.7]);
      else expect(v.switchRate!.rate).toBe('tariff2');
    }
  });

  it('no extra for additional passengers in London', () => {
    expect(price('2026-03-11T10:00:00Z', { passengers: 4 }).totalPence).toBe(1480);
  });

  it('a very short hire is the minimum fare, which in London is the flag fall', () => {
    // 100 m in 30 s: nothing beyond the 171.4 m / 36.8 s the flag covers -> £4.40 = minimum £4.40
    const result = priceJourney(
      request({ pickup: WESTMINSTER, route: route(100, 30), departAt: new Date('2026-04-29T09:00:00Z') }),
    );
    expect(result.totalPence).toBe(440);
  });

  it('before the earliest London table the book has no tariff', () => {
    expect(() => price('2022-04-29T09:00:00Z')).toThrow(PricingError);
    try {
      price('2022-04-29T09:00:00Z');
    } catch (err) {
      expect((err as PricingError).code).toBe('no_tariff');
    }
  });

  it('every London quote says it is provisional', () => {
    expect(codes(price('2026-03-11T10:00:00Z'))).toEqual(['tariff_period']);
    for (const at of ['2022-06-01T09:00:00Z', '2023-06-07T09:00:00Z', '2024-06-05T09:00:00Z', '2026-06-03T09:00:00Z']) {
      expect(price(at).tariff.provisional).toBe(true);
    }
  });

  it('every version lists the facts it was derived from, with the 2023 rise and the frozen 2022 night tariff', () => {
    for (const v of loadPricingData().tariffs.area('london-tfl')!.versions) {
      const text = v.derivation!.join('\n');
      expect(text).toMatch(/kimptoc\/taxi-meter/);
      expect(text).toMatch(/nightly charge will stay frozen/);
      if (v.effectiveFrom >= '2023-04-30') expect(text).toMatch(/7\.61 per cent/);
      for (const url of v.sources)
        expect(text.includes(url) || url.includes('tfl.gov.uk/modes') || url.includes('phtm')).toBe(true);
    }
  });
});
