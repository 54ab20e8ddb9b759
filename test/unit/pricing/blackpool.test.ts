import { describe, expect, it } from 'vitest';
import { priceJourney } from '../../../src/pricing/index.js';
import { AT_20_MPH, BLACKPOOL, FIVE_MILES, FLEETWOOD, codes, request, route, rule } from './fixtures.js';

// Blackpool Council (data/tariffs/blackpool.json), read from a public repository's copy of the council's
// table, taken to be the January 2023 one (every figure provisional), in yards; waiting 20p per 30 s throughout:
//   Tariff 1 Mon-Fri 06:00-20:00:                        £2.60 for the first 168 yd, then 20p per 168 yd
//   Tariff 2 Mon-Fri 21:00-midnight, Sat, Sun, bank hol: £2.60 for the first 130 yd, then 20p per 130 yd
//   Tariff 3 daily midnight-06:00:                        £3.20 for the first 130 yd, then 20p per 130 yd
//   Tariff 4 Christmas and New Year:                      £5.20 for the first 130 yd, then 20p per 130 yd
//   Christmas Eve and New Year's Eve: Tariff 2 06:00-18:00, Tariff 3 18:00-22:00, Tariff 4 from 22:00;
//   Tariff 4 to 06:00 on 27 Dec and 2 Jan; Tariff 2 06:00 27 Dec - 06:00 29 Dec.
//   Mon-Fri 20:00-21:00 is in no tariff in the copy: Tariff 1 (the lower) is used.
//
// 5 miles (8,800 yd) at 20 mph (900 s = 30 time units, fewer than the distance units):
//   T1 (8,800 - 168) / 168 = 51.4 -> 52: £2.60 + 52 x 20p = £13.00
//   T2 (8,800 - 130) / 130 = 66.7 -> 67: £2.60 + 67 x 20p = £16.00 (+£3.00)
//   T3 £3.20 + 67 x 20p = £16.60 (+£3.60); T4 £5.20 + 67 x 20p = £18.60 (+£5.60)

const price = (departAt: string, extra: Partial<Parameters<typeof request>[0]> = {}) =>
  priceJourney(
    request({ pickup: BLACKPOOL, route: route(FIVE_MILES, AT_20_MPH), departAt: new Date(departAt), ...extra }),
  );

describe('Blackpool', () => {
  it('Tariff 1, weekday daytime: 5 miles = £13.00, provisional', () => {
    const result = price('2026-06-16T09:00:00Z'); // Tue 10:00 BST
    expect(result.totalPence).toBe(1300);
    expect(codes(result)).toEqual(['tariff_period']);
    expect(result.tariff).toMatchObject({ areaId: 'blackpool', status: 'provisional', provisional: true });
  });

  it('the unassigned hour, 20:00-21:00 on weekdays, is Tariff 1; Tariff 2 from 21:00', () => {
    expect(price('2026-06-16T19:30:00Z').totalPence).toBe(1300); // Tue 20:30 BST
    const evening = price('2026-06-16T20:00:00Z'); // Tue 21:00 BST
    expect(evening.totalPence).toBe(1600);
    expect(rule(evening, 'evening_rate')?.amountPence).toBe(300);
  });

  it('Tariff 3 every night from midnight to 06:00, weekends too', () => {
    const night = price('2026-06-16T23:00:00Z'); // Wed 00:00 BST
    expect(night.totalPence).toBe(1660);
    expect(rule(night, 'night_rate')?.amountPence).toBe(360);
    expect(price('2026-06-20T00:00:00Z').totalPence).toBe(1660); // Sat 01:00 BST
    expect(price('2026-06-17T05:00:00Z').totalPence).toBe(1300); // Wed 06:00 BST
  });

  it('Tariff 2 all day at weekends and on bank holidays', () => {
    const saturday = price('2026-06-20T11:00:00Z'); // Sat 12:00 BST
    expect(saturday.totalPence).toBe(1600);
    expect(rule(saturday, 'weekend_rate')?.amountPence).toBe(300);
    const holiday = price('2026-05-25T11:00:00Z'); // Spring bank holiday, Mon 12:00 BST
    expect(holiday.totalPence).toBe(1600);
    expect(rule(holiday, 'bank_holiday')?.amountPence).toBe(300);
  });

  it('Christmas: Tariff 2 by day on the eve, Tariff 3 from 18:00, Tariff 4 from 22:00 to 06:00 on 27 Dec, then Tariff 2 to 06:00 on 29 Dec', () => {
    const eveDay = price('2026-12-24T10:00:00Z'); // Thu
    expect(eveDay.totalPence).toBe(1600);
    expect(rule(eveDay, 'christmas_new_year')?.amountPence).toBe(300);
    expect(price('2026-12-24T18:00:00Z').totalPence).toBe(1660);
    const christmas = price('2026-12-24T22:00:00Z');
    expect(christmas.totalPence).toBe(1860);
    expect(rule(christmas, 'christmas_new_year')?.amountPence).toBe(560);
    expect(price('2026-12-27T05:59:00Z').totalPence).toBe(1860);
    expect(price('2026-12-27T06:00:00Z').totalPence).toBe(1600);
    expect(price('2026-12-29T05:59:00Z').totalPence).toBe(1600); // Tue 05:59: the festive Tariff 2, not Tariff 3
    expect(price('2026-12-29T06:00:00Z').totalPence).toBe(1300);
  });

  it("New Year: Tariff 4 from 22:00 on New Year's Eve to 06:00 on 2 January", () => {
    expect(price('2026-12-31T21:59:00Z').totalPence).toBe(1660);
    expect(price('2026-12-31T22:00:00Z').totalPence).toBe(1860);
    expect(price('2027-01-02T05:59:00Z').totalPence).toBe(1860);
    expect(price('2027-01-02T06:00:00Z').totalPence).toBe(1600); // Sat 2 Jan: Tariff 2
  });

  it('30p for each passenger after the first', () => {
    // £13.00 + 2 x 30p = £13.60
    const three = price('2026-06-16T09:00:00Z', { passengers: 3 });
    expect(rule(three, 'extra_passengers')?.amountPence).toBe(60);
    expect(three.totalPence).toBe(1360);
  });

  it('Fleetwood (Wyre) is another council', () => {
    const fleetwood = priceJourney(
      request({ pickup: FLEETWOOD, route: route(FIVE_MILES, AT_20_MPH), departAt: new Date('2026-06-16T09:00:00Z') }),
    );
    expect(fleetwood.tariff.areaId).toBe('national-default');
  });
});
