// The one Postgres and the one Temporal server the integration files share (global-setup.ts), and
// which part of them this test process owns. Integration files run TEST_INTEGRATION_WORKERS at a
// time (two by default; they spend most of their time waiting, on timers, process starts and
// browsers: worker-slots.ts); each worker process has a database and a Temporal namespace
// of its own, so two files running side by side never see each other's drivers, bookings, rate-limit
// counters or workflows (in one database, a driver one file put online would be offered the other's job).
import net from 'node:net';
import { inject } from 'vitest';
import { createSql } from '../../src/db/sql.js';
import { databaseUrlFor, workerDatabaseName, workerNamespace } from './worker-slots.js';

/**
 * This worker process's slot (1-based), claimed once by claimWorkerSlot. Not vitest's VITEST_POOL_ID:
 * with a group of files run before the integration files (`npm test`'s unit group), vitest 4.1
 * gives both integration workers pool id 1, and the two then shared a database and a namespace (each
 * file's start took the other's drivers off line: the job cards "lost" with two workers, issue 38).
 */
function slot(): number {
  const n = Number(process.env.TEST_WORKER_SLOT);
  if (!Number.isInteger(n) || n < 1) throw new Error('this test process has claimed no worker slot (file-setup.ts)');
  return n;
}

/**
 * Claims a slot for this process, once: the first of global-setup's slot ports it can listen on.
 * The port is held until the process exits, so no two live workers ever hold one slot, and a worker
 * vitest starts in place of one that ended takes the slot that one freed.
 */
export async function claimWorkerSlot(): Promise<number> {
  if (process.env.TEST_WORKER_SLOT) return slot();
  const ports = inject('workerSlotPorts');
  for (const [i, port] of ports.entries()) {
    if (await holdPort(port)) {
      process.env.TEST_WORKER_SLOT = String(i + 1);
      return i + 1;
    }
  }
  throw new Error(`no free worker slot: all ${ports.length} slot ports are held by other test processes`);
}

const held: net.Server[] = [];
function holdPort(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => {
      // Held for the process's life, but never what keeps it alive.
      server.unref();
      held.push(server);
      resolve(true);
    });
  });
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
