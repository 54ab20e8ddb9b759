// What the driver app's "Your map service" card says of a driver's own Mapbox key (no DOM here:
// unit tested in test/unit/geo/mapbox-router.test.ts).
import { londonTime } from './format.js';

/** As GET /api/driver/me's `map_service` has it. */
export interface MapService {
  provider: string;
  key_ending: string;
  set_at: string;
  refused_at: string | null;
  calls_this_week: number;
}

/** What the card says of the driver's key, in plain words. */
export function mapServiceWords(m: MapService | null): string {
  if (!m) return 'No key: we work out the minutes to each pickup ourselves, free of charge.';
  if (m.refused_at) {
    return `Mapbox turned down your key ending ${m.key_ending} on ${londonTime(m.refused_at)}. Until you enter a working key, the minutes to each pickup are our own estimate.`;
  }
  const calls = m.calls_this_week === 1 ? '1 route request' : `${m.calls_this_week} route requests`;
  return `Your Mapbox key ending ${m.key_ending} works out the minutes to each pickup by road: ${calls} on it this week, billed to you by Mapbox, never by us.`;
}
