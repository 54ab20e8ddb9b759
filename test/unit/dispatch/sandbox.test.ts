// The sandbox and the live service never meet (docs/partners.md, "Sandbox keys"): a sandbox booking
// is offered to sandbox (test) drivers only, a sandbox driver never a live booking; the reason is
// recorded before any other.
import { describe, expect, it } from 'vitest';
import { rankTier, type DriverSnapshot, type JobNeeds } from '../../../src/dispatch/policy.js';

const PICKUP = { lat: 54.4846, lon: -0.6154 };
const NOW = new Date('2026-06-01T12:00:00Z');
const needs = (over: Partial<JobNeeds> = {}): JobNeeds => ({
  pickup: PICKUP,
  pickupArea: 'national-default',
  passengers: 1,
  vehicleType: 'saloon',
  wheelchair: false,
  pickupAt: new Date(NOW.getTime() + 15 * 60_000),
  now: NOW,
  ...over,
});
const driver = (id: string, over: Partial<DriverSnapshot> = {}): DriverSnapshot => ({
  id,
  name: id,
  tier: 'local',
  homeArea: 'national-default',
  partnerFleetId: null,
  partnerFleetApproved: null,
  approved: true,
  online: true,
  vehicleType: 'saloon',
  seats: 4,
  wheelchairAccessible: false,
  lat: PICKUP.lat + 0.001,
  lon: PICKUP.lon,
  locationAt: NOW,
  overlappingJobs: 0,
  ...over,
});

describe('the sandbox rule', () => {
  const live = driver('live-near');
  const test = driver('test-far', { sandbox: true, lat: PICKUP.lat + 0.05 });
  const verdicts = (n: JobNeeds) =>
    Object.fromEntries(rankTier('local', [live, test], n, new Set()).map((d) => [d.driverId, d.skipReason]));

  it('offers a sandbox booking to sandbox drivers only, however near a live one is', () => {
    expect(verdicts(needs({ sandbox: true }))).toEqual({ 'test-far': null, 'live-near': 'sandbox_mismatch' });
  });

  it('never offers a live booking to a sandbox driver; a booking or driver saying nothing is live', () => {
    expect(verdicts(needs({ sandbox: false }))).toEqual({ 'live-near': null, 'test-far': 'sandbox_mismatch' });
    expect(verdicts(needs())).toEqual({ 'live-near': null, 'test-far': 'sandbox_mismatch' });
  });

  it('is the reason recorded whatever else is wrong with the driver', () => {
    const [d] = rankTier(
      'local',
      [driver('x', { approved: false, online: false, overlappingJobs: 2 })],
      needs({ sandbox: true }),
      new Set(),
    );
    expect(d?.skipReason).toBe('sandbox_mismatch');
  });
});
