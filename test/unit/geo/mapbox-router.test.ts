// How the driver's own map service (Mapbox Directions) is read: each of its answers becomes a route
// or the failure that decides what happens to the key (src/drivers/map-service.ts).
import { describe, expect, it } from 'vitest';
import { MAPBOX_TOKEN, mapboxRoute, MapboxRouteFailure } from '../../../src/geo/mapbox-router.js';
import { mapServiceWords } from '../../../src/pages/browser/map-key-words.js';

const FROM = { lat: 52.6745, lon: -0.7055 };
const TO = { lat: 52.6708, lon: -0.7266 };
const TOKEN = 'pk.eyJ1IjoiZHJpdmVyIn0.abcdefghijklmnop';

function answering(status: number, body: unknown, seen: URL[] = []): typeof fetch {
  return async (input) => {
    seen.push(new URL(input instanceof Request ? input.url : input));
    return new Response(typeof body === 'string' ? body : JSON.stringify(body), { status });
  };
}

async function failure(status: number, body: unknown): Promise<string> {
  try {
    await mapboxRoute(
      { url: 'https://api.mapbox.com', token: TOKEN, timeoutMs: 1000, fetch: answering(status, body) },
      FROM,
      TO,
    );
  } catch (err) {
    if (err instanceof MapboxRouteFailure) return err.kind;
    throw err;
  }
  return 'route';
}

describe("a driver's Mapbox key", () => {
  it('asks Directions for a driving route on the driver token, longitude first', async () => {
    const seen: URL[] = [];
    const road = await mapboxRoute(
      {
        url: 'https://api.mapbox.com/',
        token: TOKEN,
        timeoutMs: 1000,
        fetch: answering(200, { code: 'Ok', routes: [{ distance: 1834.2, duration: 171.9 }] }, seen),
      },
      FROM,
      TO,
    );
    expect(road).toEqual({ distanceMeters: 1834.2, durationSeconds: 171.9 });
    expect(seen[0]!.pathname).toBe('/directions/v5/mapbox/driving/-0.705500,52.674500;-0.726600,52.670800');
    expect(seen[0]!.searchParams.get('access_token')).toBe(TOKEN);
  });

  it('tells a refused key from a busy or broken service', async () => {
    expect(await failure(401, { message: 'Not Authorized - Invalid Token' })).toBe('refused');
    expect(await failure(403, { message: 'Forbidden' })).toBe('refused');
    expect(await failure(429, { message: 'Too Many Requests' })).toBe('rate_limited');
    expect(await failure(200, { code: 'NoRoute', routes: [] })).toBe('no_route');
    expect(await failure(500, 'gateway down')).toBe('http_status');
    expect(await failure(200, { code: 'Ok', routes: [] })).toBe('bad_response');
  });

  it('takes public and secret tokens, nothing else', () => {
    expect(MAPBOX_TOKEN.test(TOKEN)).toBe(true);
    expect(MAPBOX_TOKEN.test('sk.eyJ1IjoiZHJpdmVyIn0.abcdefghijklmnop')).toBe(true);
    expect(MAPBOX_TOKEN.test('my mapbox password')).toBe(false);
    expect(MAPBOX_TOKEN.test('AIzaSyD-google-maps-key-1234567890')).toBe(false);
    expect(MAPBOX_TOKEN.test(`${TOKEN}\n`)).toBe(false);
  });

  it('says in the app what the key does and who bills it', () => {
    expect(mapServiceWords(null)).toBe('No key: we work out the minutes to each pickup ourselves, free of charge.');
    const kept = { provider: 'mapbox', key_ending: 'mnop', set_at: '2026-12-03T14:00:00Z', refused_at: null };
    expect(mapServiceWords({ ...kept, calls_this_week: 12 })).toBe(
      'Your Mapbox key ending mnop works out the minutes to each pickup by road: 12 route requests on it this week, billed to you by Mapbox, never by us.',
    );
    expect(mapServiceWords({ ...kept, refused_at: '2026-07-03T13:02:00Z', calls_this_week: 3 })).toBe(
      'Mapbox turned down your key ending mnop on Fri 3 Jul, 14:02. Until you enter a working key, the minutes to each pickup are our own estimate.',
    );
  });
});
