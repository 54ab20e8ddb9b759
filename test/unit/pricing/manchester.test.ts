import { describe, expect, it } from 'vitest';
import { priceJourney } from '../../../src/pricing/index.js';
import { DIDSBURY, MANCHESTER_AIRPORT, MANCHESTER_CENTRE, MILE, codes, request, route, rule } from './fixtures.js';

// Manchester City Council, in force from 15 Sep 2023 (data/tariffs/manchester.json):
//   Tariff 1 day   06:00-22:00  £3.40 for the first 348.44 m, then 20p per 123 m  or 31.57 s
//   Tariff 2 night 22:00-06:00  £3.80 for the first 210.67 m, then 20p per 92.5 m or 23.84 s
//   Tariff 3 public holidays = Tariff 2 all day; Tariff 4 Christmas/New Year = Tariff 2 + 50 %
// No initial time is published, so time units count from 0 s.

const FIVE_MILES = 5 * MILE; // 8046.72 m
const AT_30_MPH = 600; // 8046.72 m in 600 s = 13.4 m/s, far above the 8.7 mph changeover: distance governs
const WEDNESDAY_10AM_BST = new Date('2026-06-17T09:00:00Z');

describe('Manchester', () => {
  it('day, 5 miles: distance governs', () => {
    const result = priceJourney(
      request({
        pickup: MANCHESTER_CENTRE,
        dropoff: DIDSBURY,
        route: route(FIVE_MILES, AT_30_MPH),
        departAt: WEDNESDAY_10AM_BST,
      }),
    );
    // (8046.72 - 348.44) / 123 = 7698.28 / 123 = 62.59 -> 63 units; time 600 / 31.57 = 19.01 -> 20 units
    // max(63, 20) = 63 x 20p = £12.60; £3.40 + £12.60 = £16.00
    expect(result.totalPence).toBe(1600);
    expect(result.meterPence).toBe(1600);
    expect(codes(result)).toEqual(['tariff_period']);
    expect(result.tariff).toMatchObject({
      areaId: 'manchester',
      effectiveFrom: '2023-09-15',
      status: 'in_force',
      provisional: false,
      period: 'Tariff 1 (day)',
    });
    expect(rule(result, 'tariff_period')?.description).toContain('Wed 10:00 BST');
    expect(result.localDepartAt).toBe('2026-06-17T10:00:00+01:00');
  });

  it('day, 2 miles in 30 minutes: time governs', () => {
    const result = priceJourney(
      request({ pickup: MANCHESTER_CENTRE, route: route(2 * MILE, 1800), departAt: WEDNESDAY_10AM_BST }),
    );
    // 3218.688 m in 1800 s = 4 mph, below the 8.7 mph changeover
    // distance (3218.688 - 348.44) / 123 = 23.34 -> 24; time 1800 / 31.57 = 57.02 -> 58
    // max(24, 58) = 58 x 20p = £11.60; £3.40 + £11.60 = £15.00
    expect(result.totalPence).toBe(1500);
    expect(rule(result, 'tariff_period')?.description).toContain('(time)');
  });

  // The council's own examples (no waiting) next to this model's results at 30 mph:
  //   day   1 mi: (1609.344 - 348.44) / 123 = 10.25 -> 11 -> 3.40 + 2.20 = £5.60   (council £5.80)
  //   day   5 mi: 62.59 -> 63                     -> 3.40 + 12.60 = £16.00        (council £16.20)
  //   day  10 mi: (16093.44 - 348.44) / 123 = 128.008 -> 129 -> 3.40 + 25.80 = £29.20 (council £29.20)
  //   night 1 mi: (1609.344 - 210.67) / 92.5 = 15.12 -> 16 -> 3.80 + 3.20 = £7.00   (council £6.80)
  //   night 5 mi: (8046.72 - 210.67) / 92.5 = 84.71 -> 85 -> 3.80 + 17.00 = £20.80  (council £20.80)
  //   night 10 mi: (16093.44 - 210.67) / 92.5 = 171.71 -> 172 -> 3.80 + 34.40 = £38.20 (council £38.00)
  // Every difference is one 20p unit, and they go both ways (+20p day 1 and 5 mi, -20p night 1 and
  // 10 mi), so no rule of thumb (an extra unit at the start, rounding to nearest, yards instead of
  // metres) reproduces them all; the 10-mile day fare sits only 0.008 of a unit past a boundary and
  // matches exactly. The examples look like rounded illustrations; the ceil model follows the
  // table's own wording ("or part thereof").
  const examples = [
    { miles: 1, departAt: WEDNESDAY_10AM_BST, model: 560, council: 580 },
    { miles: 5, departAt: WEDNESDAY_10AM_BST, model: 1600, council: 1620 },
    { miles: 10, departAt: WEDNESDAY_10AM_BST, model: 2920, council: 2920 },
    { miles: 1, departAt: new Date('2026-06-17T22:30:00Z'), model: 700, council: 680 },
    { miles: 5, departAt: new Date('2026-06-17T22:30:00Z'), model: 2080, council: 2080 },
    { miles: 10, departAt: new Date('2026-06-17T22:30:00Z'), model: 3820, council: 3800 },
  ];
  it.each(examples)(
    'council example: $miles mi -> model $model p, council $council p',
    ({ miles, departAt, model, council }) => {
      const distance = miles * MILE;
      const result = priceJourney(
        request({ pickup: MANCHESTER_CENTRE, route: route(distance, distance / 13.4112), departAt }),
      );
      expect(result.totalPence).toBe(model);
      expect(Math.abs(result.totalPence - council)).toBeLessThanOrEqual(20);
    },
  );

  it('night by LOCAL time: 21:30 UTC in July is 22:30 BST', () => {
    const result = priceJourney(
      request({
        pickup: MANCHESTER_CENTRE,
        route: route(FIVE_MILES, AT_30_MPH),
        departAt: new Date('2026-07-15T21:30:00Z'),
      }),
    );
    // night: (8046.72 - 210.67) / 92.5 = 84.71 -> 85; time 600 / 23.84 = 25.17 -> 26; 85 x 20p = £17.00 + £3.80 = £20.80
    // day baseline £16.00 (above), so the night cost £4.80
    expect(result.totalPence).toBe(2080);
    expect(result.meterPence).toBe(1600);
    expect(rule(result, 'night_rate')?.amountPence).toBe(480);
    expect(result.tariff.period).toBe('Tariff 2 (night)');
    expect(rule(result, 'tariff_period')?.description).toContain('Wed 22:30 BST');
    // An hour earlier (21:30 BST) is still day.
    const earlier = priceJourney(
      request({
        pickup: MANCHESTER_CENTRE,
        route: route(FIVE_MILES, AT_30_MPH),
        departAt: new Date('2026-07-15T20:30:00Z'),
      }),
    );
    expect(earlier.totalPence).toBe(1600);
  });

  it('BST boundaries (29 Mar 2026 01:00 UTC; 25 Oct 2026 01:00 UTC)', () => {
    const price = (iso: string) =>
      priceJourney(
        request({ pickup: MANCHESTER_CENTRE, route: route(FIVE_MILES, AT_30_MPH), departAt: new Date(iso) }),
      );
    // Sat 28 Mar 21:30 GMT: day (£16.00)
    expect(price('2026-03-28T21:30:00Z')).toMatchObject({
      totalPence: 1600,
      localDepartAt: '2026-03-28T21:30:00+00:00',
    });
    // Sun 29 Mar 00:30 GMT, just before the clocks go forward: night (£20.80)
    expect(price('2026-03-29T00:30:00Z')).toMatchObject({
      totalPence: 2080,
      localDepartAt: '2026-03-29T00:30:00+00:00',
    });
    // 05:30 UTC after the change is 06:30 BST: day (UTC would wrongly say 05:30, night)
    expect(price('2026-03-29T05:30:00Z')).toMatchObject({
      totalPence: 1600,
      localDepartAt: '2026-03-29T06:30:00+01:00',
    });
    // 25 Oct 05:30 UTC after the clocks go back is 05:30 GMT: night (BST would wrongly say 06:30, day)
    expect(price('2026-10-25T05:30:00Z')).toMatchObject({
      totalPence: 2080,
      localDepartAt: '2026-10-25T05:30:00+00:00',
    });
  });

  it('Spring bank holiday (Mon 25 May 2026): night rate all day', () => {
    const result = priceJourney(
      request({
        pickup: MANCHESTER_CENTRE,
        route: route(FIVE_MILES, AT_30_MPH),
        departAt: new Date('2026-05-25T11:00:00Z'),
      }),
    );
    // 12:00 BST on a bank holiday -> Tariff 3 = Tariff 2 rates: £20.80, i.e. £4.80 over the day rate
    expect(result.totalPence).toBe(2080);
    expect(rule(result, 'bank_holiday')).toMatchObject({ amountPence: 480 });
    expect(rule(result, 'bank_holiday')?.description).toContain('Spring bank holiday');
    expect(result.tariff.period).toContain('Tariff 3');
  });

  it('Christmas Day 2026: Tariff 4 = night rate + 50 %', () => {
    const result = priceJourney(
      request({
        pickup: MANCHESTER_CENTRE,
        route: route(FIVE_MILES, AT_30_MPH),
        departAt: new Date('2026-12-25T12:00:00Z'),
      }),
    );
    // night meter £20.80 x 1.5 = £31.20; over the £16.00 day rate: £15.20
    expect(result.totalPence).toBe(3120);
    expect(result.meterPence).toBe(1600);
    expect(rule(result, 'christmas_new_year')?.amountPence).toBe(1520);
  });

  it('extra passengers and Manchester Airport drop-off / pick-up', () => {
    const toAirport = priceJourney(
      request({
        pickup: MANCHESTER_CENTRE,
        dropoff: MANCHESTER_AIRPORT,
        passengers: 3,
        route: route(FIVE_MILES, AT_30_MPH),
        departAt: WEDNESDAY_10AM_BST,
      }),
    );
    // £16.00 meter + 2 passengers beyond the hirer x 20p = 40p + terminal drop-off £3.00 = £19.40
    expect(rule(toAirport, 'extra_passengers')?.amountPence).toBe(40);
    expect(rule(toAirport, 'airport_dropoff')?.amountPence).toBe(300);
    expect(toAirport.totalPence).toBe(1940);

    const fromAirport = priceJourney(
      request({
        pickup: MANCHESTER_AIRPORT,
        dropoff: DIDSBURY,
        route: route(FIVE_MILES, AT_30_MPH),
        departAt: WEDNESDAY_10AM_BST,
      }),
    );
    // £16.00 + terminal pick-up £1.80 = £17.80; one passenger, no passenger extra
    expect(fromAirport.totalPence).toBe(1780);
    expect(codes(fromAirport)).toEqual(['tariff_period', 'airport_pickup']);
  });
});
