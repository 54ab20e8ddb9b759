// The service split the way production splits it, so a test can crash one part for real: the HTTP
// API in the test process (no worker of its own) and the Temporal worker as a child process running
// the real entry point, src/worker.ts, which a test can SIGKILL and start again.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Client, Connection } from '@temporalio/client';
import type { FastifyInstance } from 'fastify';
import { activityDeps } from '../../src/services.js';
import { buildApp } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';
import { createSql, type Sql } from '../../src/db/sql.js';
import { connectTemporal } from '../../src/temporal/connection.js';
import { testDatabaseUrl, testNamespace, testTemporalAddress } from './shared-servers.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface ApiOnlyStack {
  sql: Sql;
  client: Client;
  connection: Connection;
  config: Config;
  taskQueue: string;
  app: FastifyInstance;
  /** What a worker process serving this API needs: same database, server, task queue and job-link secret. */
  workerEnv: Record<string, string>;
  close(): Promise<void>;
}

/**
 * The HTTP app built as production builds it, with a Temporal client but no worker: bookings start
 * workflows that only a separately started worker (startWorkerProcess) will run.
 */
export async function startApiOnly(
  opts: { temporalAddress?: string; env?: Record<string, string> } = {},
): Promise<ApiOnlyStack> {
  const taskQueue = `test-${randomUUID()}`;
  const env: Record<string, string> = {
    DATABASE_URL: testDatabaseUrl(),
    TEMPORAL_ADDRESS: opts.temporalAddress ?? testTemporalAddress(),
    // A server of the test's own has only the default namespace.
    TEMPORAL_NAMESPACE: opts.temporalAddress ? 'default' : testNamespace(),
    TEMPORAL_TASK_QUEUE: taskQueue,
    LOG_LEVEL: 'silent',
    NODE_ENV: 'test',
    // As in stack.ts: files book for the same few test phones within one hour, in one database.
    RECIPIENT_BOOKINGS_PER_HOUR: '10000',
    // As in stack.ts: every pre-booked trip on the plain lead, whatever the time of day the suite runs.
    ADVANCE_DISPATCH_HOURS: '0',
    EARLY_PICKUP_BEFORE_HOUR: '0',
    // As in stack.ts: one driver at a time, the full window (the offer policy is off).
    OFFER_GROUP_SIZE: '1',
    OFFER_UNSEEN_SECONDS: '0',
    // As in stack.ts: a job intake reply waits for its jobs' outcomes (the default answers at once).
    INTAKE_REPLY_BUDGET_MS: '60000',
    ...opts.env,
  };
  const config = loadConfig(env);
  const sql = createSql(config.DATABASE_URL, 5);
  const { connection, client } = await connectTemporal({
    address: config.TEMPORAL_ADDRESS,
    namespace: config.TEMPORAL_NAMESPACE,
  });
  // The notifier as src/server.ts builds it (the API sends its own messages, e.g. email confirmations).
  const { notifier } = activityDeps(config, sql);
  const app = await buildApp({ config, sql, temporal: client, notifier, logger: false });
  await app.ready();
  return {
    sql,
    client,
    connection,
    config,
    taskQueue,
    app,
    // Explicit values rather than each side's defaults: a JOB_LINK_SECRET or PUBLIC_BASE_URL in the
    // runner's environment must not make the worker sign job links the API then rejects.
    workerEnv: {
      ...env,
      LOG_LEVEL: 'warn',
      PUBLIC_BASE_URL: config.PUBLIC_BASE_URL,
      JOB_LINK_SECRET: config.JOB_LINK_SECRET,
      PARTNER_SECRETS_KEY: config.PARTNER_SECRETS_KEY,
      DATABASE_POOL_MAX: '5',
      // One ops watcher per Temporal server: a test's short-lived worker must not start it on its own queue.
      OPS_WATCH: 'false',
    },
    async close() {
      await app.close();
      await connection.close();
      await sql.end({ timeout: 5 });
    },
  };
}

export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface WorkerProcess {
  readonly child: ChildProcess;
  /** Resolves when the process has ended, however it ended. */
  readonly exited: Promise<ProcessExit>;
  /** The last of what the process printed (stdout and stderr), for failure messages. */
  output(): string;
  /** A real crash: SIGKILL, no shutdown hooks, no draining; resolves once the process is gone. */
  crash(): Promise<ProcessExit>;
  /** A graceful stop (SIGTERM; SIGKILL after `graceMs`). */
  stop(graceMs?: number): Promise<ProcessExit>;
}

// Every child still running, so a failed test cannot leave a worker polling behind it.
const running = new Set<ChildProcess>();
let exitHookInstalled = false;

const OUTPUT_LIMIT = 20_000;
const READY_LINE = /\[worker\] polling task queue/;

/**
 * Starts `node --import tsx src/worker.ts` with `env` on top of this process's environment and
 * resolves once it reports that it is polling (it bundles the workflow code first, which takes a
 * few seconds). Rejects with the process's output if it exits or is not ready in time.
 */
export async function startWorkerProcess(
  env: Record<string, string>,
  opts: { readyTimeoutMs?: number } = {},
): Promise<WorkerProcess> {
  if (!exitHookInstalled) {
    // Last resort if the test process itself ends without the hooks running ('exit' must be synchronous).
    process.once('exit', () => {
      for (const c of running) c.kill('SIGKILL');
    });
    exitHookInstalled = true;
  }
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'src/worker.ts')], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let output = '';
  const append = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-OUTPUT_LIMIT);
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  const exited = new Promise<ProcessExit>((resolve) => {
    child.once('exit', (code, signal) => {
      running.delete(child);
      resolve({ code, signal });
    });
  });

  const timeoutMs = opts.readyTimeoutMs ?? 120_000;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      cleanup();
      child.kill('SIGKILL');
      reject(new Error(`worker process not ready after ${timeoutMs} ms; output:\n${output}`));
    }, timeoutMs);
    const onData = () => {
      if (READY_LINE.test(output)) {
        cleanup();
        resolve();
      }
    };
    const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
      cleanup();
      reject(
        new Error(`worker process exited before it was ready (code ${code}, signal ${signal}); output:\n${output}`),
      );
    };
    const cleanup = () => {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.off('exit', onExit);
    };
    child.stdout?.on('data', onData);
    child.once('exit', onExit);
  });

  const signalAndWait = (signal: NodeJS.Signals): Promise<ProcessExit> => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    return exited;
  };
  return {
    child,
    exited,
    output: () => output,
    crash: () => signalAndWait('SIGKILL'),
    async stop(graceMs = 15_000) {
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      const result = await signalAndWait('SIGTERM');
      clearTimeout(timer);
      return result;
    },
  };
}

/** Kills every worker process this file started that is still running (afterEach/afterAll safety net). */
export async function killAllWorkerProcesses(): Promise<void> {
  await Promise.all(
    [...running].map(
      (c) =>
        new Promise<void>((resolve) => {
          if (c.exitCode !== null || c.signalCode !== null) return resolve();
          c.once('exit', () => resolve());
          c.kill('SIGKILL');
        }),
    ),
  );
}
