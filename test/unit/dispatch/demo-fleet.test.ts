import { describe, expect, it } from 'vitest';
import { rankTier } from '../../../src/dispatch/policy.js';
import { TIERS } from '../../../src/model/bookings.js';
import {
  DEMO_CITIES,
  DEMO_DRIVERS,
  DEMO_FLEETS,
  DEMO_PARTNER_FLEET_ID,
  demoDriverSnapshots,
} from '../../../dev/demo-fleet.js';
import { VEHICLE_TYPES } from '../../../src/pricing/types.js';
import { SEATS } from '../../../src/quotes/vehicle-choice.js';

const NOW = new Date('2026-06-01T12:00:00Z');
const snapshots = demoDriverSnapshots(NOW);

describe('demo fleet data', () => {
  it('has unique ids and phone numbers, all in Ofcom’s drama range', () => {
    expect(new Set(DEMO_DRIVERS.map((d) => d.id)).size).toBe(DEMO_DRIVERS.length);
    expect(new Set(DEMO_DRIVERS.map((d) => d.phone)).size).toBe(DEMO_DRIVERS.length);
    for (const d of DEMO_DRIVERS) expect(d.phone).toMatch(/^\+447700900\d{3}$/);
  });

  it('gives every driver a known class with that class’s seats, and access only to WAVs', () => {
    for (const d of DEMO_DRIVERS) {
      expect(VEHICLE_TYPES).toContain(d.vehicleType);
      expect(d.seats).toBe(SEATS[d.vehicleType]);
      expect(d.wheelchairAccessible).toBe(d.vehicleType === 'wav');
    }
  });

  it('has a few locals per city including one WAV, national drivers, and partner drivers in known fleets', () => {
    for (const city of Object.values(DEMO_CITIES)) {
      const locals = DEMO_DRIVERS.filter((d) => d.tier === 'local' && d.homeArea === city.areaId);
      expect(locals.length).toBeGreaterThanOrEqual(3);
      expect(locals.filter((d) => d.vehicleType === 'wav')).toHaveLength(1);
      const approved = locals.filter((d) => d.approved);
      expect(new Set(approved.map((d) => d.vehicleType)).size, `${city.name}: varied classes`).toBe(approved.length);
    }
    expect(DEMO_DRIVERS.filter((d) => d.tier === 'national').length).toBeGreaterThanOrEqual(4);
    const fleetIds = new Set(DEMO_FLEETS.map((f) => f.id));
    for (const d of DEMO_DRIVERS) {
      expect(d.partnerFleetId !== null).toBe(d.tier === 'partner');
      if (d.partnerFleetId) expect(fleetIds.has(d.partnerFleetId)).toBe(true);
      expect(d.homeArea !== null).toBe(d.tier === 'local');
    }
    expect(DEMO_FLEETS.find((f) => f.id === DEMO_PARTNER_FLEET_ID)?.approved).toBe(true);
  });

  it('cascades a job from each city: locals in range, a national driver within 50 km, an approved partner within 80 km', () => {
    for (const city of Object.values(DEMO_CITIES)) {
      const needs = {
        pickup: city,
        pickupArea: city.areaId,
        passengers: 1,
        vehicleType: 'saloon',
        wheelchair: false,
        pickupAt: NOW,
        now: NOW,
      };
      const [local, national, partner] = TIERS.map((tier) =>
        rankTier(tier, snapshots, needs, new Set()).filter((d) => d.eligible),
      );
      expect(local!.length, city.name).toBeGreaterThanOrEqual(2);
      expect(national!.length, city.name).toBeGreaterThanOrEqual(1);
      expect(partner!.length, city.name).toBeGreaterThanOrEqual(1);
      const wheelchair = rankTier(
        'local',
        snapshots,
        { ...needs, vehicleType: 'wav', wheelchair: true },
        new Set(),
      ).filter((d) => d.eligible);
      expect(
        wheelchair.map((d) => d.driverId),
        city.name,
      ).toHaveLength(1);
    }
  });

  it('shows the skip reasons in Manchester', () => {
    const c = DEMO_CITIES.manchester;
    const needs = {
      pickup: c,
      pickupArea: c.areaId,
      passengers: 1,
      vehicleType: 'saloon',
      wheelchair: false,
      pickupAt: NOW,
      now: NOW,
    };
    const reason = (tier: (typeof TIERS)[number], id: string) =>
      rankTier(tier, snapshots, needs, new Set()).find((d) => d.driverId === id)?.skipReason;
    expect(reason('local', 'drv-man-06')).toBe('not_approved');
    expect(reason('partner', 'drv-ufl-01')).toBe('fleet_not_approved');
    // The WAV takes a saloon job (issue 35), not an executive one.
    expect(reason('local', 'drv-man-04')).toBeNull();
    const executive = { ...needs, vehicleType: 'executive' };
    expect(
      rankTier('local', snapshots, executive, new Set()).find((d) => d.driverId === 'drv-man-04')?.skipReason,
    ).toBe('vehicle_class');
    expect(reason('local', 'drv-lon-01')).toBe('out_of_area');
  });
});
