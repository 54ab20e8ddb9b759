// Advance allocation on the time-skipping server (issue 24, item 2): a 05:00 airport run booked
// days ahead, over the night the clocks go forward, waits until 20:00 London the evening before
// (src/dispatch/advance.ts works the lead out; the workflow keeps it), is offered then, accepted
// that evening, and driven in the morning. Months of timers pass in a second or two.
import { randomUUID } from 'node:crypto';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker, type WorkflowBundle } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatchLeadSeconds } from '../../src/dispatch/advance.js';
import {
  bookingCreatedUpdate,
  bookingStateQuery,
  bookingWorkflowId,
  reportTripUpdate,
  respondToOfferUpdate,
  settleBookingUpdate,
  type BookingWorkflowInput,
} from '../../workflows/bookings/definitions.js';
import { fakeActivities } from '../support/fake-activities.js';
import { startTimeSkipping, until } from '../support/time-skipping.js';

let env: TestWorkflowEnvironment;
let bundle: WorkflowBundle;
beforeAll(async () => {
  ({ env, bundle } = await startTimeSkipping());
}, 180_000);
afterAll(async () => env?.teardown());

// Sunday 28 March 2027, 05:00 BST (the clocks went forward at 01:00 GMT): 04:00Z.
const PICKUP = '2027-03-28T04:00:00.000Z';
// 20:00 GMT on Saturday 27 March: the evening before, in London time.
const EVENING_BEFORE = Date.parse('2027-03-27T20:00:00.000Z');
const place = (kind: string) => ({ label: kind === 'airport' ? 'Manchester Airport' : '14 Wilmslow Road, Rusholme', kind, lat: 53.45, lon: -2.22, postcodeDistrict: null, council: null });

function input(ref: string): BookingWorkflowInput {
  const lead = dispatchLeadSeconds(
    { pickupAt: new Date(PICKUP), pickupKind: 'street', dropoffKind: 'airport', distanceMeters: 14_000 },
    { baseLeadSeconds: 900, advanceLeadSeconds: 3 * 3600, longTripMeters: 30_000, earlyBeforeHour: 7, eveningFromHour: 20 },
  );
  return {
    booking: {
      ref, source: 'agent_create', quoteId: null, passengerName: 'Ada', passengerPhone: '+447400123456', passengerEmail: null, emailVerified: true,
      paymentMethod: 'cash', flightNumber: 'BA1387', agent: null, pickupQuery: 'a', dropoffQuery: 'b', pickup: place('street'), dropoff: place('airport'),
      pickupArea: 'manchester', farePence: 3240, fareSource: 'tariff', distanceM: 14_000, durationS: 1500, requestFingerprint: null, identity: `identity-${ref}`,
    },
    job: { pickupAt: PICKUP, passengers: 1, vehicleType: 'saloon', wheelchair: false, notes: null },
    policy: { dispatchLeadSeconds: lead, offerTimeoutSeconds: 300, retryBaseSeconds: 60, maxRetrySeconds: 900, noShowGraceSeconds: 600 },
    awaitEmailConfirmation: false,
  };
}

describe('advance allocation (time-skipping)', () => {
  it('offers a small-hours airport run from 20:00 London the evening before, across the clock change, and the driver who accepts it then drives it', async () => {
    const { activities, world } = fakeActivities([{ id: 'night-driver', tier: 'local' }]);
    const taskQueue = `advance-${randomUUID()}`;
    const worker = await Worker.create({ connection: env.nativeConnection, taskQueue, workflowBundle: bundle, activities });
    await worker.runUntil(async () => {
      const ref = `TXA${randomUUID().slice(0, 7).toUpperCase()}`;
      const h = await env.client.workflow.start('bookingWorkflow', { workflowId: bookingWorkflowId(ref), taskQueue, args: [input(ref)] });
      await h.executeUpdate(bookingCreatedUpdate, { args: [{ identity: null }] });
      try {
        // Days and the clock change pass: scheduled, nothing offered, until a minute before the evening.
        await env.sleep(EVENING_BEFORE - (await env.currentTimeMs()) - 60_000);
        expect((await h.query(bookingStateQuery)).status).toBe('scheduled');
        expect(world.called('findCandidatePage')).toHaveLength(0);

        // 20:00 the evening before: the driver is offered it and accepts it that evening.
        await env.sleep(2 * 60_000);
        const s = await until(() => h.query(bookingStateQuery), (x) => x.offer?.driverId === 'night-driver', 'the offer the evening before');
        const offeredAt = await env.currentTimeMs();
        expect(offeredAt).toBeGreaterThanOrEqual(EVENING_BEFORE);
        expect(offeredAt).toBeLessThan(EVENING_BEFORE + 5 * 60_000);
        expect(await h.executeUpdate(respondToOfferUpdate, { args: [{ offerId: s.offer!.offerId, driverId: 'night-driver', decision: 'accept' }] })).toBe('accepted');
        expect(world.called('assignDriver')).toEqual([expect.objectContaining({ driverId: 'night-driver' })]);

        // The night passes with the job held; in the morning the driver drives it and is paid.
        await env.sleep(Date.parse(PICKUP) - (await env.currentTimeMs()) - 20 * 60_000);
        expect((await h.query(bookingStateQuery)).driverId).toBe('night-driver');
        for (const event of ['en_route', 'arrived', 'on_board', 'completed'] as const) await h.executeUpdate(reportTripUpdate, { args: [{ driverId: 'night-driver', event }] });
        await h.executeUpdate(settleBookingUpdate, { args: [{ driverId: 'night-driver', amountPence: 3240, method: 'cash', by: 'driver' }] });
        expect(await h.result()).toMatchObject({ status: 'completed', driverId: 'night-driver' });
      } finally {
        await h.terminate('test over').catch(() => undefined);
      }
    });
  }, 120_000);
});
