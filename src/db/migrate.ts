import path from 'node:path';
import { fileURLToPath } from 'node:url';
import shift from 'postgres-shift';
import type { Sql } from './sql.js';

const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');
// Any fixed number works; it only has to be the same in every process of this service.
const MIGRATION_LOCK_ID = 727_001;

/**
 * Applies pending versioned SQL migrations. The API and the worker both call this at start; a
 * session-level advisory lock makes concurrent starters wait instead of racing on the same DDL.
 */
export async function migrate(sql: Sql, log: (msg: string) => void = () => {}): Promise<void> {
  // The lock holds one connection for the whole run while the migrations use another: with a pool
  // of one, the second would wait for ever (api-key:create once hung exactly so).
  if (sql.options.max < 2)
    throw new Error('migrate needs a pool of at least 2 connections (one holds the migration lock)');
  const lockConn = await sql.reserve();
  try {
    await lockConn`select pg_advisory_lock(${MIGRATION_LOCK_ID})`;
    await shift({
      sql,
      path: MIGRATIONS_DIR,
      before: ({ migration_id, name }: { migration_id: number; name: string }) =>
        log(`migrating ${migration_id} ${name}`),
    });
  } finally {
    await lockConn`select pg_advisory_unlock(${MIGRATION_LOCK_ID})`.catch(() => {});
    lockConn.release();
  }
}
