import { haversineMeters } from './haversine.js';

// How long until the driver reaches the pickup, for the passenger's tracking page. Deliberately
// rough: the driver's app reports a point, not a route, so the straight line is stretched by a
// typical road circuity and driven at a town speed. Said as "about N min", never as a time.

/** Roads are about 30 % longer than the straight line between two points in a UK town. */
export const ETA_CIRCUITY = 1.3;
/** Average town driving speed, junctions and lights included. */
export const ETA_TOWN_SPEED_KMH = 30;

export interface LatLon {
  lat: number;
  lon: number;
}

/** Whole minutes, rounded up and at least 1: a driver a few metres away is still "about 1 min". */
export function pickupEtaMinutes(driver: LatLon, pickup: LatLon): number {
  const roadKm = (haversineMeters(driver.lat, driver.lon, pickup.lat, pickup.lon) * ETA_CIRCUITY) / 1000;
  return Math.max(1, Math.ceil((roadKm / ETA_TOWN_SPEED_KMH) * 60));
}
