// Starting the outside providers' own test servers (issue 39) on loopback, for the adapters' tests
// and for `npm start` when PROVIDERS=local (docs/providers.md). scripts/install-providers.sh
// installs them into .tools/providers/; a server not installed yet is installed on first use.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../free-port.js';

const root = path.resolve(import.meta.dirname, '../..');

export type ProviderServerName = 'stripe-mock' | 'mailpit' | 'localstripe' | 'prism';

/** The executable of one provider server, installing it first if this clone has none (minutes for a Go build). */
export async function providerExecutable(name: ProviderServerName): Promise<string> {
  const { stdout } = await promisify(execFile)('bash', [path.join(root, 'scripts/install-providers.sh'), name], {
    cwd: root,
    timeout: 20 * 60_000,
    maxBuffer: 1 << 20,
  });
  const line = stdout
    .split('\n')
    .map((l) => l.trim().split(' '))
    .find(([n]) => n === name);
  if (!line?.[1]) throw new Error(`scripts/install-providers.sh ${name} printed no path:\n${stdout}`);
  return line[1];
}

export interface ProviderServer {
  /** http://127.0.0.1:<port> */
  url: string;
  port: number;
  /** Stops the server (idempotent). */
  stop(): Promise<void>;
}

/**
 * Spawns a server and waits until `ready(port)` is true, polling a bounded number of times (no
 * fixed sleep racing the clock: a slow machine takes more attempts, not a failure).
 */
export async function spawnProviderServer(opts: {
  name: string;
  command: string;
  args: (port: number) => string[];
  ready: (url: string) => Promise<boolean>;
  port?: number;
}): Promise<ProviderServer> {
  const port = opts.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  let log = '';
  const child: ChildProcess = spawn(opts.command, opts.args(port), {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (d: Buffer) => (log = (log + d.toString()).slice(-8000));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  let exited = false;
  child.once('exit', () => (exited = true));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await gone;
  };
  for (let attempt = 0; attempt < 1200; attempt++) {
    if (exited) throw new Error(`${opts.name} exited before it was ready:\n${log}`);
    if (await opts.ready(url).catch(() => false)) return { url, port, stop };
    await new Promise((r) => setTimeout(r, 100));
  }
  await stop();
  throw new Error(`${opts.name} did not answer on ${url}:\n${log}`);
}
