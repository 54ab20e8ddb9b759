// Temporal Server 1.29.1 as production runs it: its own process, on Postgres (persistence and SQL
// visibility), with the configuration docker-compose.yml mounts (docker/temporal/). For
// `npm run start:cluster` and the integration suite's cluster run (TEST_TOPOLOGY=cluster).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Connection } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time.js';
import { ensureSearchAttributes } from '../src/temporal/search-attributes.js';
import { BookingSearchAttributes } from '../workflows/bookings/definitions.js';
import { freePortBelowEphemeral } from './free-port.js';
import { stopChild } from './temporal-dev-server.js';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const shared = path.join(projectRoot, 'docker/temporal');

export interface TemporalServerHandle {
  address: string;
  process: ChildProcess;
  stop: () => Promise<void>;
}

export interface PostgresParts {
  host: string;
  port: number;
  user: string;
  password: string;
}

/** Splits a postgres:// URL into what Temporal's SQL plugin takes. */
export function postgresParts(url: string): PostgresParts {
  const u = new URL(url);
  return {
    host: u.hostname,
    port: Number(u.port || 5432),
    user: decodeURIComponent(u.username),
    password: decodeURIComponent(u.password),
  };
}

/** Folder with temporal-server, temporal-sql-tool and schema/, building them on first use. */
export function temporalServerTools(): string {
  const out = execFileSync('bash', [path.join(projectRoot, 'scripts/install-temporal-server.sh')], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const dir = out.trim().split('\n').pop();
  if (!dir) throw new Error('scripts/install-temporal-server.sh printed no path');
  return dir;
}

const PORT_NAMES = [
  'FRONTEND_HTTP',
  'FRONTEND_MEMBERSHIP',
  'HISTORY_GRPC',
  'HISTORY_MEMBERSHIP',
  'MATCHING_GRPC',
  'MATCHING_MEMBERSHIP',
  'WORKER_GRPC',
  'WORKER_MEMBERSHIP',
] as const;

/**
 * Sets up the schemas (docker/temporal/setup-schema.sh, a no-op when current), starts the server
 * with the shared config, waits until the frontend answers, and makes sure the namespace and the
 * booking search attributes exist and are usable before it returns: a worker polling earlier would
 * fail workflow tasks that upsert them. stop() sends SIGTERM and waits for the server to drain.
 */
export async function startTemporalServer(opts: {
  postgres: PostgresParts;
  /** 7233 by default; 'free' picks this and every internal port from below the ephemeral range. */
  frontendPort?: number | 'free';
  /** Registered if missing, each with the booking search attributes; `default` unless given. */
  namespaces?: string[];
  logFile?: string;
  readyTimeoutMs?: number;
  /** Own process group, so a Ctrl-C meant for the starter does not stop the server first. */
  detached?: boolean;
}): Promise<TemporalServerHandle> {
  const tools = temporalServerTools();
  const namespaces = opts.namespaces ?? ['default'];
  const log = opts.logFile ? fs.openSync(opts.logFile, 'a') : 'ignore';
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    TEMPORAL_DB_HOST: opts.postgres.host,
    TEMPORAL_DB_PORT: String(opts.postgres.port),
    TEMPORAL_DB_USER: opts.postgres.user,
    TEMPORAL_DB_PASSWORD: opts.postgres.password,
    TEMPORAL_SQL_TOOL: path.join(tools, 'temporal-sql-tool'),
    TEMPORAL_SCHEMA_DIR: path.join(tools, 'schema'),
    TEMPORAL_DYNAMIC_CONFIG_FILE: path.join(shared, 'dynamicconfig.yaml'),
  };
  let frontendPort = 7233;
  if (opts.frontendPort === 'free') {
    const taken = new Set<number>();
    frontendPort = await freePortBelowEphemeral(taken);
    taken.add(frontendPort);
    for (const name of PORT_NAMES) {
      const port = await freePortBelowEphemeral(taken);
      taken.add(port);
      env[`TEMPORAL_${name}_PORT`] = String(port);
    }
  } else if (opts.frontendPort) {
    frontendPort = opts.frontendPort;
  }
  env.TEMPORAL_FRONTEND_GRPC_PORT = String(frontendPort);

  execFileSync('sh', [path.join(shared, 'setup-schema.sh')], { env, stdio: ['ignore', log, log] });

  const child = spawn(
    path.join(tools, 'temporal-server'),
    // --root /: the server joins root and config dir, and an absolute dir under "." would lose its slash.
    ['--root', '/', '--config', path.join(shared, 'config'), '--env', 'temporal', '--allow-no-auth', 'start'],
    { env, stdio: ['ignore', log, log], detached: opts.detached ?? false },
  );
  const address = `127.0.0.1:${frontendPort}`;
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code, signal) =>
      reject(new Error(`temporal-server exited early (${signal ?? code}); see ${opts.logFile ?? 'its log'}`)),
    ),
  );
  exited.catch(() => {});
  try {
    await Promise.race([namespacesReady(address, namespaces, opts.readyTimeoutMs ?? 120_000), exited]);
  } catch (err) {
    await stopChild(child, 5_000);
    throw err;
  }
  return { address, process: child, stop: () => stopChild(child, 30_000) };
}

/**
 * Waits until the server at `address` answers, then registers each namespace it lacks and waits
 * until it and the booking search attributes answer. Also for a server someone else started (the
 * tests' TEST_TEMPORAL_ADDRESS), a dev server's as well as Temporal Server's.
 */
export async function namespacesReady(address: string, namespaces: string[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const connection = await retry(deadline, 'the frontend', () =>
    Connection.connect({ address, connectTimeout: 2_000 }),
  );
  try {
    await retry(deadline, 'the health check', async () => {
      const res = await connection.healthService.check({});
      // grpc.health.v1 SERVING is 1; anything else means a service is still joining.
      if (Number(res.status) !== 1) throw new Error(`health status ${res.status}`);
    });
    for (const namespace of namespaces) await namespaceReady(connection, namespace, deadline);
  } finally {
    await connection.close();
  }
}

/** Registers the namespace if missing, then waits until it and its search attributes answer. */
async function namespaceReady(connection: Connection, namespace: string, deadline: number): Promise<void> {
  const ws = connection.workflowService;
  const exists = await ws.describeNamespace({ namespace }).then(
    () => true,
    (err: unknown) => {
      if ((err as { code?: number }).code === 5) return false;
      throw err;
    },
  );
  if (!exists) {
    await ws
      .registerNamespace({ namespace, workflowExecutionRetentionPeriod: msToTs('7 days') })
      .catch((err: unknown) => {
        // Another starter on the same database got there first.
        if ((err as { code?: number }).code !== 6) throw err;
      });
  }
  // The frontend learns of a new namespace and of search attributes from caches refreshed every
  // few seconds: until then it answers NotFound, and a query naming an attribute fails.
  await retry(deadline, `namespace ${namespace}`, () => ensureSearchAttributes(connection, namespace));
  await retry(deadline, `namespace ${namespace} with its search attributes`, () =>
    ws.countWorkflowExecutions({ namespace, query: `${BookingSearchAttributes.status.name} = 'ready-check'` }),
  );
}

async function retry<T>(deadline: number, what: string, attempt: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      return await attempt();
    } catch (err) {
      if (Date.now() > deadline)
        throw new Error(`Temporal Server: ${what} not ready: ${err instanceof Error ? err.message : String(err)}`, {
          cause: err,
        });
      await new Promise((r) => setTimeout(r, 300));
    }
  }
}
