// ROUTER=osrm against a real OSRM on the Rutland graph (data/osm/, © OpenStreetMap contributors,
// ODbL): a quote carries OSRM's road distance and says `road`; with OSRM stopped the same quote is
// priced on the estimate and says `estimate`. scripts/install-osrm.sh builds the graph on a fresh clone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOsrm, type Osrm } from '../support/osrm.js';
import { startStack, type TestStack } from '../support/stack.js';

let stack: TestStack;
let osrm: Osrm | undefined;
let osrmUrl = '';

beforeAll(async () => {
  osrm = await startOsrm();
  osrmUrl = osrm.url;
  stack = await startStack({ ROUTER: 'osrm', OSRM_URL: osrmUrl, OSRM_TIMEOUT_MS: '5000' });
}, 300_000);

afterAll(async () => {
  await osrm?.stop();
  await stack?.close();
});

const TRIP = { pickup: 'Oakham station', dropoff: 'Uppingham, Rutland' };

function quote() {
  return stack.app.inject({
    method: 'POST',
    url: '/api/public/v1/quote',
    headers: { 'content-type': 'application/json' },
    remoteAddress: '10.36.4.1',
    payload: JSON.stringify({ ...TRIP, departAt: new Date(Date.now() + 3600_000).toISOString() }),
  });
}

interface Place {
  latitude: number;
  longitude: number;
}

describe('ROUTER=osrm on the Rutland graph', () => {
  let roadMeters = 0;

  it("quotes OSRM's road distance (within 1 %) and says road", async () => {
    const res = await quote();
    expect(res.statusCode).toBe(200);
    const body = res.json<{ distance: { meters: number; source: string }; pickup: Place; dropoff: Place }>();
    const { pickup, dropoff } = body;
    const own = await fetch(
      `${osrmUrl}/route/v1/driving/${pickup.longitude},${pickup.latitude};${dropoff.longitude},${dropoff.latitude}?overview=false`,
    );
    const route = (await own.json()) as { code: string; routes: { distance: number }[] };
    expect(route.code).toBe('Ok');
    const osrmMeters = route.routes[0]!.distance;
    // Oakham to Uppingham by road is about 10 km (9.2 km as the crow flies).
    expect(osrmMeters).toBeGreaterThan(9_000);
    expect(osrmMeters).toBeLessThan(12_000);
    expect(body.distance.source).toBe('road');
    expect(Math.abs(body.distance.meters - osrmMeters) / osrmMeters).toBeLessThan(0.01);
    roadMeters = body.distance.meters;
  });

  it('falls back to the estimate, and says so, when the router is stopped', async () => {
    await osrm!.stop();
    const res = await quote();
    expect(res.statusCode).toBe(200);
    const body = res.json<{ distance: { meters: number; source: string }; fare_pence: number }>();
    expect(body.distance.source).toBe('estimate');
    expect(body.fare_pence).toBeGreaterThan(0);
    expect(body.distance.meters).toBeGreaterThan(0);
    if (roadMeters > 0) expect(body.distance.meters).not.toBe(roadMeters);
  });
});
