// A driver's own map service (spec 8: "High-volume drivers may supply their own map-service key
// billed directly by that provider"): Mapbox's Directions API, which answers in OSRM's shape,
// called with the driver's access token. docs/routing.md, "A driver's own map-service key".
import type { GeoLocation } from './types.js';

export const MAPBOX_MODEL = 'mapbox';

/** Why a Mapbox answer was not used. `refused`: the token itself was turned down (401/403). */
export type MapboxFailure =
  'refused' | 'rate_limited' | 'network' | 'timeout' | 'http_status' | 'bad_response' | 'no_route';

export class MapboxRouteFailure extends Error {
  constructor(
    readonly kind: MapboxFailure,
    detail: string,
  ) {
    super(detail);
  }
}

export interface MapboxOptions {
  /** Base URL: https://api.mapbox.com in production; a local stand-in in tests. */
  url: string;
  /** The driver's access token (a `pk.` or `sk.` token with the Directions scope). */
  token: string;
  timeoutMs: number;
  fetch?: typeof fetch;
}

/** A Mapbox access token's shape: `pk.` or `sk.` then two base64url parts. Checked before any call. */
export const MAPBOX_TOKEN = /^(pk|sk)\.[A-Za-z0-9_-]{10,400}\.[A-Za-z0-9_-]{10,200}$/;

interface DirectionsResponse {
  code?: unknown;
  message?: unknown;
  routes?: { distance?: unknown; duration?: unknown }[];
}

/** One driving route on the driver's token: road metres and free-flow seconds, or a MapboxRouteFailure. */
export async function mapboxRoute(
  opts: MapboxOptions,
  from: Pick<GeoLocation, 'lat' | 'lon'>,
  to: Pick<GeoLocation, 'lat' | 'lon'>,
): Promise<{ distanceMeters: number; durationSeconds: number }> {
  const coords = `${from.lon.toFixed(6)},${from.lat.toFixed(6)};${to.lon.toFixed(6)},${to.lat.toFixed(6)}`;
  const url = new URL(`${opts.url.replace(/\/+$/, '')}/directions/v5/mapbox/driving/${coords}`);
  url.searchParams.set('overview', 'false');
  url.searchParams.set('access_token', opts.token);
  let response: Response;
  try {
    response = await (opts.fetch ?? fetch)(url, {
      signal: AbortSignal.timeout(opts.timeoutMs),
      headers: { accept: 'application/json' },
    });
  } catch (err) {
    throw new MapboxRouteFailure(isTimeout(err) ? 'timeout' : 'network', err instanceof Error ? err.name : 'error');
  }
  if (response.status === 401 || response.status === 403) {
    throw new MapboxRouteFailure('refused', `HTTP ${response.status}`);
  }
  if (response.status === 429) throw new MapboxRouteFailure('rate_limited', 'HTTP 429');
  let body: DirectionsResponse;
  try {
    body = (await response.json()) as DirectionsResponse;
  } catch (err) {
    if (isTimeout(err)) throw new MapboxRouteFailure('timeout', 'body');
    throw new MapboxRouteFailure(response.ok ? 'bad_response' : 'http_status', `HTTP ${response.status}`);
  }
  if (body.code === 'NoRoute' || body.code === 'NoSegment') throw new MapboxRouteFailure('no_route', String(body.code));
  if (!response.ok) throw new MapboxRouteFailure('http_status', `HTTP ${response.status}`);
  const route = body.routes?.[0];
  const distance = route?.distance;
  const duration = route?.duration;
  if (body.code !== 'Ok' || typeof distance !== 'number' || typeof duration !== 'number') {
    throw new MapboxRouteFailure('bad_response', `code ${String(body.code).slice(0, 40)}`);
  }
  if (!(distance >= 0) || !(duration >= 0)) throw new MapboxRouteFailure('bad_response', 'negative route');
  return { distanceMeters: distance, durationSeconds: duration };
}

function isTimeout(err: unknown): boolean {
  return err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
}
