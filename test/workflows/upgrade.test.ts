// A rolling deploy, on the time-skipping server: a booking started by a worker of the previous
// release (its workflow code kept as released, test/histories/releases/<version>/workflows.bundle.js)
// is mid-cascade when that worker stops; a worker of the current code takes it over, replays its
// history on v1 (the type it started as, bookingWorkflow, frozen in workflows/bookings/v1/) and
// carries it to a settled trip, while a booking made after the switch runs bookingWorkflowV2
// (docs/versioning.md).
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker, type WorkflowBundle } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bookingCreatedUpdate,
  bookingStateQuery,
  bookingWorkflowId,
  reportTripUpdate,
  respondToOfferUpdate,
  settleBookingUpdate,
  type BookingWorkflowInput,
} from '../../workflows/bookings/definitions.js';
import type { BookingState } from '../../src/model/bookings.js';
import { fakeActivities } from '../support/fake-activities.js';
import { startTimeSkipping, until } from '../support/time-skipping.js';

const releasesDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../histories/releases');
// package.json's version is the release production runs: this tree is it or what comes after it
// (CHANGELOG "Unreleased"), so the upgrade is from the newest release whose bundle is kept.
const releases = fs
  .readdirSync(releasesDir)
  .filter((r) => fs.existsSync(path.join(releasesDir, r, 'workflows.bundle.js')));
/** The newest release: the code production runs until the next one ships. */
const previous = releases.sort((a, b) => a.localeCompare(b, 'en', { numeric: true })).at(-1)!;

let env: TestWorkflowEnvironment;
let current: WorkflowBundle;

beforeAll(async () => {
  ({ env, bundle: current } = await startTimeSkipping());
}, 180_000);
afterAll(async () => env?.teardown());

const place = {
  label: '1 Piccadilly, Manchester M1 1RG',
  kind: 'address',
  lat: 53.4794,
  lon: -2.2453,
  postcodeDistrict: 'M1',
  council: 'Manchester',
};

function booking(ref: string, nowMs: number): BookingWorkflowInput {
  return {
    booking: {
      ref,
      source: 'agent_instant',
      quoteId: null,
      passengerName: 'Ada Lovelace',
      passengerPhone: '+447400123456',
      passengerEmail: null,
      emailVerified: true,
      paymentMethod: 'cash',
      flightNumber: null,
      agent: null,
      pickupQuery: '1 Piccadilly, Manchester M1 1RG',
      dropoffQuery: 'Manchester Airport',
      pickup: place,
      dropoff: { ...place, label: 'Manchester Airport', kind: 'place' },
      pickupArea: 'M1',
      farePence: 3120,
      fareSource: 'tariff',
      distanceM: 15_000,
      durationS: 1_500,
      requestFingerprint: null,
      identity: `identity-${ref}`,
    },
    job: {
      pickupAt: new Date(nowMs + 10 * 60_000).toISOString(),
      passengers: 2,
      vehicleType: 'saloon',
      wheelchair: false,
      notes: null,
    },
    policy: {
      dispatchLeadSeconds: 900,
      offerTimeoutSeconds: 60,
      retryBaseSeconds: 60,
      maxRetrySeconds: 900,
      noShowGraceSeconds: 600,
    },
    awaitEmailConfirmation: false,
  };
}

/**
 * The previous release's worker: a booking of `type` is made, the first driver declines and the
 * second is offered; then that worker stops. No workflow cache: a cached workflow's next task would
 * go to this worker's sticky queue, which the test server does not hand back to the shared queue
 * once the worker has gone.
 */
async function declinedOnRelease(
  type: 'bookingWorkflow' | 'bookingWorkflowV2',
  activities: ReturnType<typeof fakeActivities>['activities'],
) {
  const taskQueue = `upgrade-${randomUUID()}`;
  const ref = `TXU${randomUUID().slice(0, 7).toUpperCase()}`;
  const handle = await env.client.workflow.start(type, {
    workflowId: bookingWorkflowId(ref),
    taskQueue,
    args: [booking(ref, await env.currentTimeMs())],
  });
  const state = () => handle.query(bookingStateQuery);
  const offerTo = async (driverId: string) =>
    (await until(state, (s) => s.offer?.driverId === driverId, `an offer to ${driverId}`)).offer!.offerId;
  const released = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    activities,
    maxCachedWorkflows: 0,
    workflowBundle: { codePath: path.join(releasesDir, previous, 'workflows.bundle.js') },
  });
  await released.runUntil(async () => {
    await handle.executeUpdate(bookingCreatedUpdate, { args: [{ identity: null }] });
    const first = await offerTo('first');
    expect(
      await handle.executeUpdate(respondToOfferUpdate, {
        args: [{ offerId: first, driverId: 'first', decision: 'decline' }],
      }),
    ).toBe('declined');
    await offerTo('second');
  });
  return { taskQueue, ref, handle, offerTo };
}

describe(`upgrading the worker from release ${previous}`, () => {
  it('has a released workflow bundle to upgrade from', () => {
    expect(previous).toBeDefined();
  });

  it('a booking mid-cascade on the previous release finishes on v1 while a new one runs v2, on one worker', async () => {
    // One world of drivers and records outlives both workers, as Postgres does in production.
    const { activities, world } = fakeActivities([
      { id: 'first', tier: 'local' },
      { id: 'second', tier: 'local' },
    ]);
    const { taskQueue, ref, handle, offerTo } = await declinedOnRelease('bookingWorkflow', activities);

    // The deploy: the current code takes the booking over from its history.
    const upgraded = await Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      activities,
      workflowBundle: current,
    });
    const newRef = `TXU${randomUUID().slice(0, 7).toUpperCase()}`;
    const settled: BookingState = await upgraded.runUntil(async () => {
      // A booking made after the switch, while the released one is still mid-cascade, runs v2 on the
      // same worker.
      const made = await env.client.workflow.start('bookingWorkflowV2', {
        workflowId: bookingWorkflowId(newRef),
        taskQueue,
        args: [booking(newRef, await env.currentTimeMs())],
      });
      await made.executeUpdate(bookingCreatedUpdate, { args: [{ identity: null }] });
      // The first driver, who declined the released booking, is free and takes this one.
      const offered = await until(
        () => made.query(bookingStateQuery),
        (s) => s.offer?.driverId === 'first',
        'an offer to the first driver',
      );
      expect(
        await made.executeUpdate(respondToOfferUpdate, {
          args: [{ offerId: offered.offer!.offerId, driverId: 'first', decision: 'accept' }],
        }),
      ).toBe('accepted');
      expect((await made.describe()).type).toBe('bookingWorkflowV2');

      const second = await offerTo('second');
      expect(
        await handle.executeUpdate(respondToOfferUpdate, {
          args: [{ offerId: second, driverId: 'second', decision: 'accept' }],
        }),
      ).toBe('accepted');
      for (const event of ['en_route', 'arrived', 'on_board', 'completed'] as const) {
        expect(await handle.executeUpdate(reportTripUpdate, { args: [{ driverId: 'second', event }] })).toBe(event);
      }
      await handle.executeUpdate(settleBookingUpdate, {
        args: [{ driverId: 'second', amountPence: 3120, method: 'cash', by: 'driver' }],
      });
      await made.terminate('test over');
      return handle.result();
    });
    expect((await handle.describe()).type).toBe('bookingWorkflow');

    expect(settled.status).toBe('completed');
    expect(settled.driverId).toBe('second');
    expect(settled.payment).toMatchObject({ amountPence: 3120, method: 'cash' });
    // The decision log runs across the upgrade: one round, the decline and the accept in order.
    expect(settled.candidates.map((c) => [c.round, c.driverId, c.outcome])).toEqual([
      [1, 'first', 'offered'],
      [1, 'first', 'declined'],
      [1, 'second', 'offered'],
      [1, 'second', 'accepted'],
    ]);
    expect(world.called('assignDriver')).toEqual([
      expect.objectContaining({ ref: newRef, driverId: 'first' }),
      expect.objectContaining({ ref, driverId: 'second' }),
    ]);
    expect(world.called('recordPayment')).toHaveLength(1);
  }, 120_000);

  // From 1.0.0 on, version 2 is what production runs: its bookings must survive a deploy as v1's did.
  it('a bookingWorkflowV2 booking mid-cascade on the previous release finishes on the current code', async () => {
    const { activities, world } = fakeActivities([
      { id: 'first', tier: 'local' },
      { id: 'second', tier: 'local' },
    ]);
    const { taskQueue, handle, offerTo } = await declinedOnRelease('bookingWorkflowV2', activities);

    const upgraded = await Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      activities,
      workflowBundle: current,
    });
    const settled: BookingState = await upgraded.runUntil(async () => {
      const second = await offerTo('second');
      expect(
        await handle.executeUpdate(respondToOfferUpdate, {
          args: [{ offerId: second, driverId: 'second', decision: 'accept' }],
        }),
      ).toBe('accepted');
      for (const event of ['en_route', 'arrived', 'on_board'] as const) {
        expect(await handle.executeUpdate(reportTripUpdate, { args: [{ driverId: 'second', event }] })).toBe(event);
      }
      // The one tap: the driver's payment with the passenger on board completes the trip.
      await handle.executeUpdate(settleBookingUpdate, {
        args: [{ driverId: 'second', amountPence: 3120, method: 'cash', by: 'driver' }],
      });
      return handle.result();
    });
    expect((await handle.describe()).type).toBe('bookingWorkflowV2');
    expect(settled.status).toBe('completed');
    expect(settled.driverId).toBe('second');
    expect(settled.candidates.map((c) => [c.round, c.driverId, c.outcome])).toEqual([
      [1, 'first', 'offered'],
      [1, 'first', 'declined'],
      [1, 'second', 'offered'],
      [1, 'second', 'accepted'],
    ]);
    expect(world.called('recordPayment')).toHaveLength(1);
  }, 120_000);
});
