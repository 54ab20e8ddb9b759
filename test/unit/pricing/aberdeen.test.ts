import { describe, expect, it } from 'vitest';
import { priceJourney } from '../../../src/pricing/index.js';
import { ABERDEEN, ABERDEENSHIRE_STONEHAVEN, AT_20_MPH, FIVE_MILES, codes, request, route, rule } from './fixtures.js';

// Aberdeen City Council (data/tariffs/aberdeen.json), in yards. Periods (both versions):
//   day       08:00-20:00 Mon-Fri;  evening 20:00-08:00 and all day Sat and Sun;  late 02:00-05:00 Sat and Sun;
//   festive   20:00 24 Dec - 05:00 27 Dec, 20:00 31 Dec - 05:00 3 Jan. Flag falls £3.00 / £5.00 / £6.00 / £6.00;
//   units 20p (30p festive); waiting 20p per 26.4 s (30p festive); no initial time. The £1 pre-booking surcharge is not added.
//
// Version 1 (council page, before April 2025): £3.00 for the first 987 yd, then per 146.5 yd.
//   5 miles at 20 mph: (8,800 - 987) / 146.5 = 7,813 / 146.5 = 53.33 -> 54 units; time 900 / 26.4 = 34.09 -> 35, distance governs.
//   Day £3.00 + 54 x 20p = £13.80; evening £15.80; late £16.80; festive £6.00 + 54 x 30p = £22.20.
// Version 2 (from April 2025, reported: "£3 for the first 957 yards and 20p for every additional 142 yards"; used from 30 April):
//   5 miles: (8,800 - 957) / 142 = 7,843 / 142 = 55.23 -> 56 units; time 35, distance governs.
//   Day £3.00 + 56 x 20p = £14.20; evening £16.20; late £17.20; festive £6.00 + 56 x 30p = £22.80.
//   The evening, late and festive distances are ASSUMED from the day scale, so those quotes are provisional.

const price = (departAt: string, distance = FIVE_MILES, seconds = AT_20_MPH) =>
  priceJourney(request({ pickup: ABERDEEN, route: route(distance, seconds), departAt: new Date(departAt) }));

describe('Aberdeen City, from April 2025', () => {
  it('day: 5 miles = £14.20, not provisional', () => {
    const result = price('2026-06-16T09:00:00Z'); // Tue 10:00 BST
    expect(result.totalPence).toBe(1420);
    expect(codes(result)).toEqual(['tariff_period']);
    expect(result.tariff).toMatchObject({
      areaId: 'aberdeen',
      effectiveFrom: '2025-04-30',
      status: 'approved_reported',
      provisional: false,
    });
    expect(result.tariff.authority).toMatch(/Aberdeen City Council/);
  });

  it('evening from 20:00 on a weekday: £16.20, provisional (distances assumed)', () => {
    expect(price('2026-06-16T18:59:00Z').totalPence).toBe(1420); // 19:59 BST
    const evening = price('2026-06-16T19:00:00Z'); // 20:00 BST
    expect(evening.totalPence).toBe(1620);
    expect(rule(evening, 'night_rate')?.amountPence).toBe(200);
    expect(evening.tariff.provisional).toBe(true);
    // Monday 07:59 is still the evening scale (the day scale starts at 08:00)
    expect(price('2026-06-15T06:59:00Z').totalPence).toBe(1620);
    expect(price('2026-06-15T07:00:00Z').totalPence).toBe(1420);
  });

  it('all day Saturday and Sunday: £16.20; 02:00-05:00 on those mornings: £17.20', () => {
    const saturday = price('2026-06-20T11:00:00Z'); // Sat 12:00 BST
    expect(saturday.totalPence).toBe(1620);
    expect(rule(saturday, 'weekend_rate')?.amountPence).toBe(200);
    const late = price('2026-06-20T02:30:00Z'); // Sat 03:30 BST
    expect(late.totalPence).toBe(1720);
    expect(rule(late, 'night_rate')?.amountPence).toBe(300);
    expect(price('2026-06-21T04:00:00Z').totalPence).toBe(1620); // Sun 05:00 BST: back to the weekend scale
    expect(price('2026-06-19T02:30:00Z').totalPence).toBe(1620); // Fri 03:30 BST: an ordinary night
  });

  it('Christmas and New Year: £22.80', () => {
    expect(price('2026-12-24T19:59:00Z').totalPence).toBe(1420); // Thu 19:59 GMT
    const eve = price('2026-12-24T20:00:00Z');
    expect(eve.totalPence).toBe(2280);
    expect(rule(eve, 'christmas_new_year')?.amountPence).toBe(2280 - 1420);
    expect(price('2027-01-03T04:59:00Z').totalPence).toBe(2280);
    expect(price('2027-01-03T05:00:00Z').totalPence).toBe(1620); // Sunday 05:00: weekend scale
  });

  it('slow traffic: time governs', () => {
    // 2,000 yd (1,828.8 m) in 20 minutes: distance (2,000 - 957) / 142 = 7.3 -> 8; time 1,200 / 26.4 = 45.45 -> 46
    // £3.00 + 46 x 20p = £12.20
    const result = price('2026-06-16T09:00:00Z', 1828.8, 1200);
    expect(result.totalPence).toBe(1220);
    expect(rule(result, 'tariff_period')?.description).toContain('(time)');
  });

  it('no passenger extras; Aberdeenshire is another council', () => {
    const six = priceJourney(
      request({
        pickup: ABERDEEN,
        route: route(FIVE_MILES, AT_20_MPH),
        departAt: new Date('2026-06-16T09:00:00Z'),
        passengers: 6,
        vehicleType: '6seater',
      }),
    );
    expect(six.totalPence).toBe(1420);
    const shire = priceJourney(
      request({
        pickup: ABERDEENSHIRE_STONEHAVEN,
        route: route(FIVE_MILES, AT_20_MPH),
        departAt: new Date('2026-06-16T09:00:00Z'),
      }),
    );
    expect(shire.tariff.areaId).toBe('national-default');
  });
});

describe('Aberdeen City, the table before April 2025', () => {
  it('day £13.80, evening £15.80, weekend late £16.80 (Feb 2025)', () => {
    const day = price('2025-02-11T10:00:00Z'); // Tue 10:00 GMT
    expect(day.totalPence).toBe(1380);
    expect(day.tariff).toMatchObject({ effectiveFrom: '2025-01-01', status: 'in_force', provisional: false });
    expect(price('2025-02-11T20:00:00Z').totalPence).toBe(1580); // Tue 20:00
    expect(price('2025-02-15T03:00:00Z').totalPence).toBe(1680); // Sat 03:00
  });

  it('still in force on 29 April 2025; the new table from 30 April', () => {
    expect(price('2025-04-29T09:00:00Z').totalPence).toBe(1380);
    expect(price('2025-04-30T09:00:00Z').totalPence).toBe(1420);
  });
});
