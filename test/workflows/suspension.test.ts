// Issue 20 on the time-skipping server with faked activities: a driver suspended while they hold a
// booking's job card or job (driverSuspended, sent by the suspension workflow), a cancel with the
// passenger on board, and ops ending a trip (endTrip).
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
  cancelBookingUpdate,
  driverSuspendedSignal,
  endTripUpdate,
  reportTripUpdate,
  respondToOfferUpdate,
  settleBookingUpdate,
  type BookingWorkflowInput,
} from '../../workflows/bookings/definitions.js';
import { BookingFailure, type BookingState, type TripEvent } from '../../src/model/bookings.js';
import { suspensionWorkflowId, type SuspensionResult } from '../../workflows/drivers/definitions.js';
import { fakeActivities, type FakeDriver, type FakeWorld } from '../support/fake-activities.js';
import { startTimeSkipping, until } from '../support/time-skipping.js';

let env: TestWorkflowEnvironment;
let bundle: WorkflowBundle;

beforeAll(async () => {
  ({ env, bundle } = await startTimeSkipping());
}, 180_000);
afterAll(async () => env?.teardown());

const OFFER_TIMEOUT_MS = 60_000;
const policy = {
  dispatchLeadSeconds: 900,
  offerTimeoutSeconds: OFFER_TIMEOUT_MS / 1000,
  retryBaseSeconds: 60,
  maxRetrySeconds: 900,
  noShowGraceSeconds: 600,
};
const place = { label: 'Test Town', kind: 'place', lat: 52, lon: -1, postcodeDistrict: null, council: null };

function input(ref: string, nowMs: number): BookingWorkflowInput {
  return {
    booking: {
      ref,
      source: 'v1_direct',
      quoteId: null,
      passengerName: 'Ada',
      passengerPhone: '+447400123456',
      passengerEmail: 'ada@example.com',
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
  constructor(
    readonly handle: WorkflowHandle,
    private readonly world: FakeWorld,
  ) {}
  get ref() {
    return this.handle.workflowId.replace('booking:', '');
  }
  state(): Promise<BookingState> {
    return this.handle.query(bookingStateQuery);
  }
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
  report(driverId: string, event: TripEvent) {
    return this.handle.executeUpdate(reportTripUpdate, { args: [{ driverId, event }] });
  }
  suspend(driverId: string) {
    return this.handle.signal(driverSuspendedSignal, { driverId });
  }
}

/** A worker with fake activities for the length of `run`; every booking a test started is terminated after it. */
async function scenario<T>(
  drivers: FakeDriver[],
  run: (t: { world: FakeWorld; start: () => Promise<Booking>; taskQueue: string }) => Promise<T>,
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
  const start = async () => {
    const ref = `TXS${randomUUID().slice(0, 7).toUpperCase()}`;
    const handle = await env.client.workflow.start('bookingWorkflowV2', {
      workflowId: bookingWorkflowId(ref),
      taskQueue,
      args: [input(ref, await env.currentTimeMs())],
    });
    await handle.executeUpdate(bookingCreatedUpdate, { args: [{ identity: null }] });
    const b = new Booking(handle, world);
    started.push(b);
    return b;
  };
  return worker.runUntil(async () => {
    try {
      return await run({ world, start, taskQueue });
    } finally {
      await Promise.all(started.map((b) => b.handle.terminate('test over').catch(() => undefined)));
    }
  });
}

const failureType = (err: unknown) =>
  err instanceof WorkflowUpdateFailedError && err.cause instanceof ApplicationFailure ? err.cause.type : String(err);
const drivers = (): FakeDriver[] => [
  { id: 'd1', tier: 'local' },
  { id: 'd2', tier: 'local' },
];

describe('a driver suspended mid-job (time-skipping)', () => {
  it('withdraws the card out with a suspended driver and asks the next driver at once, not when the offer times out', async () => {
    await scenario(drivers(), async ({ world, start }) => {
      const b = await start();
      const first = await b.offerTo('d1');
      const before = await env.currentTimeMs();
      await b.suspend('d1');
      await b.offerTo('d2');
      expect((await env.currentTimeMs()) - before).toBeLessThan(OFFER_TIMEOUT_MS);
      expect(world.called('closeOffer')).toEqual([{ offerId: first, status: 'withdrawn' }]);
      const s = await b.state();
      expect(s.round).toBe(1); // the same round carried on
      expect(s.suspendedDriverIds).toEqual(['d1']);
      expect(s.candidates.map((c) => [c.driverId, c.outcome, c.reason])).toEqual([
        ['d1', 'offered', null],
        ['d1', 'withdrawn', 'driver_suspended'],
        ['d2', 'offered', null],
      ]);
      // Their card's answer no longer counts.
      await expect(
        b.handle.executeUpdate(respondToOfferUpdate, {
          args: [{ offerId: first, driverId: 'd1', decision: 'accept' }],
        }),
      ).rejects.toSatisfy((e) => failureType(e) === BookingFailure.offerExpired);
      expect(world.called('assignDriver')).toEqual([]);
    });
  });

  it('passes over a driver suspended after the page of candidates was read, without sending them a card', async () => {
    await scenario([...drivers(), { id: 'd3', tier: 'local' }], async ({ world, start }) => {
      const b = await start();
      const first = await b.offerTo('d1');
      await b.suspend('d2');
      await b.handle.executeUpdate(respondToOfferUpdate, {
        args: [{ offerId: first, driverId: 'd1', decision: 'decline' }],
      });
      await b.offerTo('d3');
      expect((await b.state()).candidates.map((c) => [c.driverId, c.outcome, c.reason])).toEqual([
        ['d1', 'offered', null],
        ['d1', 'declined', null],
        ['d2', 'skipped', 'driver_suspended'],
        ['d3', 'offered', null],
      ]);
      expect(world.called('sendJobCard').map((c) => (c as { driverId: string }).driverId)).toEqual(['d1', 'd3']);
    });
  });

  it('takes a held job off a suspended driver (they and the passenger are told by releaseDriver) and dispatches it again; a repeat does nothing', async () => {
    await scenario(drivers(), async ({ world, start }) => {
      const b = await start();
      await b.accept('d1');
      expect(await b.report('d1', 'en_route')).toBe('en_route');
      await b.suspend('d1');
      await b.offerTo('d2');
      await b.suspend('d1'); // a retried suspension
      expect(world.called('releaseDriver')).toEqual([{ ref: b.ref, driverId: 'd1', reason: 'suspended' }]);
      const s = await b.state();
      expect(s).toMatchObject({
        driverId: null,
        status: 'offered',
        droppedDriverIds: ['d1'],
        suspendedDriverIds: ['d1'],
      });
      expect(s.candidates.at(-2)).toMatchObject({ driverId: 'd1', outcome: 'withdrawn', reason: 'suspended' });
      await expect(b.report('d1', 'arrived')).rejects.toSatisfy((e) => failureType(e) === BookingFailure.notYourJob);
      expect(await b.accept('d2')).toBe('accepted');
      expect(world.called('releaseDriver')).toHaveLength(1);
    });
  });

  it('takes the job off a driver suspended while their accept was being recorded', async () => {
    await scenario(drivers(), async ({ world, start }) => {
      const b = await start();
      const offerId = await b.offerTo('d1');
      // The suspension lands right behind the accept, before the assignment is written.
      const accepted = b.handle.executeUpdate(respondToOfferUpdate, {
        args: [{ offerId, driverId: 'd1', decision: 'accept' }],
      });
      await b.suspend('d1');
      await accepted.catch(() => undefined);
      await b.offerTo('d2');
      expect((await b.state()).driverId).toBeNull();
      // Either the card was withdrawn before the accept counted, or the job was taken back after.
      const withdrawn = world.called('closeOffer').some((c) => (c as { status: string }).status === 'withdrawn');
      const released = world.called('releaseDriver').length === 1;
      expect(withdrawn !== released).toBe(true);
    });
  });

  it('leaves a trip with the passenger on board to finish and tells ops once; ops end it with nothing due, passenger and driver told', async () => {
    await scenario(drivers(), async ({ world, start }) => {
      const b = await start();
      await b.accept('d1');
      for (const e of ['arrived', 'on_board'] as const) await b.report('d1', e);
      await b.suspend('d1');
      await until(
        () => world.called('alertOpsSuspendedOnBoard'),
        (a) => a.length === 1,
        'ops told',
      );
      await b.suspend('d1');
      expect(world.called('alertOpsSuspendedOnBoard')).toEqual([{ ref: b.ref, driverId: 'd1' }]);
      expect(await b.state()).toMatchObject({ status: 'on_board', driverId: 'd1' });
      expect(world.called('releaseDriver')).toEqual([]);
      expect(world.called('sendJobCard')).toHaveLength(1);

      // Ops end it: completed and settled with nothing due, passenger and driver told.
      const ended = await b.handle.executeUpdate(endTripUpdate, {
        args: [{ reason: 'driver suspended mid-trip', settlement: { nothingDue: 'goodwill: trip cut short' } }],
      });
      expect(ended).toMatchObject({ endedNow: true, payment: { amountPence: 0, method: 'none', recordedBy: 'ops' } });
      expect(world.called('recordPayment')).toEqual([
        {
          ref: b.ref,
          driverId: 'd1',
          settlement: {
            driverId: null,
            amountPence: 0,
            method: 'none',
            by: 'ops',
            note: 'ended by ops: driver suspended mid-trip; nothing due: goodwill: trip cut short',
          },
        },
      ]);
      const end = await b.handle.result();
      expect(world.called('sendTripEndedByOps')).toEqual([{ ref: b.ref, driverId: 'd1' }]);
      expect(end).toMatchObject({ status: 'completed', ended: { by: 'ops', reason: 'driver suspended mid-trip' } });
      expect(world.called('setBookingStatus').map((s) => (s as { status: string }).status)).toEqual([
        'arrived',
        'on_board',
        'completed',
      ]);
    });
  });
});

describe('a trip under way (time-skipping)', () => {
  it('refuses a cancel from anyone once the passenger is on board; the driver still finishes and settles the trip', async () => {
    await scenario(drivers(), async ({ world, start }) => {
      const b = await start();
      await b.accept('d1');
      await b.report('d1', 'arrived');
      await b.report('d1', 'on_board');
      for (const by of ['passenger', 'partner', 'ops'] as const) {
        await expect(
          b.handle.executeUpdate(cancelBookingUpdate, { args: [{ reason: 'changed my mind', by }] }),
        ).rejects.toSatisfy((e) => failureType(e) === BookingFailure.tripInProgress);
      }
      expect(world.called('cancelBooking')).toEqual([]);
      expect(await b.report('d1', 'completed')).toBe('completed');
      // The driver can still settle the trip they finished.
      const paid = await b.handle.executeUpdate(settleBookingUpdate, {
        args: [{ driverId: 'd1', amountPence: 1000, method: 'cash', by: 'driver' }],
      });
      expect(paid).toMatchObject({ amountPence: 1000, recordedBy: 'driver' });
    });
  });

  it('lets ops end only a trip on board or a completed one awaiting settlement, with what was paid; a repeat answers the same record', async () => {
    await scenario(drivers(), async ({ world, start }) => {
      const b = await start();
      await b.accept('d1');
      const end = (amountPence = 1500) =>
        b.handle.executeUpdate(endTripUpdate, {
          args: [{ reason: 'driver app down', settlement: { amountPence, method: 'card' as const } }],
        });
      await expect(end()).rejects.toSatisfy((e) => failureType(e) === BookingFailure.tripNotInProgress);
      await b.report('d1', 'arrived');
      await b.report('d1', 'on_board');
      await expect(end(-1)).rejects.toSatisfy((e) => failureType(e) === BookingFailure.invalidPayment);
      await b.report('d1', 'completed');
      // Two at once (two staff, or a retry): whichever arrives first ends it, and both hear its record.
      const both = await Promise.all([end(1500), end(9999)]);
      const first = both.find((r) => r.endedNow)!;
      expect(first.payment).toMatchObject({ method: 'card', recordedBy: 'ops' });
      expect([1500, 9999]).toContain(first.payment.amountPence);
      expect(both.filter((r) => !r.endedNow)).toEqual([{ ...first, endedNow: false }]);
      expect(world.called('recordPayment')).toHaveLength(1);
      expect((await b.handle.result()).payment).toEqual(first.payment);
      expect(world.called('sendTripEndedByOps')).toHaveLength(1);
    });
  });
});

describe('the suspension workflow (time-skipping)', () => {
  it('tells every booking the driver is in, keyed by its business id, and passes over closed ones', async () => {
    await scenario(drivers(), async ({ world, start, taskQueue }) => {
      const live = await start();
      await live.accept('d1');
      const gone = await start();
      await gone.handle.terminate('closed before the suspension');
      world.driverBookings.set('d1', [live.ref, gone.ref]);
      const run = (at: number) =>
        env.client.workflow.execute('driverSuspensionWorkflow', {
          workflowId: suspensionWorkflowId('d1', new Date(at)),
          taskQueue,
          args: [{ driverId: 'd1' }],
        });
      const result: SuspensionResult = await run(1);
      expect(result).toEqual({ signalled: [live.ref], closed: [gone.ref] });
      await until(
        () => world.called('releaseDriver'),
        (r) => r.length === 1,
        'the job taken off d1',
      );
      expect((await live.state()).suspendedDriverIds).toEqual(['d1']);
      // A second suspension of the same driver reaches the same booking and changes nothing.
      await run(2);
      await live.offerTo('d2');
      expect(world.called('releaseDriver')).toHaveLength(1);
    });
  });
});
