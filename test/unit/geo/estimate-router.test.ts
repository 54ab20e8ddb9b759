import { describe, expect, it } from 'vitest';
import { EstimateRouter, circuityFactor } from '../../../src/geo/estimate-router.js';
import type { GeoLocation } from '../../../src/geo/types.js';

// Hand-placed points, so these tests pin the model rather than the gazetteer.
function at(lat: number, lon: number, region: string | null = null): GeoLocation {
  return {
    label: `${lat},${lon}`,
    kind: 'place',
    lat,
    lon,
    postcodeDistrict: null,
    council: null,
    region,
    country: 'England',
    inUk: true,
    confidence: 1,
    precision: 'point',
    town: null,
  };
}

const router = new EstimateRouter();
const CHARING_CROSS = at(51.5074, -0.1278, 'London');
const OXFORD_CIRCUS = at(51.5152, -0.1419, 'London');
const HEATHROW = at(51.4706, -0.4619, 'London');
const MANCHESTER_PICCADILLY = at(53.4767, -2.229);
const MANCHESTER_AIRPORT = at(53.3537, -2.275);
const EDINBURGH = at(55.9533, -3.1883);

describe('EstimateRouter', () => {
  it('returns whole metres and seconds and names its model', async () => {
    const route = await router.route(MANCHESTER_PICCADILLY, MANCHESTER_AIRPORT);
    expect(Number.isInteger(route.distanceMeters)).toBe(true);
    expect(Number.isInteger(route.durationSeconds)).toBe(true);
    expect(Number.isInteger(route.straightLineMeters)).toBe(true);
    expect(route.model).toBe('estimate:circuity-v1');
  });

  it('drives further than the crow flies', async () => {
    const route = await router.route(MANCHESTER_PICCADILLY, MANCHESTER_AIRPORT);
    expect(route.straightLineMeters).toBeGreaterThan(13_000);
    expect(route.straightLineMeters).toBeLessThan(15_000);
    expect(Math.abs(route.distanceMeters - route.straightLineMeters * route.circuityFactor)).toBeLessThan(20);
    // Real road distance is ~16-17 km and a taxi takes 20-35 minutes.
    expect(route.distanceMeters).toBeGreaterThan(15_000);
    expect(route.distanceMeters).toBeLessThan(21_000);
    expect(route.durationSeconds).toBeGreaterThan(20 * 60);
    expect(route.durationSeconds).toBeLessThan(35 * 60);
  });

  it('is symmetric', async () => {
    const there = await router.route(HEATHROW, CHARING_CROSS);
    const back = await router.route(CHARING_CROSS, HEATHROW);
    expect(back.distanceMeters).toBe(there.distanceMeters);
    expect(back.durationSeconds).toBe(there.durationSeconds);
  });

  it("takes Heathrow to central London in TfL's typical 30-60 minutes", async () => {
    const route = await router.route(HEATHROW, CHARING_CROSS);
    expect(route.durationSeconds).toBeGreaterThan(30 * 60);
    expect(route.durationSeconds).toBeLessThan(60 * 60);
  });

  it('is slower per kilometre in central London than elsewhere', async () => {
    const london = await router.route(CHARING_CROSS, OXFORD_CIRCUS);
    const manchester = await router.route(MANCHESTER_PICCADILLY, at(53.4767 + 0.0078, -2.229 - 0.0141));
    expect(london.distanceMeters).toBeCloseTo(manchester.distanceMeters, -2);
    expect(london.durationSeconds).toBeGreaterThan(manchester.durationSeconds * 1.3);
  });

  it('averages motorway-like speeds only on long trips', async () => {
    const long = await router.route(MANCHESTER_PICCADILLY, EDINBURGH);
    const mph = long.distanceMeters / long.durationSeconds / 0.44704;
    expect(mph).toBeGreaterThan(45);
    expect(mph).toBeLessThan(59);
    const short = await router.route(MANCHESTER_PICCADILLY, MANCHESTER_AIRPORT);
    expect(short.distanceMeters / short.durationSeconds / 0.44704).toBeLessThan(30);
  });

  it('never returns a zero trip for two answers at the same point', async () => {
    const route = await router.route(CHARING_CROSS, CHARING_CROSS);
    expect(route.straightLineMeters).toBe(0);
    expect(route.distanceMeters).toBe(500);
    expect(route.durationSeconds).toBe(120);
  });
});

describe('circuityFactor', () => {
  it('follows 1.72 - 0.14 ln(km) between its clamps', () => {
    expect(circuityFactor(5_000)).toBeCloseTo(1.72 - 0.14 * Math.log(5), 5);
    expect(circuityFactor(20_000)).toBeCloseTo(1.3, 2);
  });

  it('stays within 1.25 and 1.9', () => {
    expect(circuityFactor(10)).toBe(1.9);
    expect(circuityFactor(500_000)).toBe(1.25);
  });

  it('never grows with distance, so a longer trip is never estimated shorter', () => {
    let previousFactor = Infinity;
    let previousRoad = 0;
    for (let m = 100; m <= 800_000; m *= 1.05) {
      const q = circuityFactor(m);
      expect(q).toBeLessThanOrEqual(previousFactor);
      expect(m * q).toBeGreaterThan(previousRoad);
      previousFactor = q;
      previousRoad = m * q;
    }
  });

  it("stays within 10 % of OSRM's road ÷ straight medians on Rutland (docs/benchmarks.md)", () => {
    // bench/road-distance.ts, seed 36: median road ÷ straight per band, at the band's middle.
    const measured: [km: number, ratio: number][] = [
      [2.5, 1.57],
      [7.5, 1.45],
      [12.5, 1.49],
      [17.5, 1.36],
      [25, 1.3],
    ];
    for (const [km, ratio] of measured) {
      expect(Math.abs(circuityFactor(km * 1000) / ratio - 1)).toBeLessThan(0.1);
    }
  });
});
