// How many integration files run at once, and the names of each worker's own database and
// namespace (shared-servers.ts says why). No vitest import: vitest.config.ts reads this too.

/**
 * How many integration files run at once; vitest.config.ts and global-setup.ts both read it. Two by
 * default, for the machine's two cores: the files wait far more than they compute, and two take a
 * fresh-clone `.ci/run` from about 1,340 to under 1,000 s. Each worker has a database and a namespace
 * of its own (shared-servers.ts; docs/tests.md, "What the two workers shared").
 */
export function integrationWorkers(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.TEST_INTEGRATION_WORKERS ?? 2);
  if (!Number.isInteger(n) || n < 1 || n > 8) {
    throw new Error(`TEST_INTEGRATION_WORKERS must be a whole number from 1 to 8, not ${env.TEST_INTEGRATION_WORKERS}`);
  }
  return n;
}

/** The database and namespace of worker `slot` (1-based); global-setup creates each of them. */
export function workerDatabaseName(baseDatabase: string, slot: number): string {
  return `${baseDatabase}_w${slot}`;
}
export function workerNamespace(slot: number): string {
  return `test-w${slot}`;
}

/** The same server's URL with another database named in it. */
export function databaseUrlFor(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}
