// The booking workflow on Temporal's time-skipping test server, with activities faked behind the
// same factory shape the worker registers: hours of timers (pre-booked lead time, backoff, the
// email hold, no-show, the post-pickup grace) pass in milliseconds.
import { randomUUID } from 'node:crypto';
import {
  WithStartWorkflowOperation,
  WorkflowIdConflictPolicy,
  WorkflowUpdateFailedError,
  type WorkflowHandle,
} from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker, type WorkflowBundle } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  amendBookingUpdate,
  bookingCreatedUpdate,
  cancelBookingUpdate,
  bookingStateQuery,
  bookingWorkflowId,
  driverDroppedSignal,
  emailConfirmedSignal,
  offerToDriverUpdate,
  reportTripUpdate,
  respondToOfferUpdate,
  settleBookingUpdate,
  type AmendInput,
  type BookingWorkflowInput,
  type CancelInput,
} from '../../workflows/bookings/definitions.js';
import { BookingFailure, offerId as offerIdOf, type BookingState } from '../../src/model/bookings.js';
import { fakeActivities, type FakeDriver, type FakeWorld } from '../support/fake-activities.js';
import { startTimeSkipping, until } from '../support/time-skipping.js';

let env: TestWorkflowEnvironment;
let bundle: WorkflowBundle;

beforeAll(async () => {
  ({ env, bundle } = await startTimeSkipping());
}, 180_000);
afterAll(async () => env?.teardown());

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const policy = {
  dispatchLeadSeconds: 900,
  offerTimeoutSeconds: 60,
  retryBaseSeconds: 60,
  maxRetrySeconds: 900,
  noShowGraceSeconds: 600,
};
const place = { label: 'Test Town', kind: 'place', lat: 52, lon: -1, postcodeDistrict: null, council: null };

/** `agent` books as an AI agent does (POST bookings/instant): no email, so nothing is sent before dispatch. */
function input(
  ref: string,
  nowMs: number,
  o: { pickupInMs: number; awaitEmail?: boolean; identity?: string; agent?: boolean },
): BookingWorkflowInput {
  return {
    booking: {
      ref,
      source: o.agent ? 'agent_instant' : 'v1_direct',
      quoteId: null,
      passengerName: 'Ada',
      passengerPhone: '+447400123456',
      passengerEmail: o.agent ? null : 'ada@example.com',
      emailVerified: !o.awaitEmail,
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
      identity: o.identity ?? `identity-${ref}`,
    },
    job: {
      pickupAt: new Date(nowMs + o.pickupInMs).toISOString(),
      passengers: 1,
      vehicleType: 'saloon',
      wheelchair: false,
      notes: null,
    },
    policy,
    awaitEmailConfirmation: o.awaitEmail ?? false,
  };
}

type StartOptions = Parameters<typeof input>[2];
type StartWith = (
  o: StartOptions,
  update: { cancel?: CancelInput; amend?: AmendInput },
) => Promise<{ b: Booking; state: BookingState }>;

/**
 * A worker with fake activities for the length of `run`; one task queue per test. Times are the
 * test server's (it has skipped ahead in earlier tests), and every workflow a test started is
 * terminated after it: a workflow left without a worker would hold the server's clock still.
 */
async function scenario<T>(
  drivers: FakeDriver[],
  run: (t: { world: FakeWorld; start: (o: StartOptions) => Promise<Booking>; startWith: StartWith }) => Promise<T>,
): Promise<T> {
  const { activities, world } = fakeActivities(drivers);
  const taskQueue = `wf-${randomUUID()}`;
  const worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    workflowBundle: bundle,
    activities,
  });
  const started: Booking[] = [];
  const start = async (o: StartOptions) => {
    const ref = `TXT${randomUUID().slice(0, 7).toUpperCase()}`;
    const nowMs = await env.currentTimeMs();
    const handle = await env.client.workflow.start('bookingWorkflowV2', {
      workflowId: bookingWorkflowId(ref),
      taskQueue,
      args: [input(ref, nowMs, o)],
    });
    await handle.executeUpdate(bookingCreatedUpdate, { args: [{ identity: null }] });
    const b = new Booking(handle, world);
    started.push(b);
    return b;
  };
  // The booking started by the update it is given, so the update is there in its first task.
  const startWith: StartWith = async (o, update) => {
    const ref = `TXT${randomUUID().slice(0, 7).toUpperCase()}`;
    const nowMs = await env.currentTimeMs();
    const startWorkflowOperation = new WithStartWorkflowOperation('bookingWorkflowV2', {
      workflowId: bookingWorkflowId(ref),
      taskQueue,
      args: [input(ref, nowMs, o)],
      workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
    });
    const state = await (update.cancel
      ? env.client.workflow.executeUpdateWithStart(cancelBookingUpdate, {
          args: [update.cancel],
          startWorkflowOperation,
        })
      : env.client.workflow.executeUpdateWithStart(amendBookingUpdate, {
          args: [update.amend!],
          startWorkflowOperation,
        }));
    const b = new Booking(await startWorkflowOperation.workflowHandle(), world);
    started.push(b);
    return { b, state };
  };
  // Terminated while the worker still runs, so nothing is left in flight when it shuts down.
  return worker.runUntil(async () => {
    try {
      return await run({ world, start, startWith });
    } finally {
      await Promise.all(started.map((b) => b.handle.terminate('test over').catch(() => undefined)));
    }
  });
}

const statusIs = (b: Booking, status: string) =>
  until(
    () => b.state(),
    (s) => s.status === status,
    `status ${status}`,
  );
const roundsAre = (world: FakeWorld, n: number[]) =>
  until(
    () => rounds(world),
    (r) => JSON.stringify(r) === JSON.stringify(n),
    `rounds ${n.join(',')}`,
  );

class Booking {
  constructor(
    readonly handle: WorkflowHandle,
    private readonly world: FakeWorld,
  ) {}
  state(): Promise<BookingState> {
    return this.handle.query(bookingStateQuery);
  }
  /**
   * The open offer to this driver, once its job card has gone (the test server holds its clock
   * while an activity is in flight, even one of a workflow a test has since terminated).
   */
  async offerTo(driverId: string): Promise<string> {
    const s = await until(
      () => this.state(),
      (x) => x.offer?.driverId === driverId,
      `an offer to ${driverId}`,
    );
    const offerId = s.offer!.offerId;
    await until(
      () => this.world.called('sendJobCard'),
      (cards) => cards.some((c) => (c as { offerId: string }).offerId === offerId),
      'its job card',
    );
    return offerId;
  }
  async accept(driverId: string) {
    return this.handle.executeUpdate(respondToOfferUpdate, {
      args: [{ offerId: await this.offerTo(driverId), driverId, decision: 'accept' }],
    });
  }
}

const failureType = (err: unknown) =>
  err instanceof WorkflowUpdateFailedError && err.cause instanceof ApplicationFailure ? err.cause.type : String(err);
const news = (world: FakeWorld) =>
  world.called('tellPassenger').map((t) => (t as { news: { kind: string } }).news.kind);
const rounds = (world: FakeWorld) => world.called('alertOps').map((a) => (a as { round: number }).round);

describe('booking workflow (time-skipping)', () => {
  it('waits for the pre-booked dispatch time, then offers the job', async () => {
    await scenario([{ id: 'd1', tier: 'local' }], async ({ world, start }) => {
      const b = await start({ pickupInMs: 2 * 24 * HOUR });
      expect((await b.state()).status).toBe('scheduled');
      await env.sleep(2 * 24 * HOUR - 16 * MINUTE);
      expect((await b.state()).status).toBe('scheduled');
      expect(world.called('findCandidatePage')).toHaveLength(0);
      await env.sleep(MINUTE + 1000); // now inside the 15-minute lead
      await statusIs(b, 'offered');
      expect(await b.offerTo('d1')).toContain(':1:d1');
    });
  });

  it('claims the first free driver with the candidate page and sends the card in the same task; later offers claim one by one', async () => {
    await scenario(
      [
        { id: 'busy', tier: 'local', busy: true },
        { id: 'd1', tier: 'local' },
        { id: 'd2', tier: 'local' },
      ],
      async ({ world, start }) => {
        const b = await start({ pickupInMs: 0 });
        const first = await b.offerTo('d1');
        // One step read the page and claimed d1 past the driver another booking holds: no separate claim.
        expect(world.called('claimFromCandidatePage')).toHaveLength(1);
        expect(world.called('openOffer')).toHaveLength(0);
        const s = await b.state();
        expect(s.candidates.map((c) => [c.driverId, c.outcome, c.reason])).toEqual([
          ['busy', 'skipped', 'busy'],
          ['d1', 'offered', null],
        ]);

        await b.handle.executeUpdate(respondToOfferUpdate, {
          args: [{ offerId: first, driverId: 'd1', decision: 'decline' }],
        });
        await b.accept('d2');
        expect(world.called('openOffer')).toEqual([expect.objectContaining({ driverId: 'd2' })]);
        expect((await b.state()).driverId).toBe('d2');
        // The busy driver was never offered, and nobody was sent two cards.
        expect(world.called('sendJobCard').map((c) => (c as { driverId: string }).driverId)).toEqual(['d1', 'd2']);
      },
    );
  });

  it('writes a booking dispatched at once, claims its first driver and sends their card in one step, the round carrying on one by one', async () => {
    await scenario(
      [
        { id: 'busy', tier: 'local', busy: true },
        { id: 'd1', tier: 'local' },
        { id: 'd2', tier: 'local' },
      ],
      async ({ world, start }) => {
        const b = await start({ pickupInMs: 0, agent: true });
        const first = await b.offerTo('d1');
        expect(first).toBe(offerIdOf(b.handle.workflowId.replace('booking:', ''), 1, 'd1'));
        // The record, the passenger's 'booked' message, the claim and the card were one local
        // activity: nothing else before the card, and no activity of its own for the message.
        expect(world.calls.map(([n]) => n).slice(0, 6)).toEqual([
          'openBookingWithFirstCard',
          'persistBooking',
          'tellPassenger',
          'findCandidatePage',
          'claimFromCandidatePage',
          'sendJobCard',
        ]);
        expect(world.called('tellPassenger')).toEqual([{ ref: expect.any(String), news: { kind: 'booked' } }]);
        const s = await b.state();
        expect(s.status).toBe('offered');
        expect(s.candidates.map((c) => [c.round, c.driverId, c.outcome, c.reason])).toEqual([
          [1, 'busy', 'skipped', 'busy'],
          [1, 'd1', 'offered', null],
        ]);
        expect(s.tiers).toEqual([{ round: 1, tier: 'local', considered: 3, eligible: 3 }]);

        await b.handle.executeUpdate(respondToOfferUpdate, {
          args: [{ offerId: first, driverId: 'd1', decision: 'decline' }],
        });
        await b.accept('d2');
        // Still round 1: the claimed page was the round's first, the next driver claimed on their own.
        expect(world.called('openOffer')).toEqual([expect.objectContaining({ driverId: 'd2', round: 1 })]);
        expect((await b.state()).round).toBe(1);
        expect(world.called('openBookingWithFirstCard')).toHaveLength(1);
      },
    );
  });

  it('lets the driver claimed with the record go at once when a cancel came with the booking', async () => {
    await scenario([{ id: 'd1', tier: 'local' }], async ({ world, startWith }) => {
      const { b, state } = await startWith(
        { pickupInMs: 0, agent: true },
        { cancel: { reason: 'changed my mind', by: 'passenger' } },
      );
      expect(state.status).toBe('cancelled');
      const ref = state.ref;
      expect(world.called('openBookingWithFirstCard')).toHaveLength(1);
      expect(world.called('closeOffer')).toEqual([{ offerId: offerIdOf(ref, 1, 'd1'), status: 'withdrawn' }]);
      // Their card went out with the claim; the offer it links to is withdrawn before the cancel is
      // written, so the driver is never left holding the job and their link says it is gone.
      expect(world.called('sendJobCard')).toEqual([expect.objectContaining({ offerId: offerIdOf(ref, 1, 'd1') })]);
      const order = world.calls.map(([n]) => n);
      expect(order.indexOf('closeOffer')).toBeLessThan(order.indexOf('cancelBooking'));
      expect((await b.state()).candidates.map((c) => [c.round, c.driverId, c.outcome, c.reason])).toEqual([
        [1, 'd1', 'withdrawn', 'cancelled'],
      ]);
    });
  });

  it('lets the driver claimed with the record go when an amendment came with the booking, and offers the amended job in a new round', async () => {
    await scenario([{ id: 'd1', tier: 'local' }], async ({ world, startWith }) => {
      const { b, state } = await startWith({ pickupInMs: 0, agent: true }, { amend: { passengers: 3 } });
      const ref = state.ref;
      expect(state.job.passengers).toBe(3);
      expect(await b.offerTo('d1')).toBe(offerIdOf(ref, 2, 'd1'));
      expect(world.called('closeOffer')).toEqual([{ offerId: offerIdOf(ref, 1, 'd1'), status: 'withdrawn' }]);
      // The card for the job as first booked was withdrawn; the one that stands is the amended job's,
      // from a page read for three passengers.
      expect(world.called('sendJobCard')).toEqual([
        expect.objectContaining({ offerId: offerIdOf(ref, 1, 'd1') }),
        expect.objectContaining({ offerId: offerIdOf(ref, 2, 'd1') }),
      ]);
      expect(
        world.called('claimFromCandidatePage').map((p) => p as { round: number; job: { passengers: number } }),
      ).toEqual([
        expect.objectContaining({ round: 1, job: expect.objectContaining({ passengers: 1 }) }),
        expect.objectContaining({ round: 2, job: expect.objectContaining({ passengers: 3 }) }),
      ]);
    });
  });

  it('moves on when the card sent with the record cannot be delivered, the next driver claimed and sent one on their own', async () => {
    await scenario(
      [
        { id: 'bad', tier: 'local', unreachable: true },
        { id: 'd1', tier: 'local' },
      ],
      async ({ world, start }) => {
        const b = await start({ pickupInMs: 0, agent: true });
        await b.offerTo('d1');
        const s = await b.state();
        expect(s.candidates.map((c) => [c.driverId, c.outcome, c.reason])).toEqual([
          ['bad', 'offered', null],
          ['bad', 'skipped', 'job_card_undeliverable'],
          ['d1', 'offered', null],
        ]);
        expect(world.called('closeOffer')).toEqual([{ offerId: offerIdOf(s.ref, 1, 'bad'), status: 'withdrawn' }]);
        expect(world.called('openOffer')).toEqual([expect.objectContaining({ driverId: 'd1', round: 1 })]);
        expect(world.called('sendJobCard').map((c) => (c as { driverId: string }).driverId)).toEqual(['bad', 'd1']);
      },
    );
  });

  it('moves on at once when a job card cannot be delivered, the refused driver recorded and their offer withdrawn', async () => {
    await scenario(
      [
        { id: 'bad', tier: 'local', unreachable: true },
        { id: 'd1', tier: 'local' },
      ],
      async ({ world, start }) => {
        const b = await start({ pickupInMs: 0 });
        await b.offerTo('d1');
        const s = await b.state();
        expect(s.candidates.map((c) => [c.driverId, c.outcome, c.reason])).toEqual([
          ['bad', 'offered', null],
          ['bad', 'skipped', 'job_card_undeliverable'],
          ['d1', 'offered', null],
        ]);
        expect(world.called('closeOffer')).toEqual([{ offerId: offerIdOf(s.ref, 1, 'bad'), status: 'withdrawn' }]);
        expect(world.called('sendJobCard')).toHaveLength(2);
      },
    );
  });

  it('retries an exhausted cascade on a doubling backoff, every 2 minutes once the passenger waits, then closes half an hour past pickup', async () => {
    await scenario([], async ({ world, start }) => {
      const b = await start({ pickupInMs: 10 * MINUTE });
      await roundsAre(world, [1]);
      expect((await b.state()).status).toBe('unassigned');
      await env.sleep(59_000);
      expect(rounds(world)).toEqual([1]);
      await env.sleep(2000); // first wait: 60 s
      await roundsAre(world, [1, 2]);
      await env.sleep(118_000);
      expect(rounds(world)).toEqual([1, 2]);
      await env.sleep(2000); // then 120 s
      await roundsAre(world, [1, 2, 3]);
      await env.sleep(241_000); // then 240 s
      await roundsAre(world, [1, 2, 3, 4]);
      await env.sleep(3 * MINUTE); // the next wait (480 s) is cut short by the pickup time: a round at pickup
      await roundsAre(world, [1, 2, 3, 4, 5]);
      // From the pickup time the passenger is waiting: a round every 2 minutes.
      await env.sleep(100_000);
      expect(rounds(world)).toEqual([1, 2, 3, 4, 5]);
      await env.sleep(20_000);
      await roundsAre(world, [1, 2, 3, 4, 5, 6]);
      // Until half an hour past pickup (round 20, at pickup + 30 min), when the booking closes.
      await env.sleep(26 * MINUTE);
      expect((await b.handle.describe()).status.name).toBe('RUNNING');
      await env.sleep(3 * MINUTE);
      const final = await b.handle.result();
      expect(final.status).toBe('unassigned');
      expect(rounds(world)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
      // Told once that nobody had accepted yet (not once a round), and once that nobody was found.
      expect(news(world)).toEqual(['booked', 'no_driver_yet', 'no_driver_found']);
    });
  });

  it('keeps offering a "now" booking nobody took, and a driver online three minutes later is offered it and assigned', async () => {
    await scenario([], async ({ world, start }) => {
      const b = await start({ pickupInMs: 0 });
      await roundsAre(world, [1]);
      // Rounds at 1 and 3 minutes find nobody either; a driver comes online just after.
      await env.sleep(3 * MINUTE + 10_000);
      await roundsAre(world, [1, 2, 3]);
      world.drivers.push({ id: 'late', tier: 'local' });
      await env.sleep(2 * MINUTE); // the next round, 2 minutes on: the passenger is waiting
      expect(await b.accept('late')).toBe('accepted');
      const s = await b.state();
      expect(s.status).toBe('assigned');
      expect(s.candidates.map((c) => [c.round, c.driverId, c.outcome])).toEqual([
        [4, 'late', 'offered'],
        [4, 'late', 'accepted'],
      ]);
      // What the passenger was told meanwhile: booked, then once that nobody had accepted yet and
      // until when the search goes on (half an hour past the pickup time, still ahead); never "nobody found".
      const told = world.called('tellPassenger').map((t) => (t as { news: { kind: string } }).news);
      expect(told).toEqual([
        { kind: 'booked' },
        { kind: 'no_driver_yet', searchUntil: new Date(Date.parse(s.job.pickupAt) + 30 * MINUTE).toISOString() },
      ]);
    });
  });

  it('does not ask a driver who declined again in a later round', async () => {
    await scenario([{ id: 'no-thanks', tier: 'local' }], async ({ world, start }) => {
      const b = await start({ pickupInMs: 0 });
      const offerId = await b.offerTo('no-thanks');
      await b.handle.executeUpdate(respondToOfferUpdate, {
        args: [{ offerId, driverId: 'no-thanks', decision: 'decline' }],
      });
      await roundsAre(world, [1]);
      await env.sleep(4 * MINUTE);
      await roundsAre(world, [1, 2, 3]);
      expect(world.called('sendJobCard')).toHaveLength(1);
    });
  });

  it('offers a booking nobody took to the driver ops name, then refuses another name while that driver holds it', async () => {
    // Nobody within the cascade's reach ('far-away' is not among its candidates), but ops know them.
    await scenario([], async ({ world, start }) => {
      const b = await start({ pickupInMs: 10 * MINUTE });
      await roundsAre(world, [1]);
      const state = await b.handle.executeUpdate(offerToDriverUpdate, {
        args: [{ driverId: 'far-away', driverName: 'Far Away' }],
      });
      expect(state.offer).toMatchObject({ driverId: 'far-away' });
      expect(world.called('sendJobCard')).toEqual([expect.objectContaining({ driverId: 'far-away' })]);
      expect(await b.accept('far-away')).toBe('accepted');
      await expect(
        b.handle.executeUpdate(offerToDriverUpdate, { args: [{ driverId: 'someone', driverName: 'Someone' }] }),
      ).rejects.toSatisfy((e) => failureType(e) === BookingFailure.alreadyAssigned);
    });
  });

  it('tells the passenger at every turn: booked, their driver replaced when the first drops out, and a receipt once paid', async () => {
    await scenario(
      [
        { id: 'first', tier: 'local' },
        { id: 'second', tier: 'local' },
      ],
      async ({ world, start }) => {
        const b = await start({ pickupInMs: 0 });
        await b.accept('first');
        await b.handle.signal(driverDroppedSignal, { driverId: 'first', reason: 'dropped' });
        await b.accept('second');
        for (const event of ['arrived', 'on_board', 'completed'] as const)
          await b.handle.executeUpdate(reportTripUpdate, { args: [{ driverId: 'second', event }] });
        await b.handle.executeUpdate(settleBookingUpdate, {
          args: [{ driverId: 'second', amountPence: 1000, method: 'cash', by: 'driver' }],
        });
        await b.handle.result();
        expect(world.called('tellPassenger')).toEqual([
          { ref: expect.any(String), news: { kind: 'booked' } },
          { ref: expect.any(String), news: { kind: 'driver_replaced', driverId: 'first' } },
          { ref: expect.any(String), news: { kind: 'receipt' } },
        ]);
        // Each driver's acceptance is told by the activity that records it.
        expect(world.called('assignDriver').map((a) => (a as { driverId: string }).driverId)).toEqual([
          'first',
          'second',
        ]);
      },
    );
  });

  it('holds an unconfirmed booking until the email is confirmed, then dispatches', async () => {
    await scenario([{ id: 'd1', tier: 'local' }], async ({ world, start }) => {
      const b = await start({ pickupInMs: 5 * MINUTE, awaitEmail: true });
      await env.sleep(10 * MINUTE);
      expect((await b.state()).status).toBe('awaiting_confirmation');
      expect(world.called('findCandidatePage')).toHaveLength(0);
      await b.handle.signal(emailConfirmedSignal);
      await statusIs(b, 'offered');
      await b.offerTo('d1');
    });
  });

  it('cancels an unconfirmed booking after at least 30 minutes, or at pickup if that is later', async () => {
    await scenario([], async ({ world, start }) => {
      const soon = await start({ pickupInMs: 5 * MINUTE, awaitEmail: true });
      const later = await start({ pickupInMs: 2 * HOUR, awaitEmail: true });
      await env.sleep(29 * MINUTE);
      expect((await soon.state()).status).toBe('awaiting_confirmation');
      await env.sleep(2 * MINUTE);
      await statusIs(soon, 'cancelled');
      expect((await later.state()).status).toBe('awaiting_confirmation');
      await env.sleep(90 * MINUTE);
      await statusIs(later, 'cancelled');
      expect(world.called('cancelBooking')).toEqual([
        expect.objectContaining({ reason: 'email not confirmed before pickup' }),
        expect.objectContaining({ reason: 'email not confirmed before pickup' }),
      ]);
    });
  });

  it('treats an assigned driver not arrived by pickup plus the grace as a no-show and offers the next driver', async () => {
    await scenario(
      [
        { id: 'late', tier: 'local' },
        { id: 'next', tier: 'local' },
      ],
      async ({ world, start }) => {
        const b = await start({ pickupInMs: 0 });
        expect(await b.accept('late')).toBe('accepted');
        await env.sleep(9 * MINUTE);
        expect((await b.state()).driverId).toBe('late');
        await env.sleep(90_000); // pickup + 10 minutes has passed; the next driver's card is still open
        await b.offerTo('next');
        const s = await b.state();
        expect(world.called('releaseDriver')).toEqual([
          expect.objectContaining({ driverId: 'late', reason: 'no_show' }),
        ]);
        expect(s.droppedDriverIds).toEqual(['late']);
      },
    );
  });

  it('never reassigns as a no-show a driver who reported being on the way, and closes as no_show when the passenger does not come', async () => {
    await scenario(
      [
        { id: 'stuck', tier: 'local' },
        { id: 'next', tier: 'local' },
      ],
      async ({ world, start }) => {
        const b = await start({ pickupInMs: 0 });
        await b.accept('stuck');
        expect(
          await b.handle.executeUpdate(reportTripUpdate, { args: [{ driverId: 'stuck', event: 'en_route' }] }),
        ).toBe('en_route');
        await env.sleep(2 * HOUR); // long past pickup + the 10-minute grace: stuck in traffic, not a no-show
        const s = await b.state();
        expect(s).toMatchObject({ status: 'en_route', driverId: 'stuck' });
        expect(world.called('releaseDriver')).toEqual([]);
        expect(world.called('sendJobCard')).toHaveLength(1);
        expect(
          await b.handle.executeUpdate(reportTripUpdate, { args: [{ driverId: 'stuck', event: 'arrived' }] }),
        ).toBe('arrived');
        expect(
          await b.handle.executeUpdate(reportTripUpdate, { args: [{ driverId: 'stuck', event: 'no_show' }] }),
        ).toBe('no_show');
        const end = await b.handle.result();
        expect(end).toMatchObject({ status: 'no_show', driverId: 'stuck' });
        expect(end.payment).toBeUndefined(); // nothing to settle
        await expect(
          b.handle.executeUpdate(settleBookingUpdate, {
            args: [{ driverId: 'stuck', amountPence: 1000, method: 'cash', by: 'driver' }],
          }),
        ).rejects.toThrow();
      },
    );
  });

  it('settles a completed trip exactly once, however often the driver confirms, and only after it completes', async () => {
    await scenario([{ id: 'd1', tier: 'local' }], async ({ world, start }) => {
      const b = await start({ pickupInMs: 0 });
      await b.accept('d1');
      const settle = (amountPence: number, driverId = 'd1') =>
        b.handle.executeUpdate(settleBookingUpdate, {
          args: [{ driverId, amountPence, method: 'cash', by: 'driver' }],
        });
      await expect(settle(1000)).rejects.toSatisfy((e) => failureType(e) === BookingFailure.notCompleted);
      for (const event of ['arrived', 'on_board', 'completed'] as const)
        await b.handle.executeUpdate(reportTripUpdate, { args: [{ driverId: 'd1', event }] });
      await expect(settle(1000, 'someone-else')).rejects.toSatisfy((e) => failureType(e) === BookingFailure.notYourJob);
      await expect(settle(-5)).rejects.toSatisfy((e) => failureType(e) === BookingFailure.invalidPayment);
      // Two taps at once (say, two phones): whichever arrives first is the settlement, and both hear it.
      const [first, second] = await Promise.all([settle(1000), settle(1200)]);
      expect(first).toMatchObject({ method: 'cash', recordedBy: 'driver' });
      expect([1000, 1200]).toContain(first.amountPence);
      expect(second).toEqual(first);
      // Settled, the booking's workflow is done (a later retry is answered from the record: src/settlement/settle.ts).
      const end = await b.handle.result();
      expect(end).toMatchObject({ status: 'completed', payment: first });
      expect(world.called('recordPayment')).toEqual([
        expect.objectContaining({
          ref: end.ref,
          driverId: 'd1',
          settlement: expect.objectContaining({ amountPence: first.amountPence }),
        }),
      ]);
    });
  });

  it('completes and settles a trip in one update when its driver confirms the payment with the passenger on board', async () => {
    await scenario([{ id: 'd1', tier: 'local' }], async ({ world, start }) => {
      const b = await start({ pickupInMs: 0 });
      await b.accept('d1');
      for (const event of ['arrived', 'on_board'] as const)
        await b.handle.executeUpdate(reportTripUpdate, { args: [{ driverId: 'd1', event }] });
      const settle = (by: 'driver' | 'provider', driverId: string | null) =>
        b.handle.executeUpdate(settleBookingUpdate, { args: [{ driverId, amountPence: 1500, method: 'cash', by }] });
      // Only the driver's own word ends the trip: a provider's webhook for a link paid mid-trip, or
      // another driver, is refused and changes nothing.
      await expect(settle('provider', null)).rejects.toSatisfy((e) => failureType(e) === BookingFailure.notCompleted);
      await expect(settle('driver', 'd2')).rejects.toSatisfy((e) => failureType(e) === BookingFailure.notCompleted);
      const payment = await settle('driver', 'd1');
      expect(payment).toMatchObject({ amountPence: 1500, method: 'cash', recordedBy: 'driver' });
      expect(await b.handle.result()).toMatchObject({ status: 'completed', payment });
      expect(world.called('setBookingStatus').map((x) => (x as { status: string }).status)).toEqual([
        'arrived',
        'on_board',
        'completed',
      ]);
      expect(news(world)).toEqual(['booked', 'receipt']);
      // One update and one workflow task for both: the trip's last step and its settlement.
      const events = (await b.handle.fetchHistory()).events ?? [];
      const updates = events.filter((e) => e.workflowExecutionUpdateAcceptedEventAttributes).length;
      expect(updates).toBe(1 /* bookingCreated */ + 1 /* accept */ + 2 /* arrived, on_board */ + 1 /* settle */);
    });
  });

  it('closes a completed trip nobody settles after a week, without a payment record', async () => {
    await scenario([{ id: 'd1', tier: 'local' }], async ({ world, start }) => {
      const b = await start({ pickupInMs: 0 });
      await b.accept('d1');
      for (const event of ['arrived', 'on_board', 'completed'] as const)
        await b.handle.executeUpdate(reportTripUpdate, { args: [{ driverId: 'd1', event }] });
      await env.sleep(6 * 24 * HOUR);
      expect((await b.handle.describe()).status.name).toBe('RUNNING');
      await env.sleep(24 * HOUR + MINUTE);
      expect(await b.handle.result()).toMatchObject({ status: 'completed', payment: null });
      expect(world.called('recordPayment')).toEqual([]);
    });
  });

  it('refuses a creation made for another request, so a reused reference never joins a stranger to a booking', async () => {
    await scenario([], async ({ start }) => {
      const b = await start({ pickupInMs: 2 * HOUR, identity: 'request-a' });
      await expect(
        b.handle.executeUpdate(bookingCreatedUpdate, { args: [{ identity: 'request-b' }] }),
      ).rejects.toSatisfy((err) => failureType(err) === BookingFailure.identityMismatch);
      expect((await b.handle.executeUpdate(bookingCreatedUpdate, { args: [{ identity: 'request-a' }] })).status).toBe(
        'scheduled',
      );
    });
  });

  it('takes trip reports forward only, and keeps refused reports and stale clicks out of history', async () => {
    await scenario([{ id: 'd1', tier: 'local' }], async ({ world, start }) => {
      const b = await start({ pickupInMs: 0 });
      const staleOffer = await b.offerTo('d1');
      await b.accept('d1');
      const report = (event: 'en_route' | 'arrived' | 'on_board' | 'completed' | 'drop', driverId = 'd1') =>
        b.handle.executeUpdate(reportTripUpdate, { args: [{ driverId, event }] });
      await expect(report('completed')).rejects.toSatisfy((e) => failureType(e) === BookingFailure.invalidTripStep);
      await expect(report('arrived', 'someone-else')).rejects.toSatisfy(
        (e) => failureType(e) === BookingFailure.notYourJob,
      );
      await expect(
        b.handle.executeUpdate(respondToOfferUpdate, {
          args: [{ offerId: staleOffer, driverId: 'd2', decision: 'accept' }],
        }),
      ).rejects.toSatisfy((e) => failureType(e) === BookingFailure.offerTaken);
      expect(await report('en_route')).toBe('en_route');
      expect(await report('en_route')).toBe('en_route'); // a retry
      await expect(report('en_route').then(() => report('on_board'))).rejects.toSatisfy(
        (e) => failureType(e) === BookingFailure.invalidTripStep,
      );
      expect(await report('arrived')).toBe('arrived');
      expect(await report('on_board')).toBe('on_board');
      expect(await report('completed')).toBe('completed');
      await b.handle.executeUpdate(settleBookingUpdate, {
        args: [{ driverId: 'd1', amountPence: 1000, method: 'cash', by: 'driver' }],
      });
      expect((await b.handle.result()).status).toBe('completed');
      expect(world.called('setBookingStatus').map((s) => (s as { status: string }).status)).toEqual([
        'en_route',
        'arrived',
        'on_board',
        'completed',
      ]);
      // Only accepted updates are in history: refused ones never reached it.
      const history = await b.handle.fetchHistory();
      const accepted = (history.events ?? []).filter((e) => e.workflowExecutionUpdateAcceptedEventAttributes).length;
      expect(accepted).toBe(
        1 /* bookingCreated */ + 1 /* accept */ + 6 /* en_route x3, arrived, on_board, completed */ + 1 /* settle */,
      );
    });
  });

  it('asks for candidates a page at a time, so history does not grow with the number of drivers near the pickup', async () => {
    /** History bytes after `offers` job cards have timed out one after another, with `n` drivers near. */
    const historyAfterOffers = (n: number, offers: number) => {
      const drivers: FakeDriver[] = Array.from({ length: n }, (_, i) => ({
        id: `driver-${String(i).padStart(4, '0')}`,
        tier: 'local',
      }));
      return scenario(drivers, async ({ world, start }) => {
        const b = await start({ pickupInMs: 0 });
        for (let i = 0; i < offers; i++) {
          await b.offerTo(drivers[i]!.id);
          await env.sleep(61_000); // it times out; the next driver is asked
        }
        const pages = world.called('findCandidatePage') as Array<{ limit: number }>;
        expect(pages.every((p) => p.limit === 10)).toBe(true);
        expect((await b.state()).tiers?.[0]).toMatchObject({ round: 1, tier: 'local', considered: n, eligible: n });
        return JSON.stringify((await b.handle.fetchHistory()).events).length;
      });
    };
    const few = await historyAfterOffers(30, 12);
    const many = await historyAfterOffers(5000, 12);
    expect(many / few).toBeLessThan(1.05);
  });
});

describe('amending a booking: the time, the places and the fare (time-skipping)', () => {
  const corbridge = {
    label: 'Corbridge',
    kind: 'place',
    lat: 54.97,
    lon: -2.02,
    postcodeDistrict: null,
    council: null,
  };
  const route = {
    pickupQuery: 'a',
    dropoffQuery: 'Corbridge',
    pickup: place,
    dropoff: corbridge,
    pickupArea: 'test',
    distanceM: 9000,
    durationS: 1200,
  };
  const amend = (b: Booking, a: AmendInput) => b.handle.executeUpdate(amendBookingUpdate, { args: [a] });

  it('re-times a pre-booked dispatch to the amended pickup and keeps the amended fare', async () => {
    await scenario([{ id: 'a', tier: 'local' }], async ({ world, start }) => {
      const b = await start({ pickupInMs: 5 * HOUR, agent: true });
      await statusIs(b, 'scheduled');
      // Moved later still: it waits for the new time's lead, not the old one's.
      const later = new Date((await env.currentTimeMs()) + 9 * HOUR).toISOString();
      const s = await amend(b, { pickupAt: later, fare: { farePence: 2450, fareSource: 'tariff' } });
      expect(s).toMatchObject({
        status: 'scheduled',
        job: { pickupAt: later },
        fare: { farePence: 2450, fareSource: 'tariff' },
      });
      expect(world.called('applyAmendment')).toEqual([
        expect.objectContaining({ fare: { farePence: 2450, fareSource: 'tariff' }, route: null }),
      ]);
      await env.sleep(6 * HOUR);
      expect(world.called('sendJobCard')).toEqual([]);
      // Brought forward into the lead time: dispatched at once.
      await amend(b, { pickupAt: new Date((await env.currentTimeMs()) + 10 * MINUTE).toISOString() });
      await b.offerTo('a');
    });
  });

  it('withdraws the job from its driver on a new drop-off, tells them, and dispatches it again', async () => {
    await scenario([{ id: 'a', tier: 'local' }], async ({ world, start }) => {
      const b = await start({ pickupInMs: 0, agent: true });
      expect(await b.accept('a')).toBe('accepted');
      const s = await amend(b, { route, fare: { farePence: 1800, fareSource: 'tariff' } });
      expect(s).toMatchObject({ dropoff: corbridge, fare: { farePence: 1800 }, driverId: null });
      expect(world.called('releaseDriver')).toEqual([expect.objectContaining({ driverId: 'a', reason: 'amended' })]);
      // Told before the record changes (their text names the job they knew), then written with its new places.
      const order = world.calls.map(([n]) => n).filter((n) => n === 'releaseDriver' || n === 'applyAmendment');
      expect(order).toEqual(['releaseDriver', 'applyAmendment']);
      expect(world.called('applyAmendment')).toEqual([expect.objectContaining({ driverId: null, route })]);
      // A new round: the driver, not dropped, may be offered the amended job.
      const offer = await b.offerTo('a');
      expect(offer).toBe(offerIdOf(b.handle.workflowId.slice('booking:'.length), 2, 'a'));
      expect((await b.state()).droppedDriverIds).toEqual([]);
    });
  });

  it('tells the driver whose job card a new pickup withdrew', async () => {
    await scenario([{ id: 'a', tier: 'local' }], async ({ world, start }) => {
      const b = await start({ pickupInMs: 0, agent: true });
      await b.offerTo('a');
      await amend(b, { route });
      expect(world.called('releaseDriver')).toEqual([expect.objectContaining({ driverId: 'a', reason: 'amended' })]);
      expect((await b.state()).candidates.filter((c) => c.outcome === 'withdrawn')).toHaveLength(1);
    });
  });

  it('refuses a new pickup or drop-off once the driver is on the way, and takes any other change', async () => {
    await scenario([{ id: 'a', tier: 'local' }], async ({ world, start }) => {
      const b = await start({ pickupInMs: 0, agent: true });
      await b.accept('a');
      expect(await b.handle.executeUpdate(reportTripUpdate, { args: [{ driverId: 'a', event: 'en_route' }] })).toBe(
        'en_route',
      );
      const refused = await amend(b, { route }).catch((e: unknown) => e);
      expect(failureType(refused)).toBe(BookingFailure.driverOnTheWay);
      expect(await amend(b, { notes: 'Ring on arrival' })).toMatchObject({
        status: 'en_route',
        driverId: 'a',
        job: { notes: 'Ring on arrival' },
      });
      expect(world.called('releaseDriver')).toEqual([]);
    });
  });
});
