// `npm run start:cluster`: the production shape on one machine, without Docker. Postgres (embedded,
// data in .data/cluster/), Temporal Server 1.29.1 on it (built on first run by
// scripts/install-temporal-server.sh, configured from docker/temporal/ like docker-compose.yml)
// with its Web UI, two workers and two API processes behind a round-robin proxy on PORT, so a
// client sees one address while any one process may die. Ctrl-C stops the proxy, the APIs, the
// workers, the UI, Temporal and Postgres, in that order. A second start keeps the first start's data.
import fs from 'node:fs';
import path from 'node:path';
import { freePortPair } from '../dev/free-port.js';
import { startPostgresProcess } from '../dev/postgres-process.js';
import { ProcessStack } from '../dev/process-stack.js';
import { startRoundRobinProxy } from '../dev/round-robin-proxy.js';
import { removeStackState, stackSettingsOrExit, takenPorts, writeStackState } from '../dev/stack-settings.js';
import { postgresParts, startTemporalServer, temporalServerTools } from '../dev/temporal-server.js';
import { startTemporalUi } from '../dev/temporal-ui.js';

// Read by dev/stack-settings.ts as every script reads it: DATA_DIR absolute (a relative one is
// taken from where the command was typed), CLUSTER_PG_PORT (54339, beside npm start's 54329),
// TEMPORAL_SERVER_PORT, TEMPORAL_UI_PORT, WORKER_METRICS_PORT.
const settings = stackSettingsOrExit('cluster', 'cluster');
const stack = new ProcessStack('cluster');

async function main(): Promise<void> {
  const taken = await takenPorts(settings);
  if (taken.length > 0) {
    throw new Error(
      `already in use: ${taken.join(', ')} (another stack on this machine? give this one its own ports and DATA_DIR: docs/configuration.md#local-stacks)`,
    );
  }
  const dataDir = settings.stackDir;
  fs.mkdirSync(dataDir, { recursive: true });
  const started = Date.now();

  let databaseUrl = settings.databaseUrl;
  if (settings.embeddedPostgres) {
    console.log('[cluster] starting embedded Postgres...');
    const pg = await startPostgresProcess({
      dataDir: settings.embeddedPostgres.dataDir,
      port: settings.embeddedPostgres.port,
      detached: true,
    });
    stack.add('postgres', pg.stop, pg.child);
    databaseUrl = pg.url;
  }

  let temporalAddress = settings.temporalAddress;
  const temporalLog = path.join(dataDir, 'temporal.log');
  if (settings.ownTemporal) {
    console.log(
      `[cluster] starting Temporal Server 1.29.1 on Postgres (building it on first run; log ${temporalLog})...`,
    );
    // Temporal keeps its own two databases (temporal, temporal_visibility) in the same server.
    const temporal = await startTemporalServer({
      postgres: postgresParts(databaseUrl),
      frontendPort: settings.temporalPort,
      logFile: temporalLog,
      readyTimeoutMs: 120_000,
      detached: true,
    });
    stack.add('temporal', temporal.stop, temporal.process);
    temporalAddress = temporal.address;
  }
  const ui = await startTemporalUi({
    tools: temporalServerTools(),
    temporalAddress,
    port: settings.temporalUiPort,
    configDir: path.join(dataDir, 'temporal-ui'),
    logFile: path.join(dataDir, 'temporal-ui.log'),
    detached: true,
  });
  stack.add('temporal ui', ui.stop);

  const api = settings.apiUrl;
  const apiPorts = [settings.apiPort + 1, settings.apiPort + 2];
  const common = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    TEMPORAL_ADDRESS: temporalAddress,
    // Links in messages and the OAuth issuer name the public address, not a process's own port.
    PUBLIC_BASE_URL: process.env.PUBLIC_BASE_URL ?? api,
    // The ops page links each booking to its workflow in this UI (src/config.ts derives the link from the port).
    TEMPORAL_UI_PORT: String(settings.temporalUiPort),
  };
  // Each worker's metrics endpoint (and the SDK exporter one above it): WORKER_METRICS_PORT (9464)
  // and two above it, each moved to a free pair if taken, so a second stack on this machine still
  // starts; the lines printed below say which.
  const firstMetrics = await freePortPair(settings.workerMetricsPort);
  const workerMetricsPorts = [
    firstMetrics,
    await freePortPair(firstMetrics + 2, new Set([firstMetrics, firstMetrics + 1])),
  ];
  for (const [i, port] of workerMetricsPorts.entries()) {
    stack.runService(`worker ${i + 1}`, 'src/worker.ts', { ...common, WORKER_METRICS_PORT: String(port) });
  }
  for (const [i, p] of apiPorts.entries()) {
    // Only the proxy reaches them, so they may trust the caller's address it forwards (rate limits
    // count per passenger, not per proxy).
    stack.runService(`api ${i + 1}`, 'src/server.ts', {
      ...common,
      PORT: String(p),
      HOST: '127.0.0.1',
      TRUST_PROXY: 'true',
    });
  }
  for (const p of apiPorts) await stack.waitForHttp(`http://127.0.0.1:${p}/readyz`, 120_000);
  const proxy = await startRoundRobinProxy(settings.apiPort, apiPorts, { host: settings.host, forwardedFor: true });
  stack.add('proxy', () => proxy.close());
  // For the scripts run against this cluster (STACK=cluster, or the only stack in DATA_DIR); removed first on Ctrl-C.
  writeStackState(settings.stateFile, {
    kind: 'cluster',
    pid: process.pid,
    startedAt: new Date().toISOString(),
    dataDir: settings.dataDir,
    apiUrl: api,
    databaseUrl,
    postgresDataDir: settings.embeddedPostgres?.dataDir ?? null,
    temporalAddress,
    temporalUiUrl: ui.url,
    workerMetricsPorts,
  });
  stack.add('stack.json', async () => removeStackState(settings.stateFile));

  console.log(
    [
      '',
      `Direct Taxi is running as a cluster (ready in ${((Date.now() - started) / 1000).toFixed(1)} s):`,
      `  API            ${api}/api/public/v1/quote   (round-robin over ${apiPorts.map((p) => `127.0.0.1:${p}`).join(', ')})`,
      `  OpenAPI        ${api}/api/public/openapi.json`,
      `  API docs       ${api}/api/public/docs`,
      `  Temporal UI    ${ui.url}`,
      `  Temporal       ${temporalAddress} (Temporal Server 1.29.1 on Postgres)`,
      `  Postgres       ${databaseUrl.replace(/:[^:@/]*@/, ':***@')}`,
      `  Workers        2 processes polling the same task queue (metrics ${workerMetricsPorts.map((p) => `http://127.0.0.1:${p}/metrics`).join(', ')})`,
      `  Ops            ${api}/ops/bookings (a staff key: npm run staff:create)`,
      `  Data           ${dataDir} (scripts given the same DATA_DIR find this cluster by its stack.json)`,
      '',
      'Ctrl-C stops everything.',
    ].join('\n'),
  );
}

main().catch((err: unknown) => {
  console.error('[cluster] failed:', err instanceof Error ? err.message : err);
  void stack.shutdown(1);
});
