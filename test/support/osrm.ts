// A real OSRM server on the Rutland graph (data/osm/, © OpenStreetMap contributors, ODbL), for the
// tests of the road router and of drivers' own map services. scripts/install-osrm.sh builds the
// graph and the binaries' runner on a fresh clone (cached in .tools/osrm).
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../../dev/free-port.js';

const root = path.resolve(import.meta.dirname, '../..');
const osrmDir = path.join(root, '.tools/osrm');
const graph = path.join(osrmDir, 'rutland/rutland.osrm');

export interface Osrm {
  url: string;
  /** Stops the server (idempotent): what a router that has gone away looks like. */
  stop(): Promise<void>;
}

/** Builds the graph if this clone has none yet, then starts osrm-routed on a free loopback port. */
export async function startOsrm(): Promise<Osrm> {
  if (!existsSync(path.join(osrmDir, 'rutland/.complete')) || !existsSync(path.join(osrmDir, 'run.sh'))) {
    await promisify(execFile)('bash', [path.join(root, 'scripts/install-osrm.sh')], { cwd: root, timeout: 280_000 });
  }
  const port = await freePort();
  const child = await spawnOsrm(port);
  return { url: `http://127.0.0.1:${port}`, stop: () => stopChild(child) };
}

async function spawnOsrm(port: number): Promise<ChildProcess> {
  let log = '';
  const child = spawn(
    path.join(osrmDir, 'run.sh'),
    ['osrm-routed', '--algorithm', 'mld', '--ip', '127.0.0.1', '--port', String(port), graph],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stdout.on('data', (d: Buffer) => (log = (log + d.toString()).slice(-4000)));
  child.stderr.on('data', (d: Buffer) => (log = (log + d.toString()).slice(-4000)));
  let exited = false;
  child.once('exit', () => (exited = true));
  // Ready when its HTTP port answers a route; bounded by attempts, not by the clock racing a sleep.
  for (let attempt = 0; attempt < 600; attempt++) {
    if (exited) throw new Error(`osrm-routed exited:\n${log}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/route/v1/driving/-0.7266,52.6708;-0.7214,52.5895`);
      if (res.ok) return child;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`osrm-routed did not answer on port ${port}:\n${log}`);
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  // run.sh execs osrm-routed, so this pid is osrm-routed itself.
  child.kill('SIGTERM');
  await exited;
}
