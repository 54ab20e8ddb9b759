// Quote throughput and latency, beside two baselines measured in the same run on the same servers:
//   1. raw client.workflow.start of an empty workflow at the same concurrency, and
//   2. a bare Fastify hello-world.
// Targets: quote rate >= 0.9 x raw start rate, quote p99 <= 2 x raw start p99, on both topologies.
//   npm run bench:quote            (BENCH_CONNECTIONS=16 BENCH_SECONDS=15 by default)
// Each measurement's BENCH_SECONDS are split into BENCH_ROUNDS (3) rounds taken in turn with the
// baseline's, and the CPU each process used in them is printed per operation.
import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import { createApiKey } from '../src/auth/api-keys.js';
import { migrate } from '../src/db/migrate.js';
import { createSql } from '../src/db/sql.js';
import { connectTemporal } from '../src/temporal/connection.js';
import { quoteWorkflowId } from '../workflows/quotes/definitions.js';
import { freePort } from '../dev/free-port.js';
import { addCpu, cpuPerOperation, cpuSnapshot, printCpuTable, type CpuSnapshot } from './cpu.js';
import { addStats, diffStats, printStoreTable, scaleStats, storeStats, type StoreStats } from './stores.js';
import {
  closedLoop,
  mergeRounds,
  printTable,
  rounds,
  startBenchStack,
  startProcess,
  waitForHttp,
  writeSummary,
  type LoadResult,
} from './support.js';

const connections = Number(process.env.BENCH_CONNECTIONS ?? 16);
const seconds = Number(process.env.BENCH_SECONDS ?? 15);
const taskQueue = 'bench-taxi';

const journeys = [
  ['Manchester Piccadilly', 'Manchester Airport'],
  ['SW1A 1AA', 'Heathrow Airport'],
  ['Glasgow Central', 'Glasgow Airport'],
  ['Bracknell', 'RG12 1AA'],
  ['Filton', 'Bristol Temple Meads'],
  ['Edinburgh Waverley', 'Edinburgh Airport'],
  ['Birmingham New Street', 'Birmingham Airport'],
  ['Brighton', 'Gatwick Airport'],
] as const;

async function http(
  name: string,
  url: string,
  requests: autocannon.Request[],
  headers: Record<string, string>,
  duration = seconds,
): Promise<LoadResult> {
  const r = await autocannon({ url, connections, duration, method: 'POST', headers, requests });
  const ok = r['2xx'];
  return {
    name,
    requests: ok,
    errors: r.non2xx + r.errors + r.timeouts,
    // What autocannon actually ran for (it reports it), not what it was asked to: short rounds overrun.
    seconds: r.duration,
    perSecond: ok / r.duration,
    p50: r.latency.p50,
    p99: r.latency.p99,
  };
}

// Free ports, so a run never trips over another run's leftovers.
const [apiPort, helloPort] = [await freePort(), await freePort()];
const stack = await startBenchStack({ postgres: await freePort(), temporal: await freePort() });
const sql = createSql(stack.databaseUrl, 2);
await migrate(sql);
const { key } = await createApiKey(sql, { name: `bench-${randomUUID()}`, rateLimitExempt: true });
const env = {
  DATABASE_URL: stack.databaseUrl,
  TEMPORAL_ADDRESS: stack.temporalAddress,
  TEMPORAL_TASK_QUEUE: taskQueue,
  LOG_LEVEL: 'warn',
};
const worker = startProcess('src/worker.ts', env);
const api = startProcess('src/server.ts', { ...env, PORT: String(apiPort) });
const hello = startProcess('bench/hello-server.ts', { PORT: String(helloPort) });
const baselineQueue = `${taskQueue}-baseline`;
const baseline = startProcess('bench/baseline-worker.ts', { ...env, BENCH_BASELINE_TASK_QUEUE: baselineQueue });
const { client, connection } = await connectTemporal({ address: stack.temporalAddress, namespace: 'default' });

try {
  await waitForHttp(`http://127.0.0.1:${apiPort}/readyz`);
  await waitForHttp(`http://127.0.0.1:${helloPort}/healthz`);
  console.log(
    `bench: ${connections} concurrent, ${seconds} s each, Temporal ${stack.temporalAddress} (${stack.topology})`,
  );

  const quoteBody = journeys.map(([pickup, dropoff]) => ({
    method: 'POST' as const,
    path: '/api/public/v1/quote',
    body: JSON.stringify({ pickup, dropoff, departAt: new Date(Date.now() + 3600_000).toISOString() }),
  }));
  const headers = { 'content-type': 'application/json', 'x-api-key': key };

  // Warm up every path once (JIT, gazetteer, pools) before measuring.
  await http('warm-up', `http://127.0.0.1:${apiPort}`, quoteBody, headers).catch(() => undefined);
  await closedLoop('warm-up', connections, 2, async () => {
    await client.workflow.start('noopWorkflow', { workflowId: `bench-noop-${randomUUID()}`, taskQueue: baselineQueue });
  });

  // The baseline and the quotes take turns (bench/support.ts `rounds`), each round seconds/rounds long.
  const rawParts: LoadResult[] = [];
  const quoteParts: LoadResult[] = [];
  const quoteWorkflowParts: LoadResult[] = [];
  const cpuRaw: CpuSnapshot = new Map();
  const cpuQuotes: CpuSnapshot = new Map();
  const cpuQuoteWorkflows: CpuSnapshot = new Map();
  // What each phase wrote to Postgres, summed over its rounds (a zero to start from).
  const zero = scaleStats(await storeStats(sql), 0);
  let storesRaw: StoreStats = zero;
  let storesQuotes: StoreStats = zero;
  for (let r = 0; r < rounds; r++) {
    const s0 = await storeStats(sql);
    const t0 = cpuSnapshot();
    rawParts.push(
      await closedLoop('raw', connections, seconds / rounds, async () => {
        await client.workflow.start('noopWorkflow', {
          workflowId: `bench-noop-${randomUUID()}`,
          taskQueue: baselineQueue,
        });
      }),
    );
    const t1 = cpuSnapshot();
    const s1 = await storeStats(sql);
    quoteParts.push(await http('quote', `http://127.0.0.1:${apiPort}`, quoteBody, headers, seconds / rounds));
    const t2 = cpuSnapshot();
    const s2 = await storeStats(sql);
    storesRaw = addStats(storesRaw, diffStats(s1, s0));
    storesQuotes = addStats(storesQuotes, diffStats(s2, s1));
    // Not a target: the quote's own workflow started raw, as the API starts it (no HTTP, pricing or
    // row), to split a quote's cost between its workflow and the rest of the request.
    quoteWorkflowParts.push(
      await closedLoop('quote workflow', connections, seconds / rounds, async () => {
        const quoteId = randomUUID();
        await client.workflow.start('quoteWorkflow', {
          workflowId: quoteWorkflowId(quoteId),
          taskQueue,
          args: [{ quoteId, expiresAt: new Date(Date.now() + 3600_000).toISOString() }],
          memo: { fare: '12.30', pickup: 'Bench pickup', dropoff: 'Bench dropoff', tariff: 'national' },
        });
      }),
    );
    addCpu(cpuRaw, t0, t1);
    addCpu(cpuQuotes, t1, t2);
    addCpu(cpuQuoteWorkflows, t2, cpuSnapshot());
  }
  const raw = mergeRounds(`raw workflow.start (empty workflow), ${rounds} rounds`, rawParts);
  const quote = mergeRounds(`POST /api/public/v1/quote, ${rounds} rounds`, quoteParts);
  const quoteWorkflow = mergeRounds(`raw workflow.start of the quote workflow, ${rounds} rounds`, quoteWorkflowParts);
  const helloResult = await http(
    'bare Fastify hello-world',
    `http://127.0.0.1:${helloPort}`,
    [{ method: 'POST', path: '/hello', body: '{}' }],
    {
      'content-type': 'application/json',
    },
  );

  printTable([quote, raw, quoteWorkflow, helloResult]);
  const throughputRatio = quote.perSecond / raw.perSecond;
  const p99Ratio = quote.p99 / raw.p99;
  console.log(
    `\nquote / raw start throughput: ${throughputRatio.toFixed(2)} (target >= 0.90) ${throughputRatio >= 0.9 ? 'MET' : 'MISSED'}`,
  );
  console.log(
    `quote / raw start p99:        ${p99Ratio.toFixed(2)} (target <= 2.00) ${p99Ratio <= 2 ? 'MET' : 'MISSED'}`,
  );
  console.log(`quote / hello-world throughput: ${(quote.perSecond / helloResult.perSecond).toFixed(3)}`);
  console.log(
    `quote workflow alone / raw start throughput: ${(quoteWorkflow.perSecond / raw.perSecond).toFixed(2)} (its share of the gap)`,
  );
  writeSummary({
    quotePerSecond: quote.perSecond,
    quoteP50: quote.p50,
    quoteP99: quote.p99,
    rawStartPerSecond: raw.perSecond,
    rawStartP50: raw.p50,
    rawStartP99: raw.p99,
    helloPerSecond: helloResult.perSecond,
    quoteVsRawStart: throughputRatio,
    quoteWorkflowPerSecond: quoteWorkflow.perSecond,
    quoteWorkflowVsRawStart: quoteWorkflow.perSecond / raw.perSecond,
  });
  printCpuTable([
    { label: 'raw start', perOp: cpuPerOperation(new Map(), cpuRaw, raw.requests) },
    { label: 'quote', perOp: cpuPerOperation(new Map(), cpuQuotes, quote.requests) },
    { label: 'quote workflow alone', perOp: cpuPerOperation(new Map(), cpuQuoteWorkflows, quoteWorkflow.requests) },
  ]);
  printStoreTable([
    { label: 'raw start', perOp: scaleStats(storesRaw, 1 / Math.max(1, raw.requests)) },
    { label: 'quote', perOp: scaleStats(storesQuotes, 1 / Math.max(1, quote.requests)) },
  ]);
  const [{ count }] = (await sql`select count(*)::int as count from quotes`) as unknown as [{ count: number }];
  console.log(`quotes recorded in Postgres: ${count}`);
} finally {
  await connection.close();
  await Promise.all([api.stop(), worker.stop(), hello.stop(), baseline.stop()]);
  await sql.end();
  await stack.stop();
}
