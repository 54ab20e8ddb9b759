import { describe, expect, it } from 'vitest';
import { priceJourney } from '../../../src/pricing/index.js';
import { AT_20_MPH, DUMFRIES, FIVE_MILES, MILE, codes, request, route, rule } from './fixtures.js';

// Dumfries and Galloway Council (data/tariffs/dumfries-and-galloway.json; page last updated 30 Oct 2023), in yards:
//   £5.50 for up to 1.5 miles (2,640 yd), then £1.00 per further half-mile (880 yd) or part; +£1.00 per hire begun midnight-06:00.
//   No fixed Christmas figure; waiting (40p per 2 min) not modelled.
//
// 5 miles: (8,800 - 2,640) / 880 = 6,160 / 880 = 7 units exactly -> £5.50 + £7.00 = £12.50; midnight-06:00 £13.50

const price = (departAt: string, distance = FIVE_MILES, seconds = AT_20_MPH) =>
  priceJourney(request({ pickup: DUMFRIES, route: route(distance, seconds), departAt: new Date(departAt) }));

describe('Dumfries and Galloway', () => {
  it('5 miles = £12.50', () => {
    const result = price('2026-06-16T09:00:00Z');
    expect(result.totalPence).toBe(1250);
    expect(codes(result)).toEqual(['tariff_period']);
    expect(result.tariff).toMatchObject({ areaId: 'dumfries-and-galloway', status: 'in_force', provisional: false });
  });

  it('up to 1.5 miles is £5.50; each half-mile or part after it £1.00', () => {
    expect(price('2026-06-16T09:00:00Z', 1.5 * MILE, 270).totalPence).toBe(550);
    // 1.5 miles and a centimetre starts the next half-mile: £6.50
    expect(price('2026-06-16T09:00:00Z', 1.5 * MILE + 0.01, 270).totalPence).toBe(650);
    expect(price('2026-06-16T09:00:00Z', 500, 90).totalPence).toBe(550);
  });

  it('£1.00 premium for hires begun midnight-06:00', () => {
    const night = price('2026-06-16T23:30:00Z'); // Wed 00:30 BST
    expect(rule(night, 'night_rate')?.amountPence).toBe(100);
    expect(night.totalPence).toBe(1350);
    expect(price('2026-06-17T05:00:00Z').totalPence).toBe(1250); // 06:00 BST
  });

  it('Christmas: no fixed premium is added', () => {
    expect(price('2026-12-25T12:00:00Z').totalPence).toBe(1250);
  });
});
