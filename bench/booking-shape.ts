// A booking's Temporal shape with none of its business work, beside the raw round trip, in one
// run: the floor under issue 38's "a booking's whole life at half the CPU".
//
//   BENCH_TOPOLOGY=cluster npx tsx bench/booking-shape.ts
//
// bookingShapeWorkflow (bench/workflows.ts) takes the steps a city booking's history holds
// (bench/city.ts prints them): started by update-with-start carrying the booking's search
// attributes, then an acceptance, three trip steps and the payment, each an update running the
// local activities its real step runs and upserting the search attributes, with the offer's and the
// no-show watch's timers and one message activity. Every activity is a no-op and no request reaches
// the service's API, Postgres tables or providers, so what it costs is what Temporal, its Postgres
// databases, the SDK's worker and client take for a booking of this shape on this stack. Its
// history is a little shorter than a city booking's (six updates and nine local activities against
// 6.8 and 11), so the figure is a lower bound. A third phase takes the first step alone
// (update-with-start and one local activity, as a booking dispatched at once sends its first card):
// the floor under issue 38's "CPU to the first card at most 1.6 times a round trip's".
//
// Bookings arrive open-loop at SHAPE_RATE a second (3, the city's) for SHAPE_SECONDS (60), each
// taking its steps one after another; CPU a booking is net of what each process uses idle
// (sampled for SHAPE_IDLE_SECONDS, 10, first).
import { randomUUID } from 'node:crypto';
import { WithStartWorkflowOperation, WorkflowIdConflictPolicy, type Client } from '@temporalio/client';
import { connectTemporal } from '../src/temporal/connection.js';
import { BookingSearchAttributes } from '../workflows/bookings/definitions.js';
import { cpuPerOperation, cpuSnapshot, type CpuSnapshot } from './cpu.js';
import { eventKindName } from './history.js';
import { freePort } from '../dev/free-port.js';
import { startBenchStack, startProcess } from './support.js';
import {
  bookingShapeWorkflow,
  shapeStepUpdate,
  signalRoundTripSignal,
  signalRoundTripWorkflow,
  type ShapeStep,
} from './workflows.js';

const rate = Number(process.env.SHAPE_RATE ?? 3);
const seconds = Number(process.env.SHAPE_SECONDS ?? 60);
const idleSeconds = Number(process.env.SHAPE_IDLE_SECONDS ?? 10);
const steps: ShapeStep[] = ['accepted', 'en_route', 'arrived', 'on_board', 'paid'];

async function shapeBooking(client: Client, taskQueue: string, id: string, firstCardOnly = false): Promise<void> {
  const startWorkflowOperation = new WithStartWorkflowOperation(bookingShapeWorkflow, {
    workflowId: id,
    taskQueue,
    // The first card alone leaves its workflow waiting for an answer, long past the run.
    args: [firstCardOnly ? { offerSeconds: 3600, firstCardOnly } : {}],
    workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
    memo: { pickup: '221B Baker Street, London NW1 6XE', dropoff: 'Heathrow Terminal 5', fare: '62.40' },
    typedSearchAttributes: [
      { key: BookingSearchAttributes.status, value: 'dispatching' },
      { key: BookingSearchAttributes.pickupAt, value: new Date() },
      { key: BookingSearchAttributes.source, value: 'api' },
    ],
  });
  await client.workflow.executeUpdateWithStart(shapeStepUpdate, { args: ['created'], startWorkflowOperation });
  if (firstCardOnly) return;
  const handle = client.workflow.getHandle(id);
  for (const step of steps) await handle.executeUpdate(shapeStepUpdate, { args: [step] });
  await handle.result();
}

async function rawRoundTrip(client: Client, taskQueue: string, id: string): Promise<void> {
  const handle = await client.workflow.start(signalRoundTripWorkflow, { workflowId: id, taskQueue });
  await handle.signal(signalRoundTripSignal);
  await handle.result();
}

/** Starts one call every 1/rate seconds for `forSeconds`, then waits for all of them. */
async function openLoop(
  forSeconds: number,
  call: (i: number) => Promise<void>,
): Promise<{ done: number; failed: number }> {
  const calls: Promise<boolean>[] = [];
  const started = performance.now();
  for (let i = 0; i < rate * forSeconds; i++) {
    const due = started + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    calls.push(
      call(i).then(
        () => true,
        () => false,
      ),
    );
  }
  const results = await Promise.all(calls);
  return { done: results.filter(Boolean).length, failed: results.filter((ok) => !ok).length };
}

function netOfIdle(used: Map<string, number>, idle: Map<string, number>, forSeconds: number, n: number) {
  const out = new Map<string, number>();
  for (const [k, v] of used) out.set(k, Math.max(0, v - ((idle.get(k) ?? 0) * forSeconds) / Math.max(1, n)));
  return out;
}

const stack = await startBenchStack({ postgres: await freePort(), temporal: await freePort() });
const taskQueue = `bench-shape-${randomUUID().slice(0, 8)}`;
const worker = startProcess('bench/baseline-worker.ts', {
  TEMPORAL_ADDRESS: stack.temporalAddress,
  BENCH_BASELINE_TASK_QUEUE: taskQueue,
});
const { client, connection } = await connectTemporal({ address: stack.temporalAddress, namespace: 'default' });
try {
  console.log(
    `bench booking-shape: ${rate}/s for ${seconds} s each, Temporal ${stack.temporalAddress} (${stack.topology})`,
  );
  // Warm up both paths (the worker's bundle, JIT, pools) before anything is measured.
  for (let i = 0; i < 5; i++) {
    await shapeBooking(client, taskQueue, `warm-shape-${randomUUID()}`);
    await rawRoundTrip(client, taskQueue, `warm-rt-${randomUUID()}`);
  }
  const idleFrom = cpuSnapshot();
  await new Promise((r) => setTimeout(r, idleSeconds * 1000));
  const idle = cpuPerOperation(idleFrom, cpuSnapshot(), idleSeconds); // ms a second, by process

  const phases: Array<{ label: string; perOp: Map<string, number>; n: number }> = [];
  const ids: string[] = [];
  for (const [label, call] of [
    ['raw start + signal + result', (i: number) => rawRoundTrip(client, taskQueue, `rt-${i}-${randomUUID()}`)],
    [
      'booking shape (start, 5 updates)',
      (i: number) => {
        const id = `shape-${i}-${randomUUID()}`;
        ids.push(id);
        return shapeBooking(client, taskQueue, id);
      },
    ],
    [
      // Last, so the workflows it leaves waiting do nothing during another phase.
      'first card shape (update-with-start)',
      (i: number) => shapeBooking(client, taskQueue, `card-${i}-${randomUUID()}`, true),
    ],
  ] as const) {
    const before: CpuSnapshot = cpuSnapshot();
    const t0 = performance.now();
    const { done, failed } = await openLoop(seconds, call);
    const took = (performance.now() - t0) / 1000;
    if (failed) throw new Error(`${label}: ${failed} of ${done + failed} failed`);
    phases.push({ label, perOp: netOfIdle(cpuPerOperation(before, cpuSnapshot(), done), idle, took, done), n: done });
  }

  const events = new Map<string, number>();
  const sample = ids.filter((_, i) => i % Math.max(1, Math.floor(ids.length / 30)) === 0);
  for (const id of sample) {
    const history = await client.workflow.getHandle(id).fetchHistory();
    for (const e of history.events ?? []) {
      const kind = eventKindName(e);
      events.set(kind, (events.get(kind) ?? 0) + 1 / sample.length);
    }
  }

  const names = [...new Set(phases.flatMap((p) => [...p.perOp.keys()]))].sort();
  console.log(`\nCPU ms per operation, by process, net of idle (from /proc):`);
  console.log(`| process | ${phases.map((p) => `${p.label} (${p.n})`).join(' | ')} |`);
  console.log(`|---|${phases.map(() => '---:').join('|')}|`);
  for (const n of names) console.log(`| ${n} | ${phases.map((p) => (p.perOp.get(n) ?? 0).toFixed(1)).join(' | ')} |`);
  const total = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
  console.log(`| **all** | ${phases.map((p) => `**${total(p.perOp).toFixed(1)}**`).join(' | ')} |`);
  const [rt, shape, card] = phases.map((p) => total(p.perOp));
  console.log(`\nbooking shape / raw round trip: ${(shape! / rt!).toFixed(2)}`);
  console.log(`first card shape / raw round trip: ${(card! / rt!).toFixed(2)}`);
  const totalEvents = [...events.values()].reduce((a, b) => a + b, 0);
  console.log(`\nhistory events per booking shape (a sample of ${sample.length}): ${totalEvents.toFixed(1)}`);
  for (const [k, v] of [...events].sort((a, b) => b[1] - a[1])) console.log(`| of which ${k} | ${v.toFixed(1)} |`);
} finally {
  await connection.close();
  await worker.stop();
  await stack.stop();
}
