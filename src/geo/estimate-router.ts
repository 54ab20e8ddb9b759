// Road distance and driving time without a road network: straight line × circuity factor, and a
// banded speed model. Constants, their sources and the reasoning are in ROUTING.md.
import { haversineMeters } from './haversine.js';
import type { GeoLocation, RouteEstimate, Router } from './types.js';

export const ESTIMATE_MODEL = 'estimate:circuity-v1';

const MPH = 1609.344 / 3600; // metres per second

// Lovelace's fit to Levinson & El-Geneidy: Q = 1.72 − 0.14·ln(d_km), clamped (see ROUTING.md).
const CIRCUITY = { intercept: 1.72, slope: 0.14, min: 1.25, max: 1.9 } as const;

// Geocoded points are centroids, so "the same point" means "somewhere close by", never zero.
const AT_LEAST = { roadMeters: 500, durationSeconds: 120 } as const;

// How a road trip's length splits into speeds: town streets at each end, local A roads, then trunk.
const SEGMENT_METERS = { eachEnd: 3_000, localARoad: 30_000 } as const;

const SPEED = {
  londonCentral: 10 * MPH,
  londonInner: 13 * MPH,
  londonOuter: 20 * MPH,
  urbanElsewhere: 18 * MPH,
  localARoad: 25 * MPH,
  strategicRoad: 59 * MPH,
} as const;

const CHARING_CROSS = { lat: 51.5074, lon: -0.1278 };
const LONDON_CENTRAL_RADIUS_M = 3_000;
const LONDON_INNER_RADIUS_M = 9_000;

export function circuityFactor(straightLineMeters: number): number {
  const km = Math.max(straightLineMeters, 1) / 1000;
  return Math.min(CIRCUITY.max, Math.max(CIRCUITY.min, CIRCUITY.intercept - CIRCUITY.slope * Math.log(km)));
}

/** Average door-to-door speed for the few kilometres around one end of the trip. */
export function urbanSpeed(point: Pick<GeoLocation, 'lat' | 'lon' | 'region'>): number {
  const fromCentre = haversineMeters(point.lat, point.lon, CHARING_CROSS.lat, CHARING_CROSS.lon);
  if (fromCentre <= LONDON_CENTRAL_RADIUS_M) return SPEED.londonCentral;
  if (fromCentre <= LONDON_INNER_RADIUS_M) return SPEED.londonInner;
  if (point.region === 'London') return SPEED.londonOuter;
  return SPEED.urbanElsewhere;
}

export function estimateDurationSeconds(
  roadMeters: number,
  from: Pick<GeoLocation, 'lat' | 'lon' | 'region'>,
  to: Pick<GeoLocation, 'lat' | 'lon' | 'region'>,
): number {
  const endEach = Math.min(SEGMENT_METERS.eachEnd, roadMeters / 2);
  const middle = roadMeters - 2 * endEach;
  const local = Math.min(middle, SEGMENT_METERS.localARoad);
  const strategic = middle - local;
  return (
    endEach / urbanSpeed(from) + endEach / urbanSpeed(to) + local / SPEED.localARoad + strategic / SPEED.strategicRoad
  );
}

export class EstimateRouter implements Router {
  async route(from: GeoLocation, to: GeoLocation): Promise<RouteEstimate> {
    return estimateRoute(from, to);
  }
}

export function estimateRoute(
  from: Pick<GeoLocation, 'lat' | 'lon' | 'region'>,
  to: Pick<GeoLocation, 'lat' | 'lon' | 'region'>,
): RouteEstimate {
  const straight = haversineMeters(from.lat, from.lon, to.lat, to.lon);
  const factor = circuityFactor(straight);
  const road = Math.max(AT_LEAST.roadMeters, straight * factor);
  const duration = Math.max(AT_LEAST.durationSeconds, estimateDurationSeconds(road, from, to));
  return {
    distanceMeters: Math.round(road),
    durationSeconds: Math.round(duration),
    straightLineMeters: Math.round(straight),
    circuityFactor: Math.round(factor * 1000) / 1000,
    model: ESTIMATE_MODEL,
  };
}
