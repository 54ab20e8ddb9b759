import { describe, expect, it } from 'vitest';
import { priceJourney } from '../../../src/pricing/index.js';
import { AT_20_MPH, FIVE_MILES, MILE, SHEFFIELD_CENTRE, codes, request, route, rule } from './fixtures.js';

// Sheffield City Council (data/tariffs/sheffield.json), in yards:
//   first 100 yd (91.44 m): T1 day £3.50, T2 night £3.70, T3 weekend night £4.70
//   then 20p per 176 yd (160.9344 m) up to 17,600 yd (10 miles), then 20p per 159 yd (145.3896 m); or 20p per 45 s
// T1 07:00-19:00; T2 nights starting Mon-Thu 19:00-07:00; T3 nights starting Fri, Sat, Sun.
// Mon and Fri 00:00-07:00 are ambiguous in the council's wording: T2, provisional.
// Supplements per journey: Christmas / New Year £2.50; other bank holidays £1.20 from 07:00 to 07:00 next day.
// No initial time, so time units count from 0 s.

const price = (departAt: string, distance = FIVE_MILES, seconds = AT_20_MPH) =>
  priceJourney(request({ pickup: SHEFFIELD_CENTRE, route: route(distance, seconds), departAt: new Date(departAt) }));

// 5 miles at 20 mph: (8,800 - 100) / 176 = 8,700 / 176 = 49.43 -> 50 units; time 900 / 45 = 20 -> distance governs
// T1 £3.50 + 50 x 20p = £13.50; T2 £3.70 + £10.00 = £13.70; T3 £4.70 + £10.00 = £14.70
const TUESDAY_10AM_BST = '2026-06-16T09:00:00Z';

describe('Sheffield', () => {
  it('worked example: 5 miles by day = £13.50, as published', () => {
    const result = price(TUESDAY_10AM_BST);
    expect(result.totalPence).toBe(1350);
    expect(codes(result)).toEqual(['tariff_period']);
    expect(result.tariff).toMatchObject({
      areaId: 'sheffield',
      status: 'in_force',
      provisional: false,
      period: 'Tariff 1 (day 07:00-19:00)',
    });
  });

  it('worked example variants: Tariff 2 £13.70 (Wednesday 20:00), Tariff 3 £14.70 (Saturday 20:00)', () => {
    const wednesday = price('2026-06-17T19:00:00Z'); // Wed 20:00 BST
    expect(wednesday.totalPence).toBe(1370);
    expect(rule(wednesday, 'night_rate')?.amountPence).toBe(20);
    const saturday = price('2026-06-20T19:00:00Z'); // Sat 20:00 BST
    expect(saturday.totalPence).toBe(1470);
    expect(rule(saturday, 'weekend_rate')?.amountPence).toBe(120);
    expect(saturday.tariff.provisional).toBe(false);
    // 02:00 on Saturday belongs to Friday night: Tariff 3 under either reading of the table
    expect(price('2026-06-20T01:00:00Z').totalPence).toBe(1470);
    // 18:59 BST on a Wednesday is still day
    expect(price('2026-06-17T17:59:00Z').totalPence).toBe(1350);
  });

  it('Monday and Friday 00:00-07:00: the lower Tariff 2, marked provisional because the wording is ambiguous', () => {
    const monday = price('2026-06-22T02:00:00Z'); // Mon 03:00 BST, the end of Sunday night
    expect(monday.totalPence).toBe(1370);
    expect(monday.tariff.provisional).toBe(true);
    const friday = price('2026-06-19T02:00:00Z'); // Fri 03:00 BST, the end of Thursday night
    expect(friday.totalPence).toBe(1370);
    expect(friday.tariff.provisional).toBe(true);
  });

  it('beyond 10 miles the units shorten to 159 yd', () => {
    // 12 miles (21,120 yd) in 2,160 s (20 mph); switch at 17,600 yd = 16,093.44 m
    // to the switch: (17,600 - 100) / 176 = 99.43 -> 100 units; time 2,160 x 10/12 = 1,800 s / 45 = 40
    // beyond: (21,120 - 17,600) / 159 = 3,520 / 159 = 22.14 -> 23 units; time 360 / 45 = 8
    // £3.50 + 100 x 20p + 23 x 20p = £3.50 + £20.00 + £4.60 = £28.10
    expect(price(TUESDAY_10AM_BST, 12 * MILE, 2160).totalPence).toBe(2810);
  });

  it('bank holiday supplement £1.20 runs from 07:00 on the holiday to 07:00 the next day', () => {
    // Spring bank holiday, Mon 25 May 2026, 12:00 BST: £13.50 + £1.20 = £14.70
    const noon = price('2026-05-25T11:00:00Z');
    expect(rule(noon, 'bank_holiday')?.amountPence).toBe(120);
    expect(rule(noon, 'bank_holiday')?.description).toContain('Spring bank holiday');
    expect(noon.totalPence).toBe(1470);
    // 06:30 BST on the holiday: the supplement has not started (Mon 00:00-07:00 is T2, £13.70)
    const early = price('2026-05-25T05:30:00Z');
    expect(codes(early)).toEqual(['tariff_period', 'night_rate']);
    expect(early.totalPence).toBe(1370);
    // Tue 26 May 03:00 BST, after midnight: still the holiday's supplement; Monday night is T2: £13.70 + £1.20 = £14.90
    const afterMidnight = price('2026-05-26T02:00:00Z');
    expect(rule(afterMidnight, 'bank_holiday')?.description).toContain('Spring bank holiday');
    expect(afterMidnight.totalPence).toBe(1490);
    // Tue 26 May 07:00 BST: over
    expect(price('2026-05-26T06:00:00Z').totalPence).toBe(1350);
  });

  it('Christmas / New Year £2.50 replaces the bank holiday supplement and adds to the running tariff', () => {
    // Christmas Eve (Thu) 20:00 GMT: Thursday night T2 £13.70 + £2.50 = £16.20
    const eve = price('2026-12-24T20:00:00Z');
    expect(codes(eve)).toEqual(['tariff_period', 'night_rate', 'christmas_new_year']);
    expect(eve.totalPence).toBe(1620);
    // Christmas Day (Fri) 12:00: T1 £13.50 + £2.50 = £16.00, no £1.20 on top
    const day = price('2026-12-25T12:00:00Z');
    expect(codes(day)).toEqual(['tariff_period', 'christmas_new_year']);
    expect(day.totalPence).toBe(1600);
    // Mon 28 Dec 2026 (Boxing Day substitute), outside the Christmas window: £13.50 + £1.20 = £14.70
    expect(price('2026-12-28T12:00:00Z').totalPence).toBe(1470);
  });
});
