// Crash recovery of the dispatch cascade against the real processes: the worker (src/worker.ts, a
// child process) is SIGKILLed while a job card is out, or the Temporal server is stopped and started
// again on its database file, and the booking must still reach exactly one driver with exactly one
// job card per offer and channel. The API runs in this process without a worker of its own, so
// killing the worker leaves it untouched, as in production.
//
// Time: an offer a driver answers stays open an hour, so no restart, however slow, makes the answer
// late. Two tests need an offer's timer to fall due while the worker, or the server, is down; those
// run on real time (a time-skipping test server keeps nothing across a restart, has no sticky-queue
// timeout to hand a killed worker's task on, and src/worker.ts cannot start on it twice), with a
// window that only has to outlast the SIGKILL, or the stop (SIGKILL after 10 s), that follows the
// timer: about a second with both cores busy. Each test checks that it did rather than assume it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@temporalio/client';
import { afterAll, afterEach, describe, expect, it, onTestFailed } from 'vitest';
import type { Sql } from '../../src/db/sql.js';
import { startTemporalDevServer, type TemporalDevServerHandle } from '../../dev/temporal-dev-server.js';
import { bookingStateQuery, bookingWorkflowId } from '../../workflows/bookings/definitions.js';
import {
  bookingRow,
  createDriver,
  respond,
  takeDriversOffline,
  waitForJobCard,
  waitForStatus,
  type TestDriver,
} from '../support/drivers.js';
import { freePort } from '../../dev/free-port.js';
import {
  killAllWorkerProcesses,
  startApiOnly,
  startWorkerProcess,
  type ApiOnlyStack,
  type WorkerProcess,
} from '../support/processes.js';
import { eventually, STACK_WAIT_MS } from '../support/stack.js';

// A driver's time to answer where the test never lets the offer run out: longer than a test may run.
const OFFER_TIMEOUT_SECONDS = 3600;
// Where the offer must run out, on real time, while the worker or the server is down (see above):
// the longest stop (10 s) and as much again.
const LAPSING_OFFER_TIMEOUT_SECONDS = 20;

let api: ApiOnlyStack | undefined;
let temporal: TemporalDevServerHandle | undefined;
let tmp: string | undefined;
const drivers: TestDriver[] = [];
const refs: string[] = [];

afterEach(async () => {
  // In this order: nothing may keep running against a stack that is being taken down.
  await killAllWorkerProcesses();
  if (api) {
    // Drivers stay in the shared database; offline, they can never be offered another test's job.
    await takeDriversOffline(api.sql, drivers.splice(0));
    // Workflows on the shared server whose task queue no worker will poll again: end them rather
    // than leave their timers firing for the rest of the run.
    const client = api.client;
    await Promise.all(
      refs.splice(0).map((ref) =>
        client.workflow
          .getHandle(bookingWorkflowId(ref))
          .terminate('crash test over')
          .catch(() => {}),
      ),
    );
    await api.close();
    api = undefined;
  }
  refs.length = 0;
  if (temporal) {
    await temporal.stop();
    temporal = undefined;
  }
  if (tmp) {
    fs.rmSync(tmp, { recursive: true, force: true });
    tmp = undefined;
  }
});
afterAll(killAllWorkerProcesses);

const PASSENGER_PHONE = '+447400123461';
let ipCounter = 1;

async function driverNear(stack: ApiOnlyStack, lat: number, lon: number): Promise<TestDriver> {
  const d = await createDriver(stack.sql, { lat, lon, homeArea: 'national-default' });
  drivers.push(d);
  return d;
}

async function quoteAndBook(stack: ApiOnlyStack, pickup: string, dropoff: string): Promise<string> {
  // Addresses of this file's own, so the per-IP hourly allowances of other files are not touched.
  const ip = `10.81.${ipCounter >> 8}.${ipCounter++ & 255}`;
  const q = await stack.app.inject({
    method: 'POST',
    url: '/api/public/v1/quote',
    remoteAddress: ip,
    payload: { pickup, dropoff },
  });
  expect(q.statusCode, q.body).toBe(200);
  const res = await stack.app.inject({
    method: 'POST',
    url: '/api/public/bookings/create',
    remoteAddress: ip,
    payload: {
      quote_id: q.json<{ quote_id: string }>().quote_id,
      passenger_name: 'Mary Somerville',
      passenger_phone_whatsapp: PASSENGER_PHONE,
      payment_method: 'cash_to_driver',
    },
  });
  expect(res.statusCode, res.body).toBe(200);
  const ref = res.json<{ booking_reference: string }>().booking_reference;
  refs.push(ref);
  return ref;
}

/** Event names of a booking's history, e.g. "timerStarted", "activityTaskScheduled:sendJobCard". */
async function historyEvents(client: Client, ref: string): Promise<string[]> {
  const history = await client.workflow.getHandle(bookingWorkflowId(ref)).fetchHistory();
  return (history.events ?? []).map((e) => {
    if (e.timerStartedEventAttributes) return 'timerStarted';
    if (e.timerFiredEventAttributes) return 'timerFired';
    if (e.timerCanceledEventAttributes) return 'timerCanceled';
    if (e.workflowTaskFailedEventAttributes) return 'workflowTaskFailed';
    if (e.activityTaskScheduledEventAttributes)
      return `activityTaskScheduled:${e.activityTaskScheduledEventAttributes.activityType?.name ?? '?'}`;
    // A local activity leaves one marker when it completes, its type in the marker's JSON data.
    const marker = e.markerRecordedEventAttributes;
    if (marker?.markerName === 'core_local_activity') {
      const data = marker.details?.data?.payloads?.[0]?.data;
      const type = data
        ? (JSON.parse(Buffer.from(data).toString('utf8')) as { activity_type?: string }).activity_type
        : undefined;
      // The booking's record, claim and first card in one step: a card only if its result says it went.
      if (type === 'openBookingWithFirstCard') {
        const result = marker.details?.result?.payloads?.[0]?.data;
        const card = result ? (JSON.parse(Buffer.from(result).toString('utf8')) as { card?: string }).card : undefined;
        return card === 'sent' ? 'localActivity:firstCardWithRecord' : 'localActivity:openBookingWithFirstCard';
      }
      return `localActivity:${type ?? '?'}`;
    }
    return 'other';
  });
}

/**
 * How many job cards the booking's history says it sent: as activities (older code), local
 * activities, or the first one, sent with the booking's record.
 */
async function cardsInHistory(client: Client, ref: string): Promise<number> {
  const cards = ['activityTaskScheduled:sendJobCard', 'localActivity:sendJobCard', 'localActivity:firstCardWithRecord'];
  return (await historyEvents(client, ref)).filter((e) => cards.includes(e)).length;
}

/**
 * The crash point the issue names: the job card is out (both channels recorded, the activity
 * completed) and the cascade is parked on the offer's timer.
 */
async function waitForOfferTimer(client: Client, ref: string): Promise<void> {
  await eventually(
    async () => ((await historyEvents(client, ref)).includes('timerStarted') ? true : undefined),
    STACK_WAIT_MS,
    `booking ${ref} to wait on its offer`,
  );
}

const seconds = (t: { seconds?: { toString(): string } | number | null; nanos?: number | null } | null | undefined) =>
  Number((t?.seconds ?? 0).toString()) + (t?.nanos ?? 0) / 1e9;

/** A booking's timers in the order started: their length, and whether they fired or were cancelled. */
async function timers(client: Client, ref: string) {
  const history = await client.workflow.getHandle(bookingWorkflowId(ref)).fetchHistory();
  const all: Array<{ id: string; seconds: number; dueMs: number; end: 'fired' | 'canceled' | null }> = [];
  for (const e of history.events ?? []) {
    const started = e.timerStartedEventAttributes;
    if (started?.timerId) {
      const length = seconds(started.startToFireTimeout);
      all.push({ id: started.timerId, seconds: length, dueMs: (seconds(e.eventTime) + length) * 1000, end: null });
    }
    const fired = e.timerFiredEventAttributes?.timerId;
    const canceled = e.timerCanceledEventAttributes?.timerId;
    for (const t of all) {
      if (t.id === fired) t.end = 'fired';
      if (t.id === canceled) t.end = 'canceled';
    }
  }
  return all;
}

/** When the booking's offer timer (its first) falls due on the server's clock. */
async function offerTimerDue(client: Client, ref: string): Promise<number> {
  const [offer] = await timers(client, ref);
  if (!offer) throw new Error(`booking ${ref} has no timer`);
  return offer.dueMs;
}

async function jobCards(sql: Sql, ref: string) {
  return sql<{ recipient: string; channel: string }[]>`
    select recipient, channel from outbox where booking_ref = ${ref} and body like 'New job%' order by recipient, channel`;
}

const byRecipientAndChannel = (a: { recipient: string; channel: string }, b: { recipient: string; channel: string }) =>
  a.recipient + a.channel < b.recipient + b.channel ? -1 : 1;

const cardsTo = (d: TestDriver) => [
  { recipient: d.phone, channel: 'sms' },
  { recipient: d.phone, channel: 'whatsapp' },
];

/** Everything that must hold once `winner` has the job: one driver, one card per channel, both records agree. */
async function expectAssignedExactlyOnce(
  stack: ApiOnlyStack,
  ref: string,
  winner: TestDriver,
  cardsExpected: Array<{ recipient: string; channel: string }>,
) {
  const row = await waitForStatus(stack.sql, ref, 'assigned');
  expect(row.driver_id).toBe(winner.id);
  const s = await stack.client.workflow.getHandle(bookingWorkflowId(ref)).query(bookingStateQuery);
  expect(s.status).toBe('assigned');
  expect(s.driverId).toBe(winner.id);
  expect(s.offer).toBeNull();
  expect(s.round).toBe(1);
  expect(await jobCards(stack.sql, ref)).toEqual(cardsExpected);
  const offers = await stack.sql<
    { driver_id: string; status: string }[]
  >`select driver_id, status from offers where booking_ref = ${ref} and status = 'accepted'`;
  expect(offers).toEqual([{ driver_id: winner.id, status: 'accepted' }]);
  // The passenger is told once that they are booked and once who is coming, across the crash. (The
  // booked text goes beside the first round: scheduled to the worker that died, it is sent when its
  // activity times out and is retried, which can be after the assignment.)
  const told = await eventually(
    async () => {
      const rows = await stack.sql<
        { key: string }[]
      >`select split_part(idempotency_key, ':', 1) as key from outbox where booking_ref = ${ref} and recipient = ${PASSENGER_PHONE} order by id`;
      return rows.some((r) => r.key === 'booked') ? rows : undefined;
    },
    60_000,
    'the booked text',
  );
  expect(told.map((t) => t.key).sort()).toEqual(['assigned', 'booked']);
  // A replay that disagreed with the history after the restart would show as a failed workflow task.
  expect(await historyEvents(stack.client, ref)).not.toContain('workflowTaskFailed');
  return s;
}

function logOnFailure(label: string, w: () => WorkerProcess | undefined) {
  onTestFailed(() => {
    const out = w()?.output();
    if (out) console.error(`--- ${label} output ---\n${out}`);
  });
}

describe('worker crash while a cascade waits on an offer', () => {
  it('a driver who accepts after the worker was SIGKILLed and restarted gets the job, once; nobody else hears of it', async () => {
    // An hour: the accept, sent after a cold worker start (it bundles the workflow code first, a
    // few seconds), lands inside the offer window however slow that start is.
    const stack = (api = await startApiOnly({ env: { OFFER_TIMEOUT_SECONDS: String(OFFER_TIMEOUT_SECONDS) } }));
    let worker: WorkerProcess | undefined = await startWorkerProcess(stack.workerEnv);
    logOnFailure('worker', () => worker);
    // Lancaster: a national-default area no other test uses.
    const first = await driverNear(stack, 54.0489, -2.8007);
    const second = await driverNear(stack, 54.056, -2.8007);
    const ref = await quoteAndBook(stack, 'Lancaster station', 'Morecambe');

    const card = await waitForJobCard(stack.sql, first, ref);
    await waitForOfferTimer(stack.client, ref);
    const [offer] = await stack.sql<{ expires_at: Date }[]>`select expires_at from offers where booking_ref = ${ref}`;

    expect(await worker.crash()).toEqual({ code: null, signal: 'SIGKILL' });
    worker = await startWorkerProcess(stack.workerEnv);
    expect(Date.now(), 'the new worker must be up before the offer expires').toBeLessThan(offer!.expires_at.getTime());

    const accepted = await respond(stack.app, card, 'accept');
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json()).toEqual({ result: 'accepted', booking_reference: ref });
    const s = await expectAssignedExactlyOnce(stack, ref, first, cardsTo(first));
    expect(s.candidates.filter((c) => c.driverId === first.id).map((c) => c.outcome)).toEqual(['offered', 'accepted']);
    expect(s.candidates.some((c) => c.driverId === second.id)).toBe(false);

    // The offer's timer was still set when the worker died. The accept, run by the new worker,
    // cancelled it on the server, so it can never fire (none has); and nothing more has happened:
    // no second card, no second driver, the same single assignment.
    const [offerTimer, ...later] = await timers(stack.client, ref);
    expect(offerTimer).toMatchObject({ seconds: OFFER_TIMEOUT_SECONDS, end: 'canceled' });
    expect(later.filter((t) => t.end === 'fired')).toEqual([]);
    expect(await jobCards(stack.sql, ref)).toEqual(cardsTo(first));
    expect(
      await stack.sql`select 1 from outbox where booking_ref = ${ref} and recipient = ${second.phone}`,
    ).toHaveLength(0);
    expect(await stack.sql`select 1 from offers where booking_ref = ${ref}`).toHaveLength(1);
    expect(await stack.sql`select 1 from offers where driver_id = ${second.id}`).toHaveLength(0);
    expect(await cardsInHistory(stack.client, ref)).toBe(1);
    expect(await bookingRow(stack.sql, ref)).toEqual({ status: 'assigned', driver_id: first.id });
    // A second answer from the same driver is still "accepted", never a second assignment.
    expect((await respond(stack.app, card, 'accept')).json()).toEqual({ result: 'accepted', booking_reference: ref });
  }, 120_000);

  it('an offer whose timeout passes while the worker is dead times out after the restart, and the next driver gets exactly one card', async () => {
    const stack = (api = await startApiOnly({ env: { OFFER_TIMEOUT_SECONDS: String(LAPSING_OFFER_TIMEOUT_SECONDS) } }));
    let worker: WorkerProcess | undefined = await startWorkerProcess(stack.workerEnv);
    logOnFailure('worker', () => worker);
    // Hereford: a national-default area no other test uses.
    const first = await driverNear(stack, 52.0612, -2.7083);
    const second = await driverNear(stack, 52.068, -2.7083);
    const ref = await quoteAndBook(stack, 'Hereford station', 'Ross-on-Wye');

    await waitForJobCard(stack.sql, first, ref);
    await waitForOfferTimer(stack.client, ref);
    expect(await worker.crash()).toEqual({ code: null, signal: 'SIGKILL' });
    worker = undefined;
    const due = await offerTimerDue(stack.client, ref);
    expect(Date.now(), 'the worker must be gone before the offer timer falls due').toBeLessThan(due);

    // With no worker, the timer fires on the server but nothing can act on it.
    await eventually(
      async () => ((await historyEvents(stack.client, ref)).includes('timerFired') ? true : undefined),
      60_000 + Math.max(0, due - Date.now()),
      'the offer timer to fire',
    );
    expect(
      await stack.sql`select 1 from outbox where booking_ref = ${ref} and recipient = ${second.phone}`,
    ).toHaveLength(0);

    worker = await startWorkerProcess(stack.workerEnv);
    const card2 = await waitForJobCard(stack.sql, second, ref, 60_000);
    const [firstOffer] = await stack.sql<
      { status: string }[]
    >`select status from offers where booking_ref = ${ref} and driver_id = ${first.id}`;
    expect(firstOffer?.status).toBe('timed_out');

    const accepted = await respond(stack.app, card2, 'accept');
    expect(accepted.statusCode, accepted.body).toBe(200);
    const s = await expectAssignedExactlyOnce(
      stack,
      ref,
      second,
      [...cardsTo(first), ...cardsTo(second)].sort(byRecipientAndChannel),
    );
    expect(s.candidates.filter((c) => c.driverId === first.id).map((c) => c.outcome)).toEqual(['offered', 'timed_out']);
    expect(s.candidates.filter((c) => c.driverId === second.id).map((c) => c.outcome)).toEqual(['offered', 'accepted']);
    expect(await cardsInHistory(stack.client, ref)).toBe(2);
    expect(await stack.sql`select 1 from offers where booking_ref = ${ref}`).toHaveLength(2);
  }, 120_000);
});

/**
 * A Temporal dev server of the test's own on a SQLite file (the shared one keeps its history in
 * memory, so it cannot be restarted), with the API and a worker process pointed at it.
 */
async function restartableStack(offerTimeoutSeconds: string) {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'taxi-crash-'));
  const serverOpts = {
    port: await freePort(),
    dbFile: path.join(tmp, 't.sqlite'),
    logFile: path.join(tmp, 'temporal.log'),
    readyTimeoutMs: 120_000,
  };
  temporal = await startTemporalDevServer(serverOpts);
  const stack = (api = await startApiOnly({
    temporalAddress: temporal.address,
    env: { OFFER_TIMEOUT_SECONDS: offerTimeoutSeconds },
  }));
  const worker = await startWorkerProcess(stack.workerEnv);
  logOnFailure('worker', () => worker);
  return {
    stack,
    worker,
    /** SIGTERM, as an operator's restart would; resolves once the process has exited. */
    stopServer: async () => {
      await temporal?.stop();
      temporal = undefined;
    },
    /** The same binary, port and database file. */
    startServer: async () => {
      temporal = await startTemporalDevServer(serverOpts);
    },
  };
}

describe('Temporal server restart while a cascade waits on an offer', () => {
  it('the server stopped and started again on its database file: the accept after the restart assigns exactly one driver, no duplicate cards', async () => {
    // An hour: the accept after the restart is in time however long the server takes to come back.
    const { stack, worker, stopServer, startServer } = await restartableStack(String(OFFER_TIMEOUT_SECONDS));
    // Truro: a national-default area no other test uses.
    const first = await driverNear(stack, 50.2642, -5.065);
    const second = await driverNear(stack, 50.27, -5.065);
    const ref = await quoteAndBook(stack, 'Truro station', 'Falmouth');
    const card = await waitForJobCard(stack.sql, first, ref);
    await waitForOfferTimer(stack.client, ref);

    await stopServer();
    await startServer();
    // The worker rode out the outage: its connection retries on its own.
    expect(worker.child.exitCode).toBeNull();

    // The API keeps the Client it connected at start; the driver's answer goes through it.
    const accepted = await respond(stack.app, card, 'accept');
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json()).toEqual({ result: 'accepted', booking_reference: ref });
    const s = await expectAssignedExactlyOnce(stack, ref, first, cardsTo(first));
    expect(s.candidates.filter((c) => c.driverId === first.id).map((c) => c.outcome)).toEqual(['offered', 'accepted']);
    expect(
      await stack.sql`select 1 from outbox where booking_ref = ${ref} and recipient = ${second.phone}`,
    ).toHaveLength(0);
    expect(await cardsInHistory(stack.client, ref)).toBe(1);
  }, 180_000);

  it('an offer timer that falls due while the server is down fires after the restart, and the next driver gets exactly one card', async () => {
    const { stack, worker, stopServer, startServer } = await restartableStack(String(LAPSING_OFFER_TIMEOUT_SECONDS));
    // Worcester: a national-default area no other test uses.
    const first = await driverNear(stack, 52.195, -2.22);
    const second = await driverNear(stack, 52.201, -2.22);
    const ref = await quoteAndBook(stack, 'Worcester Foregate Street', 'Worcester Shrub Hill');
    await waitForJobCard(stack.sql, first, ref);
    await waitForOfferTimer(stack.client, ref);
    const due = await offerTimerDue(stack.client, ref);

    await stopServer();
    expect(Date.now(), 'the server must be down before the offer timer falls due').toBeLessThan(due);
    // Down past the moment the timer was due: only the server's persisted timer can bring it back.
    await new Promise((r) => setTimeout(r, Math.max(0, due - Date.now()) + 1000));
    expect(
      await stack.sql`select 1 from outbox where booking_ref = ${ref} and recipient = ${second.phone}`,
    ).toHaveLength(0);
    await startServer();
    expect(worker.child.exitCode).toBeNull();

    const card2 = await waitForJobCard(stack.sql, second, ref, 60_000);
    const accepted = await respond(stack.app, card2, 'accept');
    expect(accepted.statusCode, accepted.body).toBe(200);
    const s = await expectAssignedExactlyOnce(
      stack,
      ref,
      second,
      [...cardsTo(first), ...cardsTo(second)].sort(byRecipientAndChannel),
    );
    expect(s.candidates.filter((c) => c.driverId === first.id).map((c) => c.outcome)).toEqual(['offered', 'timed_out']);
    expect(s.candidates.filter((c) => c.driverId === second.id).map((c) => c.outcome)).toEqual(['offered', 'accepted']);
    expect(await cardsInHistory(stack.client, ref)).toBe(2);
  }, 180_000);
});
