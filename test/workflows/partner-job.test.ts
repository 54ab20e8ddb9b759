// A sender's job reference (job:<partner>:<jobRef>) and operator bookings on the time-skipping test
// server, activities faked: submissions in any order apply in the job's own order, a cancel before
// its new is remembered, the workflow closes a day after pickup and a later run carries on from
// the record; an operator's booking waits for the operator to pick a fleet driver.
import { randomUUID } from 'node:crypto';
import {
  WithStartWorkflowOperation,
  WorkflowIdConflictPolicy,
  WorkflowIdReusePolicy,
  WorkflowUpdateFailedError,
} from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker, type WorkflowBundle } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  assignFleetDriverUpdate,
  bookingCreatedUpdate,
  bookingStateQuery,
  bookingWorkflowId,
  respondToOfferUpdate,
  type BookingWorkflowInput,
} from '../../workflows/bookings/definitions.js';
import { BookingFailure } from '../../src/model/bookings.js';
import { partnerJobWorkflowId, submitJobUpdate, type JobSubmission } from '../../workflows/partners/job-definitions.js';
import { fakeActivities, type FakeWorld } from '../support/fake-activities.js';
import { startTimeSkipping, until } from '../support/time-skipping.js';

let env: TestWorkflowEnvironment;
let bundle: WorkflowBundle;
beforeAll(async () => {
  ({ env, bundle } = await startTimeSkipping());
}, 180_000);
afterAll(async () => env?.teardown());

const HOUR = 3600_000;
const policy = {
  dispatchLeadSeconds: 900,
  offerTimeoutSeconds: 60,
  retryBaseSeconds: 60,
  maxRetrySeconds: 900,
  noShowGraceSeconds: 600,
};
const place = (lat: number) => ({
  label: `Place ${lat}`,
  kind: 'place',
  lat,
  lon: -1,
  postcodeDistrict: null,
  council: null,
});

function bookingInput(o: {
  pickupAt: string;
  passengers?: number;
  dropLat?: number;
  operatorId?: string;
  ref?: string;
}): BookingWorkflowInput {
  return {
    booking: {
      ref: o.ref ?? '',
      source: o.operatorId ? 'operator' : 'partner',
      quoteId: null,
      passengerName: 'Ada',
      passengerPhone: '',
      passengerEmail: null,
      emailVerified: false,
      paymentMethod: 'pay_driver',
      flightNumber: null,
      agent: 'Acme',
      pickupQuery: 'a',
      dropoffQuery: 'b',
      pickup: place(52),
      dropoff: place(o.dropLat ?? 52.1),
      pickupArea: 'test',
      farePence: 1500,
      fareSource: 'tariff',
      distanceM: 5000,
      durationS: 900,
      requestFingerprint: null,
      partnerId: o.operatorId ?? 'acme',
      partnerJobRef: 'J-1',
      operatorId: o.operatorId ?? null,
    },
    job: { pickupAt: o.pickupAt, passengers: o.passengers ?? 1, vehicleType: 'saloon', wheelchair: false, notes: null },
    policy,
    awaitEmailConfirmation: false,
  };
}

/** Job workflows a test started: terminated after it, since one left without a worker holds the test server's clock still. */
const started = new Set<string>();

async function withWorker<T>(
  run: (t: { world: FakeWorld; taskQueue: string }) => Promise<T>,
  world?: FakeWorld,
): Promise<T> {
  const fake = fakeActivities([]);
  if (world)
    Object.assign(fake.world, { partnerJobs: world.partnerJobs, bookings: world.bookings, dailyJobs: world.dailyJobs });
  const taskQueue = `pj-${randomUUID()}`;
  const worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    workflowBundle: bundle,
    activities: fake.activities,
  });
  return worker.runUntil(async () => {
    try {
      return await run({ world: fake.world, taskQueue });
    } finally {
      await Promise.all(
        [...started].map((id) =>
          env.client.workflow
            .getHandle(id)
            .terminate('test over')
            .catch(() => undefined),
        ),
      );
      started.clear();
    }
  });
}

function submit(taskQueue: string, jobRef: string, sub: JobSubmission) {
  started.add(partnerJobWorkflowId('acme', jobRef));
  const startWorkflowOperation = new WithStartWorkflowOperation('partnerJobWorkflow', {
    workflowId: partnerJobWorkflowId('acme', jobRef),
    taskQueue,
    args: [{ partnerId: 'acme', jobRef }],
    workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
    workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE,
  });
  return env.client.workflow.executeUpdateWithStart(submitJobUpdate, { args: [sub], startWorkflowOperation });
}

const later = async (hours: number) => new Date((await env.currentTimeMs()) + hours * HOUR).toISOString();

describe('a partner job reference', () => {
  it('books an amendment that arrived before its new, once, and treats repeats as the same booking', async () => {
    await withWorker(async ({ world, taskQueue }) => {
      const ref = `J-${randomUUID().slice(0, 6)}`;
      const pickupAt = await later(5);
      const amend = {
        action: 'amend' as const,
        fingerprint: 'amended',
        booking: bookingInput({ pickupAt, passengers: 3 }),
      };
      const create = {
        action: 'new' as const,
        fingerprint: 'original',
        booking: bookingInput({ pickupAt }),
        limit: { day: '2026-11-23', limit: 10 },
      };
      expect(await submit(taskQueue, ref, amend)).toMatchObject({
        outcome: 'accepted',
        code: 'amendment_held',
        bookingRef: null,
      });
      const first = await submit(taskQueue, ref, create);
      expect(first).toMatchObject({ outcome: 'accepted', code: 'created', state: 'live' });
      const booked = world.called('createPartnerBooking') as { input: BookingWorkflowInput }[];
      expect(booked).toHaveLength(1);
      expect(booked[0]!.input.job.passengers).toBe(3);
      // Both again, in the other order, and concurrently: nothing new happens.
      const again = await Promise.all([
        submit(taskQueue, ref, create),
        submit(taskQueue, ref, amend),
        submit(taskQueue, ref, create),
      ]);
      expect(again.map((o) => [o.code, o.bookingRef])).toEqual([
        ['duplicate', first.bookingRef],
        ['duplicate', first.bookingRef],
        ['duplicate', first.bookingRef],
      ]);
      expect(world.called('createPartnerBooking')).toHaveLength(1);
      expect(world.called('amendPartnerBooking')).toHaveLength(0);
      // A different new under the same reference is a conflict, not a second ride.
      const other = await submit(taskQueue, ref, { ...create, fingerprint: 'something else' });
      expect(other).toMatchObject({ outcome: 'rejected', code: 'job_ref_conflict' });
    });
  });

  it('remembers a cancel that came first, so the new never books, and refuses amendments after it', async () => {
    await withWorker(async ({ world, taskQueue }) => {
      const ref = `J-${randomUUID().slice(0, 6)}`;
      const pickupAt = await later(2);
      expect(await submit(taskQueue, ref, { action: 'cancel', fingerprint: 'c' })).toMatchObject({
        code: 'cancel_held',
        state: 'cancelled',
      });
      expect(
        await submit(taskQueue, ref, {
          action: 'new',
          fingerprint: 'n',
          booking: bookingInput({ pickupAt }),
          limit: { day: 'd', limit: 5 },
        }),
      ).toMatchObject({
        outcome: 'accepted',
        code: 'cancelled_before_new',
        bookingRef: null,
      });
      expect(
        await submit(taskQueue, ref, {
          action: 'amend',
          fingerprint: 'a',
          booking: bookingInput({ pickupAt, passengers: 2 }),
        }),
      ).toMatchObject({
        outcome: 'rejected',
        code: 'job_cancelled',
      });
      expect(world.called('createPartnerBooking')).toEqual([]);
      expect(world.called('countPartnerJob')).toEqual([]);
    });
  });

  it('moves the route and re-prices until the driver is on the way, refuses a move after, and an amendment once the passenger is on board, and a cancel once completed', async () => {
    await withWorker(async ({ world, taskQueue }) => {
      const ref = `J-${randomUUID().slice(0, 6)}`;
      const pickupAt = await later(1);
      const made = await submit(taskQueue, ref, {
        action: 'new',
        fingerprint: 'n',
        booking: bookingInput({ pickupAt }),
        limit: { day: 'd', limit: 5 },
      });
      // A new drop-off, re-priced by the intake: the booking gets the route and the fare.
      const moved = bookingInput({ pickupAt, dropLat: 53 });
      moved.booking.farePence = 2400;
      expect(await submit(taskQueue, ref, { action: 'amend', fingerprint: 'x', booking: moved })).toMatchObject({
        outcome: 'accepted',
        code: 'amended',
      });
      expect(world.called('amendPartnerBooking').at(-1)).toMatchObject({
        changes: { route: { dropoff: { lat: 53 } }, fare: { farePence: 2400, fareSource: 'tariff' } },
      });
      // The time alone changes: no route, no fare sent.
      const retimed = bookingInput({ pickupAt: await later(2), dropLat: 53 });
      retimed.booking.farePence = 2400;
      expect(await submit(taskQueue, ref, { action: 'amend', fingerprint: 't', booking: retimed })).toMatchObject({
        code: 'amended',
      });
      const sent = world.called('amendPartnerBooking').at(-1) as { changes: object };
      expect(sent.changes).not.toHaveProperty('route');
      expect(sent.changes).not.toHaveProperty('fare');
      world.bookings.set(made.bookingRef!, 'en_route');
      expect(
        await submit(taskQueue, ref, {
          action: 'amend',
          fingerprint: 'y',
          booking: bookingInput({ pickupAt, dropLat: 54 }),
        }),
      ).toMatchObject({
        outcome: 'rejected',
        code: 'amend_driver_on_the_way',
        bookingStatus: 'en_route',
      });
      world.bookings.set(made.bookingRef!, 'assigned');
      expect(
        await submit(taskQueue, ref, {
          action: 'amend',
          fingerprint: 'p2',
          booking: bookingInput({ pickupAt, passengers: 2 }),
        }),
      ).toMatchObject({ code: 'amended' });
      world.bookings.set(made.bookingRef!, 'on_board');
      expect(
        await submit(taskQueue, ref, {
          action: 'amend',
          fingerprint: 'p3',
          booking: bookingInput({ pickupAt, passengers: 3 }),
        }),
      ).toMatchObject({
        outcome: 'rejected',
        code: 'amend_too_late',
        bookingStatus: 'on_board',
      });
      world.bookings.set(made.bookingRef!, 'completed');
      expect(await submit(taskQueue, ref, { action: 'cancel', fingerprint: 'c' })).toMatchObject({
        outcome: 'rejected',
        code: 'job_completed',
      });
    });
  });

  it("answers a cancelled job's new sent again as already cancelled, and books one with other details afresh", async () => {
    await withWorker(async ({ world, taskQueue }) => {
      const ref = `J-${randomUUID().slice(0, 6)}`;
      const pickupAt = await later(3);
      const made = await submit(taskQueue, ref, {
        action: 'new',
        fingerprint: 'n',
        booking: bookingInput({ pickupAt }),
        limit: { day: 'd', limit: 5 },
      });
      expect(await submit(taskQueue, ref, { action: 'cancel', fingerprint: 'c' })).toMatchObject({ code: 'cancelled' });
      expect(
        await submit(taskQueue, ref, {
          action: 'new',
          fingerprint: 'n',
          booking: bookingInput({ pickupAt }),
          limit: { day: 'd', limit: 5 },
        }),
      ).toMatchObject({
        outcome: 'accepted',
        code: 'already_cancelled',
        bookingRef: made.bookingRef,
      });
      expect(world.called('createPartnerBooking')).toHaveLength(1);
      const again = await submit(taskQueue, ref, {
        action: 'new',
        fingerprint: 'n2',
        booking: bookingInput({ pickupAt, passengers: 2 }),
        limit: { day: 'd', limit: 5 },
      });
      expect(again).toMatchObject({ outcome: 'accepted', code: 'rebooked', state: 'live' });
      expect(again.bookingRef).not.toBe(made.bookingRef);
      expect(again.message).toContain(made.bookingRef!);
      expect(world.called('createPartnerBooking').at(-1)).toMatchObject({ rebooking: 'n2' });
      // Retries of either new change nothing: the new booking is the same booking, the old one stays cancelled.
      expect(
        await submit(taskQueue, ref, {
          action: 'new',
          fingerprint: 'n2',
          booking: bookingInput({ pickupAt, passengers: 2 }),
          limit: { day: 'd', limit: 5 },
        }),
      ).toMatchObject({
        code: 'duplicate',
        bookingRef: again.bookingRef,
      });
      expect(world.called('createPartnerBooking')).toHaveLength(2);
    });
  });

  it('counts a new job against the daily limit once, and leaves a refused one free to come back', async () => {
    await withWorker(async ({ taskQueue }) => {
      const pickupAt = await later(3);
      const day = `day-${randomUUID()}`;
      const job = (fingerprint: string) => ({
        action: 'new' as const,
        fingerprint,
        booking: bookingInput({ pickupAt }),
        limit: { day, limit: 1 },
      });
      const a = `J-${randomUUID().slice(0, 6)}`;
      const b = `J-${randomUUID().slice(0, 6)}`;
      expect((await submit(taskQueue, a, job('a'))).code).toBe('created');
      expect((await submit(taskQueue, a, job('a'))).code).toBe('duplicate');
      expect(await submit(taskQueue, b, job('b'))).toMatchObject({
        outcome: 'rejected',
        code: 'daily_limit_reached',
        state: 'none',
      });
      expect((await submit(taskQueue, b, { ...job('b'), limit: { day: `${day}-next`, limit: 1 } })).code).toBe(
        'created',
      );
    });
  });

  it('closes a day after pickup, and a later run carries on from the record: a repeated new is the same booking', async () => {
    const { world, made, jobRef } = await withWorker(async ({ world, taskQueue }) => {
      const jobRef = `J-${randomUUID().slice(0, 6)}`;
      const made = await submit(taskQueue, jobRef, {
        action: 'new',
        fingerprint: 'n',
        booking: bookingInput({ pickupAt: await later(2) }),
        limit: { day: 'd', limit: 5 },
      });
      const handle = env.client.workflow.getHandle(partnerJobWorkflowId('acme', jobRef));
      await env.sleep(27 * HOUR);
      await until(
        async () => (await handle.describe()).status.name,
        (s) => s === 'COMPLETED',
        'the job workflow to close',
      );
      return { world, made, jobRef };
    });
    await withWorker(async ({ world: next, taskQueue }) => {
      const again = await submit(taskQueue, jobRef, {
        action: 'new',
        fingerprint: 'n',
        booking: bookingInput({ pickupAt: await later(-25) }),
        limit: { day: 'd', limit: 5 },
      });
      expect(again).toMatchObject({ outcome: 'accepted', code: 'duplicate', bookingRef: made.bookingRef });
      expect(next.called('createPartnerBooking')).toEqual([]);
    }, world);
  });
});

describe("an operator's booking", () => {
  it('never enters the cascade: it waits for the operator, offers the job to the picked fleet driver, and goes back on a decline', async () => {
    await withWorker(async ({ world, taskQueue }) => {
      const ref = `TXO${randomUUID().slice(0, 7).toUpperCase()}`;
      started.add(bookingWorkflowId(ref));
      const handle = await env.client.workflow.start('bookingWorkflowV2', {
        workflowId: bookingWorkflowId(ref),
        taskQueue,
        args: [bookingInput({ pickupAt: await later(0.05), operatorId: 'northcabs', ref })],
      });
      await handle.executeUpdate(bookingCreatedUpdate, { args: [{ identity: null }] });
      await until(
        () => handle.query(bookingStateQuery),
        (s) => s.status === 'scheduled',
        'scheduled',
      );
      await env.sleep(HOUR / 2);
      expect(world.called('findCandidatePage')).toEqual([]);
      expect((await handle.query(bookingStateQuery)).status).toBe('scheduled');

      const refused = await handle
        .executeUpdate(assignFleetDriverUpdate, {
          args: [{ operatorId: 'someone-else', driverId: 'd1', driverName: 'D1' }],
        })
        .catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(WorkflowUpdateFailedError);
      expect(((refused as WorkflowUpdateFailedError).cause as ApplicationFailure).type).toBe(
        BookingFailure.notOperatorJob,
      );

      const offered = await handle.executeUpdate(assignFleetDriverUpdate, {
        args: [{ operatorId: 'northcabs', driverId: 'd1', driverName: 'D1' }],
      });
      expect(offered.offer?.driverId).toBe('d1');
      expect(offered.status).toBe('offered');
      await handle.executeUpdate(respondToOfferUpdate, {
        args: [{ offerId: offered.offer!.offerId, driverId: 'd1', decision: 'decline' }],
      });
      await until(
        () => handle.query(bookingStateQuery),
        (s) => s.status === 'scheduled' && s.offer === null,
        'back with the operator',
      );

      const second = await handle.executeUpdate(assignFleetDriverUpdate, {
        args: [{ operatorId: 'northcabs', driverId: 'd2', driverName: 'D2' }],
      });
      await handle.executeUpdate(respondToOfferUpdate, {
        args: [{ offerId: second.offer!.offerId, driverId: 'd2', decision: 'accept' }],
      });
      await until(
        () => handle.query(bookingStateQuery),
        (s) => s.status === 'assigned' && s.driverId === 'd2',
        'assigned to d2',
      );
      expect((world.called('sendJobCard') as { driverId: string }[]).map((c) => c.driverId)).toEqual(['d1', 'd2']);
      expect(world.called('findCandidatePage')).toEqual([]);
    });
  });
});
