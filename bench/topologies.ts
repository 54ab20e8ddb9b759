// The throughput and latency ratios on both Temporal topologies, side by side, from one command:
//   npm run bench:topologies   (BENCH_SECONDS, BENCH_CONNECTIONS, BENCH_CONCURRENCY pass through)
// Runs bench/quote.ts and bench/dispatch.ts once on the Temporal CLI dev server (SQLite, as
// `npm start`) and once on Temporal Server 1.29.1 on Postgres (as `npm run start:cluster` and
// production), one after another so they never share the machine, each beside its own baseline.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { root, type Topology } from './support.js';

type Summary = Record<string, number>;
const runs: Record<string, Partial<Record<Topology, Summary>>> = { quote: {}, dispatch: {} };
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-topologies-'));

for (const topology of ['dev', 'cluster'] as const) {
  for (const bench of ['quote', 'dispatch'] as const) {
    const summaryFile = path.join(tmp, `${bench}-${topology}.json`);
    console.log(`\n-- bench/${bench}.ts on ${topology} --`);
    const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(root, 'bench', `${bench}.ts`)], {
      env: { ...process.env, BENCH_TOPOLOGY: topology, BENCH_SUMMARY_FILE: summaryFile },
      stdio: 'inherit',
    });
    if (r.status !== 0 || !fs.existsSync(summaryFile))
      throw new Error(`bench/${bench}.ts on ${topology} failed (${r.status ?? r.signal})`);
    runs[bench]![topology] = JSON.parse(fs.readFileSync(summaryFile, 'utf8')) as Summary;
  }
}
fs.rmSync(tmp, { recursive: true, force: true });

const q = runs.quote as Record<Topology, Summary>;
const d = runs.dispatch as Record<Topology, Summary>;
const f = (n: number | undefined, digits = 1) => (n === undefined ? '' : n.toFixed(digits));
const row = (label: string, dev: string, cluster: string) => console.log(`| ${label} | ${dev} | ${cluster} |`);
console.log('\n| measurement | dev server (SQLite) | Temporal Server 1.29.1 on Postgres |');
console.log('|---|---:|---:|');
row(
  'raw workflow.start per second (p50 ms)',
  `${f(q.dev.rawStartPerSecond)} (${f(q.dev.rawStartP50, 0)})`,
  `${f(q.cluster.rawStartPerSecond)} (${f(q.cluster.rawStartP50, 0)})`,
);
row(
  'POST /v1/quote per second (p50 ms)',
  `${f(q.dev.quotePerSecond)} (${f(q.dev.quoteP50, 0)})`,
  `${f(q.cluster.quotePerSecond)} (${f(q.cluster.quoteP50, 0)})`,
);
row(
  '**quote / raw start** (target ≥ 0.90)',
  `**${f(q.dev.quoteVsRawStart, 2)}**`,
  `**${f(q.cluster.quoteVsRawStart, 2)}**`,
);
row(
  'the quote workflow alone, started raw / raw start',
  f(q.dev.quoteWorkflowVsRawStart, 2),
  f(q.cluster.quoteWorkflowVsRawStart, 2),
);
row('raw start + signal + result p50 ms', f(d.dev.roundTripP50, 0), f(d.cluster.roundTripP50, 0));
row(
  'booking → first job card p50 ms (p99)',
  `${f(d.dev.cardP50, 0)} (${f(d.dev.cardP99, 0)})`,
  `${f(d.cluster.cardP50, 0)} (${f(d.cluster.cardP99, 0)})`,
);
row('bookings per second', f(d.dev.cardPerSecond), f(d.cluster.cardPerSecond));
row(
  '**first job card / round trip** (target ≤ 1.30)',
  `**${f(d.dev.cardVsRoundTrip, 2)}**`,
  `**${f(d.cluster.cardVsRoundTrip, 2)}**`,
);
row('cluster raw starts / dev raw starts', '1.00', f(q.cluster.rawStartPerSecond! / q.dev.rawStartPerSecond!, 2));
