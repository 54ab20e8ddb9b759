// The amendment fit check (applyAmendment) and the candidate decision are one policy: the same
// driver and the same job get the same verdict and the same reason from both, for every rule about
// the driver and the job (licence at pickup, clashing jobs, seats, class, wheelchair access).
import type { LogLevel, LogMetadata, Logger } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Sql } from '../../../src/db/sql.js';
import {
  decideDriver,
  heldJobMisfit,
  jobFit,
  type DriverSnapshot,
  type JobNeeds,
  type SkipReason,
} from '../../../src/dispatch/policy.js';
import type { Notifier } from '../../../src/notify/notifier.js';
import type { JobSpec } from '../../../src/model/bookings.js';

// applyAmendment's reads and writes, replaced so the test sees exactly the driver it decides on.
// The pickup time read before and after is the same: a driver kept on the job is not told of a move.
const db = vi.hoisted(() => ({
  driver: null as DriverSnapshot | null,
  durationS: 900,
  pickupAt: new Date('2026-12-24T06:30:00Z'),
}));
vi.mock('../../../src/bookings/store.js', () => ({
  updateJob: vi.fn(async () => {}),
  loadBooking: vi.fn(async () => ({ duration_s: db.durationS, pickup_at: db.pickupAt })),
}));
vi.mock('../../../src/dispatch/store.js', () => ({
  readHeldJobDriver: vi.fn(async () => db.driver),
}));
const { createBookingRecordActivities } = await import('../../../activities/bookings/records.js');
const { readHeldJobDriver } = await import('../../../src/dispatch/store.js');

const PICKUP = { lat: 53.4808, lon: -2.2426 };
const NOW = new Date();
const PICKUP_AT = new Date(NOW.getTime() + 60 * 60_000);

function job(over: Partial<JobSpec> = {}): JobSpec {
  return {
    pickupAt: PICKUP_AT.toISOString(),
    passengers: 2,
    vehicleType: 'saloon',
    wheelchair: false,
    notes: null,
    ...over,
  };
}

/** A local driver 1 km from the pickup who may be offered job() and keeps it when amended. */
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
    lat: PICKUP.lat + 0.009,
    lon: PICKUP.lon,
    locationAt: NOW,
    overlappingJobs: 0,
    licenceInvalidFrom: new Date(PICKUP_AT.getTime() + 7 * 86_400_000),
    ...over,
  };
}

const needs = (j: JobSpec): JobNeeds => ({ ...jobFit(j, NOW), pickup: PICKUP, pickupArea: 'manchester' });
const candidate = (d: DriverSnapshot, j: JobSpec) => decideDriver(d, needs(j), new Set());

/** What a user would notice: each rule failed alone, and a driver who fits. */
const cases: Array<[string, DriverSnapshot, JobSpec, SkipReason | null]> = [
  ['a driver who fits', driver(), job(), null],
  ['more passengers than seats', driver(), job({ passengers: 5 }), 'too_few_seats'],
  [
    'a wheelchair job and a car without access',
    driver({ vehicleType: 'mpv', seats: 7 }),
    job({ wheelchair: true }),
    'not_wheelchair_accessible',
  ],
  [
    'a wav job and a car without access',
    driver({ vehicleType: 'wav', seats: 5 }),
    job({ vehicleType: 'wav' }),
    'not_wheelchair_accessible',
  ],
  ['a class the car cannot serve', driver(), job({ vehicleType: 'executive' }), 'vehicle_class'],
  [
    'a WAV asked for an executive job',
    driver({ vehicleType: 'wav', seats: 5, wheelchairAccessible: true }),
    job({ vehicleType: 'executive' }),
    'vehicle_class',
  ],
  [
    'a licence that runs out before pickup',
    driver({ licenceInvalidFrom: new Date(PICKUP_AT.getTime() - 60_000) }),
    job(),
    'licence_expired',
  ],
  [
    'a licence that ran out already',
    driver({ licenceInvalidFrom: new Date(NOW.getTime() - 86_400_000) }),
    job(),
    'licence_expired',
  ],
  ['another job within the buffer', driver({ overlappingJobs: 1 }), job(), 'busy'],
  [
    'several failures: the first in the documented order',
    driver({ overlappingJobs: 1, seats: 2 }),
    job({ passengers: 5, vehicleType: 'executive' }),
    'busy',
  ],
];

describe('the amendment fit check and the candidate decision', () => {
  it.each(cases)('agree on %s', (_what, d, j, reason) => {
    const offered = candidate(d, j);
    expect(offered.skipReason).toBe(reason);
    expect(offered.eligible).toBe(reason === null);
    expect(heldJobMisfit(d, jobFit(j, NOW))).toBe(reason);
  });

  it('agree on every combination of the job rules', () => {
    const flips = {
      licence: [null, new Date(PICKUP_AT.getTime() - 1)],
      overlappingJobs: [0, 2],
      seats: [4, 1],
      vehicleType: ['saloon', 'luxury', 'wav'],
      wheelchairAccessible: [false, true],
    } as const;
    let checked = 0;
    for (const licence of flips.licence)
      for (const overlappingJobs of flips.overlappingJobs)
        for (const seats of flips.seats)
          for (const vehicleType of flips.vehicleType)
            for (const wheelchairAccessible of flips.wheelchairAccessible)
              for (const j of [
                job(),
                job({ wheelchair: true }),
                job({ vehicleType: 'wav' }),
                job({ vehicleType: 'luxury', passengers: 1 }),
              ]) {
                const d = driver({
                  licenceInvalidFrom: licence,
                  overlappingJobs,
                  seats,
                  vehicleType,
                  wheelchairAccessible,
                });
                expect(heldJobMisfit(d, jobFit(j, NOW)), JSON.stringify({ d, j })).toBe(candidate(d, j).skipReason);
                checked += 1;
              }
    expect(checked).toBe(2 * 2 * 2 * 3 * 2 * 4);
  });

  it('leave a held job with its driver for what only a new offer asks (online, position, reach, earlier offers)', () => {
    for (const d of [
      driver({ online: false }),
      driver({ locationAt: null }),
      driver({ lat: PICKUP.lat + 1 }),
      driver({ homeArea: 'glasgow' }),
    ]) {
      expect(candidate(d, job()).eligible).toBe(false);
      expect(heldJobMisfit(d, jobFit(job(), NOW))).toBeNull();
    }
  });
});

describe('applyAmendment', () => {
  const logged: Array<{ message: string; meta?: LogMetadata }> = [];
  const logger: Logger = {
    log: (_level: LogLevel, message: string, meta?: LogMetadata) => void logged.push({ message, meta }),
    trace: (message, meta) => void logged.push({ message, meta }),
    debug: (message, meta) => void logged.push({ message, meta }),
    info: (message, meta) => void logged.push({ message, meta }),
    warn: (message, meta) => void logged.push({ message, meta }),
    error: (message, meta) => void logged.push({ message, meta }),
  };
  const activities = createBookingRecordActivities({ sql: {} as Sql, notifier: {} as Notifier });
  type Amendment = Parameters<typeof activities.applyAmendment>[0];
  const amend = (a: Amendment) =>
    new MockActivityEnvironment(undefined, { logger }).run<
      [Amendment],
      { driverStillFits: boolean },
      (a: Amendment) => Promise<{ driverStillFits: boolean }>
    >((x) => activities.applyAmendment(x), a);
  beforeEach(() => {
    logged.length = 0;
    vi.mocked(readHeldJobDriver).mockClear();
  });

  it.each(cases)('decides %s as the candidate decision does, and logs the same reason', async (_what, d, j, reason) => {
    db.driver = d;
    const { driverStillFits } = await amend({ ref: 'TXTEST', job: j, driverId: d.id });
    expect(driverStillFits).toBe(candidate(d, j).eligible);
    const misfit = logged.find((l) => l.message === 'driver no longer fits the amended booking');
    expect(misfit?.meta?.reason ?? null).toBe(reason);
    // The load is read over the amended trip's window (pickup to pickup + duration); the buffer is the SQL's.
    expect(vi.mocked(readHeldJobDriver).mock.calls[0]?.[1]).toEqual({
      driverId: d.id,
      ref: 'TXTEST',
      start: PICKUP_AT,
      end: new Date(PICKUP_AT.getTime() + db.durationS * 1000),
    });
  });

  it('keeps an unassigned booking as it is', async () => {
    expect(await amend({ ref: 'TXTEST', job: job(), driverId: null })).toEqual({ driverStillFits: true });
    expect(readHeldJobDriver).not.toHaveBeenCalled();
  });
});
