// How dispatch cost grows with the number of drivers within reach of one pickup.
//   npx tsx bench/dispatch-growth.ts   (BENCH_GROWTH=100,1000,10000,50000 BENCH_BOOKINGS=5 by default)
//
// For each step the drivers around one pickup are topped up to N (all online, approved, free,
// never answering), then BENCH_BOOKINGS bookings are made one after another through
// POST /api/public/bookings/instant on the API and worker processes `npm start` runs. Per step:
// - time from sending the POST to the booking's first job card in the outbox (p50, max);
// - the booking workflow's history up to then (events and JSON bytes): must not grow with N;
// - the candidate step's database time: `findCandidatePage` (read, rank, write the decision log),
//   the activity the cascade runs, called directly on each booking with a round of its own;
// - rows written to the decision log for the booking's first round.
// A flat table is the goal: a booking's work bounded by a window of the nearest drivers, however
// many are near. The raw start + signal round trip of the same run is printed as the baseline.
import { randomUUID } from 'node:crypto';
import { createDispatchActivities } from '../activities/bookings/dispatch.js';
import { loadBooking } from '../src/bookings/store.js';
import { createWorkerMetrics } from '../src/ops/metrics.js';
import { connectTemporal } from '../src/temporal/connection.js';
import { bookingWorkflowId } from '../workflows/bookings/definitions.js';
import { signalRoundTripSignal, signalRoundTripWorkflow } from './workflows.js';
import { closedLoop, percentile, prepareServiceBench, startProcess, waitForHttp } from './support.js';

const steps = (process.env.BENCH_GROWTH ?? '100,1000,10000,50000').split(',').map(Number);
const bookingsPerStep = Number(process.env.BENCH_BOOKINGS ?? 5);
const taskQueue = 'bench-growth';
const runId = randomUUID().slice(0, 8);
const PICKUP = { pickup: 'Kendal station', dropoff: 'Windermere' };

const { stack, sql, key, apiPort, apiUrl, env } = await prepareServiceBench(`bench-growth-${runId}`, taskQueue);
const worker = startProcess('src/worker.ts', env);
const api = startProcess('src/server.ts', { ...env, PORT: String(apiPort) });
const baselineQueue = `${taskQueue}-baseline`;
const baseline = startProcess('bench/baseline-worker.ts', { ...env, BENCH_BASELINE_TASK_QUEUE: baselineQueue });
const { client, connection } = await connectTemporal({ address: stack.temporalAddress, namespace: 'default' });
const refs: string[] = [];
const noNotifier = { send: async () => ({ status: 'sent' as const, providerId: null }) };
const dispatch = createDispatchActivities({
  sql,
  notifier: noNotifier as never,
  publicBaseUrl: apiUrl,
  jobLinkSecret: 'unused',
  metrics: createWorkerMetrics(),
});

async function post(path: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${apiUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`POST ${path}: ${res.status} ${text}`);
  return JSON.parse(text) as Record<string, unknown>;
}

async function firstCardAt(ref: string): Promise<number> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const [row] = await sql<{ at_ms: number | null }[]>`
      select extract(epoch from min(created_at))::float8 * 1000 as at_ms from outbox
       where booking_ref = ${ref} and channel = 'sms' and body like 'New job%'`;
    if (row?.at_ms) return row.at_ms;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`no job card for ${ref}`);
}

let phone = Math.floor(Math.random() * 50_000);
const median = (xs: number[]) =>
  percentile(
    [...xs].sort((a, b) => a - b),
    50,
  );

try {
  await waitForHttp(`${apiUrl}/readyz`);
  const quote = await post('/api/public/v1/quote', PICKUP);
  const { latitude: lat, longitude: lon } = quote.pickup as { latitude: number; longitude: number };
  const raw = await closedLoop('raw', 1, 5, async () => {
    const h = await client.workflow.start(signalRoundTripWorkflow, {
      workflowId: `bench-rt-${randomUUID()}`,
      taskQueue: baselineQueue,
    });
    await h.signal(signalRoundTripSignal);
    await h.result();
  });
  console.log(
    `bench: drivers within reach of ${PICKUP.pickup}: ${steps.join(', ')}; ${bookingsPerStep} bookings each; Temporal ${stack.temporalAddress}`,
  );
  console.log(`baseline: raw start + signal + result, one client: p50 ${raw.p50.toFixed(1)} ms\n`);
  console.log(
    '| drivers within reach | first job card p50 ms | max ms | history events | history JSON bytes | candidate step p50 ms (read, rank, log) | decisions logged, round 1 |',
  );
  console.log('|---:|---:|---:|---:|---:|---:|---:|');

  let seeded = 0;
  for (const n of steps) {
    // Top the drivers up to n, spread over ~12 km round the pickup: all inside the local reach.
    if (n > seeded) {
      await sql`
        insert into drivers (id, name, phone, tier, home_area, approved, vehicle_type, vehicle_description, plate, seats, online, lat, lon, location_at)
        select ${`growth-${runId}`} || '-' || g, 'Growth driver ' || g, '+4477' || lpad(g::text, 8, '0'), 'local', 'national-default', true,
               'saloon', 'Skoda Octavia', 'GR' || g, 4, true,
               ${lat}::float8 + (0.001 + (g % 200) * 0.0005) * cos(g), ${lon}::float8 + (0.001 + (g % 200) * 0.0008) * sin(g), now()
          from generate_series(${seeded + 1}::int, ${n}::int) g`;
      // Settled before timing: fresh statistics, and the bulk insert's dead tuples and hint bits dealt with.
      await sql.unsafe('vacuum analyze drivers');
      seeded = n;
    }
    const cards: number[] = [];
    const events: number[] = [];
    const bytes: number[] = [];
    const stepMs: number[] = [];
    const logged: number[] = [];
    for (let i = 0; i < bookingsPerStep; i++) {
      const sentAt = Date.now();
      const booked = await post('/api/public/bookings/instant', {
        pickup_address: PICKUP.pickup,
        dropoff_address: PICKUP.dropoff,
        passenger_name: 'Bench Passenger',
        passenger_phone_whatsapp: `+4474002${String(phone++ % 100_000).padStart(5, '0')}`,
        passenger_count: 1,
      });
      const ref = booked.booking_reference as string;
      refs.push(ref);
      cards.push((await firstCardAt(ref)) - sentAt);
      const history = await client.workflow.getHandle(bookingWorkflowId(ref)).fetchHistory();
      events.push(history.events?.length ?? 0);
      bytes.push(JSON.stringify(history.events).length);
      const [{ count }] =
        (await sql`select count(*)::int as count from dispatch_decisions where booking_ref = ${ref} and round = 1`) as unknown as [
          { count: number },
        ];
      logged.push(count);

      // The same candidate step again, timed on its own (a round no cascade uses).
      const b = await loadBooking(sql, ref);
      const t = performance.now();
      await dispatch.findCandidatePage({
        ref,
        round: 1000 + i,
        tier: 'local',
        job: {
          pickupAt: b.pickup_at.toISOString(),
          passengers: b.passengers,
          vehicleType: b.vehicle_type,
          wheelchair: false,
          notes: null,
        },
        exclude: [],
        limit: 10,
        page: 0,
        trip: { pickup: { lat: b.pickup.lat, lon: b.pickup.lon }, pickupArea: b.pickup_area, durationS: b.duration_s },
      });
      stepMs.push(performance.now() - t);
    }
    console.log(
      `| ${n.toLocaleString('en-GB')} | ${median(cards).toFixed(0)} | ${Math.max(...cards).toFixed(0)} | ${median(events)} | ${median(bytes).toLocaleString('en-GB')} | ${median(stepMs).toFixed(1)} | ${median(logged).toLocaleString('en-GB')} |`,
    );
  }
} finally {
  for (const ref of refs)
    await client.workflow
      .getHandle(bookingWorkflowId(ref))
      .terminate('benchmark over')
      .catch(() => {});
  await sql`update drivers set online = false where id like ${`growth-${runId}-%`}`.catch(() => {});
  await connection.close();
  await Promise.all([api.stop(), worker.stop(), baseline.stop()]);
  await sql.end();
  await stack.stop();
}
