// Per-test-file access to the shared real stack: a Postgres handle, a Temporal client, a worker on a
// task queue of the file's own, and the HTTP app built exactly as production builds it.
import { randomUUID } from 'node:crypto';
import type { Client, Connection } from '@temporalio/client';
import type { Worker } from '@temporalio/worker';
import type { FastifyInstance } from 'fastify';
import { inject } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';
import { createSql, type Sql } from '../../src/db/sql.js';
import type { Notifier } from '../../src/notify/notifier.js';
import { connectTemporal } from '../../src/temporal/connection.js';
import { installWorkerLogging } from '../../src/temporal/runtime-logging.js';
import { createWorker } from '../../src/temporal/create-worker.js';
import { startInboxDrain } from '../../src/partners/inbox-drain.js';
import { PartnerJobClient } from '../../src/partners/job-client.js';
import { activityDeps } from '../../src/services.js';
import type { WorkerMetrics } from '../../src/ops/metrics.js';
import { testDatabaseUrl, testNamespace, testTemporalAddress } from './shared-servers.js';

export interface TestStack {
  sql: Sql;
  client: Client;
  /** Same as client; named as the services name their dependency. */
  temporal: Client;
  connection: Connection;
  taskQueue: string;
  config: Config;
  app: FastifyInstance;
  worker: Worker;
  /** The worker's own counters (what its /metrics would serve). */
  metrics: WorkerMetrics;
  close(): Promise<void>;
}

let loggingInstalled = false;

/** The worker runtime's logging, installed once per process before any worker or test server starts it. */
export function ensureWorkerLogging(): void {
  if (!loggingInstalled) {
    installWorkerLogging('warn');
    loggingInstalled = true;
  }
}

export async function startStack(
  env: Record<string, string> = {},
  opts: { wrapNotifier?: (real: Notifier) => Notifier; oauthFetch?: typeof fetch } = {},
): Promise<TestStack> {
  ensureWorkerLogging();
  const taskQueue = `test-${randomUUID()}`;
  const config = loadConfig({
    DATABASE_URL: testDatabaseUrl(),
    TEMPORAL_ADDRESS: testTemporalAddress(),
    TEMPORAL_NAMESPACE: testNamespace(),
    TEMPORAL_TASK_QUEUE: taskQueue,
    LOG_LEVEL: 'silent',
    NODE_ENV: 'test',
    // Every file's browser and default inject come from 127.0.0.1, and rate-limit counters live in
    // the one database the files share: a per-minute allowance on that address is shared by every
    // file that runs in the same minute, whatever its own limit. Files that test the limit set it.
    LOOKUP_RATE_LIMIT_PER_MINUTE: '10000',
    // The same for the staff consoles' per-address bucket (pages loaded without a key), and for the
    // per-phone allowance of new bookings: many files book for the same few test phones in one hour.
    STAFF_RATE_LIMIT_PER_MINUTE: '10000',
    // The quotes of every file from 127.0.0.1 (spec 4.4's 30 an hour), the form's and keyed callers' per-address ceiling.
    QUOTE_RATE_LIMIT_PER_HOUR: '10000',
    QUOTE_FORM_RATE_LIMIT_PER_HOUR: '10000',
    KEYED_RATE_LIMIT_PER_IP_PER_MINUTE: '100000',
    RECIPIENT_BOOKINGS_PER_HOUR: '10000',
    // Likewise the sending policy's allowances (src/notify/sending-policy.ts): the files share test
    // phones, the 127.0.0.1 address and the day's counters. test/integration/sending-policy.test.ts sets them.
    BOOKING_TEXTS_PER_RECIPIENT_PER_HOUR: '10000',
    BOOKING_TEXTS_PER_RECIPIENT_PER_DAY: '10000',
    BOOKING_TEXTS_PER_CALLER_PER_HOUR: '10000',
    BOOKING_TEXTS_PER_KEY_PER_HOUR: '10000',
    BOOKING_SMS_PER_DAY: '10000000',
    BOOKING_EMAILS_PER_DAY: '10000000',
    JOB_CARD_SMS_PER_DRIVER_PER_HOUR: '10000',
    // Job intake answers jobs not applied within its budget as `processing`; on a busy machine that
    // would make a test's outcome depend on its speed. Files that test the budget set it.
    INTAKE_REPLY_BUDGET_MS: '60000',
    // Advance allocation moves a pre-booked trip's dispatch by its kind and its hour: a file's
    // "in two hours" would dispatch at once when the suite runs at night. Files that test it set it.
    ADVANCE_DISPATCH_HOURS: '0',
    EARLY_PICKUP_BEFORE_HOUR: '0',
    // The offer policy's groups and unseen cut (docs/dispatch.md) would make a file's offers depend on
    // how fast it opens cards in real time: one driver at a time, the full window. Files that test it set it.
    OFFER_GROUP_SIZE: '1',
    OFFER_UNSEEN_SECONDS: '0',
    ...env,
  });
  const sql = createSql(config.DATABASE_URL, 5);
  const { connection, client } = await connectTemporal({
    address: config.TEMPORAL_ADDRESS,
    namespace: config.TEMPORAL_NAMESPACE,
  });
  const real = activityDeps(config, sql);
  // Tests may stand in for the outside world (a provider refusing a number) behind the same interface.
  const deps = opts.wrapNotifier ? { ...real, notifier: opts.wrapNotifier(real.notifier) } : real;
  const { worker, connection: workerConnection } = await createWorker({
    address: config.TEMPORAL_ADDRESS,
    namespace: config.TEMPORAL_NAMESPACE,
    taskQueue,
    deps,
    workflowBundle: { codePath: inject('workflowBundlePath') },
  });
  const running = worker.run();
  // Partner jobs from the inbox into their workflows, as every worker process does (src/worker.ts).
  const drain = await startInboxDrain({
    sql,
    jobs: new PartnerJobClient(client, taskQueue),
    taskQueue,
    concurrency: config.PARTNER_INBOX_CONCURRENCY,
    leaseSeconds: config.PARTNER_INBOX_LEASE_SECONDS,
  });
  const app = await buildApp({
    config,
    sql,
    temporal: client,
    notifier: deps.notifier,
    logger: false,
    ...(opts.oauthFetch ? { oauthFetch: opts.oauthFetch } : {}),
  });
  await app.ready();
  return {
    sql,
    client,
    temporal: client,
    connection,
    taskQueue,
    config,
    app,
    worker,
    metrics: deps.metrics,
    async close() {
      await app.close();
      await drain.stop();
      worker.shutdown();
      await running;
      await workerConnection.close();
      await connection.close();
      await sql.end({ timeout: 5 });
    },
  };
}

/**
 * How long a test waits for the stack to do something it does at once (a card sent, a status
 * written, a page updated): the step's own time is milliseconds, but two integration files, the
 * servers and a browser share two cores, and waits of 10 to 20 s ran out on a busy machine (issue
 * 38). A wait returns as soon as its condition holds, so only a fault pays for the length. A wait
 * on one of the service's own timers (an offer's window, a quote's expiry) is that timer plus this.
 */
export const STACK_WAIT_MS = 60_000;

/** Polls until `check` returns a value other than undefined, or fails after `timeoutMs`. */
export async function eventually<T>(
  check: () => Promise<T | undefined>,
  timeoutMs = STACK_WAIT_MS,
  what = 'condition',
  /** Said beside "timed out": what the test can find out about why (a workflow's history, a row). */
  explain?: () => Promise<string>,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}${explain ? `: ${await explain().catch(String)}` : ''}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
