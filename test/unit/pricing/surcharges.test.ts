import { describe, expect, it } from 'vitest';
import { MEET_AND_GREET_PENCE, PricingError, VEHICLE_TYPES, priceJourney, type RateOverride, type VehicleType } from '../../../src/pricing/index.js';
import { DIDSBURY, JERSEY_AIRPORT, LEEDS, MANCHESTER_CENTRE, MILE, ST_HELIER, WESTMINSTER, codes, request, route, rule } from './fixtures.js';

// The journey used throughout: Manchester, 5 miles at 30 mph. Day meter £16.00; night meter £20.80
// (hand-computed in manchester.test.ts).
const DAY = new Date('2026-06-17T09:00:00Z'); // Wed 10:00 BST
const NIGHT = new Date('2026-06-17T22:30:00Z'); // Wed 23:30 BST
const base = (extra: Partial<Parameters<typeof request>[0]> = {}) =>
  request({ pickup: MANCHESTER_CENTRE, dropoff: DIDSBURY, route: route(5 * MILE, 600), departAt: DAY, ...extra });

const override = (extra: Partial<RateOverride> = {}): RateOverride => ({
  id: 'ovr_1',
  scope: 'driver',
  subjectId: 'drv_42',
  adjustmentBasisPoints: -1000,
  minimumFarePence: null,
  approvedBy: 'j.smith@ops',
  approvedAt: '2026-01-10T09:00:00Z',
  ...extra,
});

describe('meet and greet', () => {
  it('adds £25.00 when requested', () => {
    const result = priceJourney(base({ meetAndGreet: true }));
    expect(MEET_AND_GREET_PENCE).toBe(2500);
    expect(rule(result, 'meet_and_greet')?.amountPence).toBe(2500);
    expect(result.totalPence).toBe(1600 + 2500);
  });
});

describe('vehicle classes', () => {
  // Percentages are of the meter at the period in force, rounded down to the penny.
  const expected: Record<VehicleType, number | null> = {
    saloon: null, // no rule
    '5seater': null,
    estate: 300, // flat £3.00
    executive: 480, // 30 % of £16.00
    luxury: 960, // 60 % of £16.00
    '6seater': 800, // 50 % of £16.00
    '7seater': 800,
    mpv: 800,
    wav: 0, // never a surcharge
  };
  it.each(VEHICLE_TYPES.map((t) => [t, expected[t]] as const))('%s by day', (vehicleType, amount) => {
    const result = priceJourney(base({ vehicleType }));
    expect(rule(result, 'vehicle_class')?.amountPence ?? null).toBe(amount);
    expect(result.totalPence).toBe(1600 + (amount ?? 0));
  });

  it('wheelchair-accessible vehicles cost nothing extra, and the quote says why', () => {
    const result = priceJourney(base({ vehicleType: 'wav', departAt: NIGHT }));
    expect(rule(result, 'vehicle_class')?.description).toContain('Equality Act 2010 s.165');
    expect(result.totalPence).toBe(2080);
  });

  it('a percentage surcharge follows the night meter', () => {
    // executive at night: 30 % of £20.80 = £6.24; £20.80 + £6.24 = £27.04
    const result = priceJourney(base({ vehicleType: 'executive', departAt: NIGHT }));
    expect(rule(result, 'vehicle_class')?.amountPence).toBe(624);
    expect(result.totalPence).toBe(2704);
  });
});

describe('rate override', () => {
  it('applies an approved driver rate to the metered fare and says who approved it', () => {
    // £16.00 - 10 % = £14.40 -> rule -£1.60
    const result = priceJourney(base({ override: override() }));
    const applied = rule(result, 'rate_override');
    expect(applied?.amountPence).toBe(-160);
    expect(applied?.description).toContain('j.smith@ops');
    expect(applied?.description).toContain('2026-01-10T09:00:00Z');
    expect(result.totalPence).toBe(1440);
  });

  it("its minimum fare replaces the tariff's", () => {
    // national default, 300 m / 60 s: raw meter £3.40; tariff minimum £4.20 -> metered £4.20
    // override -10 % with a £5.00 minimum: max(£3.40 - 34p, £5.00) = £5.00 -> rule +80p
    const short = (o: RateOverride) =>
      priceJourney(request({ pickup: LEEDS, route: route(300, 60), departAt: DAY, override: o }));
    const withFloor = short(override({ minimumFarePence: 500 }));
    expect(rule(withFloor, 'rate_override')?.amountPence).toBe(80);
    expect(withFloor.totalPence).toBe(500);
    // +5 % and no own minimum: max(£3.40 + 17p, £4.20) = £4.20 -> no change
    const noFloor = short(override({ adjustmentBasisPoints: 500 }));
    expect(rule(noFloor, 'rate_override')?.amountPence).toBe(0);
    expect(noFloor.totalPence).toBe(420);
  });

  it('rounds a fractional penny in the passenger\'s favour', () => {
    // -3.33 % of £16.00 = -53.28p -> -54p
    expect(rule(priceJourney(base({ override: override({ adjustmentBasisPoints: -333 }) })), 'rate_override')?.amountPence).toBe(-54);
  });
});

describe('worldwide', () => {
  const jersey = (worldwide: boolean) =>
    request({ pickup: ST_HELIER, dropoff: JERSEY_AIRPORT, route: route(5000, 600), departAt: DAY, worldwide });

  it('rejects a journey outside the UK unless worldwide is set', () => {
    expect(() => priceJourney(jersey(false))).toThrow(PricingError);
    try {
      priceJourney(jersey(false));
    } catch (err) {
      expect(err).toBeInstanceOf(PricingError);
      expect((err as PricingError).code).toBe('outside_service_area');
      expect((err as PricingError).message).toMatch(/worldwide: true/);
    }
  });

  it('prices an accepted worldwide journey on the national default, with no extra', () => {
    // national default day, 5 km / 600 s = £10.80 (national-default.test.ts); worldwide rule £0
    const result = priceJourney(jersey(true));
    expect(result.tariff.areaId).toBe('national-default');
    expect(rule(result, 'worldwide')?.amountPence).toBe(0);
    expect(codes(result)).toEqual(['tariff_period', 'worldwide']);
    expect(result.totalPence).toBe(1080);
  });

  it('a London pickup to Jersey is also priced on the national default', () => {
    const result = priceJourney(request({ pickup: WESTMINSTER, dropoff: ST_HELIER, route: route(5000, 600), departAt: DAY, worldwide: true }));
    expect(result.tariff.areaId).toBe('national-default');
    expect(() => priceJourney(request({ pickup: WESTMINSTER, dropoff: ST_HELIER, route: route(5000, 600), departAt: DAY }))).toThrow(/outside the UK/);
  });
});

describe('request validation', () => {
  it('rejects nonsense before pricing', () => {
    expect(() => priceJourney(base({ passengers: 0 }))).toThrow(RangeError);
    expect(() => priceJourney(base({ departAt: new Date('nope') }))).toThrow(RangeError);
    expect(() => priceJourney(base({ route: route(-1, 10) }))).toThrow(RangeError);
  });
});
