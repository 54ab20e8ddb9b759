import { describe, expect, it } from 'vitest';
import { priceJourney } from '../../../src/pricing/index.js';
import { ABERDEEN, ABERDEENSHIRE_STONEHAVEN, AT_20_MPH, FIVE_MILES, codes, request, route, rule } from './fixtures.js';

// Aberdeen City Council (data/tariffs/aberdeen.json; the council page is undated), in yards:
//   day       08:00-20:00 Mon-Fri:                 £3.00 for the first 987 yd, then 20p per 146.5 yd; waiting 20p per 26.4 s
//   evening   20:00-08:00, all day Sat and Sun:    £5.00, otherwise the same
//   late      02:00-05:00 Sat and Sun:             £6.00, otherwise the same
//   festive   20:00 24 Dec - 05:00 27 Dec, 20:00 31 Dec - 05:00 3 Jan: £6.00, then 30p per 146.5 yd or 26.4 s
// No initial time, so time units count from 0 s. The £1 pre-booking surcharge is not added.
//
// 5 miles at 20 mph: (8,800 - 987) / 146.5 = 7,813 / 146.5 = 53.33 -> 54 units; time 900 / 26.4 = 34.09 -> 35 units,
// so distance governs. Day £3.00 + 54 x 20p = £13.80; evening £5.00 + £10.80 = £15.80; late £6.00 + £10.80 = £16.80;
// festive £6.00 + 54 x 30p = £6.00 + £16.20 = £22.20.

const price = (departAt: string, distance = FIVE_MILES, seconds = AT_20_MPH) =>
  priceJourney(request({ pickup: ABERDEEN, route: route(distance, seconds), departAt: new Date(departAt) }));

describe('Aberdeen City', () => {
  it('day: 5 miles = £13.80', () => {
    const result = price('2026-06-16T09:00:00Z'); // Tue 10:00 BST
    expect(result.totalPence).toBe(1380);
    expect(codes(result)).toEqual(['tariff_period']);
    expect(result.tariff).toMatchObject({ areaId: 'aberdeen', status: 'in_force', provisional: false });
    expect(result.tariff.authority).toMatch(/Aberdeen City Council/);
  });

  it('evening from 20:00 on a weekday: £15.80', () => {
    expect(price('2026-06-16T18:59:00Z').totalPence).toBe(1380); // 19:59 BST
    const evening = price('2026-06-16T19:00:00Z'); // 20:00 BST
    expect(evening.totalPence).toBe(1580);
    expect(rule(evening, 'night_rate')?.amountPence).toBe(200);
    // Monday 07:59 is still the evening scale (the day scale starts at 08:00)
    expect(price('2026-06-15T06:59:00Z').totalPence).toBe(1580);
    expect(price('2026-06-15T07:00:00Z').totalPence).toBe(1380);
  });

  it('all day Saturday and Sunday: £15.80; 02:00-05:00 on those mornings: £16.80', () => {
    const saturday = price('2026-06-20T11:00:00Z'); // Sat 12:00 BST
    expect(saturday.totalPence).toBe(1580);
    expect(rule(saturday, 'weekend_rate')?.amountPence).toBe(200);
    const late = price('2026-06-20T02:30:00Z'); // Sat 03:30 BST
    expect(late.totalPence).toBe(1680);
    expect(rule(late, 'night_rate')?.amountPence).toBe(300);
    expect(price('2026-06-21T04:00:00Z').totalPence).toBe(1580); // Sun 05:00 BST: back to the weekend scale
    expect(price('2026-06-19T02:30:00Z').totalPence).toBe(1580); // Fri 03:30 BST: an ordinary night
  });

  it('Christmas and New Year: £22.20', () => {
    expect(price('2026-12-24T19:59:00Z').totalPence).toBe(1380); // Thu 19:59 GMT
    const eve = price('2026-12-24T20:00:00Z');
    expect(eve.totalPence).toBe(2220);
    expect(rule(eve, 'christmas_new_year')?.amountPence).toBe(2220 - 1380);
    expect(price('2027-01-03T04:59:00Z').totalPence).toBe(2220);
    expect(price('2027-01-03T05:00:00Z').totalPence).toBe(1580); // Sunday 05:00: weekend scale
  });

  it('slow traffic: time governs', () => {
    // 2,000 yd (1,828.8 m) in 20 minutes: distance (2,000 - 987) / 146.5 = 6.9 -> 7; time 1,200 / 26.4 = 45.45 -> 46
    // £3.00 + 46 x 20p = £12.20
    const result = price('2026-06-16T09:00:00Z', 1828.8, 1200);
    expect(result.totalPence).toBe(1220);
    expect(rule(result, 'tariff_period')?.description).toContain('(time)');
  });

  it('no passenger extras; Aberdeenshire is another council', () => {
    const six = priceJourney(request({ pickup: ABERDEEN, route: route(FIVE_MILES, AT_20_MPH), departAt: new Date('2026-06-16T09:00:00Z'), passengers: 6, vehicleType: '6seater' }));
    expect(six.totalPence).toBe(1380);
    const shire = priceJourney(request({ pickup: ABERDEENSHIRE_STONEHAVEN, route: route(FIVE_MILES, AT_20_MPH), departAt: new Date('2026-06-16T09:00:00Z') }));
    expect(shire.tariff.areaId).toBe('national-default');
  });
});
