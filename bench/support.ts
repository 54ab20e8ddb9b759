// Shared plumbing for the benchmarks: one real Postgres and one Temporal server (started here
// unless DATABASE_URL / TEMPORAL_ADDRESS point at running ones), service processes started the way
// `npm start` starts them, and a closed-loop load generator for non-HTTP calls.
//
// BENCH_TOPOLOGY picks the Temporal server: `dev` (default) is the CLI dev server on a SQLite file,
// as `npm start` runs it; `cluster` is Temporal Server 1.29.1 on the same Postgres (persistence and
// SQL visibility), as `npm run start:cluster` and production run it.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startPostgresProcess } from '../dev/postgres-process.js';
import { startTemporalDevServer, stopChild } from '../dev/temporal-dev-server.js';
import { postgresParts, startTemporalServer } from '../dev/temporal-server.js';
import { freePort } from '../dev/free-port.js';
import { createApiKey } from '../src/auth/api-keys.js';
import { migrate } from '../src/db/migrate.js';
import { createSql, type Sql } from '../src/db/sql.js';

export type Topology = 'dev' | 'cluster';
export const topology: Topology = process.env.BENCH_TOPOLOGY === 'cluster' ? 'cluster' : 'dev';
const defaultTopology = topology;

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface Stack {
  databaseUrl: string;
  temporalAddress: string;
  topology: Topology;
  stop: () => Promise<void>;
}

/**
 * The dev server on `port`, or on a fresh free port if it exits at once: a port found free a moment
 * ago can be taken before the server binds it (the scripts test once lost a run to that).
 */
async function startDevServerRetrying(port: number, dbFile: string) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startTemporalDevServer({ port, dbFile, readyTimeoutMs: 120_000 });
    } catch (err) {
      if (attempt >= 3 || !(err instanceof Error) || !/exited early/.test(err.message)) throw err;
      port = await freePort();
    }
  }
}

/**
 * Ports default to the fixed ones bench/quote.ts has always used; pass free ones to run beside it.
 * The topology defaults to BENCH_TOPOLOGY; bench/capacity.ts passes each in turn.
 */
export async function startBenchStack(
  ports: { postgres?: number; temporal?: number } = {},
  topology: Topology = defaultTopology,
): Promise<Stack> {
  const stops: Array<() => Promise<void>> = [];
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'taxi-bench-'));
  let databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) {
    const pg = await startPostgresProcess({
      dataDir: path.join(tmp, 'pg'),
      port: ports.postgres ?? 54361,
      persistent: false,
    });
    stops.push(pg.stop);
    databaseUrl = pg.url;
  }
  let temporalAddress = process.env.TEMPORAL_ADDRESS;
  if (!temporalAddress && topology === 'cluster') {
    const t = await startTemporalServer({
      postgres: postgresParts(databaseUrl),
      frontendPort: 'free',
      logFile: path.join(tmp, 'temporal.log'),
      readyTimeoutMs: 180_000,
    });
    stops.push(t.stop);
    temporalAddress = t.address;
  } else if (!temporalAddress) {
    // Same persistence as `npm start` (SQLite file), so the figures match what a newcomer runs.
    const t = await startDevServerRetrying(ports.temporal ?? 7261, path.join(tmp, 'temporal.sqlite'));
    stops.push(t.stop);
    temporalAddress = t.address;
  }
  return {
    databaseUrl,
    temporalAddress,
    topology,
    stop: async () => {
      if (process.env.BENCH_PG_STATEMENTS) await writeStatementCosts(databaseUrl, process.env.BENCH_PG_STATEMENTS);
      for (const s of stops.reverse()) await s().catch(() => {});
      fs.rmSync(tmp, { recursive: true, force: true });
    },
  };
}

/**
 * BENCH_PG_STATEMENTS=<file>: the benchmark's Postgres counts every statement (pg_stat_statements,
 * nested ones too), and its 80 costliest by total time, in every database (the service's and
 * Temporal's), are written to the file as the stack stops: which statements a booking's Postgres
 * CPU goes to, with calls and rows, to divide by the bookings made.
 */
async function writeStatementCosts(databaseUrl: string, file: string): Promise<void> {
  const sql = createSql(databaseUrl, 1);
  try {
    await sql`create extension if not exists pg_stat_statements`;
    const rows = await sql<{ db: string; calls: string; ms: string; per_call: string; rows: string; query: string }[]>`
      select d.datname as db, s.calls, round(s.total_exec_time::numeric, 1) as ms,
             round((s.total_exec_time / s.calls)::numeric, 3) as per_call, s.rows,
             left(regexp_replace(s.query, '\\s+', ' ', 'g'), 400) as query
        from pg_stat_statements s join pg_database d on d.oid = s.dbid
       order by s.total_exec_time desc limit 80`;
    const lines = ['database | calls | total ms | ms a call | rows | statement'];
    for (const r of rows) lines.push([r.db, r.calls, r.ms, r.per_call, r.rows, r.query].join(' | '));
    fs.writeFileSync(file, lines.join('\n') + '\n');
  } finally {
    await sql.end();
  }
}

/**
 * What every benchmark of the booking path needs before it starts the service's processes: the
 * stack on free ports, a migrated database, an API key exempt from the hourly limits, a port for the
 * API, and the environment the API and worker share. Offers time out after 10 minutes, so no cascade
 * moves on while a benchmark measures.
 */
export async function prepareServiceBench(name: string, taskQueue: string) {
  const stack = await startBenchStack({ postgres: await freePort(), temporal: await freePort() });
  const sql: Sql = createSql(stack.databaseUrl, 4);
  await migrate(sql);
  const { key } = await createApiKey(sql, { name, rateLimitExempt: true });
  const apiPort = await freePort();
  const env = {
    DATABASE_URL: stack.databaseUrl,
    TEMPORAL_ADDRESS: stack.temporalAddress,
    TEMPORAL_TASK_QUEUE: taskQueue,
    LOG_LEVEL: 'warn',
    OFFER_TIMEOUT_SECONDS: '600',
    // ...and an unopened card is not cut after OFFER_UNSEEN_SECONDS either (the seeded drivers never
    // open one): the offer policy's group (OFFER_GROUP_SIZE, 3) is what each booking's first round
    // costs, as shipped, but no booking moves on to a second round during the measurement.
    OFFER_UNSEEN_SECONDS: '0',
  };
  return { stack, sql, key, apiPort, apiUrl: `http://127.0.0.1:${apiPort}`, env };
}

/**
 * BENCH_CPU_PROF_DIR writes a V8 CPU profile of every service process there (one .cpuprofile per
 * process, on exit; open it in Chrome DevTools): Node refuses --cpu-prof in NODE_OPTIONS.
 */
const profileArgs = process.env.BENCH_CPU_PROF_DIR
  ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF_DIR}`]
  : [];

export function startProcess(
  entry: string,
  env: NodeJS.ProcessEnv,
): { child: ChildProcess; stop: () => Promise<void> } {
  const child = spawn(process.execPath, [...profileArgs, '--import', 'tsx', path.join(root, entry)], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  return { child, stop: () => stopChild(child) };
}

export async function waitForHttp(url: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} not ready`);
}

export interface LoadResult {
  name: string;
  requests: number;
  errors: number;
  seconds: number;
  perSecond: number;
  p50: number;
  p99: number;
  /** Every latency, sorted, when the generator kept them (closed loops do): rounds merge exactly. */
  latencies?: number[];
}

/**
 * How many alternating rounds a bench splits each measurement into (BENCH_ROUNDS, default 3): the
 * baseline and the measured path take turns, so work left over from one phase (a server catching
 * up on the last one's closed workflows) and a neighbour on a shared machine fall on both alike.
 * A single pair of phases put the cluster's quote ratio anywhere from 0.77 to 1.16 from one run to
 * the next; taking turns is what makes the ratio mean something.
 */
export const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));

/**
 * One measurement from its rounds: counts and time summed; percentiles exact from the latencies
 * when every round kept them, otherwise the rounds' own percentiles weighted by their requests.
 */
export function mergeRounds(name: string, parts: LoadResult[]): LoadResult {
  const requests = parts.reduce((n, p) => n + p.requests, 0);
  const seconds = parts.reduce((n, p) => n + p.seconds, 0);
  const merged = {
    name,
    requests,
    errors: parts.reduce((n, p) => n + p.errors, 0),
    seconds,
    perSecond: requests / seconds,
  };
  if (parts.every((p) => p.latencies)) {
    const latencies = parts.flatMap((p) => p.latencies!).sort((a, b) => a - b);
    return { ...merged, p50: percentile(latencies, 50), p99: percentile(latencies, 99), latencies };
  }
  const weighted = (f: (p: LoadResult) => number) =>
    parts.reduce((n, p) => n + f(p) * p.requests, 0) / Math.max(1, requests);
  return { ...merged, p50: weighted((p) => p.p50), p99: weighted((p) => p.p99) };
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, i)]!;
}

/** Runs `call` from `concurrency` loops for `seconds`, recording each call's latency. */
export async function closedLoop(
  name: string,
  concurrency: number,
  seconds: number,
  call: () => Promise<void>,
): Promise<LoadResult> {
  const latencies: number[] = [];
  let errors = 0;
  const started = performance.now();
  const until = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < until) {
        const t = performance.now();
        try {
          await call();
          latencies.push(performance.now() - t);
        } catch {
          errors++;
        }
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    name,
    requests: latencies.length,
    errors,
    seconds: elapsed,
    perSecond: latencies.length / elapsed,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    latencies,
  };
}

/**
 * Writes a benchmark's headline figures as JSON to BENCH_SUMMARY_FILE, when set, for
 * bench/topologies.ts to put the runs side by side.
 */
export function writeSummary(summary: Record<string, number | string>): void {
  const file = process.env.BENCH_SUMMARY_FILE;
  if (file) fs.writeFileSync(file, JSON.stringify({ topology, ...summary }));
}

export function printTable(rows: LoadResult[]): void {
  console.log('\n| measurement | requests | errors | per second | p50 ms | p99 ms |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    console.log(
      `| ${r.name} | ${r.requests} | ${r.errors} | ${r.perSecond.toFixed(1)} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} |`,
    );
  }
}
