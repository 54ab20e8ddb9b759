// Before each integration file: no driver of an earlier file in this worker's database is online.
// The files of one worker run one after another on the same database (shared-servers.ts), and a
// driver a file left online near its pickup would be offered the next file's job in that town (a
// file's own drivers are all it may count on: advance-allocation.test.ts once saw its booking go
// to another file's driver in Newcastle).
import { beforeAll } from 'vitest';
import { createSql } from '../../src/db/sql.js';
import { claimWorkerSlot, testDatabaseUrl } from './shared-servers.js';

// This process's database and namespace, before anything of the file asks for them.
await claimWorkerSlot();

beforeAll(async () => {
  const sql = createSql(testDatabaseUrl(), 1);
  try {
    await sql`update drivers set online = false where online`;
  } finally {
    await sql.end();
  }
});
