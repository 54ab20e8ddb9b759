import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { devServerSearchAttributeArgs } from '../src/temporal/search-attributes.js';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface TemporalDevServerHandle {
  address: string;
  uiUrl: string | null;
  process: ChildProcess;
  stop: () => Promise<void>;
}

/** Path of the pinned Temporal CLI, installing it on first use (scripts/install-temporal.sh). */
export function temporalCliPath(): string {
  const out = execFileSync('bash', [path.join(projectRoot, 'scripts/install-temporal.sh')], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const cli = out.trim().split('\n').pop();
  if (!cli) throw new Error('scripts/install-temporal.sh printed no path');
  return cli;
}

export function waitForPort(port: number, host: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const attempt = () => {
      const socket = net.connect({ port, host });
      socket.once('connect', () => {
        socket.destroy();
        resolve();
      });
      socket.once('error', () => {
        socket.destroy();
        if (Date.now() > deadline) reject(new Error(`nothing listening on ${host}:${port} after ${timeoutMs} ms`));
        else setTimeout(attempt, 200);
      });
    };
    attempt();
  });
}

/**
 * Runs `temporal server start-dev`. With a dbFile the history survives restarts (npm start);
 * without one it is in memory (tests). The version check is off because there is no internet here.
 */
export async function startTemporalDevServer(opts: {
  port: number;
  uiPort?: number | null;
  dbFile?: string;
  logFile?: string;
  readyTimeoutMs?: number;
  detached?: boolean;
  /** Created at start, each with the booking search attributes; `default` unless given. */
  namespaces?: string[];
}): Promise<TemporalDevServerHandle> {
  const cli = temporalCliPath();
  const args = [
    'server',
    'start-dev',
    '--ip',
    '127.0.0.1',
    '--port',
    String(opts.port),
    ...(opts.namespaces ?? ['default']).flatMap((ns) => ['--namespace', ns]),
    '--log-level',
    'warn',
    '--dynamic-config-value',
    'frontend.enableServerVersionCheck=false',
    // Update-with-start (every booking route) needs multi-operation requests.
    '--dynamic-config-value',
    'frontend.enableExecuteMultiOperation=true',
    // Eager activities: the job card's activity task comes back with the workflow task that
    // schedules it, instead of through matching (first job card about 20 % sooner, bench/dispatch.ts).
    '--dynamic-config-value',
    'system.enableActivityEagerExecution=true',
    // The booking workflow's search attributes (status, pickup time, driver, source, partner).
    ...devServerSearchAttributeArgs(),
  ];
  if (opts.uiPort) args.push('--ui-port', String(opts.uiPort));
  else args.push('--headless');
  if (opts.dbFile) {
    fs.mkdirSync(path.dirname(opts.dbFile), { recursive: true });
    args.push('--db-filename', opts.dbFile);
  }
  const out = opts.logFile ? fs.openSync(opts.logFile, 'a') : 'ignore';
  // detached: own process group, so a Ctrl-C meant for `npm start` does not stop the server before
  // the worker has drained; the starter stops it last.
  const child = spawn(cli, args, { stdio: ['ignore', out, out], detached: opts.detached ?? false });
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`temporal dev server exited early with code ${code}`))),
  );
  await Promise.race([waitForPort(opts.port, '127.0.0.1', opts.readyTimeoutMs ?? 60_000), exited]);
  exited.catch(() => {});
  return {
    address: `127.0.0.1:${opts.port}`,
    uiUrl: opts.uiPort ? `http://localhost:${opts.uiPort}` : null,
    process: child,
    stop: () => stopChild(child),
  };
}

export function stopChild(child: ChildProcess, graceMs = 10_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
