// Which kind of router a route's distance came from, as quotes state it: `road` (a road network
// answered) or `estimate` (straight line × factor, src/geo/estimate-router.ts).
export type DistanceSource = 'road' | 'estimate';

export const DISTANCE_SOURCES: readonly DistanceSource[] = ['road', 'estimate'];

/** The source of a route by its `model`: "osrm" is road; "estimate:…" (and anything unknown) is not. */
export function distanceSourceOf(model: string | null | undefined): DistanceSource {
  return model === 'osrm' ? 'road' : 'estimate';
}
