// `npm run start:cluster`: the production shape on one machine, without Docker. Postgres (embedded,
// data in .data/cluster/), Temporal Server 1.29.1 on it (built on first run by
// scripts/install-temporal-server.sh, configured from docker/temporal/ like docker-compose.yml)
// with its Web UI, two workers and two API processes behind a round-robin proxy on PORT, so a
// client sees one address while any one process may die. Ctrl-C stops the proxy, the APIs, the
// workers, the UI, Temporal and Postgres, in that order. A second start keeps the first start's data.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { freePortPair } from '../dev/free-port.js';
import { startPostgresProcess } from '../dev/postgres-process.js';
import { ProcessStack } from '../dev/process-stack.js';
import { startRoundRobinProxy } from '../dev/round-robin-proxy.js';
import { postgresParts, startTemporalServer, temporalServerTools } from '../dev/temporal-server.js';
import { startTemporalUi } from '../dev/temporal-ui.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const port = z.coerce.number().int().min(1).max(65535);

const env = z
  .object({
    PORT: port.default(3000),
    HOST: z.string().default('0.0.0.0'),
    DATA_DIR: z.string().default(path.join(root, '.data')),
    // Not npm start's defaults, so the two can run side by side (but for Temporal's 7233).
    CLUSTER_PG_PORT: port.default(54339),
    TEMPORAL_SERVER_PORT: port.default(7233),
    TEMPORAL_UI_PORT: port.default(8233),
    DATABASE_URL: z.string().optional(),
    TEMPORAL_ADDRESS: z.string().optional(),
  })
  .safeParse(process.env);
if (!env.success) {
  for (const i of env.error.issues) console.error(`[cluster] ${i.path.join('.')}: ${i.message}`);
  process.exit(1);
}
const settings = env.data;
const stack = new ProcessStack('cluster');

async function main(): Promise<void> {
  const dataDir = path.join(settings.DATA_DIR, 'cluster');
  fs.mkdirSync(dataDir, { recursive: true });
  const started = Date.now();

  let databaseUrl = settings.DATABASE_URL;
  if (!databaseUrl) {
    console.log('[cluster] starting embedded Postgres...');
    const pg = await startPostgresProcess({ dataDir: path.join(dataDir, 'postgres'), port: settings.CLUSTER_PG_PORT, detached: true });
    stack.add('postgres', pg.stop, pg.child);
    databaseUrl = pg.url;
  }

  let temporalAddress = settings.TEMPORAL_ADDRESS;
  const temporalLog = path.join(dataDir, 'temporal.log');
  if (!temporalAddress) {
    console.log(`[cluster] starting Temporal Server 1.29.1 on Postgres (building it on first run; log ${temporalLog})...`);
    // Temporal keeps its own two databases (temporal, temporal_visibility) in the same server.
    const temporal = await startTemporalServer({
      postgres: postgresParts(databaseUrl),
      frontendPort: settings.TEMPORAL_SERVER_PORT,
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
    port: settings.TEMPORAL_UI_PORT,
    configDir: path.join(dataDir, 'temporal-ui'),
    logFile: path.join(dataDir, 'temporal-ui.log'),
    detached: true,
  });
  stack.add('temporal ui', ui.stop);

  const api = `http://localhost:${settings.PORT}`;
  const apiPorts = [settings.PORT + 1, settings.PORT + 2];
  const common = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    TEMPORAL_ADDRESS: temporalAddress,
    // Links in messages and the OAuth issuer name the public address, not a process's own port.
    PUBLIC_BASE_URL: process.env.PUBLIC_BASE_URL ?? api,
    // The ops page links each booking to its workflow in this UI.
    TEMPORAL_UI_URL: process.env.TEMPORAL_UI_URL ?? ui.url,
  };
  // Each worker's metrics endpoint (and the SDK exporter one above it): 9464 and 9466 unless taken.
  const firstMetrics = await freePortPair(Number(process.env.WORKER_METRICS_PORT ?? 9464));
  const workerMetricsPorts = [firstMetrics, await freePortPair(firstMetrics + 2, new Set([firstMetrics, firstMetrics + 1]))];
  for (const [i, port] of workerMetricsPorts.entries()) {
    stack.runService(`worker ${i + 1}`, 'src/worker.ts', { ...common, WORKER_METRICS_PORT: String(port) });
  }
  for (const [i, p] of apiPorts.entries()) {
    // Only the proxy reaches them, so they may trust the caller's address it forwards (rate limits
    // count per passenger, not per proxy).
    stack.runService(`api ${i + 1}`, 'src/server.ts', { ...common, PORT: String(p), HOST: '127.0.0.1', TRUST_PROXY: 'true' });
  }
  for (const p of apiPorts) await stack.waitForHttp(`http://127.0.0.1:${p}/readyz`, 120_000);
  const proxy = await startRoundRobinProxy(settings.PORT, apiPorts, { host: settings.HOST, forwardedFor: true });
  stack.add('proxy', () => proxy.close());

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
      '',
      'Ctrl-C stops everything.',
    ].join('\n'),
  );
}

main().catch((err: unknown) => {
  console.error('[cluster] failed:', err instanceof Error ? err.message : err);
  void stack.shutdown(1);
});
