import { haversineMeters } from './haversine.js';

// 0.05° cells hold a few dozen places each in towns and keep ring searches short in the
// sparse Highlands, where the nearest neighbour can be tens of kilometres away.
const CELL_DEGREES = 0.05;
const METERS_PER_DEGREE_LAT = 111_195;
const MAX_RINGS = 200;

/** Nearest-neighbour and radius queries over a fixed set of points, bucketed in a lat/lon grid. */
export class SpatialGrid {
  private readonly cells = new Map<number, number[]>();

  constructor(
    private readonly lats: ArrayLike<number>,
    private readonly lons: ArrayLike<number>,
  ) {
    for (let i = 0; i < lats.length; i++) {
      const key = cellKey(cellOf(lats[i] ?? 0), cellOf(lons[i] ?? 0));
      const bucket = this.cells.get(key);
      if (bucket) bucket.push(i);
      else this.cells.set(key, [i]);
    }
  }

  /** Index of the nearest point accepted by `accept`, or -1 when none lies within `maxMeters`. */
  nearest(lat: number, lon: number, accept: (index: number) => boolean = () => true, maxMeters = 100_000): number {
    const ci = cellOf(lat);
    const cj = cellOf(lon);
    // A point r+1 rings away is at least r whole cells away along one axis; lon cells shrink
    // with latitude, so the narrower of the two bounds when to stop.
    const cellMeters =
      CELL_DEGREES * METERS_PER_DEGREE_LAT * Math.cos(Math.min(89, Math.abs(lat) + 1) * (Math.PI / 180));
    let best = -1;
    let bestDistance = Infinity;
    for (let r = 0; r <= MAX_RINGS; r++) {
      this.forRing(ci, cj, r, (index) => {
        if (!accept(index)) return;
        const d = haversineMeters(lat, lon, this.lats[index] ?? 0, this.lons[index] ?? 0);
        if (d < bestDistance) {
          bestDistance = d;
          best = index;
        }
      });
      if (bestDistance <= r * cellMeters) break;
      if (r * cellMeters > maxMeters) break;
    }
    return bestDistance <= maxMeters ? best : -1;
  }

  /** Calls `visit` for every point within `radiusMeters`, with its distance. */
  within(lat: number, lon: number, radiusMeters: number, visit: (index: number, meters: number) => void): void {
    const ci = cellOf(lat);
    const cj = cellOf(lon);
    const rLat = Math.ceil(radiusMeters / (CELL_DEGREES * METERS_PER_DEGREE_LAT));
    const rLon = Math.ceil(
      radiusMeters /
        (CELL_DEGREES * METERS_PER_DEGREE_LAT * Math.cos(Math.min(89, Math.abs(lat) + 1) * (Math.PI / 180))),
    );
    for (let di = -rLat; di <= rLat; di++) {
      for (let dj = -rLon; dj <= rLon; dj++) {
        const bucket = this.cells.get(cellKey(ci + di, cj + dj));
        if (!bucket) continue;
        for (const index of bucket) {
          const d = haversineMeters(lat, lon, this.lats[index] ?? 0, this.lons[index] ?? 0);
          if (d <= radiusMeters) visit(index, d);
        }
      }
    }
  }

  private forRing(ci: number, cj: number, r: number, visit: (index: number) => void): void {
    for (let di = -r; di <= r; di++) {
      const edge = di === -r || di === r;
      for (let dj = -r; dj <= r; dj += edge ? 1 : 2 * r || 1) {
        const bucket = this.cells.get(cellKey(ci + di, cj + dj));
        if (bucket) for (const index of bucket) visit(index);
      }
    }
  }
}

function cellOf(degrees: number): number {
  return Math.floor(degrees / CELL_DEGREES);
}

// Lat cells span roughly -1800..1800 and lon cells the same, so a 4096 stride cannot collide.
function cellKey(i: number, j: number): number {
  return (i + 2048) * 4096 + (j + 2048);
}
