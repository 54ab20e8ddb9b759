import { describe, expect, it } from 'vitest';
import {
  DEFAULT_CASCADE_POLICY,
  rankTier,
  vehicleCanServe,
  VEHICLE_SERVED_BY,
  type DriverSnapshot,
  type JobNeeds,
  type SkipReason,
} from '../../../src/dispatch/policy.js';
import { TIERS } from '../../../src/model/bookings.js';
import { haversineMeters } from '../../../src/geo/haversine.js';
import { VEHICLE_TYPES } from '../../../src/pricing/types.js';
import { SEATS } from '../../../src/quotes/vehicle-choice.js';

// Manchester Piccadilly Gardens. One degree of latitude is ~111.2 km, so 0.01° north ~ 1.11 km.
const PICKUP = { lat: 53.4808, lon: -2.2426 };
const NOW = new Date('2026-06-01T12:00:00Z');
/** Dispatched the default 15 minutes ahead of pickup. */
const PICKUP_AT = new Date(NOW.getTime() + 15 * 60_000);
const KM_LAT = 1 / 111.195;

function needs(over: Partial<JobNeeds> = {}): JobNeeds {
  return {
    pickup: PICKUP,
    pickupArea: 'manchester',
    passengers: 1,
    vehicleType: 'saloon',
    wheelchair: false,
    pickupAt: PICKUP_AT,
    now: NOW,
    ...over,
  };
}

/** A driver who passes every check for needs(): local, approved, online, fresh, 1 km north of the pickup. */
function driver(over: Partial<DriverSnapshot> = {}): DriverSnapshot {
  return {
    id: 'drv-1',
    name: 'Driver One',
    tier: 'local',
    homeArea: 'manchester',
    partnerFleetId: null,
    partnerFleetApproved: null,
    approved: true,
    online: true,
    vehicleType: 'saloon',
    seats: 4,
    wheelchairAccessible: false,
    lat: PICKUP.lat + KM_LAT,
    lon: PICKUP.lon,
    locationAt: new Date(NOW.getTime() - 60_000),
    overlappingJobs: 0,
    ...over,
  };
}

/** A partner fleet's driver whose fleet holds a private hire operator licence valid a year on. */
const YEAR_ON = new Date(NOW.getTime() + 365 * 24 * 3600_000);
const partner = (over: Partial<DriverSnapshot> = {}) =>
  driver({
    tier: 'partner',
    homeArea: null,
    partnerFleetId: 'fleet-a',
    partnerFleetApproved: true,
    fleetLicences: { private_hire: YEAR_ON, psv: null },
    ...over,
  });

function only(
  tier: DriverSnapshot['tier'],
  d: DriverSnapshot,
  n: JobNeeds = needs(),
  offered: ReadonlySet<string> = new Set(),
) {
  const decisions = rankTier(tier, [d], n, offered);
  expect(decisions).toHaveLength(1);
  return decisions[0]!;
}

describe('rankTier skip reasons', () => {
  it('accepts a driver who passes every check', () => {
    expect(only('local', driver({ licenceInvalidFrom: new Date(PICKUP_AT.getTime() + 1) })).eligible).toBe(true);
    const d = only('local', driver());
    expect(d).toEqual({
      driverId: 'drv-1',
      driverName: 'Driver One',
      tier: 'local',
      distanceMeters: 1000,
      eligible: true,
      skipReason: null,
      // A new driver (no answers on record) is ranked as if 1 km further: ranking by how drivers answer below.
      rankMeters: 2000,
      answerRate: 0.5,
    });
  });

  const cases: Array<[SkipReason, DriverSnapshot['tier'], DriverSnapshot, JobNeeds?, string[]?]> = [
    ['not_approved', 'local', driver({ approved: false })],
    // A licence runs out at the end of its expiry day: from then on, no offers.
    ['licence_expired', 'local', driver({ licenceInvalidFrom: new Date('2026-06-01T00:00:00Z') })],
    ['licence_expired', 'local', driver({ licenceInvalidFrom: NOW })],
    // Valid when offered but not at pickup: the driver could not lawfully do the job.
    ['licence_expired', 'local', driver({ licenceInvalidFrom: PICKUP_AT })],
    // A pickup already past (a late retry) still needs a licence valid now.
    [
      'licence_expired',
      'local',
      driver({ licenceInvalidFrom: NOW }),
      needs({ pickupAt: new Date(NOW.getTime() - 60_000) }),
    ],
    ['fleet_not_approved', 'partner', partner({ partnerFleetApproved: false })],
    ['fleet_not_approved', 'partner', partner({ partnerFleetId: null, partnerFleetApproved: null })],
    // Sub-contracting (1976 Act s.55A): the partner fleet's operator licence must be on file, of the
    // vehicle's kind, and valid at pickup.
    ['operator_licence_missing', 'partner', partner({ fleetLicences: null })],
    ['operator_licence_missing', 'partner', partner({ fleetLicences: { private_hire: null, psv: null } })],
    // A minibus of nine or more seats is a PSV: a private hire licence does not cover it...
    [
      'operator_licence_wrong_kind',
      'partner',
      partner({ vehicleType: 'mpv', seats: 12 }),
      needs({ vehicleType: 'mpv' }),
    ],
    // ...nor a PSV licence a car.
    ['operator_licence_wrong_kind', 'partner', partner({ fleetLicences: { private_hire: null, psv: YEAR_ON } })],
    ['operator_licence_expired', 'partner', partner({ fleetLicences: { private_hire: PICKUP_AT, psv: null } })],
    ['operator_licence_expired', 'partner', partner({ fleetLicences: { private_hire: NOW, psv: null } })],
    // A date that cannot be read is no licence (fails closed).
    [
      'operator_licence_missing',
      'partner',
      partner({ fleetLicences: { private_hire: new Date(Number.NaN), psv: null } }),
    ],
    ['offline', 'local', driver({ online: false })],
    ['no_location', 'local', driver({ lat: null, lon: null })],
    ['no_location', 'local', driver({ locationAt: null })],
    [
      'stale_location',
      'local',
      driver({ locationAt: new Date(NOW.getTime() - DEFAULT_CASCADE_POLICY.freshLocationMs - 1) }),
    ],
    ['out_of_area', 'local', driver({ homeArea: 'glasgow' })],
    ['out_of_area', 'local', driver({ homeArea: null })],
    ['too_far', 'local', driver({ lat: PICKUP.lat + 16 * KM_LAT })],
    ['busy', 'local', driver({ overlappingJobs: 1 })],
    ['too_few_seats', 'local', driver(), needs({ passengers: 5 })],
    ['vehicle_class', 'local', driver(), needs({ vehicleType: 'executive' })],
    ['not_wheelchair_accessible', 'local', driver({ vehicleType: 'mpv', seats: 8 }), needs({ wheelchair: true })],
    ['already_offered', 'local', driver(), needs(), ['drv-1']],
    // A medical exemption in date at pickup, for what it exempts (docs/accessibility.md).
    [
      'exempt_from_assistance_dogs',
      'local',
      driver({ exemptions: { assistanceDogs: YEAR_ON, wheelchairAssistance: null } }),
      needs({ assistanceDog: true }),
    ],
    [
      'exempt_from_wheelchair_assistance',
      'local',
      driver({
        vehicleType: 'wav',
        seats: 5,
        wheelchairAccessible: true,
        exemptions: { assistanceDogs: null, wheelchairAssistance: YEAR_ON },
      }),
      needs({ vehicleType: 'wav', wheelchair: true }),
    ],
  ];
  it.each(cases)('reports %s', (reason, tier, d, n = needs(), offered = []) => {
    const decision = only(tier, d, n, new Set(offered));
    expect(decision.eligible).toBe(false);
    expect(decision.skipReason).toBe(reason);
  });

  it('reports the first failing reason in the documented order', () => {
    const everythingWrong = driver({
      approved: false,
      online: false,
      homeArea: 'glasgow',
      overlappingJobs: 3,
      seats: 1,
      vehicleType: 'saloon',
    });
    const n = needs({ passengers: 6, vehicleType: 'wav', wheelchair: true });
    const offered = new Set(['drv-1']);
    const peel = (over: Partial<DriverSnapshot>) =>
      only('local', { ...everythingWrong, ...over }, n, offered).skipReason;

    expect(peel({})).toBe('not_approved');
    expect(peel({ approved: true })).toBe('offline');
    expect(peel({ approved: true, online: true, lat: null })).toBe('no_location');
    expect(peel({ approved: true, online: true, locationAt: new Date(0) })).toBe('stale_location');
    expect(peel({ approved: true, online: true })).toBe('out_of_area');
    expect(peel({ approved: true, online: true, homeArea: 'manchester', lat: PICKUP.lat + 0.5 })).toBe('too_far');
    expect(peel({ approved: true, online: true, homeArea: 'manchester' })).toBe('busy');
    const free = { approved: true, online: true, homeArea: 'manchester', overlappingJobs: 0 };
    expect(peel(free)).toBe('too_few_seats');
    expect(peel({ ...free, seats: 6 })).toBe('vehicle_class');
    expect(peel({ ...free, seats: 6, vehicleType: 'wav' })).toBe('not_wheelchair_accessible');
    expect(peel({ ...free, seats: 6, vehicleType: 'wav', wheelchairAccessible: true })).toBe('already_offered');
    expect(
      only('local', { ...everythingWrong, ...free, seats: 6, vehicleType: 'wav', wheelchairAccessible: true }, n)
        .eligible,
    ).toBe(true);
  });

  it('checks the fleet before availability for partner drivers', () => {
    expect(only('partner', partner({ partnerFleetApproved: false, online: false })).skipReason).toBe(
      'fleet_not_approved',
    );
    expect(only('partner', partner({ approved: false, partnerFleetApproved: false })).skipReason).toBe('not_approved');
  });

  it('treats a location exactly at the freshness limit, or slightly in the future, as fresh', () => {
    expect(
      only('local', driver({ locationAt: new Date(NOW.getTime() - DEFAULT_CASCADE_POLICY.freshLocationMs) })).eligible,
    ).toBe(true);
    expect(only('local', driver({ locationAt: new Date(NOW.getTime() + 30_000) })).eligible).toBe(true);
  });

  it('still reports the distance of a skipped driver who has a position', () => {
    const d = only('local', driver({ overlappingJobs: 2 }));
    expect(d.skipReason).toBe('busy');
    expect(d.distanceMeters).toBe(1000);
    expect(only('local', driver({ lat: null, lon: null })).distanceMeters).toBeNull();
  });
});

describe('rankTier tiers and distances', () => {
  it('offers a partner fleet driver only while the fleet holds the licence the vehicle needs, valid at pickup', () => {
    expect(only('partner', partner()).eligible).toBe(true);
    expect(
      only('partner', partner({ fleetLicences: { private_hire: new Date(PICKUP_AT.getTime() + 1), psv: null } }))
        .eligible,
    ).toBe(true);
    const minibus = partner({ vehicleType: 'mpv', seats: 12, fleetLicences: { private_hire: null, psv: YEAR_ON } });
    expect(only('partner', minibus, needs({ vehicleType: 'mpv' })).eligible).toBe(true);
    // Drivers of ours are never asked for an operator licence.
    expect(only('local', driver({ fleetLicences: null })).eligible).toBe(true);
  });

  it('respects a medical exemption only for what it exempts, and only while it is in date at pickup', () => {
    const dogExempt = driver({ exemptions: { assistanceDogs: YEAR_ON, wheelchairAssistance: null } });
    // Exempt from dogs: still asked for everything else, a wheelchair user's job included.
    expect(only('local', dogExempt).eligible).toBe(true);
    const wav = { vehicleType: 'wav', seats: 5, wheelchairAccessible: true } as const;
    expect(
      only(
        'local',
        driver({ ...wav, exemptions: dogExempt.exemptions! }),
        needs({ vehicleType: 'wav', wheelchair: true }),
      ).eligible,
    ).toBe(true);
    // Lapsed by pickup (or already): the duty is theirs again.
    for (const until of [PICKUP_AT, NOW, new Date('2026-01-01T00:00:00Z')])
      expect(
        only(
          'local',
          driver({ exemptions: { assistanceDogs: until, wheelchairAssistance: null } }),
          needs({ assistanceDog: true }),
        ).eligible,
        until.toISOString(),
      ).toBe(true);
    // A wheelchair-assistance exemption says nothing about dogs.
    expect(
      only(
        'local',
        driver({ exemptions: { assistanceDogs: null, wheelchairAssistance: YEAR_ON } }),
        needs({ assistanceDog: true }),
      ).eligible,
    ).toBe(true);
  });

  it('uses each tier its own distance limit', () => {
    const at = (km: number) => ({ lat: PICKUP.lat + km * KM_LAT });
    expect(only('local', driver(at(14.9))).eligible).toBe(true);
    expect(only('local', driver(at(15.1))).skipReason).toBe('too_far');
    expect(only('national', driver({ tier: 'national', homeArea: null, ...at(49.9) })).eligible).toBe(true);
    expect(only('national', driver({ tier: 'national', homeArea: null, ...at(50.1) })).skipReason).toBe('too_far');
    expect(only('partner', partner(at(79.9))).eligible).toBe(true);
    expect(only('partner', partner(at(80.1))).skipReason).toBe('too_far');
  });

  it('honours a custom policy', () => {
    const policy = { freshLocationMs: 120_000, maxDistanceMeters: { local: 500, national: 500, partner: 500 } };
    const old = new Date(NOW.getTime() - 180_000);
    expect(rankTier('local', [driver()], needs(), new Set(), policy)[0]?.skipReason).toBe('too_far');
    expect(
      rankTier('local', [driver({ lat: PICKUP.lat, locationAt: old })], needs(), new Set(), policy)[0]?.skipReason,
    ).toBe('stale_location');
    expect(rankTier('local', [driver({ lat: PICKUP.lat, locationAt: old })], needs(), new Set())[0]?.eligible).toBe(
      true,
    );
  });

  it('includes only the drivers of the requested tier', () => {
    const drivers = [
      driver({ id: 'l1' }),
      driver({ id: 'n1', tier: 'national', homeArea: null }),
      partner({ id: 'p1' }),
      // A national driver's home area is irrelevant; a local driver elsewhere is not a national candidate.
      driver({ id: 'n2', tier: 'national', homeArea: 'glasgow' }),
      driver({ id: 'l2', homeArea: 'glasgow' }),
    ];
    const ids = (tier: DriverSnapshot['tier']) => rankTier(tier, drivers, needs(), new Set()).map((d) => d.driverId);
    expect(ids('local')).toEqual(['l1', 'l2']);
    expect(ids('national')).toEqual(['n1', 'n2']);
    expect(ids('partner')).toEqual(['p1']);
    expect(rankTier('national', drivers, needs(), new Set()).every((d) => d.eligible)).toBe(true);
    expect(TIERS).toEqual(['local', 'national', 'partner']);
  });

  it('ranks eligible drivers nearest first, then skipped drivers nearest first with unknown positions last', () => {
    const drivers = [
      driver({ id: 'far', lat: PICKUP.lat + 9 * KM_LAT }),
      driver({ id: 'nowhere', lat: null, lon: null }),
      driver({ id: 'busy-near', lat: PICKUP.lat + 0.2 * KM_LAT, overlappingJobs: 1 }),
      driver({ id: 'near', lat: PICKUP.lat + 2 * KM_LAT }),
      driver({ id: 'busy-far', lat: PICKUP.lat + 5 * KM_LAT, overlappingJobs: 1 }),
      driver({ id: 'mid', lat: PICKUP.lat, lon: PICKUP.lon + 0.06 }),
    ];
    const ranked = rankTier('local', drivers, needs(), new Set());
    expect(ranked.map((d) => [d.driverId, d.eligible])).toEqual([
      ['near', true],
      ['mid', true],
      ['far', true],
      ['busy-near', false],
      ['busy-far', false],
      ['nowhere', false],
    ]);
    const mid = ranked.find((d) => d.driverId === 'mid')!;
    expect(mid.distanceMeters).toBe(Math.round(haversineMeters(PICKUP.lat, PICKUP.lon + 0.06, PICKUP.lat, PICKUP.lon)));
  });

  it('breaks distance ties by driver id, whatever the input order', () => {
    const west = { lat: PICKUP.lat, lon: PICKUP.lon - 0.03 };
    const east = { lat: PICKUP.lat, lon: PICKUP.lon + 0.03 };
    const a = [driver({ id: 'drv-b', ...west }), driver({ id: 'drv-c', ...east }), driver({ id: 'drv-a', ...east })];
    const expected = ['drv-a', 'drv-b', 'drv-c'];
    expect(rankTier('local', a, needs(), new Set()).map((d) => d.driverId)).toEqual(expected);
    expect(rankTier('local', [...a].reverse(), needs(), new Set()).map((d) => d.driverId)).toEqual(expected);
  });

  it('does not mutate its input', () => {
    const drivers = [driver({ id: 'z', lat: PICKUP.lat + 3 * KM_LAT }), driver({ id: 'a' })];
    const copy = structuredClone(drivers);
    rankTier('local', drivers, needs(), new Set());
    expect(drivers).toEqual(copy);
  });
});

describe('ranking by how drivers answer', () => {
  const at = (id: string, km: number, answers?: { cards: number; accepted: number }) =>
    driver({ id, lat: PICKUP.lat + km * KM_LAT, ...(answers ? { answers } : {}) });
  const order = (drivers: DriverSnapshot[], policy = DEFAULT_CASCADE_POLICY) =>
    rankTier('local', drivers, needs(), new Set(), policy).map((d) => d.driverId);

  it('asks a driver who accepts their cards before a slightly nearer one who leaves them', () => {
    // 1.0 km, 1 of 10 accepted: rate (1 + 2) / (10 + 4) = 0.21, ranked at 1000 + 0.79 x 2000 = 2571 m.
    // 1.5 km, 9 of 10 accepted: rate 11 / 14 = 0.79, ranked at 1500 + 0.21 x 2000 = 1929 m.
    expect(
      order([at('ignores', 1, { cards: 10, accepted: 1 }), at('answers', 1.5, { cards: 10, accepted: 9 })]),
    ).toEqual(['answers', 'ignores']);
  });

  it('keeps distance first where the difference is large', () => {
    // 0.5 km and never accepts (0 of 20: rate 2 / 24, ranked at 2333 m) against 3 km and always (ranked at 3167 m).
    expect(
      order([at('far-reliable', 3, { cards: 20, accepted: 20 }), at('near', 0.5, { cards: 20, accepted: 0 })]),
    ).toEqual(['near', 'far-reliable']);
  });

  it('gives a new driver the middle of the field, and two ignored cards bury nobody', () => {
    const ranked = rankTier(
      'local',
      [at('new', 1), at('two-ignored', 1, { cards: 2, accepted: 0 }), at('steady', 1, { cards: 30, accepted: 27 })],
      needs(),
      new Set(),
    );
    expect(ranked.map((d) => d.driverId)).toEqual(['steady', 'new', 'two-ignored']);
    // New: rate 0.5, ranked 1 km further; two ignored: 2 / 6, 1.33 km further; distances as they are.
    const rank = (id: string) => ranked.find((d) => d.driverId === id)!;
    expect(rank('new').rankMeters! - rank('new').distanceMeters!).toBe(1000);
    expect(rank('two-ignored').rankMeters! - rank('two-ignored').distanceMeters!).toBe(1333);
    expect(rank('new').distanceMeters).toBe(rank('steady').distanceMeters);
  });

  it('ranks on distance alone with no handicap', () => {
    const drivers = [at('ignores', 1, { cards: 10, accepted: 0 }), at('answers', 1.2, { cards: 10, accepted: 10 })];
    expect(order(drivers, { ...DEFAULT_CASCADE_POLICY, answerHandicapMeters: 0 })).toEqual(['ignores', 'answers']);
    expect(order(drivers)).toEqual(['answers', 'ignores']);
  });
});

describe('already offered', () => {
  it('skips drivers offered in an earlier round and keeps the rest in order', () => {
    const drivers = [
      driver({ id: 'a' }),
      driver({ id: 'b', lat: PICKUP.lat + 2 * KM_LAT }),
      driver({ id: 'c', lat: PICKUP.lat + 3 * KM_LAT }),
    ];
    const ranked = rankTier('local', drivers, needs(), new Set(['a', 'c']));
    expect(ranked.map((d) => [d.driverId, d.skipReason])).toEqual([
      ['b', null],
      ['a', 'already_offered'],
      ['c', 'already_offered'],
    ]);
  });

  it('reports a more basic reason ahead of already_offered', () => {
    expect(only('local', driver({ overlappingJobs: 1 }), needs(), new Set(['drv-1'])).skipReason).toBe('busy');
  });
});

describe('seats and wheelchair access', () => {
  it('compares passengers with the driver’s own seats', () => {
    expect(only('local', driver({ vehicleType: 'mpv', seats: 8 }), needs({ passengers: 8 })).eligible).toBe(true);
    expect(only('local', driver({ vehicleType: 'mpv', seats: 7 }), needs({ passengers: 8 })).skipReason).toBe(
      'too_few_seats',
    );
    expect(only('local', driver({ seats: 4 }), needs({ passengers: 4 })).eligible).toBe(true);
  });

  it('never sends a 7-seater to an eight-person MPV job', () => {
    expect(
      only('local', driver({ vehicleType: '7seater', seats: 7 }), needs({ vehicleType: 'mpv', passengers: 8 }))
        .skipReason,
    ).toBe('too_few_seats');
    expect(
      only('local', driver({ vehicleType: '7seater', seats: 7 }), needs({ vehicleType: 'mpv', passengers: 6 }))
        .eligible,
    ).toBe(true);
  });

  it('serves a wav request only with a wheelchair-accessible WAV, even when the wheelchair flag is not set', () => {
    const wav = driver({ vehicleType: 'wav', seats: 5, wheelchairAccessible: true });
    expect(only('local', wav, needs({ vehicleType: 'wav' })).eligible).toBe(true);
    expect(only('local', wav, needs({ vehicleType: 'wav', wheelchair: true })).eligible).toBe(true);
    expect(
      only(
        'local',
        driver({ vehicleType: 'wav', seats: 5, wheelchairAccessible: false }),
        needs({ vehicleType: 'wav' }),
      ).skipReason,
    ).toBe('not_wheelchair_accessible');
    expect(
      only('local', driver({ vehicleType: 'mpv', seats: 8, wheelchairAccessible: true }), needs({ vehicleType: 'wav' }))
        .skipReason,
    ).toBe('vehicle_class');
  });

  it('lets an accessible vehicle of a compatible class take a wheelchair job of that class', () => {
    const accessibleMpv = driver({ vehicleType: 'mpv', seats: 8, wheelchairAccessible: true });
    expect(only('local', accessibleMpv, needs({ vehicleType: 'saloon', wheelchair: true })).eligible).toBe(true);
  });

  it('offers a WAV (the usual hackney) any job its seats fit, and no comfort class', () => {
    const wav = driver({ vehicleType: 'wav', seats: 5, wheelchairAccessible: true });
    expect(only('local', wav, needs({ vehicleType: 'saloon' })).eligible).toBe(true);
    expect(only('local', wav, needs({ vehicleType: '5seater', passengers: 5 })).eligible).toBe(true);
    expect(only('local', wav, needs({ vehicleType: 'saloon', passengers: 6 })).skipReason).toBe('too_few_seats');
    expect(only('local', wav, needs({ vehicleType: 'executive' })).skipReason).toBe('vehicle_class');
  });
});

describe('vehicleCanServe', () => {
  // Rows: requested class; the set lists every driver class that may serve it.
  const expected: Record<string, string[]> = {
    saloon: ['saloon', 'estate', 'executive', 'luxury', '5seater', '6seater', '7seater', 'mpv', 'wav'],
    estate: ['estate', 'mpv', '7seater', 'wav'],
    executive: ['executive', 'luxury'],
    luxury: ['luxury'],
    '5seater': ['5seater', '6seater', '7seater', 'mpv', 'wav'],
    '6seater': ['6seater', '7seater', 'mpv'],
    '7seater': ['7seater', 'mpv'],
    mpv: ['mpv', '7seater'],
    wav: ['wav'],
  };

  it.each(
    VEHICLE_TYPES.flatMap((requested) => VEHICLE_TYPES.map((driverVehicle) => [driverVehicle, requested] as const)),
  )('%s for a %s request', (driverVehicle, requested) => {
    expect(vehicleCanServe(driverVehicle, requested)).toBe(expected[requested]!.includes(driverVehicle));
  });

  it('covers every vehicle class, always serves a class with itself, and never serves a class with fewer seats except 7seater for mpv', () => {
    expect(Object.keys(VEHICLE_SERVED_BY).sort()).toEqual([...VEHICLE_TYPES].sort());
    for (const requested of VEHICLE_TYPES) {
      expect(VEHICLE_SERVED_BY[requested]).toContain(requested);
      for (const server of VEHICLE_SERVED_BY[requested]) {
        if (requested === 'mpv' && server === '7seater') continue;
        expect(SEATS[server]).toBeGreaterThanOrEqual(SEATS[requested]);
      }
    }
  });

  it('serves an unknown class (v1 booking vehicleType is free text) only with a vehicle of the same name', () => {
    expect(vehicleCanServe('limousine', 'limousine')).toBe(true);
    expect(vehicleCanServe('mpv', 'limousine')).toBe(false);
    expect(vehicleCanServe('limousine', 'saloon')).toBe(false);
    expect(vehicleCanServe('saloon', 'toString')).toBe(false);
  });
});
