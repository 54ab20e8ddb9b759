// Advance allocation on the time-skipping server (issue 24, item 2): a 05:00 airport run booked
// weeks ahead (the next spring clock change, worked out from the test server's clock), over the night the clocks go forward, waits until 20:00 London the evening before
// (src/dispatch/advance.ts works the lead out; the workflow keeps it), is offered then, accepted
// that evening, and driven in the morning. Months of timers pass in a second or two.
import { randomUUID } from 'node:crypto';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker, type WorkflowBundle } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatchLeadSeconds } from '../../src/dispatch/advance.js';
import {
  bookingCreatedUpdate,
  bookingStateQuery,
  bookingWorkflowId,
  claimUpcomingJobUpdate,
  reportTripUpdate,
  respondToOfferUpdate,
  settleBookingUpdate,
  type BookingWorkflowInput,
} from '../../workflows/bookings/definitions.js';
import { fakeActivities } from '../support/fake-activities.js';
import { startTimeSkipping, until } from '../support/time-skipping.js';

const failureType = (err: unknown) =>
  err instanceof WorkflowUpdateFailedError && err.cause instanceof ApplicationFailure ? err.cause.type : String(err);

let env: TestWorkflowEnvironment;
let bundle: WorkflowBundle;
beforeAll(async () => {
  ({ env, bundle } = await startTimeSkipping());
}, 180_000);
afterAll(async () => env?.teardown());

/**
 * 05:00 BST on the next Sunday the clocks go forward (the last Sunday of March, at 01:00 GMT) at
 * least a week after `nowMs`: 04:00Z. The evening before, 20:00 GMT on the Saturday, is 20:00Z.
 */
function nextSpringForwardPickup(nowMs: number): number {
  for (let year = new Date(nowMs).getUTCFullYear(); ; year++) {
    const lastOfMarch = new Date(Date.UTC(year, 2, 31));
    const sunday = Date.UTC(year, 2, 31 - lastOfMarch.getUTCDay(), 4);
    if (sunday - 7 * 24 * 3600_000 > nowMs) return sunday;
  }
}
let PICKUP = '';
let EVENING_BEFORE = 0;
const place = (kind: string) => ({
  label: kind === 'airport' ? 'Manchester Airport' : '14 Wilmslow Road, Rusholme',
  kind,
  lat: 53.45,
  lon: -2.22,
  postcodeDistrict: null,
  council: null,
});

function input(ref: string, pickupAt = PICKUP): BookingWorkflowInput {
  const lead = dispatchLeadSeconds(
    { pickupAt: new Date(pickupAt), pickupKind: 'street', dropoffKind: 'airport', distanceMeters: 14_000 },
    {
      baseLeadSeconds: 900,
      advanceLeadSeconds: 3 * 3600,
      longTripMeters: 30_000,
      earlyBeforeHour: 7,
      eveningFromHour: 20,
    },
  );
  return {
    booking: {
      ref,
      source: 'agent_create',
      quoteId: null,
      passengerName: 'Ada',
      passengerPhone: '+447400123456',
      passengerEmail: null,
      emailVerified: true,
      paymentMethod: 'cash',
      flightNumber: 'BA1387',
      agent: null,
      pickupQuery: 'a',
      dropoffQuery: 'b',
      pickup: place('street'),
      dropoff: place('airport'),
      pickupArea: 'manchester',
      farePence: 3240,
      fareSource: 'tariff',
      distanceM: 14_000,
      durationS: 1500,
      requestFingerprint: null,
      identity: `identity-${ref}`,
    },
    job: { pickupAt, passengers: 1, vehicleType: 'saloon', wheelchair: false, notes: null },
    policy: {
      dispatchLeadSeconds: lead,
      offerTimeoutSeconds: 300,
      retryBaseSeconds: 60,
      maxRetrySeconds: 900,
      noShowGraceSeconds: 600,
    },
    awaitEmailConfirmation: false,
  };
}

describe('advance allocation (time-skipping)', () => {
  it('offers a small-hours airport run from 20:00 London the evening before, across the clock change, and the driver who accepts it then drives it', async () => {
    const { activities, world } = fakeActivities([{ id: 'night-driver', tier: 'local' }]);
    const taskQueue = `advance-${randomUUID()}`;
    const worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      workflowBundle: bundle,
      activities,
    });
    await worker.runUntil(async () => {
      const pickupMs = nextSpringForwardPickup(await env.currentTimeMs());
      PICKUP = new Date(pickupMs).toISOString();
      EVENING_BEFORE = pickupMs - 8 * 3600_000;
      const ref = `TXA${randomUUID().slice(0, 7).toUpperCase()}`;
      const h = await env.client.workflow.start('bookingWorkflowV2', {
        workflowId: bookingWorkflowId(ref),
        taskQueue,
        args: [input(ref)],
      });
      await h.executeUpdate(bookingCreatedUpdate, { args: [{ identity: null }] });
      try {
        // Days and the clock change pass: scheduled, nothing offered, until a minute before the evening.
        await env.sleep(EVENING_BEFORE - (await env.currentTimeMs()) - 60_000);
        expect((await h.query(bookingStateQuery)).status).toBe('scheduled');
        expect(world.called('findCandidatePage')).toHaveLength(0);

        // 20:00 the evening before: the driver is offered it and accepts it that evening.
        await env.sleep(2 * 60_000);
        const s = await until(
          () => h.query(bookingStateQuery),
          (x) => x.offer?.driverId === 'night-driver',
          'the offer the evening before',
        );
        const offeredAt = await env.currentTimeMs();
        expect(offeredAt).toBeGreaterThanOrEqual(EVENING_BEFORE);
        expect(offeredAt).toBeLessThan(EVENING_BEFORE + 5 * 60_000);
        expect(
          await h.executeUpdate(respondToOfferUpdate, {
            args: [{ offerId: s.offer!.offerId, driverId: 'night-driver', decision: 'accept' }],
          }),
        ).toBe('accepted');
        expect(world.called('assignDriver')).toEqual([expect.objectContaining({ driverId: 'night-driver' })]);

        // The night passes with the job held. An hour before pickup the driver is asked to confirm, and does.
        await env.sleep(Date.parse(PICKUP) - (await env.currentTimeMs()) - 61 * 60_000);
        expect(world.called('askDriverToConfirm')).toHaveLength(0);
        await env.sleep(2 * 60_000);
        await until(
          async () => world.called('askDriverToConfirm'),
          (c) => c.length === 1,
          'the driver asked to confirm',
        );
        expect(world.called('askDriverToConfirm')[0]).toMatchObject({
          driverId: 'night-driver',
          deadline: new Date(Date.parse(PICKUP) - 30 * 60_000).toISOString(),
        });
        await h.executeUpdate(reportTripUpdate, { args: [{ driverId: 'night-driver', event: 'confirm' }] });
        // Past the deadline, confirmed: still theirs. They drive it and are paid.
        await env.sleep(Date.parse(PICKUP) - (await env.currentTimeMs()) - 20 * 60_000);
        expect((await h.query(bookingStateQuery)).driverId).toBe('night-driver');
        expect(world.called('releaseDriver')).toHaveLength(0);
        for (const event of ['en_route', 'arrived', 'on_board', 'completed'] as const)
          await h.executeUpdate(reportTripUpdate, { args: [{ driverId: 'night-driver', event }] });
        await h.executeUpdate(settleBookingUpdate, {
          args: [{ driverId: 'night-driver', amountPence: 3240, method: 'cash', by: 'driver' }],
        });
        expect(await h.result()).toMatchObject({ status: 'completed', driverId: 'night-driver' });
      } finally {
        await h.terminate('test over').catch(() => undefined);
      }
    });
  }, 120_000);

  it('lets a driver who accepted the evening before and does not confirm go half an hour before pickup, tells the passenger, and finds another in time', async () => {
    const { activities, world } = fakeActivities([
      { id: 'silent-driver', tier: 'local' },
      { id: 'morning-driver', tier: 'local' },
    ]);
    const taskQueue = `advance-${randomUUID()}`;
    const worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      workflowBundle: bundle,
      activities,
    });
    await worker.runUntil(async () => {
      const ref = `TXA${randomUUID().slice(0, 7).toUpperCase()}`;
      // Two days from now, offered from nine hours before (as for a small-hours pickup).
      const pickup = (await env.currentTimeMs()) + 48 * 3600_000;
      const base = input(ref, new Date(pickup + 24 * 3600_000).toISOString());
      const later = {
        ...base,
        job: { ...base.job, pickupAt: new Date(pickup).toISOString() },
        policy: { ...base.policy, dispatchLeadSeconds: 9 * 3600 },
      };
      const h = await env.client.workflow.start('bookingWorkflowV2', {
        workflowId: bookingWorkflowId(ref),
        taskQueue,
        args: [later],
      });
      await h.executeUpdate(bookingCreatedUpdate, { args: [{ identity: null }] });
      try {
        await env.sleep(pickup - 9 * 3600_000 - (await env.currentTimeMs()) + 60_000);
        const s = await until(
          () => h.query(bookingStateQuery),
          (x) => x.offer?.driverId === 'silent-driver',
          'the offer the evening before',
        );
        await h.executeUpdate(respondToOfferUpdate, {
          args: [{ offerId: s.offer!.offerId, driverId: 'silent-driver', decision: 'accept' }],
        });

        // Asked an hour before; no answer by half an hour before: let go, the passenger told, another offered.
        await env.sleep(pickup - (await env.currentTimeMs()) - 29 * 60_000);
        await until(
          async () => world.called('releaseDriver'),
          (c) => c.length === 1,
          'the silent driver let go',
        );
        expect(world.called('askDriverToConfirm')).toEqual([expect.objectContaining({ driverId: 'silent-driver' })]);
        expect(world.called('releaseDriver')).toEqual([
          expect.objectContaining({ driverId: 'silent-driver', reason: 'not_confirmed' }),
        ]);
        await until(
          async () => world.called('tellPassenger'),
          (c) => c.some((t) => (t as { news: { kind: string } }).news.kind === 'driver_replaced'),
          'the passenger told',
        );
        const next = await until(
          () => h.query(bookingStateQuery),
          (x) => x.offer?.driverId === 'morning-driver',
          'the next driver offered',
        );
        await h.executeUpdate(respondToOfferUpdate, {
          args: [{ offerId: next.offer!.offerId, driverId: 'morning-driver', decision: 'accept' }],
        });

        // Accepted within the hour: nobody asks them to confirm; the trip goes ahead with them.
        await env.sleep(25 * 60_000);
        expect(world.called('askDriverToConfirm')).toHaveLength(1);
        expect((await h.query(bookingStateQuery)).driverId).toBe('morning-driver');
        expect((await h.query(bookingStateQuery)).droppedDriverIds).toEqual(['silent-driver']);
      } finally {
        await h.terminate('test over').catch(() => undefined);
      }
    });
  }, 120_000);
  it('lets a driver take a small-hours airport run from the board the evening before: the claim ends the wait for dispatch, a second claimant is refused, the driver confirms on the day and drives it', async () => {
    const { activities, world } = fakeActivities([
      { id: 'board-driver', tier: 'local' },
      { id: 'second-driver', tier: 'local' },
    ]);
    const taskQueue = `advance-${randomUUID()}`;
    const worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      workflowBundle: bundle,
      activities,
    });
    await worker.runUntil(async () => {
      const pickupMs = nextSpringForwardPickup(await env.currentTimeMs());
      const pickup = new Date(pickupMs).toISOString();
      // Dispatch would start at 20:00 London the evening before; the board claim comes at 19:00.
      const eveningBefore = pickupMs - 8 * 3600_000;
      const ref = `TXB${randomUUID().slice(0, 7).toUpperCase()}`;
      const h = await env.client.workflow.start('bookingWorkflowV2', {
        workflowId: bookingWorkflowId(ref),
        taskQueue,
        args: [input(ref, pickup)],
      });
      await h.executeUpdate(bookingCreatedUpdate, { args: [{ identity: null }] });
      try {
        await env.sleep(eveningBefore - 3600_000 - (await env.currentTimeMs()));
        expect((await h.query(bookingStateQuery)).status).toBe('scheduled');

        // Two drivers claim it at once: exactly one gets it, the other is told it is taken.
        const claims = await Promise.allSettled([
          h.executeUpdate(claimUpcomingJobUpdate, { args: [{ driverId: 'board-driver', driverName: 'Board Driver' }] }),
          h.executeUpdate(claimUpcomingJobUpdate, {
            args: [{ driverId: 'second-driver', driverName: 'Second Driver' }],
          }),
        ]);
        const won = claims.filter((c) => c.status === 'fulfilled');
        const lost = claims.filter((c): c is PromiseRejectedResult => c.status === 'rejected');
        expect(won).toHaveLength(1);
        expect(lost.map((c) => failureType(c.reason))).toEqual(['AlreadyAssigned']);
        const winner = claims[0].status === 'fulfilled' ? 'board-driver' : 'second-driver';
        const loser = winner === 'board-driver' ? 'second-driver' : 'board-driver';
        const { offerId } = (won[0] as PromiseFulfilledResult<{ offerId: string }>).value;
        expect(offerId).toBe(`${ref}:1:${winner}`);
        const held = await h.query(bookingStateQuery);
        expect(held).toMatchObject({ status: 'assigned', driverId: winner });
        expect(held.candidates).toEqual([
          expect.objectContaining({ driverId: winner, outcome: 'accepted', reason: 'claimed_from_board' }),
        ]);
        // Assigned as an accepted offer is (the passenger hears who is coming), with no job card.
        expect(world.called('assignDriver')).toEqual([{ ref, driverId: winner, offerId }]);
        expect(world.called('sendJobCard')).toHaveLength(0);
        // The same driver claiming again (a retried request) is answered the same; the other is still refused.
        expect(
          await h.executeUpdate(claimUpcomingJobUpdate, { args: [{ driverId: winner, driverName: 'Again' }] }),
        ).toEqual({ offerId });
        expect(
          failureType(
            await h
              .executeUpdate(claimUpcomingJobUpdate, { args: [{ driverId: loser, driverName: 'Late' }] })
              .catch((e: unknown) => e),
          ),
        ).toBe('AlreadyAssigned');

        // 20:00 and the night pass: no cascade ever looks for anyone else.
        await env.sleep(Date.parse(pickup) - (await env.currentTimeMs()) - 61 * 60_000);
        expect(world.called('claimFromCandidatePage')).toHaveLength(0);
        expect(world.called('findCandidatePage')).toHaveLength(0);
        expect(world.called('askDriverToConfirm')).toHaveLength(0);

        // On the day, an hour before pickup, they are asked to confirm; they do, and drive it.
        await env.sleep(2 * 60_000);
        await until(
          async () => world.called('askDriverToConfirm'),
          (c) => c.length === 1,
          'the driver asked to confirm',
        );
        expect(world.called('askDriverToConfirm')[0]).toMatchObject({ driverId: winner });
        await h.executeUpdate(reportTripUpdate, { args: [{ driverId: winner, event: 'confirm' }] });
        await env.sleep(15 * 60_000);
        expect(world.called('releaseDriver')).toHaveLength(0);
        for (const event of ['en_route', 'arrived', 'on_board', 'completed'] as const)
          await h.executeUpdate(reportTripUpdate, { args: [{ driverId: winner, event }] });
        await h.executeUpdate(settleBookingUpdate, {
          args: [{ driverId: winner, amountPence: 3240, method: 'cash', by: 'driver' }],
        });
        expect(await h.result()).toMatchObject({ status: 'completed', driverId: winner });
      } finally {
        await h.terminate('test over').catch(() => undefined);
      }
    });
  }, 120_000);

  it('refuses a board claim the locked claim finds busy, leaving the booking waiting; the same driver, free again, then takes it', async () => {
    const { activities, world } = fakeActivities([
      { id: 'busy-driver', tier: 'local', busy: true },
      { id: 'free-driver', tier: 'local' },
    ]);
    const taskQueue = `advance-${randomUUID()}`;
    const worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      workflowBundle: bundle,
      activities,
    });
    await worker.runUntil(async () => {
      const pickupMs = nextSpringForwardPickup(await env.currentTimeMs());
      const ref = `TXB${randomUUID().slice(0, 7).toUpperCase()}`;
      const h = await env.client.workflow.start('bookingWorkflowV2', {
        workflowId: bookingWorkflowId(ref),
        taskQueue,
        args: [input(ref, new Date(pickupMs).toISOString())],
      });
      await h.executeUpdate(bookingCreatedUpdate, { args: [{ identity: null }] });
      try {
        const err = await h
          .executeUpdate(claimUpcomingJobUpdate, { args: [{ driverId: 'busy-driver', driverName: 'Busy' }] })
          .catch((e: unknown) => e);
        expect(failureType(err)).toBe('DriverDoesNotFit');
        expect((err as WorkflowUpdateFailedError).cause?.message).toMatch(/another job at that time/);
        const refused = await h.query(bookingStateQuery);
        expect(refused).toMatchObject({ status: 'scheduled', driverId: null });
        expect(refused.candidates).toEqual([
          expect.objectContaining({ driverId: 'busy-driver', outcome: 'skipped', reason: 'board_claim_refused' }),
        ]);
        expect(world.called('assignDriver')).toHaveLength(0);
        // Free again (their other job gone), the same driver's next claim is decided afresh, and wins.
        world.drivers[0]!.busy = false;
        const again = await h.executeUpdate(claimUpcomingJobUpdate, {
          args: [{ driverId: 'busy-driver', driverName: 'Busy' }],
        });
        expect(again.offerId).toBe(`${ref}:2:busy-driver`);
        expect((await h.query(bookingStateQuery)).driverId).toBe('busy-driver');
        // The evening before passes without a cascade: nobody else is offered it.
        await env.sleep(pickupMs - 8 * 3600_000 - (await env.currentTimeMs()) + 60_000);
        expect((await h.query(bookingStateQuery)).driverId).toBe('busy-driver');
        expect(world.called('findCandidatePage')).toHaveLength(0);
      } finally {
        await h.terminate('test over').catch(() => undefined);
      }
    });
  }, 120_000);
});
