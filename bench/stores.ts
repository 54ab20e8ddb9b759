// What a benchmark phase wrote to Postgres: transactions committed and rows written (inserted,
// updated, deleted) in the service's database and in Temporal's (on the cluster topology Temporal's
// databases live in the same Postgres; on the dev server Temporal uses SQLite and shows 0), and
// the write-ahead log the whole server produced. From pg_stat_database and the WAL position, read
// before and after the phase; statistics reach pg_stat_database when a backend goes idle, so read
// the second snapshot a second or two after the work.
import type { Sql } from '../src/db/sql.js';

export interface StoreStats {
  wal: number;
  service: { commits: number; rowWrites: number };
  temporal: { commits: number; rowWrites: number };
}

export async function storeStats(sql: Sql): Promise<StoreStats> {
  const rows = await sql<{ datname: string; mine: boolean; commits: number; writes: number; wal: number }[]>`
    select datname, datname = current_database() as mine, xact_commit::float8 as commits,
           (tup_inserted + tup_updated + tup_deleted)::float8 as writes, (pg_current_wal_lsn() - '0/0'::pg_lsn)::float8 as wal
      from pg_stat_database where datname is not null`;
  const sum = (f: (r: (typeof rows)[number]) => boolean) => ({
    commits: rows.filter(f).reduce((n, r) => n + r.commits, 0),
    rowWrites: rows.filter(f).reduce((n, r) => n + r.writes, 0),
  });
  return {
    wal: rows[0]?.wal ?? 0,
    service: sum((r) => r.mine),
    temporal: sum((r) => r.datname.startsWith('temporal')),
  };
}

/** a − b. */
export function diffStats(a: StoreStats, b: StoreStats): StoreStats {
  return {
    wal: a.wal - b.wal,
    service: { commits: a.service.commits - b.service.commits, rowWrites: a.service.rowWrites - b.service.rowWrites },
    temporal: {
      commits: a.temporal.commits - b.temporal.commits,
      rowWrites: a.temporal.rowWrites - b.temporal.rowWrites,
    },
  };
}

/** a + b (rounds of one phase added up). */
export function addStats(a: StoreStats, b: StoreStats): StoreStats {
  return diffStats(a, scaleStats(b, -1));
}

/** a × k (per operation, per second). */
export function scaleStats(a: StoreStats, k: number): StoreStats {
  return {
    wal: a.wal * k,
    service: { commits: a.service.commits * k, rowWrites: a.service.rowWrites * k },
    temporal: { commits: a.temporal.commits * k, rowWrites: a.temporal.rowWrites * k },
  };
}

/** One line per phase: transactions and rows per operation by database, and WAL KB per operation. */
export function printStoreTable(phases: Array<{ label: string; perOp: StoreStats }>): void {
  const f = (x: number) => Math.max(0, x).toFixed(1);
  console.log('\nPostgres per operation (pg_stat_database, WAL position):');
  console.log(`| per operation | ${phases.map((p) => p.label).join(' | ')} |`);
  console.log(`|---|${phases.map(() => '---:').join('|')}|`);
  console.log(
    `| transactions / rows written, the service's database | ${phases.map((p) => `${f(p.perOp.service.commits)} / ${f(p.perOp.service.rowWrites)}`).join(' | ')} |`,
  );
  console.log(
    `| transactions / rows written, Temporal's databases | ${phases.map((p) => `${f(p.perOp.temporal.commits)} / ${f(p.perOp.temporal.rowWrites)}`).join(' | ')} |`,
  );
  console.log(`| write-ahead log KB (the whole server) | ${phases.map((p) => f(p.perOp.wal / 1024)).join(' | ')} |`);
}
