// Provider factory: the HTTP layer and pricing only ever see the Geocoder and Router interfaces,
// so a networked provider is added here behind a new option value (ROUTER=osrm, docs/routing.md).
import { EmbeddedGeocoder } from './embedded-geocoder.js';
import { EstimateRouter } from './estimate-router.js';
import { OsrmRouter, type RouterLog } from './osrm-router.js';
import { getGazetteer } from './gazetteer.js';
import { preloadPostcodeUnits } from './postcode-units.js';
import { preloadStreets } from './streets.js';
import type { Geocoder, Router } from './types.js';

export type { GeoLocation, Geocoder, RouteEstimate, Router } from './types.js';
export { EmbeddedGeocoder } from './embedded-geocoder.js';
export { EstimateRouter } from './estimate-router.js';
export { OsrmRouter } from './osrm-router.js';
export { distanceSourceOf, type DistanceSource } from './route-source.js';

export interface GeoProviderOptions {
  geocoder: 'embedded';
  router: 'estimate' | 'osrm';
  /** Required for router 'osrm' (config.ts checks OSRM_URL). */
  osrmUrl?: string | undefined;
  osrmTimeoutMs?: number | undefined;
  log?: RouterLog | undefined;
}

export function createGeoProviders(opts: GeoProviderOptions): { geocoder: Geocoder; router: Router } {
  const geocoder = opts.geocoder === 'embedded' ? new EmbeddedGeocoder() : unreachable(opts.geocoder);
  return { geocoder, router: createRouter(opts) };
}

function createRouter(opts: GeoProviderOptions): Router {
  if (opts.router === 'estimate') return new EstimateRouter();
  if (opts.router === 'osrm') {
    if (!opts.osrmUrl) throw new Error('ROUTER=osrm needs OSRM_URL');
    return new OsrmRouter({
      url: opts.osrmUrl,
      timeoutMs: opts.osrmTimeoutMs ?? 1500,
      fallback: new EstimateRouter(),
      ...(opts.log ? { log: opts.log } : {}),
    });
  }
  return unreachable(opts.router);
}

/**
 * Loads the gazetteer (~3 MB, a few hundred ms of CPU split into chunks) so the first quote does
 * not pay for it. Safe to call more than once and concurrently with geocode requests.
 */
export async function preloadGazetteer(): Promise<void> {
  await getGazetteer();
  // Streets and unit postcodes are lazily used files: loaded after the gazetteer, off the request path.
  await Promise.all([preloadStreets(), preloadPostcodeUnits()]);
}

function unreachable(value: never): never {
  throw new Error(`unknown geo provider ${String(value)}`);
}
