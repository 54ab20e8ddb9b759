// Delivering a booking's status events to its sender (delivery:<partner>:<ref>) on the time-skipping
// test server, with the events and the receiver faked: hours of a receiver being down take
// milliseconds, every event arrives in the booking's order once it is back, an event nobody takes
// for 72 hours is given up so the next one goes, and signals only ever mean "look now".
import { randomUUID } from 'node:crypto';
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { WorkflowIdReusePolicy } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker, type WorkflowBundle } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DELIVERY_FAILURE,
  deliveryWorkflowId,
  eventsRecordedSignal,
  type DeliveryStart,
} from '../../workflows/partners/delivery-definitions.js';
import { DEFAULT_DELIVERY_POLICY } from '../../src/model/partners.js';
import { fakeActivities } from '../support/fake-activities.js';
import { startTimeSkipping, until } from '../support/time-skipping.js';

let env: TestWorkflowEnvironment;
let bundle: WorkflowBundle;
beforeAll(async () => {
  ({ env, bundle } = await startTimeSkipping());
}, 180_000);
afterAll(async () => env?.teardown());

const HOUR = 3600_000;

interface FakeEvent {
  id: string;
  seq: number;
  delivery: 'pending' | 'delivered' | 'failed';
  replay: boolean;
}

/** partner_events for one booking, and a receiver that answers by the test server's clock. */
function fakeDelivery(opts: { downUntilMs?: number; refuse?: (id: string) => boolean } = {}) {
  const events: FakeEvent[] = [];
  /** Every attempt: which event, when (server time), and whether the receiver took it. */
  const attempts: { id: string; at: number; ok: boolean }[] = [];
  const received: string[] = [];
  const givenUp: { eventId: string; error: string }[] = [];
  const add = (n: number) => {
    for (let i = 0; i < n; i++)
      events.push({ id: `evt_${events.length + 1}`, seq: events.length + 1, delivery: 'pending', replay: false });
  };
  const { activities } = fakeActivities();
  Object.assign(activities, {
    async dueDeliveries() {
      return events.filter((e) => e.delivery === 'pending' || e.replay).map(({ id, seq }) => ({ id, seq }));
    },
    async deliverPartnerEvent({ eventId }: { eventId: string }) {
      const event = events.find((e) => e.id === eventId)!;
      // Activities run in real time; the attempt's scheduled time is the test server's (skipped) clock.
      const at = Context.current().info.currentAttemptScheduledTimestampMs;
      const ok = at >= (opts.downUntilMs ?? 0) && !(opts.refuse?.(eventId) ?? false);
      attempts.push({ id: eventId, at, ok });
      if (!ok) throw ApplicationFailure.retryable('HTTP 503: down for maintenance', DELIVERY_FAILURE);
      received.push(eventId);
      event.delivery = 'delivered';
      event.replay = false;
      return 'delivered' as const;
    },
    async givePartnerEventUp(e: { eventId: string; error: string }) {
      givenUp.push(e);
      const event = events.find((x) => x.id === e.eventId)!;
      if (event.delivery === 'pending') event.delivery = 'failed';
      event.replay = false;
    },
  });
  return { activities, events, attempts, received, givenUp, add };
}

async function withWorker<T>(
  activities: ReturnType<typeof fakeActivities>['activities'],
  run: (taskQueue: string) => Promise<T>,
): Promise<T> {
  const taskQueue = `dlv-${randomUUID()}`;
  const worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    workflowBundle: bundle,
    activities,
  });
  return worker.runUntil(run(taskQueue));
}

function signal(taskQueue: string, start: DeliveryStart) {
  return env.client.workflow.signalWithStart('partnerDeliveryWorkflow', {
    workflowId: deliveryWorkflowId(start.partnerId, start.bookingRef),
    taskQueue,
    args: [start],
    signal: eventsRecordedSignal,
    signalArgs: [],
    workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE,
  });
}

const booking = (): DeliveryStart => ({
  partnerId: 'dlv-acme',
  bookingRef: `TX${randomUUID().replace(/-/g, '').slice(0, 10).toUpperCase()}`,
});

describe('partner status delivery', () => {
  it('keeps trying a receiver that is down for six hours, then delivers every event in order, each once, in milliseconds', async () => {
    const startedAt = await env.currentTimeMs();
    const f = fakeDelivery({ downUntilMs: startedAt + 6 * HOUR });
    f.add(4);
    const wallClock = Date.now();
    await withWorker(f.activities, async (taskQueue) => {
      const handle = await signal(taskQueue, booking());
      await handle.result();
    });
    expect(Date.now() - wallClock).toBeLessThan(20_000);
    expect(f.received).toEqual(['evt_1', 'evt_2', 'evt_3', 'evt_4']);

    // Only the first event met the outage; nothing after it was tried before it went through.
    const first = f.attempts.filter((a) => a.id === 'evt_1');
    expect(f.attempts.slice(0, first.length).every((a) => a.id === 'evt_1')).toBe(true);
    expect(f.attempts.slice(first.length).map((a) => [a.id, a.ok])).toEqual([
      ['evt_2', true],
      ['evt_3', true],
      ['evt_4', true],
    ]);
    expect(first.at(-1)!.at - startedAt).toBeGreaterThanOrEqual(6 * HOUR);
    // The waits double from 10 s up to 30 minutes, so six hours are about twenty attempts. (The test
    // server retries the very first failure at once; the policy applies from there.)
    const waits = first
      .slice(1)
      .map((a, i) => Math.round((a.at - first[i]!.at) / 1000))
      .filter((s) => s > 0);
    const policy = DEFAULT_DELIVERY_POLICY;
    expect(waits).toEqual(waits.map((_, k) => Math.min(policy.initialRetrySeconds * 2 ** k, policy.maxRetrySeconds)));
    expect(first.length).toBeGreaterThan(15);
    expect(first.length).toBeLessThan(25);
    expect(f.givenUp).toEqual([]);
  });

  it('gives an event up after 72 hours and moves on to the next, which is delivered', async () => {
    const startedAt = await env.currentTimeMs();
    const f = fakeDelivery({ refuse: (id) => id === 'evt_1' });
    f.add(2);
    await withWorker(f.activities, async (taskQueue) => {
      await (await signal(taskQueue, booking())).result();
    });
    expect(f.givenUp).toEqual([{ eventId: 'evt_1', error: 'given up: not delivered within the retry window' }]);
    expect(f.received).toEqual(['evt_2']);
    const tries = f.attempts.filter((a) => a.id === 'evt_1');
    expect(tries.at(-1)!.at - startedAt).toBeGreaterThan(71 * HOUR);
    expect(tries.at(-1)!.at - startedAt).toBeLessThanOrEqual(72 * HOUR);
    // Every attempt at the second came after the first was given up.
    expect(f.attempts.findIndex((a) => a.id === 'evt_2')).toBe(tries.length);
  });

  it('treats signals as "look now": repeats deliver nothing twice, later events and replays are picked up, and it closes when idle', async () => {
    const f = fakeDelivery();
    f.add(1);
    const start = booking();
    await withWorker(f.activities, async (taskQueue) => {
      const handle = await signal(taskQueue, start);
      await until(
        () => f.received,
        (r) => r.length === 1,
        'the first event',
      );
      f.add(2);
      await Promise.all([signal(taskQueue, start), signal(taskQueue, start), signal(taskQueue, start)]);
      await until(
        () => f.received,
        (r) => r.length === 3,
        'the later events',
      );
      // A replay of the first event: delivered again under its own id.
      f.events[0]!.replay = true;
      await signal(taskQueue, start);
      await until(
        () => f.received,
        (r) => r.length === 4,
        'the replay',
      );
      // Nothing more for the idle period: the workflow closes (the next event starts a new run).
      await handle.result();
      const description = await handle.describe();
      expect(description.status.name).toBe('COMPLETED');
    });
    expect(f.received).toEqual(['evt_1', 'evt_2', 'evt_3', 'evt_1']);
  });
});
