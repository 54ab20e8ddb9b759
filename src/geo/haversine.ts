// Mean Earth radius (IUGG); the difference from the WGS84 ellipsoid is < 0.5 % over UK distances,
// far below the uncertainty of the circuity factor applied on top.
const EARTH_RADIUS_METERS = 6_371_008.8;
const RAD = Math.PI / 180;

export function haversineMeters(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const dLat = (lat2 - lat1) * RAD;
  const dLon = (lon2 - lon1) * RAD;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * RAD) * Math.cos(lat2 * RAD) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_METERS * Math.asin(Math.min(1, Math.sqrt(a)));
}
