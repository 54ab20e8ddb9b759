// The Temporal Web UI for a full Temporal Server (which, unlike the dev server, has none built in):
// the UI server 2.42.1 that the temporalio/ui image runs, built by scripts/install-temporal-server.sh.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { waitForPort, stopChild } from './temporal-dev-server.js';

export interface TemporalUiHandle {
  url: string;
  stop: () => Promise<void>;
}

export async function startTemporalUi(opts: {
  /** The folder scripts/install-temporal-server.sh printed. */
  tools: string;
  temporalAddress: string;
  port: number;
  /** Where its configuration is written (the UI server reads <dir>/<env>.yaml). */
  configDir: string;
  logFile?: string;
  detached?: boolean;
}): Promise<TemporalUiHandle> {
  // Absolute: the server is started with --root /, against which it resolves --config.
  const configDir = path.resolve(opts.configDir);
  fs.mkdirSync(configDir, { recursive: true });
  // Written fresh each start: the address and port are this start's.
  fs.writeFileSync(
    path.join(configDir, 'cluster.yaml'),
    [
      `temporalGrpcAddress: ${opts.temporalAddress}`,
      'host: 127.0.0.1',
      `port: ${opts.port}`,
      'enableUi: true',
      'defaultNamespace: default',
      // No calls out: this machine has no internet, and the version is pinned anyway.
      'notifyOnNewVersion: false',
      'cors:',
      '  cookieInsecure: true',
      '',
    ].join('\n'),
  );
  const log = opts.logFile ? fs.openSync(opts.logFile, 'a') : 'ignore';
  const child = spawn(
    path.join(opts.tools, 'temporal-ui-server'),
    ['--root', '/', '--config', configDir, '--env', 'cluster', 'start'],
    {
      stdio: ['ignore', log, log],
      detached: opts.detached ?? false,
    },
  );
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`temporal-ui-server exited early with code ${code}`))),
  );
  exited.catch(() => {});
  await Promise.race([waitForPort(opts.port, '127.0.0.1', 30_000), exited]);
  return { url: `http://localhost:${opts.port}`, stop: () => stopChild(child) };
}
