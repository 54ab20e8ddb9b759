// Booking -> first job card, end to end, beside a raw Temporal start-workflow + signal round trip
// measured in the same run on the same server.
//   npx tsx bench/dispatch.ts   (BENCH_CONCURRENCY=8 BENCH_SECONDS=20 BENCH_DRIVERS=4500 by default)
// BENCH_SECONDS are split into BENCH_ROUNDS (3) rounds taken in turn with the baseline's, and the CPU
// each process used in them is printed per operation.
// Target: first job card p50 <= 1.3 x the raw round trip p50, on both topologies.
//
// Closed loop: each of BENCH_CONCURRENCY clients POSTs /api/public/bookings/instant (a key exempt
// from the hourly limit), waits until that booking's first job card SMS is in the outbox, then books
// again. The API and the worker are separate processes (src/server.ts, src/worker.ts) against one
// embedded Postgres and one Temporal dev server on a SQLite file, as `npm start` runs them.
//
// Latency = outbox.created_at of the booking's first 'New job' SMS (Postgres now() in the inserting
// transaction) minus Date.now() taken just before the POST. Both read the same host's wall clock, so
// the figure itself has ~1 ms of error (Date.now() resolution); the outbox is polled every POLL_MS
// only to learn that the card exists, which delays the next booking of that client (it lowers
// bookings/s by at most POLL_MS per booking) but does not enter the latency.
//
// Seeded drivers never answer, OFFER_TIMEOUT_SECONDS is 600 and no unopened card is cut
// (OFFER_UNSEEN_SECONDS=0), so no cascade moves on during the run: each booking's first round sends
// the offer policy's group of cards (OFFER_GROUP_SIZE, 3: the first by SMS, the others by WhatsApp
// and the app) to drivers who then count as busy (an open job card). So every booking uses up a
// group of drivers, and the run stops early if the drivers run out.
import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import type { Sql } from '../src/db/sql.js';
import { loadConfig } from '../src/config.js';
import { connectTemporal } from '../src/temporal/connection.js';
import { bookingWorkflowId } from '../workflows/bookings/definitions.js';
import { signalRoundTripSignal, signalRoundTripWorkflow } from './workflows.js';
import { addCpu, cpuPerOperation, cpuSnapshot, printCpuTable, type CpuSnapshot } from './cpu.js';
import {
  closedLoop,
  mergeRounds,
  percentile,
  prepareServiceBench,
  rounds,
  printTable,
  startProcess,
  waitForHttp,
  writeSummary,
  type LoadResult,
} from './support.js';

const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 8);
const seconds = Number(process.env.BENCH_SECONDS ?? 20);
const driverCount = Number(process.env.BENCH_DRIVERS ?? 4500);
const POLL_MS = 5;
const CARD_TIMEOUT_MS = 60_000;
const taskQueue = 'bench-dispatch';
const runId = randomUUID().slice(0, 8);

// National-default towns: every pickup is priced and dispatched on the same rules, and drivers are
// spread evenly over them so consecutive bookings do not all compete for one town's nearest driver.
const towns = [
  { pickup: 'Derby station', dropoff: 'East Midlands Airport' },
  { pickup: 'Worcester Foregate Street', dropoff: 'Worcester Shrub Hill' },
  { pickup: 'Lancaster station', dropoff: 'Morecambe' },
  { pickup: 'Hereford station', dropoff: 'Ross-on-Wye' },
  { pickup: 'Truro station', dropoff: 'Falmouth' },
] as const;

/** Drivers around each town's pickup (golden-angle spiral, 0.3-4.3 km out), online, approved, never answering. */
async function seedDrivers(sql: Sql, apiUrl: string, apiKey: string): Promise<string[]> {
  // Located by the running API (its quote answers where each pickup is), so this process never
  // holds a gazetteer of its own: its heap and collections would slow the very clock that times
  // the first job card (they did: 2.4 instead of 2.0 once the gazetteer grew).
  const pickups = await Promise.all(
    towns.map(async (t) => {
      const res = await fetch(`${apiUrl}/api/public/v1/quote`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
        body: JSON.stringify({ pickup: t.pickup, dropoff: t.dropoff }),
      });
      if (!res.ok) throw new Error(`cannot locate ${t.pickup}: ${res.status}`);
      const { pickup } = (await res.json()) as { pickup: { latitude: number; longitude: number } };
      return { lat: pickup.latitude, lon: pickup.longitude };
    }),
  );
  const rows = [];
  for (let i = 0; i < driverCount; i++) {
    const at = pickups[i % towns.length]!;
    const k = Math.floor(i / towns.length);
    const r = 300 + (k % 50) * 80;
    const angle = k * 2.39996;
    const id = `bench-${runId}-${i}`;
    rows.push({
      id,
      name: `Bench driver ${i}`,
      phone: `+447700900${String(i % 1000).padStart(3, '0')}`,
      tier: 'local',
      home_area: 'national-default',
      approved: true,
      vehicle_type: 'saloon',
      vehicle_description: 'Skoda Octavia',
      plate: `BN${i}`,
      seats: 4,
      wheelchair_accessible: false,
      online: true,
      lat: at.lat + (r * Math.cos(angle)) / 111_320,
      lon: at.lon + (r * Math.sin(angle)) / (111_320 * Math.cos((at.lat * Math.PI) / 180)),
      location_at: new Date(),
    });
  }
  for (let i = 0; i < rows.length; i += 500) await sql`insert into drivers ${sql(rows.slice(i, i + 500))}`;
  return rows.map((r) => r.id);
}

/**
 * Learns when each pending booking's first job card SMS lands in the outbox: one query per POLL_MS
 * for all pending references at once (at most `concurrency` of them), so the load it adds does not
 * grow with the number of clients.
 */
class FirstCardWatcher {
  readonly #sql: Sql;
  readonly #pending = new Map<
    string,
    { resolve: (atMs: number) => void; reject: (e: Error) => void; deadline: number }
  >();
  #stopped = false;
  readonly #loop: Promise<void>;

  constructor(sql: Sql) {
    this.#sql = sql;
    this.#loop = this.#run();
  }

  /** Resolves with the card's created_at in epoch milliseconds (microsecond fraction kept). */
  waitFor(ref: string): Promise<number> {
    return new Promise((resolve, reject) =>
      this.#pending.set(ref, { resolve, reject, deadline: Date.now() + CARD_TIMEOUT_MS }),
    );
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    await this.#loop;
  }

  async #run(): Promise<void> {
    while (!this.#stopped) {
      if (this.#pending.size > 0) {
        const rows = await this.#sql<{ booking_ref: string; at_ms: number }[]>`
          select booking_ref, extract(epoch from min(created_at))::float8 * 1000 as at_ms
            from outbox
           where booking_ref in ${this.#sql([...this.#pending.keys()])} and channel = 'sms' and body like 'New job%'
           group by booking_ref`;
        for (const row of rows) {
          this.#pending.get(row.booking_ref)?.resolve(row.at_ms);
          this.#pending.delete(row.booking_ref);
        }
        const now = Date.now();
        for (const [ref, p] of this.#pending) {
          if (now > p.deadline) {
            p.reject(new Error(`no job card for ${ref} within ${CARD_TIMEOUT_MS} ms`));
            this.#pending.delete(ref);
          }
        }
      }
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  }
}

interface BookingRun {
  card: LoadResult;
  reply: LoadResult;
  refs: string[];
  /** When each booking's POST was sent (epoch ms) and when its first card was recorded. */
  timings: Map<string, { sentAt: number; cardAt: number }>;
  stoppedEarly: boolean;
}

let bookingSeq = 0;
// Distinct phones per booking (and per run, for a reused database): identical "now" requests while
// the first ride is open would otherwise be merged into one booking.
const phoneBase = Math.floor(Math.random() * 100_000);

async function bookingLoop(
  name: string,
  opts: { apiUrl: string; apiKey: string; watcher: FirstCardWatcher; seconds: number; maxBookings: number },
): Promise<BookingRun> {
  const cardMs: number[] = [];
  const replyMs: number[] = [];
  const refs: string[] = [];
  const timings = new Map<string, { sentAt: number; cardAt: number }>();
  let errors = 0;
  let issued = 0;
  let firstError: unknown = null;
  const started = performance.now();
  const until = started + opts.seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < until && issued < opts.maxBookings) {
        issued++;
        const n = bookingSeq++;
        const town = towns[n % towns.length]!;
        try {
          const sentAt = Date.now();
          const t = performance.now();
          const res = await fetch(`${opts.apiUrl}/api/public/bookings/instant`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-api-key': opts.apiKey },
            body: JSON.stringify({
              pickup_address: town.pickup,
              dropoff_address: town.dropoff,
              passenger_name: 'Bench Passenger',
              passenger_phone_whatsapp: `+4474001${String((phoneBase + n) % 100_000).padStart(5, '0')}`,
              passenger_count: 1,
            }),
          });
          const body = await res.text();
          if (res.status !== 200) throw new Error(`POST instant: ${res.status} ${body}`);
          replyMs.push(performance.now() - t);
          const ref = (JSON.parse(body) as { booking_reference: string }).booking_reference;
          refs.push(ref);
          const cardAt = await opts.watcher.waitFor(ref);
          timings.set(ref, { sentAt, cardAt });
          cardMs.push(cardAt - sentAt);
        } catch (err) {
          errors++;
          firstError ??= err;
        }
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  if (firstError) console.error(`${name}: ${errors} errors, first:`, firstError);
  const result = (label: string, xs: number[]): LoadResult => {
    xs.sort((a, b) => a - b);
    return {
      name: label,
      requests: xs.length,
      errors,
      seconds: elapsed,
      perSecond: xs.length / elapsed,
      p50: percentile(xs, 50),
      p99: percentile(xs, 99),
    };
  };
  return {
    card: result(`${name}: booking -> first job card`, cardMs),
    reply: result(`${name}: POST bookings/instant reply`, replyMs),
    refs,
    timings,
    stoppedEarly: issued >= opts.maxBookings && performance.now() < until,
  };
}

/** The baseline: start a workflow that waits for one signal, signal it, wait for its result. */
function rawRoundTrip(client: Client): { label: string; call: () => Promise<void> } {
  return {
    label: 'raw start + signal + result (signalRoundTripWorkflow)',
    call: async () => {
      const handle = await client.workflow.start(signalRoundTripWorkflow, {
        workflowId: `bench-rt-${randomUUID()}`,
        taskQueue: baselineQueue,
      });
      await handle.signal(signalRoundTripSignal);
      await handle.result();
    },
  };
}

type Timestamp = { seconds?: { toNumber(): number } | number | null; nanos?: number | null } | null | undefined;
const tsMs = (t: Timestamp): number =>
  t ? (typeof t.seconds === 'number' ? t.seconds : (t.seconds?.toNumber() ?? 0)) * 1000 + (t.nanos ?? 0) / 1e6 : NaN;
const median = (xs: number[]) =>
  percentile(
    [...xs].sort((a, b) => a - b),
    50,
  );

/**
 * Where the time goes, from the histories of a sample of measured bookings (server event times,
 * same host clock as the POST timestamps): per activity up to the first job card, when it was
 * scheduled, how long it queued for the worker, how long it ran, and the workflow-task turnaround
 * since the previous step completed.
 */
async function breakdown(
  client: Client,
  timings: Map<string, { sentAt: number; cardAt: number }>,
  sampleSize = 30,
): Promise<void> {
  const refs = [...timings.keys()];
  const sample = refs
    .filter((_, i) => i % Math.max(1, Math.floor(refs.length / sampleSize)) === 0)
    .slice(0, sampleSize);
  const steps = new Map<string, { at: number[]; queued: number[]; ran: number[]; gap: number[] }>();
  const step = (name: string) => {
    let s = steps.get(name);
    if (!s) steps.set(name, (s = { at: [], queued: [], ran: [], gap: [] }));
    return s;
  };
  for (const ref of sample) {
    const { sentAt, cardAt } = timings.get(ref)!;
    const history = await client.workflow.getHandle(bookingWorkflowId(ref)).fetchHistory();
    const scheduled = new Map<string, { name: string; at: number; startedAt: number }>();
    let lastDone = sentAt;
    for (const e of history.events ?? []) {
      const at = tsMs(e.eventTime) - sentAt;
      const id = String(e.eventId);
      if (e.workflowExecutionStartedEventAttributes) {
        step('workflow started').at.push(at);
        lastDone = at;
      } else if (e.workflowExecutionUpdateCompletedEventAttributes) {
        step('update completed (POST can reply)').at.push(at);
      } else if (e.activityTaskScheduledEventAttributes) {
        const name = e.activityTaskScheduledEventAttributes.activityType?.name ?? '?';
        scheduled.set(id, { name, at, startedAt: NaN });
        const s = step(name);
        s.at.push(at);
        s.gap.push(at - lastDone);
      } else if (e.activityTaskStartedEventAttributes) {
        const a = scheduled.get(String(e.activityTaskStartedEventAttributes.scheduledEventId));
        if (a) {
          a.startedAt = at;
          step(a.name).queued.push(at - a.at);
        }
      } else if (e.activityTaskCompletedEventAttributes) {
        const a = scheduled.get(String(e.activityTaskCompletedEventAttributes.scheduledEventId));
        if (a) {
          step(a.name).ran.push(at - a.startedAt);
          lastDone = at;
        }
      } else if (e.timerStartedEventAttributes) {
        break;
      }
    }
    step('first job card SMS in outbox').at.push(cardAt - sentAt);
  }
  console.log(`
where the time goes (medians of ${sample.length} bookings, ms since the POST was sent):`);
  console.log('| step | at | WFT turnaround before | queued for worker | ran |');
  console.log('|---|---:|---:|---:|---:|');
  const f = (xs: number[]) => (xs.length ? median(xs).toFixed(0) : '');
  for (const [name, s] of [...steps].sort((a, b) => median(a[1].at) - median(b[1].at))) {
    console.log(`| ${name} | ${f(s.at)} | ${f(s.gap)} | ${f(s.queued)} | ${f(s.ran)} |`);
  }
}

const external = Boolean(process.env.DATABASE_URL || process.env.TEMPORAL_ADDRESS);
const { stack, sql, key, apiPort, env } = await prepareServiceBench(`bench-dispatch-${runId}`, taskQueue);
const worker = startProcess('src/worker.ts', env);
const api = startProcess('src/server.ts', { ...env, PORT: String(apiPort) });
const baselineQueue = `${taskQueue}-baseline`;
const baseline = startProcess('bench/baseline-worker.ts', { ...env, BENCH_BASELINE_TASK_QUEUE: baselineQueue });
const { client, connection } = await connectTemporal({ address: stack.temporalAddress, namespace: 'default' });
const watcher = new FirstCardWatcher(sql);
const bookedRefs: string[] = [];
const driverIds: string[] = [];

try {
  const apiUrl = `http://127.0.0.1:${apiPort}`;
  await waitForHttp(`${apiUrl}/readyz`);
  driverIds.push(...(await seedDrivers(sql, apiUrl, key)));
  const raw = rawRoundTrip(client);
  console.log(
    `bench: ${concurrency} concurrent, ${seconds} s each, ${driverCount} drivers in ${towns.length} towns, Temporal ${stack.temporalAddress} (${stack.topology})`,
  );

  // Warm up every path (JIT, gazetteer, pools, the worker's first workflow bundle) before measuring.
  const warmBookings = concurrency * 2;
  const warm = await bookingLoop('warm-up', { apiUrl, apiKey: key, watcher, seconds: 120, maxBookings: warmBookings });
  bookedRefs.push(...warm.refs);
  await closedLoop('warm-up', concurrency, 2, raw.call);

  // The baseline and the bookings take turns (bench/support.ts `rounds`), each round seconds/rounds long.
  const rawParts: LoadResult[] = [];
  const cardParts: LoadResult[] = [];
  const replyParts: LoadResult[] = [];
  const cpuRaw: CpuSnapshot = new Map();
  const cpuBookings: CpuSnapshot = new Map();
  const run = { timings: new Map<string, { sentAt: number; cardAt: number }>(), stoppedEarly: false };
  // Each booking holds a group of drivers (OFFER_GROUP_SIZE, as the service's processes read it); leave
  // room for the bookings still in flight when the cap is reached.
  let budget =
    Math.floor(driverCount / loadConfig({ ...process.env, ...env }).OFFER_GROUP_SIZE) - warmBookings - concurrency;
  for (let r = 0; r < rounds && !run.stoppedEarly; r++) {
    const t0 = cpuSnapshot();
    rawParts.push(await closedLoop(raw.label, concurrency, seconds / rounds, raw.call));
    const t1 = cpuSnapshot();
    const part = await bookingLoop('dispatch', {
      apiUrl,
      apiKey: key,
      watcher,
      seconds: seconds / rounds,
      maxBookings: budget,
    });
    addCpu(cpuRaw, t0, t1);
    addCpu(cpuBookings, t1, cpuSnapshot());
    budget -= part.refs.length;
    bookedRefs.push(...part.refs);
    cardParts.push(part.card);
    replyParts.push(part.reply);
    for (const [ref, t] of part.timings) run.timings.set(ref, t);
    run.stoppedEarly ||= part.stoppedEarly;
  }
  const rawResult = mergeRounds(`${raw.label}, ${rawParts.length} rounds`, rawParts);
  const card = mergeRounds(`dispatch: booking -> first job card, ${cardParts.length} rounds`, cardParts);
  const reply = mergeRounds('dispatch: POST bookings/instant reply', replyParts);

  printTable([card, reply, rawResult]);
  const p50Ratio = card.p50 / rawResult.p50;
  console.log(
    `\nfirst job card p50 / raw round trip p50: ${p50Ratio.toFixed(2)} (target <= 1.30) ${p50Ratio <= 1.3 ? 'MET' : 'MISSED'}`,
  );
  console.log(`first job card p99 / raw round trip p99: ${(card.p99 / rawResult.p99).toFixed(2)}`);
  console.log(`bookings/s / raw round trips/s:          ${(card.perSecond / rawResult.perSecond).toFixed(2)}`);
  writeSummary({
    cardPerSecond: card.perSecond,
    cardP50: card.p50,
    cardP99: card.p99,
    replyP50: reply.p50,
    roundTripPerSecond: rawResult.perSecond,
    roundTripP50: rawResult.p50,
    roundTripP99: rawResult.p99,
    cardVsRoundTrip: p50Ratio,
  });
  printCpuTable([
    { label: 'raw round trip', perOp: cpuPerOperation(new Map(), cpuRaw, rawResult.requests) },
    { label: 'booking to first card', perOp: cpuPerOperation(new Map(), cpuBookings, card.requests) },
  ]);
  await breakdown(client, run.timings);
  if (run.stoppedEarly)
    console.log(`(the booking run stopped early: every seeded driver held a job card; raise BENCH_DRIVERS)`);

  // What the run left behind, as a check on the figures: one card per booking, one open offer per driver.
  if (bookedRefs.length === 0) throw new Error('no booking was made');
  const [counts] = await sql<[{ bookings: number; cards: number; doubled: number }]>`
    select (select count(*)::int from bookings where ref in ${sql(bookedRefs)}) as bookings,
           (select count(*)::int from outbox where booking_ref in ${sql(bookedRefs)} and channel = 'sms' and body like 'New job%') as cards,
           (select count(*)::int from (select driver_id from offers where booking_ref in ${sql(bookedRefs)} and status = 'offered'
                                        group by driver_id having count(*) > 1) d) as doubled`;
  console.log(
    `bookings made: ${counts.bookings}; job card SMS sent: ${counts.cards}; drivers holding two or more open job cards at once: ${counts.doubled}`,
  );
} finally {
  await watcher.stop();
  if (external) {
    // A reused stack keeps running: leave no bench driver online and no booking waiting on its offer.
    if (driverIds.length > 0) await sql`update drivers set online = false where id in ${sql(driverIds)}`;
    for (const ref of bookedRefs)
      await client.workflow
        .getHandle(bookingWorkflowId(ref))
        .terminate('benchmark over')
        .catch(() => {});
  }
  await connection.close();
  await Promise.all([api.stop(), worker.stop(), baseline.stop()]);
  await sql.end();
  await stack.stop();
}
