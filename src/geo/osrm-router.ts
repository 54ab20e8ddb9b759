// Road distance from an OSRM server (OSRM's HTTP API, `GET /route/v1/driving/{lon},{lat};{lon},{lat}`),
// with the estimate as the fallback for any failure: a quote is never refused or delayed for long
// because the routing server is down, slow or has no road between the points. docs/routing.md.
import { estimateDurationSeconds, estimateRoute } from './estimate-router.js';
import { haversineMeters } from './haversine.js';
import type { GeoLocation, RouteEstimate, Router } from './types.js';

export const OSRM_MODEL = 'osrm';

/** Why a road answer was not used; each is logged once per router until a road answer comes back. */
export type OsrmFailure = 'network' | 'timeout' | 'http_status' | 'bad_response' | 'no_route';

/** What the router logs through: a pino/Fastify logger fits. */
export interface RouterLog {
  warn(fields: Record<string, unknown>, message: string): void;
  info(fields: Record<string, unknown>, message: string): void;
}

export interface OsrmRouterOptions {
  /** Base URL of the OSRM server, e.g. http://localhost:5000 (any path prefix is kept). */
  url: string;
  timeoutMs: number;
  /** What answers when OSRM does not: the estimate. */
  fallback?: Router;
  log?: RouterLog;
  fetch?: typeof fetch;
}

interface OsrmRouteResponse {
  code?: unknown;
  routes?: { distance?: unknown; duration?: unknown }[];
}

class RoadRouteFailure extends Error {
  constructor(
    readonly kind: OsrmFailure,
    detail: string,
  ) {
    super(detail);
  }
}

/** The OSRM adapter alone: a road route or a RoadRouteFailure. */
export async function osrmRoute(
  opts: Pick<OsrmRouterOptions, 'url' | 'timeoutMs' | 'fetch'>,
  from: Pick<GeoLocation, 'lat' | 'lon'>,
  to: Pick<GeoLocation, 'lat' | 'lon'>,
): Promise<{ distanceMeters: number; durationSeconds: number }> {
  const base = opts.url.replace(/\/+$/, '');
  const coords = `${from.lon.toFixed(6)},${from.lat.toFixed(6)};${to.lon.toFixed(6)},${to.lat.toFixed(6)}`;
  const doFetch = opts.fetch ?? fetch;
  const url = `${base}/route/v1/driving/${coords}?overview=false`;
  const init = { signal: AbortSignal.timeout(opts.timeoutMs), headers: { accept: 'application/json' } };
  let response: Response;
  try {
    // osrm-routed closes a kept-alive connection after a number of requests, which a request
    // reusing it sees as a network error: asked again once, within the same timeout.
    response = await doFetch(url, init).catch((err: unknown) => {
      if (isTimeout(err)) throw err;
      return doFetch(url, init);
    });
  } catch (err) {
    throw new RoadRouteFailure(isTimeout(err) ? 'timeout' : 'network', errorName(err));
  }
  let body: OsrmRouteResponse;
  try {
    body = (await response.json()) as OsrmRouteResponse;
  } catch (err) {
    // A body cut off by the timeout is a timeout too.
    if (isTimeout(err)) throw new RoadRouteFailure('timeout', errorName(err));
    throw new RoadRouteFailure(response.ok ? 'bad_response' : 'http_status', `HTTP ${response.status}`);
  }
  // OSRM answers 400 with code NoRoute/NoSegment when it has no road: that is "no route", not a fault.
  if (body.code === 'NoRoute' || body.code === 'NoSegment') throw new RoadRouteFailure('no_route', String(body.code));
  if (!response.ok) throw new RoadRouteFailure('http_status', `HTTP ${response.status}`);
  if (body.code !== 'Ok') throw new RoadRouteFailure('bad_response', `code ${String(body.code).slice(0, 40)}`);
  const route = body.routes?.[0];
  const distance = route?.distance;
  const duration = route?.duration;
  if (typeof distance !== 'number' || typeof duration !== 'number' || !(distance >= 0) || !(duration >= 0)) {
    throw new RoadRouteFailure('no_route', 'no route in the answer');
  }
  return { distanceMeters: distance, durationSeconds: duration };
}

/**
 * Road distance from OSRM; the estimate when OSRM fails. `model` says which answered: "osrm" or
 * the estimate's own ("estimate:circuity-v…").
 */
export class OsrmRouter implements Router {
  private readonly fallback: Router;
  private readonly logged = new Set<OsrmFailure>();

  constructor(private readonly opts: OsrmRouterOptions) {
    this.fallback = opts.fallback ?? { route: async (from, to) => estimateRoute(from, to) };
  }

  async route(from: GeoLocation, to: GeoLocation): Promise<RouteEstimate> {
    try {
      const road = await osrmRoute(this.opts, from, to);
      if (this.logged.size > 0) {
        this.logged.clear();
        this.opts.log?.info({ router: 'osrm' }, 'road router answering again');
      }
      return roadEstimate(road, from, to);
    } catch (err) {
      if (!(err instanceof RoadRouteFailure)) throw err;
      if (!this.logged.has(err.kind)) {
        this.logged.add(err.kind);
        // The host only: a URL's path or query could carry a key.
        this.opts.log?.warn(
          { router: 'osrm', failure: err.kind, detail: err.message, host: hostOf(this.opts.url) },
          'road router failed; quoting on the estimate',
        );
      }
      return this.fallback.route(from, to);
    }
  }
}

/**
 * OSRM's distance as it is. Its car profile's time is free-flow (no traffic), so the time quoted is
 * never below the estimate's banded traffic speeds over the same road distance.
 */
function roadEstimate(
  road: { distanceMeters: number; durationSeconds: number },
  from: GeoLocation,
  to: GeoLocation,
): RouteEstimate {
  const straight = haversineMeters(from.lat, from.lon, to.lat, to.lon);
  const duration = Math.max(road.durationSeconds, estimateDurationSeconds(road.distanceMeters, from, to));
  return {
    distanceMeters: Math.round(road.distanceMeters),
    durationSeconds: Math.round(duration),
    straightLineMeters: Math.round(straight),
    circuityFactor: straight > 0 ? Math.round((road.distanceMeters / straight) * 1000) / 1000 : 1,
    model: OSRM_MODEL,
  };
}

function isTimeout(err: unknown): boolean {
  return err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
}

function errorName(err: unknown): string {
  if (err instanceof Error) {
    const cause = (err as { cause?: { code?: unknown } }).cause;
    return typeof cause?.code === 'string' ? `${err.name} ${cause.code}` : err.name;
  }
  return 'error';
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return '(invalid url)';
  }
}
