// Worker memory per cached booking workflow, how many in-flight bookings one worker keeps cached,
// and what a second worker adds to booking throughput.
//   npx tsx bench/worker-memory.ts
// Knobs: MEM_STEPS=0,500,1000,2000,3000 (bookings in flight after each step; the last beyond the cache), MEM_CONCURRENCY=16 (clients
// creating them), MEM_LOAD_SECONDS=20 and MEM_LOAD_CONCURRENCY=8 (the throughput runs), MEM_DRIVERS=2500.
//
// Part 1. One worker process (src/worker.ts, as `npm start` runs it, with its metrics endpoint on).
// Bookings pre-booked two days ahead are made through POST /api/public/bookings/instant in steps:
// each booking's workflow then waits on a durable timer, cached (sticky) in the worker. After each
// step: the worker's resident memory (/proc/<pid>/status VmRSS, median of 5 readings a second apart,
// after a 5 s settle), and the Temporal SDK's own gauge of workflows in its sticky cache
// (temporal_sticky_cache_size on the worker's metrics endpoint). Bytes per cached workflow is the
// least-squares slope of RSS against the cache size, over the steps before the cache evicted.
// Workflows run in the SDK's workflow thread, whose V8 heap the main thread's
// process.memoryUsage() does not show: resident memory covers both.
// The cache's capacity is the SDK's default maxCachedWorkflows (src/temporal/create-worker.ts sets
// none), which the SDK derives from the V8 heap limit: max(10, floor((heap limit MiB - 200) * 600 / 1024)).
//
// Part 2. The closed loop of bench/dispatch.ts (each client books, waits for the booking's first job
// card in the outbox, books again; drivers never answer) for MEM_LOAD_SECONDS with one worker (after a warm-up run as long), then
// with a second worker process started on the same task queue, then with one again (A-B-A, so a
// drift of the shared machine shows).
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import v8 from 'node:v8';
import { createApiKey } from '../src/auth/api-keys.js';
import { migrate } from '../src/db/migrate.js';
import { createSql, type Sql } from '../src/db/sql.js';
import { connectTemporal } from '../src/temporal/connection.js';
import { bookingWorkflowId } from '../workflows/bookings/definitions.js';
import { freePort } from '../dev/free-port.js';
import { percentile, startBenchStack, startProcess, waitForHttp } from './support.js';

const steps = (process.env.MEM_STEPS ?? '0,500,1000,2000,3000').split(',').map(Number);
const makeConcurrency = Number(process.env.MEM_CONCURRENCY ?? 16);
const loadSeconds = Number(process.env.MEM_LOAD_SECONDS ?? 20);
const loadConcurrency = Number(process.env.MEM_LOAD_CONCURRENCY ?? 8);
const driverCount = Number(process.env.MEM_DRIVERS ?? 2500);
const runId = randomUUID().slice(0, 8);
const taskQueue = `bench-memory-${runId}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const median = (xs: number[]) =>
  percentile(
    [...xs].sort((a, b) => a - b),
    50,
  );
const mib = (b: number) => (b / 1048576).toFixed(1);

const towns = [
  { pickup: 'Derby station', dropoff: 'East Midlands Airport' },
  { pickup: 'Worcester Foregate Street', dropoff: 'Worcester Shrub Hill' },
  { pickup: 'Lancaster station', dropoff: 'Morecambe' },
  { pickup: 'Hereford station', dropoff: 'Ross-on-Wye' },
  { pickup: 'Truro station', dropoff: 'Falmouth' },
] as const;

const stack = await startBenchStack({ postgres: await freePort(), temporal: await freePort() });
const external = Boolean(process.env.DATABASE_URL || process.env.TEMPORAL_ADDRESS);
const sql = createSql(stack.databaseUrl, 4);
await migrate(sql);
const { key } = await createApiKey(sql, { name: `bench-memory-${runId}`, rateLimitExempt: true });
const apiPort = await freePort();
const apiUrl = `http://127.0.0.1:${apiPort}`;
const metricsPort = await freePort();
const sdkMetricsPort = await freePort();
const env = {
  DATABASE_URL: stack.databaseUrl,
  TEMPORAL_ADDRESS: stack.temporalAddress,
  TEMPORAL_TASK_QUEUE: taskQueue,
  LOG_LEVEL: 'warn',
  OFFER_TIMEOUT_SECONDS: '600',
};
const worker1 = startProcess('src/worker.ts', {
  ...env,
  WORKER_METRICS_PORT: String(metricsPort),
  WORKER_SDK_METRICS_PORT: String(sdkMetricsPort),
});
const api = startProcess('src/server.ts', { ...env, PORT: String(apiPort) });
let worker2: ReturnType<typeof startProcess> | null = null;
const { client, connection } = await connectTemporal({ address: stack.temporalAddress, namespace: 'default' });
const refs: string[] = [];

function rssBytes(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!m) throw new Error(`no VmRSS for ${pid}`);
  return Number(m[1]) * 1024;
}

/** The SDK's sticky-cache gauge and forced evictions, from the worker's metrics endpoint. */
async function cacheMetrics(): Promise<{ size: number; evictions: number }> {
  const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  const sum = (name: string) =>
    text
      .split('\n')
      .filter((l) => l.startsWith(name) && (l[name.length] === ' ' || l[name.length] === '{'))
      .reduce((acc, l) => acc + Number(l.trim().split(/\s+/).pop()), 0);
  return { size: sum('temporal_sticky_cache_size'), evictions: sum('temporal_sticky_cache_total_forced_eviction') };
}

let serial = 0;
const phoneBase = Math.floor(Math.random() * 500_000);
const nextPhone = () => `+447400${String((phoneBase + serial++) % 1_000_000).padStart(6, '0')}`;

async function book(body: Record<string, unknown>): Promise<string> {
  const res = await fetch(`${apiUrl}/api/public/bookings/instant`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    body: JSON.stringify({
      passenger_name: 'Bench Passenger',
      passenger_phone_whatsapp: nextPhone(),
      passenger_count: 1,
      ...body,
    }),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`POST instant: ${res.status} ${text}`);
  const ref = (JSON.parse(text) as { booking_reference: string }).booking_reference;
  refs.push(ref);
  return ref;
}

/** n bookings two days ahead, each then waiting on its dispatch timer. */
async function makePrebooked(n: number): Promise<void> {
  let left = n;
  const base = Date.now() + 2 * 24 * 3600_000;
  await Promise.all(
    Array.from({ length: makeConcurrency }, async () => {
      while (left > 0) {
        left--;
        const t = towns[serial % towns.length]!;
        await book({
          pickup_address: t.pickup,
          dropoff_address: t.dropoff,
          depart_at: new Date(base + serial * 60_000).toISOString(),
        });
      }
    }),
  );
}

async function seedDrivers(sqlc: Sql): Promise<void> {
  const pickups = await Promise.all(
    towns.map(async (t) => {
      const res = await fetch(`${apiUrl}/api/public/v1/quote`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': key },
        body: JSON.stringify(t),
      });
      if (!res.ok) throw new Error(`cannot locate ${t.pickup}: ${res.status}`);
      const { pickup } = (await res.json()) as { pickup: { latitude: number; longitude: number } };
      return pickup;
    }),
  );
  for (const [i, p] of pickups.entries()) {
    await sqlc`
      insert into drivers (id, name, phone, tier, home_area, approved, vehicle_type, vehicle_description, plate, seats, online, lat, lon, location_at)
      select ${`mem-${runId}-${i}-`} || g, 'Bench driver ' || g, '+4477' || lpad(g::text, 8, '0'), 'local', 'national-default', true,
             'saloon', 'Skoda Octavia', 'MB' || g, 4, true,
             ${p.latitude}::float8 + (300 + (g % 50) * 80) / 111320.0 * cos(g * 2.39996),
             ${p.longitude}::float8 + (300 + (g % 50) * 80) / (111320.0 * cos(radians(${p.latitude}::float8))) * sin(g * 2.39996), now()
        from generate_series(1, ${Math.ceil(driverCount / towns.length)}::int) g`;
  }
  await sqlc.unsafe('vacuum analyze drivers');
}

async function firstCard(ref: string, sentAt: number): Promise<number> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const [row] = await sql<{ at_ms: number | null }[]>`
      select extract(epoch from min(created_at))::float8 * 1000 as at_ms from outbox
       where booking_ref = ${ref} and channel = 'sms' and body like 'New job%'`;
    if (row?.at_ms) return row.at_ms - sentAt;
    await sleep(5);
  }
  throw new Error(`no job card for ${ref}`);
}

async function loadRun(
  label: string,
): Promise<{ label: string; bookings: number; perSecond: number; p50: number; p99: number; errors: number }> {
  const cards: number[] = [];
  let errors = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: loadConcurrency }, async () => {
      while (performance.now() - started < loadSeconds * 1000) {
        const t = towns[serial % towns.length]!;
        try {
          const sentAt = Date.now();
          const ref = await book({ pickup_address: t.pickup, dropoff_address: t.dropoff });
          cards.push(await firstCard(ref, sentAt));
        } catch (err) {
          if (errors++ === 0) console.error(`${label}: first error`, err);
        }
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  cards.sort((a, b) => a - b);
  return {
    label,
    bookings: cards.length,
    perSecond: cards.length / elapsed,
    p50: percentile(cards, 50),
    p99: percentile(cards, 99),
    errors,
  };
}

let exitCode = 0;
try {
  await waitForHttp(`${apiUrl}/readyz`);
  const pid = worker1.child.pid!;
  for (
    let i = 0;
    i < 60 &&
    !(await cacheMetrics()
      .then(() => true)
      .catch(() => false));
    i++
  )
    await sleep(1000);
  const heapLimitMiB = v8.getHeapStatistics().heap_size_limit / 1048576;
  const defaultCache = Math.max(Math.floor((Math.max(heapLimitMiB - 200, 0) * 600) / 1024), 10);
  console.log(
    `bench worker memory: steps ${steps.join(', ')} pre-booked bookings; worker pid ${pid}; Temporal ${stack.temporalAddress} (${stack.topology}); ` +
      `V8 heap limit ${heapLimitMiB.toFixed(0)} MiB (this machine's default; NODE_OPTIONS=${process.env.NODE_OPTIONS ?? ''}) -> SDK default maxCachedWorkflows ${defaultCache}`,
  );
  // Warm-up: the workflow bundle, pools and JIT, so the first step measures workflows, not start-up.
  await makePrebooked(20);
  await sleep(5000);

  console.log(
    '\n| pre-booked bookings in flight | workflows in the sticky cache | worker RSS MiB | RSS over step 0 MiB | forced evictions |',
  );
  console.log('|---:|---:|---:|---:|---:|');
  const points: { cached: number; rss: number; evictions: number }[] = [];
  let made = 0;
  for (const n of steps) {
    if (n > made) {
      await makePrebooked(n - made);
      made = n;
    }
    await sleep(5000);
    const rss: number[] = [];
    for (let i = 0; i < 5; i++) {
      rss.push(rssBytes(pid));
      await sleep(1000);
    }
    const m = await cacheMetrics();
    const r = median(rss);
    points.push({ cached: m.size, rss: r, evictions: m.evictions });
    console.log(
      `| ${n.toLocaleString('en-GB')} | ${m.size.toLocaleString('en-GB')} | ${mib(r)} | ${mib(r - points[0]!.rss)} | ${m.evictions} |`,
    );
  }
  // Fitted on the steps before the cache was full: past it, evicted workflows' memory is not
  // handed back at once, so RSS keeps rising while the cache does not.
  const fit = points.filter((p) => p.evictions === 0).length >= 2 ? points.filter((p) => p.evictions === 0) : points;
  const mx = fit.reduce((a, p) => a + p.cached, 0) / fit.length;
  const my = fit.reduce((a, p) => a + p.rss, 0) / fit.length;
  const slope =
    fit.reduce((a, p) => a + (p.cached - mx) * (p.rss - my), 0) / fit.reduce((a, p) => a + (p.cached - mx) ** 2, 0);
  console.log(
    `\nworker RSS per cached booking workflow (least-squares slope over the ${fit.length} steps without evictions): ${(slope / 1024).toFixed(1)} KiB`,
  );
  console.log(
    `one worker caches up to ${defaultCache.toLocaleString('en-GB')} workflows (SDK default here): about ${mib(slope * defaultCache)} MiB over its idle RSS when full; ` +
      `bookings in flight beyond that stay on their durable timers in Temporal and are evicted least-recently-used, then replayed from history when their next event comes`,
  );

  // Part 2: the same closed loop with one worker, two workers, one worker.
  await seedDrivers(sql);
  const warm = loadSeconds;
  await loadRun('warm-up').then((r) => console.log(`\nwarm-up: ${r.bookings} bookings in ${warm} s`));
  const rows = [];
  rows.push(await loadRun('1 worker'));
  worker2 = startProcess('src/worker.ts', env);
  await sleep(15_000); // its bundle built and its pollers on the queue
  rows.push(await loadRun('2 workers'));
  await worker2.stop();
  worker2 = null;
  await sleep(3000);
  rows.push(await loadRun('1 worker again'));
  console.log(
    `\nclosed loop, ${loadConcurrency} clients, ${loadSeconds} s each, booking -> first job card (drivers never answer):`,
  );
  console.log('| workers | bookings | errors | bookings per second | first card p50 ms | p99 ms |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const r of rows)
    console.log(
      `| ${r.label} | ${r.bookings} | ${r.errors} | ${r.perSecond.toFixed(1)} | ${r.p50.toFixed(0)} | ${r.p99.toFixed(0)} |`,
    );
  const ones = (rows[0]!.perSecond + rows[2]!.perSecond) / 2;
  console.log(
    `\n2 workers / mean of the 1-worker runs: bookings/s ${(rows[1]!.perSecond / ones).toFixed(2)}, first card p50 ${(rows[1]!.p50 / ((rows[0]!.p50 + rows[2]!.p50) / 2)).toFixed(2)}`,
  );
  const m = await cacheMetrics();
  console.log(
    `worker 1 at the end: sticky cache ${m.size}, forced evictions ${m.evictions}, RSS ${mib(rssBytes(pid))} MiB`,
  );
} catch (err) {
  console.error(err);
  exitCode = 1;
} finally {
  if (external)
    for (const ref of refs)
      await client.workflow
        .getHandle(bookingWorkflowId(ref))
        .terminate('benchmark over')
        .catch(() => undefined);
  if (external) await sql`update drivers set online = false where id like ${`mem-${runId}-%`}`.catch(() => undefined);
  await connection.close();
  await Promise.all([api.stop(), worker1.stop(), worker2?.stop()]);
  await sql.end();
  await stack.stop();
}
process.exit(exitCode);
