// ROUTER=osrm against a real OSRM on the Rutland graph (data/osm/, © OpenStreetMap contributors,
// ODbL): a quote carries OSRM's road distance and says `road`; with OSRM stopped the same quote is
// priced on the estimate and says `estimate`. scripts/install-osrm.sh builds the graph on a fresh clone.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../dev/free-port.js';
import { startStack, type TestStack } from '../support/stack.js';

const root = path.resolve(import.meta.dirname, '../..');
const osrmDir = path.join(root, '.tools/osrm');
const graph = path.join(osrmDir, 'rutland/rutland.osrm');

let stack: TestStack;
let osrm: ChildProcess | undefined;
let osrmUrl = '';
let osrmLog = '';

async function startOsrm(port: number): Promise<ChildProcess> {
  const child = spawn(
    path.join(osrmDir, 'run.sh'),
    ['osrm-routed', '--algorithm', 'mld', '--ip', '127.0.0.1', '--port', String(port), graph],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stdout.on('data', (d: Buffer) => (osrmLog = (osrmLog + d.toString()).slice(-4000)));
  child.stderr.on('data', (d: Buffer) => (osrmLog = (osrmLog + d.toString()).slice(-4000)));
  let exited = false;
  child.once('exit', () => (exited = true));
  // Ready when its HTTP port answers a route; bounded by attempts, not by the clock racing a sleep.
  for (let attempt = 0; attempt < 600; attempt++) {
    if (exited) throw new Error(`osrm-routed exited:\n${osrmLog}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/route/v1/driving/-0.7266,52.6708;-0.7214,52.5895`);
      if (res.ok) return child;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`osrm-routed did not answer on port ${port}:\n${osrmLog}`);
}

async function stopOsrm(): Promise<void> {
  const child = osrm;
  osrm = undefined;
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  // run.sh execs osrm-routed, so this pid is osrm-routed itself.
  child.kill('SIGTERM');
  await exited;
}

beforeAll(async () => {
  if (!existsSync(path.join(osrmDir, 'rutland/.complete')) || !existsSync(path.join(osrmDir, 'run.sh'))) {
    await promisify(execFile)('bash', [path.join(root, 'scripts/install-osrm.sh')], { cwd: root, timeout: 280_000 });
  }
  const port = await freePort();
  osrm = await startOsrm(port);
  osrmUrl = `http://127.0.0.1:${port}`;
  stack = await startStack({ ROUTER: 'osrm', OSRM_URL: osrmUrl, OSRM_TIMEOUT_MS: '5000' });
}, 300_000);

afterAll(async () => {
  await stopOsrm();
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
    await stopOsrm();
    const res = await quote();
    expect(res.statusCode).toBe(200);
    const body = res.json<{ distance: { meters: number; source: string }; fare_pence: number }>();
    expect(body.distance.source).toBe('estimate');
    expect(body.fare_pence).toBeGreaterThan(0);
    expect(body.distance.meters).toBeGreaterThan(0);
    if (roadMeters > 0) expect(body.distance.meters).not.toBe(roadMeters);
  });
});
