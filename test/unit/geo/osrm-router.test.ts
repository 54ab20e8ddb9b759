import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/config.js';
import { estimateRoute } from '../../../src/geo/estimate-router.js';
import { OsrmRouter as OsrmRouterFromIndex, createGeoProviders } from '../../../src/geo/index.js';
import { OsrmRouter, type RouterLog } from '../../../src/geo/osrm-router.js';
import { distanceSourceOf } from '../../../src/geo/route-source.js';
import type { GeoLocation } from '../../../src/geo/types.js';

function at(lat: number, lon: number): GeoLocation {
  return {
    label: `${lat},${lon}`,
    kind: 'place',
    lat,
    lon,
    postcodeDistrict: null,
    council: null,
    region: 'East Midlands',
    country: 'England',
    inUk: true,
    confidence: 1,
    precision: 'point',
    town: null,
  };
}

const OAKHAM = at(52.6708, -0.7266);
const UPPINGHAM = at(52.5895, -0.7214);

// A fake OSRM: each test says what the next answers are; requests are recorded.
type Reply = { status: number; body: string } | 'hang' | 'drop';
let replies: Reply[] = [];
const requests: string[] = [];
const hanging: http.ServerResponse[] = [];
const server = http.createServer((req, res) => {
  requests.push(req.url ?? '');
  const reply = replies.shift() ?? { status: 500, body: 'no reply set' };
  if (reply === 'hang') {
    hanging.push(res);
    return;
  }
  if (reply === 'drop') {
    req.socket.destroy();
    return;
  }
  res.writeHead(reply.status, { 'content-type': 'application/json' }).end(reply.body);
});
let url = '';

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(async () => {
  for (const res of hanging) res.destroy();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

let logs: { level: string; fields: Record<string, unknown> }[] = [];
const log: RouterLog = {
  warn: (fields) => logs.push({ level: 'warn', fields }),
  info: (fields) => logs.push({ level: 'info', fields }),
};
beforeEach(() => {
  replies = [];
  requests.length = 0;
  logs = [];
});

const ok = (distance: number, duration: number) => ({
  status: 200,
  body: JSON.stringify({ code: 'Ok', routes: [{ distance, duration, legs: [] }], waypoints: [] }),
});

describe('OsrmRouter', () => {
  it("asks OSRM's route service lon,lat first and carries its road distance", async () => {
    replies = [ok(10074.3, 698.8)];
    const router = new OsrmRouter({ url, timeoutMs: 2000, log });
    const route = await router.route(OAKHAM, UPPINGHAM);
    expect(requests).toEqual(['/route/v1/driving/-0.726600,52.670800;-0.721400,52.589500?overview=false']);
    expect(route.model).toBe('osrm');
    expect(distanceSourceOf(route.model)).toBe('road');
    expect(route.distanceMeters).toBe(10074);
    expect(route.straightLineMeters).toBe(estimateRoute(OAKHAM, UPPINGHAM).straightLineMeters);
    expect(route.circuityFactor).toBeCloseTo(10074.3 / route.straightLineMeters, 3);
    // Free-flow time is raised to the traffic-speed bands over the same road distance.
    expect(route.durationSeconds).toBeGreaterThanOrEqual(699);
    expect(logs).toEqual([]);
  });

  it.each<[string, Reply, string]>([
    ['a 5xx', { status: 503, body: 'busy' }, 'http_status'],
    ['a non-JSON 200', { status: 200, body: '<html>' }, 'bad_response'],
    [
      'code other than Ok',
      { status: 200, body: JSON.stringify({ code: 'InvalidQuery', message: 'x' }) },
      'bad_response',
    ],
    ['NoRoute', { status: 400, body: JSON.stringify({ code: 'NoRoute', message: 'Impossible route' }) }, 'no_route'],
    ['an Ok without routes', { status: 200, body: JSON.stringify({ code: 'Ok', routes: [] }) }, 'no_route'],
    ['a dropped connection', 'drop', 'network'],
  ])('falls back to the estimate on %s, and logs it once', async (_name, reply, kind) => {
    // A dropped connection is asked again once: it takes two drops to fall back.
    replies = reply === 'drop' ? [reply, reply, reply, reply] : [reply, reply];
    const router = new OsrmRouter({ url, timeoutMs: 2000, log });
    const first = await router.route(OAKHAM, UPPINGHAM);
    const second = await router.route(OAKHAM, UPPINGHAM);
    expect(first).toEqual(estimateRoute(OAKHAM, UPPINGHAM));
    expect(second).toEqual(first);
    expect(distanceSourceOf(first.model)).toBe('estimate');
    expect(logs).toEqual([{ level: 'warn', fields: expect.objectContaining({ failure: kind }) }]);
    expect(JSON.stringify(logs)).not.toContain('/route/');
  });

  it('asks again once when a kept-alive connection is closed under it', async () => {
    replies = ['drop', ok(10074.3, 698.8)];
    const router = new OsrmRouter({ url, timeoutMs: 2000, log });
    expect((await router.route(OAKHAM, UPPINGHAM)).model).toBe('osrm');
    expect(requests).toHaveLength(2);
    expect(logs).toEqual([]);
  });

  it('falls back when OSRM does not answer within its timeout', async () => {
    replies = ['hang'];
    const router = new OsrmRouter({ url, timeoutMs: 100, log });
    const route = await router.route(OAKHAM, UPPINGHAM);
    expect(route.model).toMatch(/^estimate:/);
    expect(logs.map((l) => l.fields['failure'])).toEqual(['timeout']);
  });

  it('falls back when nothing listens, and says when the road router is back', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const deadUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise((resolve) => closed.close(resolve));
    const dead = new OsrmRouter({ url: deadUrl, timeoutMs: 2000, log });
    expect((await dead.route(OAKHAM, UPPINGHAM)).model).toMatch(/^estimate:/);
    expect(logs.map((l) => l.fields['failure'])).toEqual(['network']);

    logs = [];
    replies = [{ status: 502, body: '' }, ok(10074.3, 698.8), { status: 502, body: '' }];
    const router = new OsrmRouter({ url, timeoutMs: 2000, log });
    expect((await router.route(OAKHAM, UPPINGHAM)).model).toMatch(/^estimate:/);
    expect((await router.route(OAKHAM, UPPINGHAM)).model).toBe('osrm');
    expect((await router.route(OAKHAM, UPPINGHAM)).model).toMatch(/^estimate:/);
    expect(logs.map((l) => [l.level, l.fields['failure']])).toEqual([
      ['warn', 'http_status'],
      ['info', undefined],
      ['warn', 'http_status'],
    ]);
  });
});

describe('distanceSourceOf', () => {
  it('is road for OSRM and estimate for everything else', () => {
    expect(distanceSourceOf('osrm')).toBe('road');
    expect(distanceSourceOf('estimate:circuity-v1')).toBe('estimate');
    expect(distanceSourceOf(undefined)).toBe('estimate');
  });
});

describe('ROUTER=osrm configuration', () => {
  const base = { DATABASE_URL: 'postgres://localhost/x', NODE_ENV: 'test' };

  it('needs OSRM_URL, and says so', () => {
    expect(() => loadConfig({ ...base, ROUTER: 'osrm' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, ROUTER: 'osrm' })).toThrow(/OSRM_URL: is required when ROUTER is osrm/);
    expect(() => loadConfig({ ...base, ROUTER: 'osrm', OSRM_URL: 'localhost:5000' })).toThrow(/OSRM_URL/);
  });

  it('builds an OSRM router with the configured timeout, 1.5 s by default', () => {
    const config = loadConfig({ ...base, ROUTER: 'osrm', OSRM_URL: 'http://127.0.0.1:5000' });
    expect(config.OSRM_TIMEOUT_MS).toBe(1500);
    const { router } = createGeoProviders({
      geocoder: 'embedded',
      router: config.ROUTER,
      osrmUrl: config.OSRM_URL,
      osrmTimeoutMs: config.OSRM_TIMEOUT_MS,
    });
    expect(router).toBeInstanceOf(OsrmRouterFromIndex);
    expect(loadConfig(base).ROUTER).toBe('estimate');
  });
});
