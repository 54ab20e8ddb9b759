// The offer policy (issue 25, docs/dispatch.md "Offer policy") on Temporal's time-skipping test
// server: several drivers hold the card at once and the first to accept wins, a card nobody opens is
// withdrawn early, a decline frees its place at once, and an acceptance that loses the race is told
// the job was taken. Activities are faked behind the worker's factory shape (test/support/fake-activities.ts).
import { randomUUID } from 'node:crypto';
import { WorkflowUpdateFailedError, type WorkflowHandle } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker, type WorkflowBundle } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bookingCreatedUpdate,
  bookingStateQuery,
  bookingWorkflowId,
  offerSeenSignal,
  respondToOfferUpdate,
  type BookingWorkflowInput,
} from '../../workflows/bookings/definitions.js';
import { BookingFailure, type BookingState, type DispatchPolicy } from '../../src/model/bookings.js';
import type { Activities } from '../../activities/index.js';
import { fakeActivities, type FakeDriver, type FakeWorld } from '../support/fake-activities.js';
import { startTimeSkipping, until } from '../support/time-skipping.js';

let env: TestWorkflowEnvironment;
let bundle: WorkflowBundle;

beforeAll(async () => {
  ({ env, bundle } = await startTimeSkipping());
}, 180_000);
afterAll(async () => env?.teardown());

const SECOND = 1000;
const basePolicy: DispatchPolicy = {
  dispatchLeadSeconds: 900,
  offerTimeoutSeconds: 45,
  offerUnseenSeconds: 15,
  offerGroupSize: 3,
  retryBaseSeconds: 60,
  maxRetrySeconds: 900,
  noShowGraceSeconds: 600,
};
const place = { label: 'Test Town', kind: 'place', lat: 52, lon: -1, postcodeDistrict: null, council: null };
const local = (...ids: string[]): FakeDriver[] => ids.map((id) => ({ id, tier: 'local' }));

/** A booking made as an AI agent does (no email): dispatched at once, its first card sent with its record. */
function input(ref: string, nowMs: number, policy: DispatchPolicy): BookingWorkflowInput {
  return {
    booking: {
      ref,
      source: 'agent_instant',
      quoteId: null,
      passengerName: 'Ada',
      passengerPhone: '+447400123456',
      passengerEmail: null,
      emailVerified: true,
      paymentMethod: 'cash',
      flightNumber: null,
      agent: null,
      pickupQuery: 'a',
      dropoffQuery: 'b',
      pickup: place,
      dropoff: place,
      pickupArea: 'test',
      farePence: 1000,
      fareSource: 'tariff',
      distanceM: 5000,
      durationS: 900,
      requestFingerprint: null,
      identity: `identity-${ref}`,
    },
    job: {
      pickupAt: new Date(nowMs).toISOString(),
      passengers: 1,
      vehicleType: 'saloon',
      wheelchair: false,
      notes: null,
    },
    policy,
    awaitEmailConfirmation: false,
  };
}

class Booking {
  constructor(readonly handle: WorkflowHandle) {}
  state(): Promise<BookingState> {
    return this.handle.query(bookingStateQuery);
  }
  /** The drivers holding the card now, once every one of their cards has gone. */
  async holders(world: FakeWorld, drivers: string[]): Promise<BookingState> {
    const s = await until(
      () => this.state(),
      (x) => JSON.stringify((x.group ?? []).map((o) => o.driverId)) === JSON.stringify(drivers),
      `cards out to ${drivers.join(', ')}`,
    );
    const ids = s.group!.map((o) => o.offerId);
    await until(
      () => world.called('sendJobCard'),
      (cards) => ids.every((id) => cards.some((c) => (c as { offerId: string }).offerId === id)),
      'their job cards',
    );
    return s;
  }
  offerOf(s: BookingState, driverId: string): string {
    return s.group!.find((o) => o.driverId === driverId)!.offerId;
  }
  answer(offerId: string, driverId: string, decision: 'accept' | 'decline') {
    return this.handle.executeUpdate(respondToOfferUpdate, { args: [{ offerId, driverId, decision }] });
  }
}

/** A worker with fake activities (`tweak` may stand in for some) for the length of `run`; its bookings terminated after. */
async function scenario<T>(
  drivers: FakeDriver[],
  run: (t: { world: FakeWorld; start: (policy?: Partial<DispatchPolicy>) => Promise<Booking> }) => Promise<T>,
  tweak: (a: Activities) => Partial<Activities> = () => ({}),
): Promise<T> {
  const { activities, world } = fakeActivities(drivers);
  const taskQueue = `offers-${randomUUID()}`;
  const worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    workflowBundle: bundle,
    activities: { ...activities, ...tweak(activities) },
  });
  const started: Booking[] = [];
  const start = async (policy: Partial<DispatchPolicy> = {}) => {
    const ref = `TXO${randomUUID().slice(0, 7).toUpperCase()}`;
    const handle = await env.client.workflow.start('bookingWorkflowV2', {
      workflowId: bookingWorkflowId(ref),
      taskQueue,
      args: [input(ref, await env.currentTimeMs(), { ...basePolicy, ...policy })],
    });
    await handle.executeUpdate(bookingCreatedUpdate, { args: [{ identity: null }] });
    const b = new Booking(handle);
    started.push(b);
    return b;
  };
  return worker.runUntil(async () => {
    try {
      return await run({ world, start });
    } finally {
      await Promise.all(started.map((b) => b.handle.terminate('test over').catch(() => undefined)));
    }
  });
}

const failureType = (err: unknown) =>
  err instanceof WorkflowUpdateFailedError && err.cause instanceof ApplicationFailure ? err.cause.type : String(err);
/** The activity a local activity's marker records (the SDK keeps its type in the marker's JSON "data"). */
function localActivityOf(e: { markerRecordedEventAttributes?: { details?: unknown } | null }): string | null {
  const details = e.markerRecordedEventAttributes?.details as
    Record<string, { payloads?: { data?: Uint8Array | null }[] | null }> | undefined;
  const data = details?.data?.payloads?.[0]?.data;
  if (!data) return null;
  return (JSON.parse(Buffer.from(data).toString('utf8')) as { activity_type?: string }).activity_type ?? null;
}
const log = (s: BookingState) => s.candidates.map((c) => [c.driverId, c.outcome, c.reason]);
const cardsTo = (world: FakeWorld) => world.called('sendJobCard').map((c) => c as { driverId: string; sms?: boolean });

describe('offer policy (time-skipping)', () => {
  it('offers a group of three at once, only the first by SMS; the second to accept wins, the others are withdrawn and told, and a late accept hears the job was taken', async () => {
    await scenario(local('d1', 'd2', 'd3', 'd4'), async ({ world, start }) => {
      const b = await start();
      const s = await b.holders(world, ['d1', 'd2', 'd3']);
      // Each SMS costs a driver 2p: only the nearest, alone with the card when it went, is texted.
      expect(cardsTo(world).map((c) => [c.driverId, c.sms ?? true])).toEqual([
        ['d1', true],
        ['d2', false],
        ['d3', false],
      ]);
      // The whole group claimed and carded with the booking's record: no claim of its own per driver.
      expect(world.called('claimFromCandidatePage')).toEqual([expect.objectContaining({ claimUpTo: 3 })]);
      expect(world.called('openOffer')).toEqual([]);

      expect(await b.answer(b.offerOf(s, 'd2'), 'd2', 'accept')).toBe('accepted');
      const after = await b.state();
      expect(after.driverId).toBe('d2');
      expect(after.group ?? null).toBeNull();
      // One activity awards the job: d2's card accepted, the others' withdrawn and their drivers told.
      expect(world.called('assignDriver')).toEqual([
        expect.objectContaining({
          driverId: 'd2',
          taken: [
            { offerId: b.offerOf(s, 'd1'), driverId: 'd1' },
            { offerId: b.offerOf(s, 'd3'), driverId: 'd3' },
          ],
        }),
      ]);
      expect(world.called('closeOffer')).toEqual([]);
      expect(world.called('tellJobCardTaken')).toEqual([]);
      expect(log(after)).toEqual([
        ['d1', 'offered', null],
        ['d2', 'offered', null],
        ['d3', 'offered', null],
        ['d2', 'accepted', null],
        ['d1', 'withdrawn', 'taken_by_another_driver'],
        ['d3', 'withdrawn', 'taken_by_another_driver'],
      ]);
      // d1 taps accept on the card they were just told about: refused plainly, nothing changes.
      const late = await b.answer(b.offerOf(s, 'd1'), 'd1', 'accept').catch((err: unknown) => err);
      expect(failureType(late)).toBe(BookingFailure.offerTaken);
      expect((await b.state()).driverId).toBe('d2');
      expect(cardsTo(world).map((c) => c.driverId)).not.toContain('d4');
    });
  });

  it('reads at the unseen cut which cards were opened, with no message per look, and awards the job in one activity', async () => {
    await scenario(local('d1', 'd2', 'd3'), async ({ world, start }) => {
      const b = await start();
      const s = await b.holders(world, ['d1', 'd2', 'd3']);
      const outAt = await env.currentTimeMs();
      // d2 and d3 open their cards: the page records it in Postgres; the booking is not woken.
      for (const d of ['d2', 'd3']) world.openedCards.add(b.offerOf(s, d));
      await env.sleep(15 * SECOND);
      // At the cut the booking reads which were opened: d1's, unopened, is withdrawn; d2's and d3's stand.
      const after = await until(
        () => b.state(),
        (x) => x.group?.length === 2,
        "d1's card withdrawn",
      );
      expect(after.group?.map((o) => [o.driverId, o.seen])).toEqual([
        ['d2', true],
        ['d3', true],
      ]);
      expect(world.called('cardsOpened')).toEqual([
        { offerIds: [b.offerOf(s, 'd1'), b.offerOf(s, 'd2'), b.offerOf(s, 'd3')] },
      ]);
      await env.sleep(25 * SECOND);
      expect(await env.currentTimeMs()).toBeLessThan(outAt + 45 * SECOND);
      expect(await b.answer(b.offerOf(s, 'd3'), 'd3', 'accept')).toBe('accepted');

      const events = (await b.handle.fetchHistory()).events ?? [];
      // Up to the award (after it, the wait for the trip's first step has a timer of its own).
      const awardAt = events.findIndex((e) => localActivityOf(e) === 'assignDriver');
      expect(awardAt).toBeGreaterThan(0);
      const offering = events.slice(0, awardAt);
      expect(offering.filter((e) => e.workflowExecutionSignaledEventAttributes)).toHaveLength(0);
      // One timer for the cut, one for the opened cards' full window; none started and cancelled.
      expect(offering.filter((e) => e.timerStartedEventAttributes)).toHaveLength(2);
      expect(offering.filter((e) => e.timerCanceledEventAttributes)).toHaveLength(0);
      // The award: d3 assigned, d2's card withdrawn and d2 told, in one local activity. The booking
      // scheduled no activity at all: the passenger's 'booked' message went with the first cards.
      expect(events.filter((e) => e.activityTaskScheduledEventAttributes)).toEqual([]);
      expect(world.called('tellPassenger')).toEqual([{ ref: expect.any(String), news: { kind: 'booked' } }]);
      expect(world.called('assignDriver')).toEqual([
        expect.objectContaining({ driverId: 'd3', taken: [{ offerId: b.offerOf(s, 'd2'), driverId: 'd2' }] }),
      ]);
      expect(log(await b.state()).slice(3)).toEqual([
        ['d1', 'timed_out', 'unseen'],
        ['d3', 'accepted', null],
        ['d2', 'withdrawn', 'taken_by_another_driver'],
      ]);
    });
  });

  it('fills the first group past a driver another booking holds, in the same claim as the record', async () => {
    const drivers: FakeDriver[] = [...local('d1'), { id: 'd2', tier: 'local', busy: true }, ...local('d3', 'd4', 'd5')];
    await scenario(drivers, async ({ world, start }) => {
      const b = await start();
      const s = await b.holders(world, ['d1', 'd3', 'd4']);
      expect(cardsTo(world).map((c) => [c.driverId, c.sms ?? true])).toEqual([
        ['d1', true],
        ['d3', false],
        ['d4', false],
      ]);
      expect(world.called('openOffer')).toEqual([]);
      expect(log(s)).toEqual([
        ['d1', 'offered', null],
        ['d2', 'skipped', 'busy'],
        ['d3', 'offered', null],
        ['d4', 'offered', null],
      ]);
    });
  });

  it('withdraws a card nobody opened after offerUnseenSeconds and asks the next driver, while an opened card gets the full window', async () => {
    await scenario(local('d1', 'd2', 'd3'), async ({ world, start }) => {
      const b = await start({ offerGroupSize: 1 });
      const first = await b.holders(world, ['d1']);
      const outAt = await env.currentTimeMs();
      await env.sleep(15 * SECOND);
      // Unopened for 15 s: d2 is asked 30 s before d1's full window would have run out.
      const second = await b.holders(world, ['d2']);
      expect(await env.currentTimeMs()).toBeLessThan(outAt + 20 * SECOND);
      expect(log(second)).toEqual([
        ['d1', 'offered', null],
        ['d1', 'timed_out', 'unseen'],
        ['d2', 'offered', null],
      ]);
      expect(world.called('closeOffer')).toEqual([{ offerId: b.offerOf(first, 'd1'), status: 'timed_out' }]);
      // d1's stale tap is refused: their card is gone.
      expect(failureType(await b.answer(b.offerOf(first, 'd1'), 'd1', 'accept').catch((err: unknown) => err))).toBe(
        BookingFailure.offerExpired,
      );

      // d2 opens the card: it stands past the unseen cut, until the full 45 s.
      await b.handle.signal(offerSeenSignal, { offerId: b.offerOf(second, 'd2'), driverId: 'd2' });
      await until(
        () => b.state(),
        (x) => x.offer?.seen === true,
        'the card seen',
      );
      const seenAt = await env.currentTimeMs();
      await env.sleep(30 * SECOND);
      expect((await b.state()).group?.map((o) => o.driverId)).toEqual(['d2']);
      await env.sleep(15 * SECOND);
      const third = await b.holders(world, ['d3']);
      expect(await env.currentTimeMs()).toBeLessThan(seenAt + 50 * SECOND);
      expect(log(third).slice(3)).toEqual([
        ['d2', 'timed_out', null],
        ['d3', 'offered', null],
      ]);
    });
  });

  it('moves on at once when a driver declines: one at a time the next is asked, in a group the freed place goes to the next driver', async () => {
    await scenario(local('d1', 'd2', 'd3', 'd4'), async ({ world, start }) => {
      const single = await start({ offerGroupSize: 1 });
      const s1 = await single.holders(world, ['d1']);
      const at = await env.currentTimeMs();
      expect(await single.answer(single.offerOf(s1, 'd1'), 'd1', 'decline')).toBe('declined');
      // No clock moved: d2 is asked without waiting out any window.
      await single.holders(world, ['d2']);
      expect(await env.currentTimeMs()).toBeLessThan(at + SECOND);
    });
    await scenario(local('d1', 'd2', 'd3', 'd4'), async ({ world, start }) => {
      const group = await start();
      const s = await group.holders(world, ['d1', 'd2', 'd3']);
      expect(await group.answer(group.offerOf(s, 'd2'), 'd2', 'decline')).toBe('declined');
      const refilled = await group.holders(world, ['d1', 'd3', 'd4']);
      expect(log(refilled)).toEqual([
        ['d1', 'offered', null],
        ['d2', 'offered', null],
        ['d3', 'offered', null],
        ['d2', 'declined', null],
        ['d4', 'offered', null],
      ]);
      expect(world.called('closeOffer')).toEqual([{ offerId: group.offerOf(s, 'd2'), status: 'declined' }]);
      // d4 joined others holding the card: no SMS for them either.
      expect(cardsTo(world).find((c) => c.driverId === 'd4')?.sms).toBe(false);
    });
  });

  it('gives the job to exactly one driver when an acceptance arrives as its card is being withdrawn for the winner', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await scenario(
      local('d1', 'd2', 'd3'),
      async ({ world, start }) => {
        const b = await start();
        const s = await b.holders(world, ['d1', 'd2', 'd3']);
        const winner = b.answer(b.offerOf(s, 'd1'), 'd1', 'accept');
        // d1's assignment is being recorded (held there) when d3's acceptance lands on a card still open.
        await until(
          () => world.called('assignDriver'),
          (a) => a.length === 1,
          'the assignment under way',
        );
        // (It is taken up once the award's workflow task is done, and hears the job is taken.)
        const loser = b.answer(b.offerOf(s, 'd3'), 'd3', 'accept');
        release();
        expect(await winner).toBe('accepted');
        expect(failureType(await loser.catch((err: unknown) => err))).toBe(BookingFailure.offerTaken);
        const after = await b.state();
        expect(after.driverId).toBe('d1');
        // d3's card, accepted too late, is withdrawn with d2's by the award.
        expect(world.called('assignDriver')).toEqual([
          expect.objectContaining({
            driverId: 'd1',
            taken: [
              { offerId: b.offerOf(s, 'd2'), driverId: 'd2' },
              { offerId: b.offerOf(s, 'd3'), driverId: 'd3' },
            ],
          }),
        ]);
        expect(log(after).filter(([, outcome]) => outcome === 'accepted')).toEqual([['d1', 'accepted', null]]);
        expect(world.called('closeOffer')).toEqual([]);
      },
      (a) => ({
        async assignDriver(x) {
          await a.assignDriver(x);
          await held;
        },
      }),
    );
  });
});
