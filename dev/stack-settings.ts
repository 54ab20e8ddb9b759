// What a local stack is, derived in one place from the environment: `npm start`, `npm run
// start:cluster` and every script the README names (staff:create, partner:create, api-key:create,
// fleet:seed, fleet:simulate, mcp:token, exchange:register, driver:sandbox) read it here, so a script
// run with the same settings as its stack reaches that stack and no other.
//
// - DATA_DIR (default `.data` in the project) is resolved against the directory the command was
//   typed in (npm's INIT_CWD, else the current directory), so a relative path works.
// - The database: DATABASE_URL, else the embedded Postgres at EMBEDDED_PG_PORT (start:cluster:
//   CLUSTER_PG_PORT) whose data is in <DATA_DIR>/postgres (<DATA_DIR>/cluster/postgres).
// - A running starter writes the ports it chose to <DATA_DIR>/stack.json (start:cluster:
//   <DATA_DIR>/cluster/stack.json), and removes it when it stops; a script reads it when the
//   environment does not name the database or the API port itself.
// - A script never writes into another stack's embedded Postgres: before anything else it asks
//   the server for its data directory and stops unless it is this stack's.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { createSql, type Sql } from '../src/db/sql.js';
import { canListen } from './free-port.js';

export const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** `npm start` ('start') or `npm run start:cluster` ('cluster'). */
export type StackKind = 'start' | 'cluster';

const port = z.coerce.number().int().min(1).max(65535);

const StackEnv = z.object({
  PORT: port.default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).optional(),
  EMBEDDED_PG_PORT: port.default(54329),
  // Not npm start's default, so the two can run side by side (but for Temporal's 7233).
  CLUSTER_PG_PORT: port.default(54339),
  TEMPORAL_DEV_PORT: port.default(7233),
  TEMPORAL_SERVER_PORT: port.default(7233),
  TEMPORAL_UI_PORT: port.default(8233),
  WORKER_METRICS_PORT: port.optional(),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .optional(),
  TEMPORAL_ADDRESS: z
    .string()
    .regex(/^[^:\s]+:\d+$/, 'must be host:port')
    .optional(),
  STACK: z.enum(['start', 'cluster']).optional(),
  // `local`: npm start also runs the providers' own test servers and sends through them
  // (dev/providers/local.ts, docs/providers.md); `none`: every message stays in the outbox.
  PROVIDERS: z.enum(['none', 'local']).default('none'),
});

export interface StackSettings {
  kind: StackKind;
  /** DATA_DIR, absolute. */
  dataDir: string;
  /** Where this kind of stack keeps its data and its state file: DATA_DIR, or DATA_DIR/cluster. */
  stackDir: string;
  /** <stackDir>/stack.json, written by the running starter. */
  stateFile: string;
  apiPort: number;
  host: string;
  /** What a client on this machine calls: http://localhost:<PORT>. */
  apiUrl: string;
  /** DATABASE_URL when set, else the embedded Postgres below. */
  databaseUrl: string;
  /** The embedded Postgres this stack runs, or null when DATABASE_URL names another database. */
  embeddedPostgres: { port: number; dataDir: string } | null;
  /** TEMPORAL_ADDRESS when set, else the Temporal this stack runs at localhost:<temporalPort>. */
  temporalAddress: string;
  /** Whether the starter runs Temporal itself (no TEMPORAL_ADDRESS). */
  ownTemporal: boolean;
  temporalPort: number;
  temporalUiPort: number;
  temporalUiUrl: string;
  /** The first worker's metrics port: WORKER_METRICS_PORT, else 9464 unless taken (freePortPair). */
  workerMetricsPort: number;
  /** Whether WORKER_METRICS_PORT was set (then it is used as is, never moved). */
  workerMetricsPortSet: boolean;
  /** PROVIDERS: whether npm start runs the providers' test servers and sends through them. */
  providers: 'none' | 'local';
}

export class StackSettingsError extends Error {
  override name = 'StackSettingsError';
}

/** An empty variable counts as unset, as a shell's `DATABASE_URL= npm start` means. */
function present(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).filter((e): e is [string, string] => typeof e[1] === 'string' && e[1] !== ''),
  );
}

/** DATA_DIR, absolute: relative to where the command was typed (npm runs scripts in the project). */
export function resolveDataDir(env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): string {
  const set = present(env);
  if (!set.DATA_DIR) return path.join(projectRoot, '.data');
  return path.resolve(set.INIT_CWD ?? cwd, set.DATA_DIR);
}

export function embeddedDatabaseUrl(pgPort: number): string {
  return `postgres://postgres:postgres@127.0.0.1:${pgPort}/taxi`;
}

/** The stack's settings as its starter reads them from `env` (defaults as documented in docs/configuration.md). */
export function stackSettings(
  kind: StackKind,
  env: NodeJS.ProcessEnv = process.env,
  cwd: string = process.cwd(),
): StackSettings {
  const parsed = StackEnv.safeParse(present(env));
  if (!parsed.success) {
    throw new StackSettingsError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('\n'));
  }
  const e = parsed.data;
  const dataDir = resolveDataDir(env, cwd);
  const stackDir = kind === 'cluster' ? path.join(dataDir, 'cluster') : dataDir;
  const pgPort = kind === 'cluster' ? e.CLUSTER_PG_PORT : e.EMBEDDED_PG_PORT;
  const embeddedPostgres = e.DATABASE_URL ? null : { port: pgPort, dataDir: path.join(stackDir, 'postgres') };
  const temporalPort = kind === 'cluster' ? e.TEMPORAL_SERVER_PORT : e.TEMPORAL_DEV_PORT;
  return {
    kind,
    dataDir,
    stackDir,
    stateFile: path.join(stackDir, 'stack.json'),
    apiPort: e.PORT,
    host: e.HOST,
    apiUrl: `http://localhost:${e.PORT}`,
    databaseUrl: e.DATABASE_URL ?? embeddedDatabaseUrl(pgPort),
    embeddedPostgres,
    temporalAddress: e.TEMPORAL_ADDRESS ?? `localhost:${temporalPort}`,
    ownTemporal: !e.TEMPORAL_ADDRESS,
    temporalPort,
    temporalUiPort: e.TEMPORAL_UI_PORT,
    temporalUiUrl: `http://localhost:${e.TEMPORAL_UI_PORT}`,
    workerMetricsPort: e.WORKER_METRICS_PORT ?? 9464,
    workerMetricsPortSet: e.WORKER_METRICS_PORT !== undefined,
    providers: e.PROVIDERS,
  };
}

/** For a starter: its settings, or the bad variables printed and exit 1. */
export function stackSettingsOrExit(kind: StackKind, tag: string): StackSettings {
  try {
    return stackSettings(kind);
  } catch (err) {
    if (!(err instanceof StackSettingsError)) throw err;
    for (const line of err.message.split('\n')) console.error(`[${tag}] ${line}`);
    process.exit(1);
  }
}

/**
 * The ports this starter is about to listen on that something already holds, by the variable that
 * sets each ("EMBEDDED_PG_PORT 54329"): another stack on this machine, most likely. A starter stops
 * with them named rather than half-start against that stack's servers.
 */
export async function takenPorts(s: StackSettings): Promise<string[]> {
  const wanted: Array<[string, number]> = [];
  if (s.embeddedPostgres)
    wanted.push([s.kind === 'cluster' ? 'CLUSTER_PG_PORT' : 'EMBEDDED_PG_PORT', s.embeddedPostgres.port]);
  if (s.ownTemporal) wanted.push([s.kind === 'cluster' ? 'TEMPORAL_SERVER_PORT' : 'TEMPORAL_DEV_PORT', s.temporalPort]);
  // start:cluster runs a UI server of its own even beside an external Temporal.
  if (s.ownTemporal || s.kind === 'cluster') wanted.push(['TEMPORAL_UI_PORT', s.temporalUiPort]);
  wanted.push(['PORT', s.apiPort]);
  // start:cluster's two API processes listen on PORT+1 and PORT+2.
  if (s.kind === 'cluster') wanted.push(['PORT+1', s.apiPort + 1], ['PORT+2', s.apiPort + 2]);
  const taken: string[] = [];
  for (const [name, p] of wanted) if (!(await canListen(p))) taken.push(`${name} ${p}`);
  return taken;
}

/** What a running starter writes to <stackDir>/stack.json: the addresses it chose. */
export interface StackState {
  kind: StackKind;
  /** The starter's process; a file whose process is gone is ignored. */
  pid: number;
  startedAt: string;
  dataDir: string;
  apiUrl: string;
  databaseUrl: string;
  /** The embedded Postgres' data directory, or null when the stack uses DATABASE_URL. */
  postgresDataDir: string | null;
  temporalAddress: string;
  temporalUiUrl: string | null;
  workerMetricsPorts: number[];
  /** With PROVIDERS=local: where the providers' test servers listen (dev/providers/local.ts). */
  providers?: { mailpitUrl: string; smtpPort: number; twilioUrl: string; twilioRequestLog: string; stripeUrl: string };
}

/** Written whole (a temporary file renamed over it), readable only by its owner: it holds the database URL. */
export function writeStackState(stateFile: string, state: StackState): void {
  fs.mkdirSync(path.dirname(stateFile), { recursive: true });
  const tmp = `${stateFile}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
  fs.renameSync(tmp, stateFile);
}

/** Removes the state file if it is still this process's (a later start may have replaced it). */
export function removeStackState(stateFile: string, pid: number = process.pid): void {
  if (readStackState(stateFile, { ignoreStale: false })?.pid === pid) fs.rmSync(stateFile, { force: true });
}

/** The state file of a running stack, or null: none, unreadable, or its starter is gone. */
export function readStackState(stateFile: string, opts: { ignoreStale?: boolean } = {}): StackState | null {
  let state: StackState;
  try {
    state = JSON.parse(fs.readFileSync(stateFile, 'utf8')) as StackState;
  } catch {
    return null;
  }
  if (typeof state.pid !== 'number' || typeof state.databaseUrl !== 'string' || typeof state.apiUrl !== 'string')
    return null;
  if (opts.ignoreStale !== false && !processRuns(state.pid)) return null;
  return state;
}

function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it runs, as another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Where a script's database and API are, and how it found them. */
export interface ScriptStack {
  databaseUrl: string;
  /** The embedded Postgres data directory the database must be served from; null for DATABASE_URL. */
  postgresDataDir: string | null;
  apiUrl: string;
  /** For the one line a script prints about it, e.g. "npm start's stack.json in /x/.data". */
  source: string;
  dataDir: string;
}

/**
 * The stack a script works on. The environment wins (DATABASE_URL; else EMBEDDED_PG_PORT, or
 * CLUSTER_PG_PORT with STACK=cluster; PORT for the API); what it leaves unsaid comes from the
 * running stack's state file in DATA_DIR (npm start's, else start:cluster's, or the one STACK
 * names), else from the defaults `npm start` uses.
 */
export function scriptStack(env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): ScriptStack {
  const set = present(env);
  const kinds: StackKind[] =
    set.STACK === 'cluster' ? ['cluster'] : set.STACK === 'start' ? ['start'] : ['start', 'cluster'];
  const candidates = kinds.map((kind) => stackSettings(kind, env, cwd));
  const running = candidates.map((s) => ({ s, state: readStackState(s.stateFile) })).find((c) => c.state !== null);
  const settings = running?.s ?? candidates[0]!;
  const state = running?.state ?? null;
  const apiUrl = set.PORT ? settings.apiUrl : (state?.apiUrl ?? settings.apiUrl);
  const pgPortSet = settings.kind === 'cluster' ? set.CLUSTER_PG_PORT : set.EMBEDDED_PG_PORT;
  const of = `DATA_DIR ${settings.dataDir}`;
  if (set.DATABASE_URL)
    return {
      databaseUrl: set.DATABASE_URL,
      postgresDataDir: null,
      apiUrl,
      source: 'DATABASE_URL',
      dataDir: settings.dataDir,
    };
  if (state && !pgPortSet) {
    const starter = state.kind === 'cluster' ? 'npm run start:cluster' : 'npm start';
    return {
      databaseUrl: state.databaseUrl,
      postgresDataDir: state.postgresDataDir,
      apiUrl,
      source: `${starter} (pid ${state.pid}) in ${of}`,
      dataDir: settings.dataDir,
    };
  }
  const pg = settings.embeddedPostgres!;
  const portName = settings.kind === 'cluster' ? 'CLUSTER_PG_PORT' : 'EMBEDDED_PG_PORT';
  return {
    databaseUrl: settings.databaseUrl,
    postgresDataDir: pg.dataDir,
    apiUrl,
    source: `the embedded Postgres of ${of} (${portName} ${pg.port}${pgPortSet ? '' : ', the default'})`,
    dataDir: settings.dataDir,
  };
}

function samePath(a: string, b: string): boolean {
  const real = (p: string) => {
    try {
      return fs.realpathSync(p);
    } catch {
      return path.resolve(p);
    }
  };
  return real(a) === real(b);
}

/**
 * A connection to the script's stack database (scriptStack), after checking that an embedded
 * Postgres serves this stack's data directory: a server on that port started from another
 * DATA_DIR is someone else's stack, and the script stops before touching it.
 */
export async function connectStackDatabase(
  max = 2,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ sql: Sql; stack: ScriptStack }> {
  const stack = scriptStack(env);
  const sql = createSql(stack.databaseUrl, max);
  if (!stack.postgresDataDir) return { sql, stack };
  const where = stack.databaseUrl.replace(/^.*@([^/]+)\/.*$/, '$1');
  try {
    const [row] = await sql<{ dir: string }[]>`select current_setting('data_directory') as dir`;
    if (!row || !samePath(row.dir, stack.postgresDataDir)) {
      throw new StackSettingsError(
        `the Postgres at ${where} serves ${row?.dir ?? 'an unknown data directory'}, not this stack's ${stack.postgresDataDir}: ` +
          `it belongs to another stack, so nothing was written. Start this stack (npm start with DATA_DIR ${stack.dataDir}), ` +
          'or name its database with EMBEDDED_PG_PORT or DATABASE_URL.',
      );
    }
  } catch (err) {
    await sql.end({ timeout: 5 });
    if (err instanceof StackSettingsError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ECONNREFUSED') {
      throw new StackSettingsError(
        `nothing answers at ${where} (${stack.source}): is this stack running (npm start with DATA_DIR ${stack.dataDir})?`,
      );
    }
    throw err;
  }
  return { sql, stack };
}

/** For a script: its stack's database (one line on stderr says which), or why not and exit 1. */
export async function stackDatabaseOrExit(tag: string, max = 2): Promise<{ sql: Sql; stack: ScriptStack }> {
  try {
    const connected = await connectStackDatabase(max);
    process.stderr.write(`[${tag}] database: ${connected.stack.source}\n`);
    return connected;
  } catch (err) {
    if (!(err instanceof StackSettingsError)) throw err;
    process.stderr.write(`[${tag}] ${err.message}\n`);
    process.exit(1);
  }
}
