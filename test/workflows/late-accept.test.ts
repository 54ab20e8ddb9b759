// A driver who accepts a pre-booked job after its pickup time plus the no-show grace (issue 25), on
// Temporal's time-skipping test server with faked activities: they have the late-accept window
// from accepting to report moving, not the no-show watch's one-second floor.
import { randomUUID } from 'node:crypto';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker, type WorkflowBundle } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bookingCreatedUpdate,
  bookingStateQuery,
  bookingWorkflowId,
  reportTripUpdate,
  respondToOfferUpdate,
  type BookingWorkflowInput,
} from '../../workflows/bookings/definitions.js';
import type { BookingState, DispatchPolicy } from '../../src/model/bookings.js';
import { fakeActivities, type FakeWorld } from '../support/fake-activities.js';
import { startTimeSkipping, until } from '../support/time-skipping.js';

let env: TestWorkflowEnvironment;
let bundle: WorkflowBundle;

beforeAll(async () => {
  ({ env, bundle } = await startTimeSkipping());
}, 180_000);
afterAll(async () => env?.teardown());

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const place = { label: 'Test Town', kind: 'place', lat: 52, lon: -1, postcodeDistrict: null, council: null };
// Pre-booked 20 minutes ahead, looked for 15 minutes before; a job card stands for two hours, so
// the driver can take it long after pickup plus the 10-minute grace.
const PICKUP_IN = 20 * MINUTE;
const GRACE = 10 * MINUTE;
const basePolicy: DispatchPolicy = {
  dispatchLeadSeconds: 900,
  offerTimeoutSeconds: 2 * 3600,
  retryBaseSeconds: 60,
  maxRetrySeconds: 900,
  noShowGraceSeconds: GRACE / 1000,
};

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
      pickupAt: new Date(nowMs + PICKUP_IN).toISOString(),
      passengers: 1,
      vehicleType: 'saloon',
      wheelchair: false,
      notes: null,
    },
    policy,
    awaitEmailConfirmation: false,
  };
}

/**
 * A booking on a worker with fake activities, its first card out to `late`; the test server's
 * clock moved on to 5 minutes after pickup plus the grace, and `late` then accepts.
 */
async function acceptedLate<T>(
  policy: DispatchPolicy,
  run: (b: {
    world: FakeWorld;
    state: () => Promise<BookingState>;
    handle: ReturnType<typeof env.client.workflow.getHandle>;
    acceptedAt: number;
    pickupAt: number;
  }) => Promise<T>,
): Promise<T> {
  const { activities, world } = fakeActivities([
    { id: 'late', tier: 'local' },
    { id: 'next', tier: 'local' },
  ]);
  const taskQueue = `wf-${randomUUID()}`;
  const worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    workflowBundle: bundle,
    activities,
  });
  const ref = `TXT${randomUUID().slice(0, 7).toUpperCase()}`;
  return worker.runUntil(async () => {
    const nowMs = await env.currentTimeMs();
    const handle = await env.client.workflow.start('bookingWorkflowV2', {
      workflowId: bookingWorkflowId(ref),
      taskQueue,
      args: [input(ref, nowMs, policy)],
    });
    try {
      await handle.executeUpdate(bookingCreatedUpdate, { args: [{ identity: null }] });
      const state = () => handle.query(bookingStateQuery);
      const pickupAt = nowMs + PICKUP_IN;
      await env.sleep(pickupAt + GRACE + 5 * MINUTE - (await env.currentTimeMs()));
      const s = await until(state, (x) => x.offer?.driverId === 'late', 'the card out to late');
      await until(
        () => world.called('sendJobCard'),
        (cards) => cards.length === 1,
        'its job card',
      );
      expect(
        await handle.executeUpdate(respondToOfferUpdate, {
          args: [{ offerId: s.offer!.offerId, driverId: 'late', decision: 'accept' }],
        }),
      ).toBe('accepted');
      const acceptedAt = await env.currentTimeMs();
      return await run({ world, state, handle, acceptedAt, pickupAt });
    } finally {
      await handle.terminate('test over').catch(() => undefined);
    }
  });
}

const noShows = (world: FakeWorld) =>
  world.called('releaseDriver').filter((r) => (r as { reason: string }).reason === 'no_show');

describe('a driver who accepts after pickup plus the no-show grace', () => {
  it('is not let go a second later, but after the 10-minute window without reporting moving, and the booking is dispatched again', async () => {
    await acceptedLate(basePolicy, async ({ world, state, acceptedAt, pickupAt }) => {
      expect(acceptedAt).toBeGreaterThan(pickupAt + GRACE);
      await env.sleep(MINUTE);
      expect(await state()).toMatchObject({ status: 'assigned', driverId: 'late' });
      await env.sleep(8 * MINUTE); // 9 minutes after accepting
      expect(await state()).toMatchObject({ status: 'assigned', driverId: 'late' });
      expect(noShows(world)).toEqual([]);
      await env.sleep(90_000); // 10.5 minutes after accepting: never reported moving
      const s = await until(state, (x) => x.offer?.driverId === 'next', 'the job card out to the next driver');
      expect(noShows(world)).toEqual([expect.objectContaining({ driverId: 'late' })]);
      expect(s.droppedDriverIds).toEqual(['late']);
    });
  });

  it('keeps the job when they report on the way within the window the policy gives (here 15 minutes)', async () => {
    await acceptedLate({ ...basePolicy, lateAcceptWindowSeconds: 15 * 60 }, async ({ world, state, handle }) => {
      await env.sleep(12 * MINUTE); // past the default window, within this booking's
      expect(await state()).toMatchObject({ status: 'assigned', driverId: 'late' });
      expect(await handle.executeUpdate(reportTripUpdate, { args: [{ driverId: 'late', event: 'en_route' }] })).toBe(
        'en_route',
      );
      await env.sleep(2 * HOUR);
      expect(await state()).toMatchObject({ status: 'en_route', driverId: 'late' });
      expect(world.called('releaseDriver')).toEqual([]);
      expect(world.called('sendJobCard')).toHaveLength(1);
    });
  });
});
