import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import type { GeoLocation } from '../../../src/geo/types.js';
import { priceJourney } from '../../../src/pricing/index.js';
import { meterQuestion, meterReading } from '../../../src/pricing/meter-calculator.js';
import { meterLines } from '../../../scripts/meter.js';

// The meter calculator (issue 36, item 3) is the quote's engine on a hire with no extras: for the
// same distance, time and moment it must show what a quote from that area prices.

const place = (over: Partial<GeoLocation>): GeoLocation => ({
  label: 'x',
  kind: 'place',
  lat: 51.5,
  lon: -0.12,
  postcodeDistrict: null,
  council: null,
  region: null,
  country: 'England',
  inUk: true,
  confidence: 1,
  precision: 'town_centre',
  town: null,
  ...over,
});

const quote = (pickup: GeoLocation, at: string, distanceMeters: number, durationSeconds: number) =>
  priceJourney({
    pickup,
    dropoff: pickup,
    route: { distanceMeters, durationSeconds, straightLineMeters: distanceMeters, circuityFactor: 1, model: 'test' },
    departAt: new Date(at),
    vehicleType: 'saloon',
    passengers: 1,
    meetAndGreet: false,
    worldwide: false,
  });

describe('the meter calculator', () => {
  it.each([
    ['london-tfl', place({ region: 'London', council: 'Camden' }), '2023-08-15T13:00:00Z', 3219, 360],
    ['london-tfl', place({ region: 'London', council: 'Camden' }), '2026-12-31T23:30:00Z', 12_000, 1_500],
    ['manchester', place({ council: 'Manchester', region: 'North West' }), '2026-12-25T23:30:00Z', 8_000, 900],
    ['edinburgh', place({ council: 'City of Edinburgh', country: 'Scotland' }), '2026-06-01T09:00:00Z', 4_000, 600],
  ])('agrees with a quote from %s at %s', (areaId, pickup, at, meters, seconds) => {
    const priced = quote(pickup, at, meters, seconds);
    const m = meterReading({ areaId, at: new Date(at), distanceMeters: meters, durationSeconds: seconds });
    expect(priced.tariff.areaId).toBe(areaId);
    expect(m.meterPence).toBe(priced.totalPence);
    expect(m.rules).toEqual(priced.rules);
    expect(m.effectiveFrom).toBe(priced.tariff.effectiveFrom);
  });

  it('prices a moment on the table then in force, read as London time', () => {
    const then = meterQuestion({ area: 'london-tfl', at: '2023-08-15 14:00', miles: 2, minutes: 6 });
    expect(then.at.toISOString()).toBe('2023-08-15T13:00:00.000Z');
    expect(then).toMatchObject({ distanceMeters: 3219, durationSeconds: 360 });
    const now = meterQuestion({ area: 'london-tfl', at: '2026-08-18T14:00', miles: 2, minutes: 6 });
    expect(meterReading(then).effectiveFrom).toBe('2023-04-30');
    expect(meterReading(now).effectiveFrom).toBe('2026-04-25');
    expect(meterReading(now).meterPence).toBeGreaterThan(meterReading(then).meterPence);
  });

  it('refuses an unknown area, two distances and a time that is not one, naming the field', () => {
    expect(() => meterQuestion({ area: 'atlantis', at: '2026-01-01T10:00', miles: 1, minutes: 1 })).toThrow(
      /No tariff area atlantis/,
    );
    expect(() => meterQuestion({ area: 'york', at: '2026-01-01T10:00', miles: 1, meters: 5, minutes: 1 })).toThrow(
      /miles or meters/,
    );
    expect(() => meterQuestion({ area: 'york', at: 'teatime', miles: 1, minutes: 1 })).toThrow(/not one/);
  });

  it('prints the lines `npm run meter` shows', () => {
    const lines = meterLines({ area: 'london-tfl', at: '2023-08-15 14:00', miles: 2, minutes: 6 });
    // April 2023 Tariff 1: the £3.80 flag covers 2 x 100.9 m; (3,219 - 201.8) / 100.9 = 29.9, so 30 x 20p.
    expect(lines).toContain('Meter: £9.80');
    expect(lines.join('\n')).toMatch(/Tariff 1 .*= £9\.80/);
  });

  it('runs as the README names it, and says what is wrong with what was asked', () => {
    const run = (...args: string[]) =>
      spawnSync('npm', ['run', '--silent', 'meter', '--', ...args], { encoding: 'utf8', timeout: 60_000 });
    const ok = run('--area', 'york', '--at', '2026-03-03 10:00', '--miles', '1', '--minutes', '3');
    expect(ok.status, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/^City of York Council|York/);
    expect(ok.stdout).toMatch(/Meter: £\d+\.\d{2}/);
    const wrong = run('--area', 'york', '--at', '2026-03-03 10:00', '--minutes', '3');
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toContain('Give miles or meters');
  }, 60_000);
});
