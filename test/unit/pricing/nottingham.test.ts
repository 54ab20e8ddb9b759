import { describe, expect, it } from 'vitest';
import { priceJourney } from '../../../src/pricing/index.js';
import { AT_20_MPH, FIVE_MILES, NOTTINGHAM_CENTRE, codes, request, route, rule } from './fixtures.js';

// Nottingham City Council, from 13 Jun 2022 (data/tariffs/nottingham.json), in yards:
//   day   (06:00-22:00) £2.00 up to 122.2 yd; 20p per 86.2 yd to 1,760 yd (1 mile), then 20p per 160 yd; or 20p per 38 s
//   night (22:00-06:00) 114 yd; 82.3 yd to 1,760 yd, then 146.67 yd; or per 34 s. The money column is
//         missing: £2.00 and 20p are ASSUMED, so night quotes are provisional.
//   fare and a half: 12:00 24 Dec - 06:00 27 Dec, 18:00 31 Dec - 06:00 2 Jan, and bank holidays.
// No initial time, so time units count from 0 s.

const price = (departAt: string, distance = FIVE_MILES, seconds = AT_20_MPH) =>
  priceJourney(request({ pickup: NOTTINGHAM_CENTRE, route: route(distance, seconds), departAt: new Date(departAt) }));

const TUESDAY_10AM_BST = '2026-06-16T09:00:00Z';

describe('Nottingham', () => {
  it('worked example: 5 miles by day = £14.60, as published', () => {
    // first mile: (1,760 - 122.2) / 86.2 = 1,637.8 / 86.2 = 19 exactly -> 19 x 20p = £3.80; time 180 s / 38 = 4.7 -> 5
    // beyond:     (8,800 - 1,760) / 160 = 7,040 / 160 = 44 exactly -> 44 x 20p = £8.80; time 720 s / 38 = 18.9 -> 19
    // £2.00 + £3.80 + £8.80 = £14.60
    const result = price(TUESDAY_10AM_BST);
    expect(result.totalPence).toBe(1460);
    expect(codes(result)).toEqual(['tariff_period']);
    expect(result.tariff).toMatchObject({
      areaId: 'nottingham',
      effectiveFrom: '2022-06-13',
      status: 'in_force',
      provisional: false,
    });
  });

  it('the example lands exactly on unit boundaries: one centimetre more is £14.80, the "charged on entry" reading', () => {
    // tariffs-more.md: a meter that drops each 20p on ENTERING a unit shows £14.80 for exactly 5 miles.
    // This engine charges a started unit in full, so the extra 20p comes one centimetre later:
    // (8,046.73 - 1,609.344) / 146.304 = 44.00007 -> 45 units; £2.00 + £3.80 + £9.00 = £14.80
    expect(price(TUESDAY_10AM_BST, FIVE_MILES + 0.01).totalPence).toBe(1480);
  });

  it('night: council distances, assumed money, so provisional', () => {
    // first mile: (1,760 - 114) / 82.3 = 1,646 / 82.3 = 20 exactly -> 20 x 20p = £4.00; time 180 / 34 = 5.3 -> 6
    // beyond:     7,040 / 146.67 = 47.999 -> 48 x 20p = £9.60; time 720 / 34 = 21.2 -> 22
    // £2.00 + £4.00 + £9.60 = £15.60; £1.00 over the day's £14.60
    const result = price('2026-06-16T21:30:00Z'); // Tue 22:30 BST
    expect(result.totalPence).toBe(1560);
    expect(rule(result, 'night_rate')?.amountPence).toBe(100);
    expect(result.tariff.provisional).toBe(true);
    expect(price('2026-06-16T20:59:00Z').totalPence).toBe(1460); // 21:59 BST: day
  });

  it('bank holiday: fare and a half on whichever tariff is running', () => {
    // Spring bank holiday noon: £14.60 x 1.5 = £21.90
    const noon = price('2026-05-25T11:00:00Z');
    expect(noon.totalPence).toBe(2190);
    expect(rule(noon, 'bank_holiday')?.amountPence).toBe(730);
    expect(noon.tariff.provisional).toBe(false);
    // 23:00 BST on the holiday: night £15.60 x 1.5 = £23.40 (provisional: night money assumed)
    const night = price('2026-05-25T22:00:00Z');
    expect(night.totalPence).toBe(2340);
    expect(rule(night, 'bank_holiday')?.amountPence).toBe(2340 - 1460);
    expect(night.tariff.provisional).toBe(true);
    // 00:30 BST the next day is an ordinary night: £15.60
    expect(price('2026-05-25T23:30:00Z').totalPence).toBe(1560);
  });

  it('Christmas: fare and a half from 12:00 on Christmas Eve', () => {
    expect(price('2026-12-24T11:59:00Z').totalPence).toBe(1460); // 11:59 GMT: ordinary day
    const eve = price('2026-12-24T12:00:00Z');
    expect(eve.totalPence).toBe(2190);
    expect(rule(eve, 'christmas_new_year')?.amountPence).toBe(730);
    // Christmas night 23:00: £15.60 x 1.5 = £23.40
    expect(price('2026-12-25T23:00:00Z').totalPence).toBe(2340);
    // New Year's Eve 18:00: £21.90
    expect(price('2026-12-31T18:00:00Z').totalPence).toBe(2190);
  });

  it('no passenger extras', () => {
    const result = priceJourney(
      request({
        pickup: NOTTINGHAM_CENTRE,
        route: route(FIVE_MILES, AT_20_MPH),
        departAt: new Date(TUESDAY_10AM_BST),
        passengers: 6,
        vehicleType: 'mpv',
      }),
    );
    expect(result.totalPence).toBe(1460);
  });
});
