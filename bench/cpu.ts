// Where the CPU goes during a benchmark phase: processor time by process (API, worker, Temporal,
// Postgres, the bench itself), read from /proc before and after the phase. On a machine where
// every process shares two cores, a closed loop's latency is its CPU cost per operation divided
// among the cores, so this says which process a faster path must take work from.
//
// Linux only (anywhere else the snapshot is empty and nothing is printed). Processes are told apart
// by their command lines; a process that exits during the phase takes its time with it (the
// service's Postgres connections are pooled, so its backends live through a phase).
import fs from 'node:fs';

const TICKS_PER_SECOND = 100; // USER_HZ: 100 on every Linux this runs on

export type CpuSnapshot = Map<string, number>;

function category(pid: number, cmdline: string): string | null {
  if (pid === process.pid) return 'bench client';
  if (cmdline.includes('src/server.ts')) return 'API';
  if (cmdline.includes('src/worker.ts')) return 'worker';
  if (cmdline.includes('bench/baseline-worker.ts')) return 'baseline worker';
  if (
    /(^|\/)temporal(-server)?\0/.test(cmdline) ||
    cmdline.includes('temporal-server') ||
    cmdline.includes('start-dev')
  )
    return 'Temporal';
  if (/(^|\/)postgres\0/.test(cmdline) || cmdline.startsWith('postgres:')) return 'Postgres';
  return null;
}

/** CPU ticks (user + system, all threads) used so far, summed by category. */
export function cpuSnapshot(): CpuSnapshot {
  const totals: CpuSnapshot = new Map();
  let pids: string[];
  try {
    pids = fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return totals;
  }
  for (const p of pids) {
    try {
      const cmdline = fs.readFileSync(`/proc/${p}/cmdline`, 'latin1');
      const name = category(Number(p), cmdline);
      if (!name) continue;
      const stat = fs.readFileSync(`/proc/${p}/stat`, 'latin1');
      // Fields after the parenthesised command name: state is field 3, utime 14, stime 15.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ticks = Number(fields[11]) + Number(fields[12]);
      totals.set(name, (totals.get(name) ?? 0) + ticks);
    } catch {
      // gone between the listing and the read
    }
  }
  return totals;
}

/** Adds what each process used between two snapshots to a running total (for a phase run in rounds). */
export function addCpu(total: CpuSnapshot, before: CpuSnapshot, after: CpuSnapshot): CpuSnapshot {
  for (const [name, ticks] of after) total.set(name, (total.get(name) ?? 0) + ticks - (before.get(name) ?? 0));
  return total;
}

/** CPU milliseconds per operation, by process, between two snapshots. */
export function cpuPerOperation(before: CpuSnapshot, after: CpuSnapshot, operations: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const [name, ticks] of after) {
    const used = ticks - (before.get(name) ?? 0);
    if (used > 0) out.set(name, ((used / TICKS_PER_SECOND) * 1000) / Math.max(1, operations));
  }
  return out;
}

/** Prints phases side by side: CPU ms per operation in each process, and the total. */
export function printCpuTable(phases: Array<{ label: string; perOp: Map<string, number> }>): void {
  if (phases.every((p) => p.perOp.size === 0)) return;
  const names = [...new Set(phases.flatMap((p) => [...p.perOp.keys()]))].sort();
  console.log(`\nCPU ms per operation, by process (from /proc):`);
  console.log(`| process | ${phases.map((p) => p.label).join(' | ')} |`);
  console.log(`|---|${phases.map(() => '---:').join('|')}|`);
  for (const n of names) console.log(`| ${n} | ${phases.map((p) => (p.perOp.get(n) ?? 0).toFixed(1)).join(' | ')} |`);
  const total = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
  console.log(`| **all** | ${phases.map((p) => `**${total(p.perOp).toFixed(1)}**`).join(' | ')} |`);
}
