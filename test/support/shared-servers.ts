// The one Postgres and the one Temporal server the integration files share (global-setup.ts), and
// which part of them this test process owns. Integration files run TEST_INTEGRATION_WORKERS at a
// time (one by default; they spend most of their time waiting, on timers, process starts and
// browsers, so more would be quicker: worker-slots.ts); each worker process has a database and a Temporal namespace
// of its own, so two files running side by side never see each other's drivers, bookings, rate-limit
// counters or workflows (in one database, a driver one file put online would be offered the other's job).
import { inject } from 'vitest';
import { createSql } from '../../src/db/sql.js';
import { databaseUrlFor, workerDatabaseName, workerNamespace } from './worker-slots.js';

/** This worker's slot: vitest numbers its worker processes 1..maxWorkers (VITEST_POOL_ID). */
function slot(): number {
  const n = Number(process.env.VITEST_POOL_ID ?? 1);
  const workers = inject('integrationWorkers');
  if (!Number.isInteger(n) || n < 1 || n > workers) {
    throw new Error(`test worker ${process.env.VITEST_POOL_ID} has no database of its own (${workers} were made)`);
  }
  return n;
}

/** This worker's own database on the shared Postgres. */
export function testDatabaseUrl(): string {
  const url = inject('databaseUrl');
  return databaseUrlFor(url, workerDatabaseName(new URL(url).pathname.slice(1), slot()));
}

/** The shared Temporal server's address. */
export function testTemporalAddress(): string {
  return inject('temporalAddress');
}

/** This worker's own namespace on the shared Temporal server. */
export function testNamespace(): string {
  return workerNamespace(slot());
}

/** A database of its own for a test that needs one (production secrets its neighbours lack), on this worker's server. */
export async function createTestDatabase(name: string): Promise<string> {
  const admin = createSql(testDatabaseUrl(), 1);
  try {
    await admin.unsafe(`create database "${name}"`);
  } finally {
    await admin.end();
  }
  return databaseUrlFor(testDatabaseUrl(), name);
}
