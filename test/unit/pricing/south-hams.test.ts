import { describe, expect, it } from 'vitest';
import { priceJourney } from '../../../src/pricing/index.js';
import { AT_20_MPH, FIVE_MILES, MILE, PLYMOUTH, TOTNES, codes, request, route, rule } from './fixtures.js';

// South Hams District Council, "Hackney Carriage Fares (2022)" (data/tariffs/south-hams.json), in yards:
//   Cost 1 Mon-Sat 07:00-20:00:  £3.40 for any distance up to 880 yd, then 20p per 120 yd; waiting 20p each minute
//   Cost 2 20:00-07:00, Sundays and bank holidays 07:00-20:00, 19:00 24 Dec - 07:00 27 Dec, 19:00 31 Dec - 07:00 2 Jan:
//                                £4.00 for up to 880 yd, then 30p per 120 yd; waiting 30p each minute
//   40p for each passenger after the first. Cost 3 (eight-seaters asked for) and the booking charge are not added.
//
// 5 miles: (8,800 - 880) / 120 = 7,920 / 120 = 66 units exactly (time: 900 s / 60 = 15, distance governs).
// Cost 1 £3.40 + 66 x 20p = £16.60; Cost 2 £4.00 + 66 x 30p = £23.80 (+£7.20)

const price = (
  departAt: string,
  extra: Partial<Parameters<typeof request>[0]> = {},
  distance = FIVE_MILES,
  seconds = AT_20_MPH,
) => priceJourney(request({ pickup: TOTNES, route: route(distance, seconds), departAt: new Date(departAt), ...extra }));

describe('South Hams', () => {
  it('Cost 1: 5 miles = £16.60', () => {
    const result = price('2026-06-20T09:00:00Z'); // Sat 10:00 BST
    expect(result.totalPence).toBe(1660);
    expect(codes(result)).toEqual(['tariff_period']);
    expect(result.tariff).toMatchObject({ areaId: 'south-hams', status: 'in_force', provisional: false });
  });

  it('1 mile = £5.00; slow traffic is charged by the minute', () => {
    // (1,760 - 880) / 120 = 7.3 -> 8 units: £3.40 + 8 x 20p = £5.00
    expect(price('2026-06-16T09:00:00Z', {}, MILE, 180).totalPence).toBe(500);
    // 1 km in 10 minutes: distance (1,093.6 - 880) / 120 = 1.8 -> 2; time 600 / 60 = 10 -> £3.40 + 10 x 20p = £5.40
    expect(price('2026-06-16T09:00:00Z', {}, 1000, 600).totalPence).toBe(540);
  });

  it('Cost 2 from 20:00 to 07:00: £23.80', () => {
    expect(price('2026-06-16T18:59:00Z').totalPence).toBe(1660); // Tue 19:59 BST
    const night = price('2026-06-16T19:00:00Z'); // Tue 20:00 BST
    expect(night.totalPence).toBe(2380);
    expect(rule(night, 'night_rate')?.amountPence).toBe(720);
    expect(price('2026-06-17T05:59:00Z').totalPence).toBe(2380); // Wed 06:59 BST
    expect(price('2026-06-17T06:00:00Z').totalPence).toBe(1660); // Wed 07:00 BST
  });

  it('Cost 2 on Sundays and bank holidays', () => {
    const sunday = price('2026-06-21T11:00:00Z'); // Sun 12:00 BST
    expect(sunday.totalPence).toBe(2380);
    expect(rule(sunday, 'sunday_rate')?.amountPence).toBe(720);
    const holiday = price('2026-05-25T11:00:00Z'); // Spring bank holiday
    expect(holiday.totalPence).toBe(2380);
    expect(rule(holiday, 'bank_holiday')?.amountPence).toBe(720);
  });

  it("Cost 2 from 19:00 on Christmas Eve and New Year's Eve", () => {
    expect(price('2026-12-24T18:59:00Z').totalPence).toBe(1660); // Thu 18:59 GMT
    const christmas = price('2026-12-24T19:00:00Z');
    expect(christmas.totalPence).toBe(2380);
    expect(rule(christmas, 'christmas_new_year')?.amountPence).toBe(720);
    expect(price('2027-01-02T06:59:00Z').totalPence).toBe(2380);
    expect(price('2027-01-02T07:00:00Z').totalPence).toBe(1660); // Sat 2 Jan 07:00
  });

  it('40p for each passenger after the first', () => {
    // £16.60 + 2 x 40p = £17.40
    const three = price('2026-06-16T09:00:00Z', { passengers: 3 });
    expect(rule(three, 'extra_passengers')?.amountPence).toBe(80);
    expect(three.totalPence).toBe(1740);
  });

  it('Plymouth is another council', () => {
    const plymouth = priceJourney(
      request({ pickup: PLYMOUTH, route: route(FIVE_MILES, AT_20_MPH), departAt: new Date('2026-06-16T09:00:00Z') }),
    );
    expect(plymouth.tariff.areaId).toBe('national-default');
  });
});
