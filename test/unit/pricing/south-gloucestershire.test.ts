import { describe, expect, it } from 'vitest';
import { priceJourney } from '../../../src/pricing/index.js';
import { BRISTOL_PARKWAY, FILTON, codes, request, route, rule } from './fixtures.js';

// South Gloucestershire Council (data/tariffs/south-gloucestershire.json):
//   from 2025-04-01: £2.40 for the first 115 m; then 20p per 111.4 m or 26.7 s; evening/weekend £1.70
//   from 2024-04-01 (2023/24 table): £2.40 for 123.3 m; 20p per 118.3 m or 27.8 s; evening/weekend £1.65
// Evening/weekend supplement: hire beginning OR ending 18:00-06:00 on weekdays, or 18:00 Fri - 06:00 Mon.
// Bank holiday £4.00 (replaces it), Christmas £6.50, New Year £6.50 (2023/24 values, provisional in 2025).
// No initial time, so time units count from 0 s.

const EIGHT_KM = 8000;
const TWELVE_MIN = 720;
const price = (departAt: string, extra: Partial<Parameters<typeof request>[0]> = {}) =>
  priceJourney(
    request({
      pickup: FILTON,
      dropoff: BRISTOL_PARKWAY,
      route: route(EIGHT_KM, TWELVE_MIN),
      departAt: new Date(departAt),
      ...extra,
    }),
  );

describe('South Gloucestershire', () => {
  it('weekday day, 8 km', () => {
    // (8000 - 115) / 111.4 = 7885 / 111.4 = 70.78 -> 71; time 720 / 26.7 = 26.97 -> 27
    // 71 x 20p = £14.20; £2.40 + £14.20 = £16.60
    const result = price('2026-06-17T09:00:00Z'); // Wed 10:00 BST
    expect(result.totalPence).toBe(1660);
    expect(codes(result)).toEqual(['tariff_period']);
    expect(result.tariff).toMatchObject({ effectiveFrom: '2025-04-01', provisional: false });
  });

  it('a hire that starts at 17:50 and ends at 18:02 pays the evening supplement; one ending 17:52 does not', () => {
    // Wed 17 Jun 17:50 BST + 12 min = 18:02 BST: £16.60 + £1.70 = £18.30
    const ending = price('2026-06-17T16:50:00Z');
    expect(rule(ending, 'night_rate')?.amountPence).toBe(170);
    expect(rule(ending, 'night_rate')?.description).toContain('ends');
    expect(ending.totalPence).toBe(1830);
    expect(price('2026-06-17T16:40:00Z').totalPence).toBe(1660);
  });

  it('Saturday daytime pays the weekend supplement', () => {
    const result = price('2026-06-20T11:00:00Z'); // Sat 12:00 BST
    expect(rule(result, 'weekend_rate')?.amountPence).toBe(170);
    expect(result.totalPence).toBe(1830);
  });

  it('bank holiday supplement replaces the evening one (Spring bank holiday, 19:00)', () => {
    // Mon 25 May 2026 19:00 BST: both windows match; only the £4.00 bank-holiday supplement applies -> £20.60
    const result = price('2026-05-25T18:00:00Z');
    expect(codes(result)).toEqual(['tariff_period', 'bank_holiday']);
    expect(result.totalPence).toBe(2060);
    expect(result.tariff.provisional).toBe(true); // the £4.00 is the 2023/24 value
  });

  it('extra passengers: 35p each after the first (2023/24 value, provisional)', () => {
    // £16.60 + 2 x 35p = £17.30
    const result = price('2026-06-17T09:00:00Z', { passengers: 3 });
    expect(rule(result, 'extra_passengers')?.amountPence).toBe(70);
    expect(result.totalPence).toBe(1730);
    expect(result.tariff.provisional).toBe(true);
  });

  it('effective-date selection: March 2025 uses the 2023/24 table', () => {
    // (8000 - 123.3) / 118.3 = 7876.7 / 118.3 = 66.58 -> 67; time 720 / 27.8 = 25.90 -> 26
    // 67 x 20p = £13.40; £2.40 + £13.40 = £15.80
    const result = price('2025-03-19T10:00:00Z');
    expect(result.totalPence).toBe(1580);
    expect(result.tariff.effectiveFrom).toBe('2024-04-01');
    // Its evening supplement was £1.65: Wed 19 Mar 2025 19:00 GMT -> £17.45
    expect(price('2025-03-19T19:00:00Z').totalPence).toBe(1745);
  });

  it('Christmas Eve 18:30: £6.50 Christmas supplement instead of the evening one', () => {
    // £16.60 + £6.50 = £23.10
    const result = price('2026-12-24T18:30:00Z');
    expect(codes(result)).toEqual(['tariff_period', 'christmas_new_year']);
    expect(result.totalPence).toBe(2310);
  });
});
