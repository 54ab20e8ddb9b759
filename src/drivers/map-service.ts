import { DateTime } from 'luxon';
import { openSecret, sealSecret } from '../auth/secret-box.js';
import type { Sql } from '../db/sql.js';
import { MAPBOX_TOKEN, mapboxRoute, MapboxRouteFailure } from '../geo/mapbox-router.js';
import { pickupEtaMinutes, type LatLon } from '../geo/pickup-eta.js';
import { Refusal } from '../refusal.js';
import {
  countMapCall,
  findMapKey,
  mapCallsSince,
  markMapKeyRefused,
  removeMapKey,
  saveMapKey,
  type MapProvider,
} from './map-key-store.js';

// A driver's own map-service key (spec 8: "High-volume drivers may supply their own map-service
// key billed directly by that provider"). What the service calls a map service is the routing of
// that driver's own way to a pickup: the "about N min" the passenger's tracking page and the
// "driver assigned" text give. With a key, that is a road route from the driver's provider (Mapbox
// Directions) on the driver's token; without one, or when the provider does not answer, the
// service's own free estimate (src/geo/pickup-eta.ts). Fares never use it: a fare is fixed at the
// quote, before any driver is known, on the service's router, so two drivers' keys can never give
// a passenger two prices. The service bills nothing for maps, with or without a key: the calls on a
// driver's key are counted only so the driver can check them against the provider's own bill.
// docs/routing.md, "A driver's own map-service key".

export interface DriverMapSettings {
  /** Mapbox's API base (DRIVER_MAP_SERVICE_URL): https://api.mapbox.com, or a local stand-in. */
  url: string;
  timeoutMs: number;
  /** Seals the key at rest (PARTNER_SECRETS_KEY, as partners' signing secrets). */
  secretsKey: string;
  fetch?: typeof fetch;
  now?: () => Date;
  log?: { warn(fields: Record<string, unknown>, message: string): void };
}

export interface PickupEta {
  minutes: number;
  /** `driver_map_service`: a road route on the driver's own key; `estimate`: the service's own. */
  source: 'driver_map_service' | 'estimate';
}

export interface MapServiceStatus {
  provider: MapProvider;
  /** The key's last four characters: all that is ever shown back. */
  key_ending: string;
  set_at: string;
  /** When the provider turned the key down in use (ETAs went back to the estimate); null if never. */
  refused_at: string | null;
  /** Route requests made on the key since Monday (Europe/London): what the provider bills the driver for. */
  calls_this_week: number;
}

/** How long one road ETA is reused: the tracking page polls, and every call is on the driver's bill. */
const ETA_REUSE_MS = 60_000;
/** Coordinates rounded to this many decimals for reuse (about 100 m): a car crawling in traffic is not a new route. */
const REUSE_DECIMALS = 3;
const REUSE_ENTRIES = 5_000;
/** Two fixed points the key is tried on when saved (Charing Cross to Euston): one call, on the driver's key. */
const CHECK_FROM = { lat: 51.5073, lon: -0.1276 };
const CHECK_TO = { lat: 51.5282, lon: -0.1337 };

export class DriverMapService {
  private readonly reused = new Map<string, { at: number; minutes: number }>();
  private readonly now: () => Date;

  constructor(
    private readonly sql: Sql,
    private readonly settings: DriverMapSettings,
  ) {
    this.now = settings.now ?? (() => new Date());
  }

  /** Keeps the driver's key once the provider has accepted it on one route. */
  async setKey(driverId: string, input: { provider: MapProvider; key: string }): Promise<MapServiceStatus> {
    const key = input.key.trim();
    if (!MAPBOX_TOKEN.test(key)) {
      throw Refusal.invalid(
        'validation_failed',
        'That is not a Mapbox access token: it starts pk. or sk. and is one line with two dots.',
        { field: { name: 'key', message: 'is not a Mapbox access token (pk.… or sk.…)' } },
      );
    }
    try {
      await this.route(driverId, key, CHECK_FROM, CHECK_TO);
    } catch (err) {
      if (!(err instanceof MapboxRouteFailure)) throw err;
      if (err.kind === 'refused') {
        throw Refusal.unprocessable(
          'map_key_refused',
          'Mapbox turned this key down. Check it is copied whole and allows Directions.',
          { field: { name: 'key', message: 'was refused by Mapbox' } },
        );
      }
      // No road between two fixed points still means the key was let in.
      if (err.kind !== 'no_route') {
        throw Refusal.unavailable('map_service_unavailable', 'We could not reach Mapbox to check the key. Try again.', {
          retryAfterSeconds: 30,
        });
      }
    }
    await saveMapKey(this.sql, driverId, {
      provider: input.provider,
      sealed: sealSecret(this.settings.secretsKey, key),
      ending: key.slice(-4),
    });
    this.forget(driverId);
    return (await this.status(driverId))!;
  }

  async removeKey(driverId: string): Promise<boolean> {
    this.forget(driverId);
    return removeMapKey(this.sql, driverId);
  }

  async status(driverId: string): Promise<MapServiceStatus | null> {
    const row = await findMapKey(this.sql, driverId);
    if (!row) return null;
    return {
      provider: row.provider,
      key_ending: row.key_ending,
      set_at: row.set_at.toISOString(),
      refused_at: row.refused_at?.toISOString() ?? null,
      calls_this_week: await mapCallsSince(this.sql, driverId, this.londonMonday()),
    };
  }

  /**
   * How many minutes this driver is from the pickup: by road on their own key when they have one
   * that works, else the estimate. Never throws for the provider: a passenger's page does not fail
   * because a driver's key did.
   */
  async pickupEta(driverId: string, from: LatLon, to: LatLon): Promise<PickupEta> {
    const estimate: PickupEta = { minutes: pickupEtaMinutes(from, to), source: 'estimate' };
    const reuseKey = [driverId, ...[from.lat, from.lon, to.lat, to.lon].map((x) => x.toFixed(REUSE_DECIMALS))].join();
    const at = this.now().getTime();
    const kept = this.reused.get(reuseKey);
    if (kept && at - kept.at < ETA_REUSE_MS) return { minutes: kept.minutes, source: 'driver_map_service' };
    const row = await findMapKey(this.sql, driverId);
    if (!row || row.refused_at) return estimate;
    let token: string;
    try {
      token = openSecret(this.settings.secretsKey, row.key_sealed);
    } catch {
      // Sealed under another PARTNER_SECRETS_KEY: unusable, and the driver is told to enter it again.
      await markMapKeyRefused(this.sql, driverId, row.key_sealed);
      return estimate;
    }
    try {
      const road = await this.route(driverId, token, from, to);
      const minutes = Math.max(1, Math.ceil(road.durationSeconds / 60));
      this.keep(reuseKey, { at, minutes });
      return { minutes, source: 'driver_map_service' };
    } catch (err) {
      if (!(err instanceof MapboxRouteFailure)) throw err;
      if (err.kind === 'refused') await markMapKeyRefused(this.sql, driverId, row.key_sealed);
      // The driver's id and the failure only: never the token or the URL that carries it.
      this.settings.log?.warn({ driverId, failure: err.kind }, "driver's map service failed; ETA from the estimate");
      return estimate;
    }
  }

  /**
   * One route on the driver's token. Counted as a call on their key when the provider answered it
   * (a route, or no road): what the provider bills. A refused key or a failed connection is not.
   */
  private async route(driverId: string, token: string, from: LatLon, to: LatLon) {
    const opts = {
      url: this.settings.url,
      token,
      timeoutMs: this.settings.timeoutMs,
      ...(this.settings.fetch ? { fetch: this.settings.fetch } : {}),
    };
    try {
      const road = await mapboxRoute(opts, from, to);
      await countMapCall(this.sql, driverId, this.londonDay());
      return road;
    } catch (err) {
      if (err instanceof MapboxRouteFailure && err.kind === 'no_route') {
        await countMapCall(this.sql, driverId, this.londonDay());
      }
      throw err;
    }
  }

  private keep(key: string, value: { at: number; minutes: number }): void {
    if (this.reused.size >= REUSE_ENTRIES) this.reused.delete(this.reused.keys().next().value!);
    this.reused.set(key, value);
  }

  private forget(driverId: string): void {
    for (const k of this.reused.keys()) if (k.startsWith(`${driverId},`)) this.reused.delete(k);
  }

  private londonDay(): string {
    return DateTime.fromJSDate(this.now(), { zone: 'Europe/London' }).toISODate()!;
  }

  private londonMonday(): string {
    return DateTime.fromJSDate(this.now(), { zone: 'Europe/London' }).startOf('week').toISODate()!;
  }
}
