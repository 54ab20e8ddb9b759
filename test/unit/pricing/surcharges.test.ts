import { describe, expect, it } from 'vitest';
import {
  MEET_AND_GREET_PENCE,
  PricingError,
  VEHICLE_TYPES,
  priceJourney,
  type RateOverride,
} from '../../../src/pricing/index.js';
import {
  DIDSBURY,
  HARROGATE,
  JERSEY_AIRPORT,
  MANCHESTER_AIRPORT,
  MANCHESTER_CENTRE,
  MILE,
  ST_HELIER,
  WESTMINSTER,
  codes,
  request,
  route,
  rule,
} from './fixtures.js';

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
  it('adds £25.00 when requested at an airport, at either end', () => {
    expect(MEET_AND_GREET_PENCE).toBe(2500);
    for (const trip of [{ pickup: MANCHESTER_AIRPORT }, { dropoff: MANCHESTER_AIRPORT }]) {
      const plain = priceJourney(base(trip));
      const result = priceJourney(base({ ...trip, meetAndGreet: true }));
      expect(rule(result, 'meet_and_greet')?.amountPence).toBe(2500);
      expect(result.totalPence).toBe(plain.totalPence + 2500);
    }
  });

  it('adds nothing on a trip with no airport at either end, and says why', () => {
    const result = priceJourney(base({ meetAndGreet: true }));
    expect(rule(result, 'meet_and_greet')).toBeUndefined();
    expect(rule(result, 'meet_and_greet_not_applied')).toMatchObject({
      amountPence: 0,
      description: expect.stringContaining('airport'),
    });
    expect(result.totalPence).toBe(1600);
  });
});

describe('vehicle classes', () => {
  // The council's table is the maximum fare whatever car takes the hire, so no class adds
  // anything: every class costs the £16.00 day meter, the same as a saloon.
  it.each(VEHICLE_TYPES)('%s by day costs the same as a saloon', (vehicleType) => {
    const result = priceJourney(base({ vehicleType }));
    // £3.40 + 63 x 20p = £16.00 (manchester.test.ts); nothing added for the class
    expect(result.totalPence).toBe(1600);
    expect(result.rules.reduce((sum, r) => sum + r.amountPence, 0)).toBe(0);
    // Only the wheelchair-accessible vehicle is itemised (at zero) to say why it costs no more.
    expect(codes(result)).toEqual(vehicleType === 'wav' ? ['tariff_period', 'vehicle_class'] : ['tariff_period']);
  });

  it('wheelchair-accessible vehicles cost nothing extra, and the quote says why', () => {
    const result = priceJourney(base({ vehicleType: 'wav', departAt: NIGHT }));
    expect(rule(result, 'vehicle_class')).toMatchObject({ amountPence: 0 });
    expect(rule(result, 'vehicle_class')?.description).toContain('Equality Act 2010 s.165');
    // night meter £3.80 + 85 x 20p = £20.80 (manchester.test.ts), nothing added
    expect(result.totalPence).toBe(2080);
  });

  it('an executive car at night is the night meter, nothing more', () => {
    // night meter £20.80; no class uplift (it used to add 30 % = £6.24, above the council maximum)
    const result = priceJourney(base({ vehicleType: 'executive', departAt: NIGHT }));
    expect(rule(result, 'vehicle_class')).toBeUndefined();
    expect(result.totalPence).toBe(2080);
  });

  it('a larger vehicle costs more only where the council table says so (Manchester: 20p per extra passenger)', () => {
    // £16.00 meter + (6 - 1) passengers beyond the hirer x 20p = £1.00 -> £17.00; the MPV itself adds nothing
    const result = priceJourney(base({ vehicleType: 'mpv', passengers: 6 }));
    expect(codes(result)).toEqual(['tariff_period', 'extra_passengers']);
    expect(result.totalPence).toBe(1700);
  });

  it('an approved override is still applied to a larger vehicle', () => {
    // £16.00 meter, +15 % approved rate: £16.00 + £2.40 = £18.40 -> rule +£2.40
    const result = priceJourney(
      base({ vehicleType: 'executive', override: override({ adjustmentBasisPoints: 1500 }) }),
    );
    expect(rule(result, 'rate_override')?.amountPence).toBe(240);
    expect(result.totalPence).toBe(1840);
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
      priceJourney(request({ pickup: HARROGATE, route: route(300, 60), departAt: DAY, override: o }));
    const withFloor = short(override({ minimumFarePence: 500 }));
    expect(rule(withFloor, 'rate_override')?.amountPence).toBe(80);
    expect(withFloor.totalPence).toBe(500);
    // +5 % and no own minimum: max(£3.40 + 17p, £4.20) = £4.20 -> no change
    const noFloor = short(override({ adjustmentBasisPoints: 500 }));
    expect(rule(noFloor, 'rate_override')?.amountPence).toBe(0);
    expect(noFloor.totalPence).toBe(420);
  });

  it("rounds a fractional penny in the passenger's favour", () => {
    // -3.33 % of £16.00 = -53.28p -> -54p
    expect(
      rule(priceJourney(base({ override: override({ adjustmentBasisPoints: -333 }) })), 'rate_override')?.amountPence,
    ).toBe(-54);
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
    const result = priceJourney(
      request({ pickup: WESTMINSTER, dropoff: ST_HELIER, route: route(5000, 600), departAt: DAY, worldwide: true }),
    );
    expect(result.tariff.areaId).toBe('national-default');
    expect(() =>
      priceJourney(request({ pickup: WESTMINSTER, dropoff: ST_HELIER, route: route(5000, 600), departAt: DAY })),
    ).toThrow(/outside the UK/);
  });
});

describe('request validation', () => {
  it('rejects nonsense before pricing', () => {
    expect(() => priceJourney(base({ passengers: 0 }))).toThrow(RangeError);
    expect(() => priceJourney(base({ departAt: new Date('nope') }))).toThrow(RangeError);
    expect(() => priceJourney(base({ route: route(-1, 10) }))).toThrow(RangeError);
  });
});
