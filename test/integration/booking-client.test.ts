// The booking client against the real Temporal server: a duplicate start joins the booking, a
// finished booking answers (its final state, null, 'expired') instead of failing, and the workflow's
// refusals arrive as the service's Refusals. The translation of every failure is in
// test/unit/bookings/booking-client.test.ts; this shows the real server fails the way it assumes.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BookingClient } from '../../src/bookings/client.js';
import { Refusal } from '../../src/refusal.js';
import { bookingWorkflowId, type BookingWorkflowInput } from '../../workflows/bookings/definitions.js';
import { eventually, startStack, type TestStack } from '../support/stack.js';

let stack: TestStack;
let bookings: BookingClient;
beforeAll(async () => {
  stack = await startStack();
  bookings = new BookingClient(stack.client, stack.taskQueue);
});
afterAll(async () => stack?.close());

const place = { label: 'Client Town', kind: 'place', lat: 54.9, lon: -2.9, postcodeDistrict: null, council: null };

/** A booking two days ahead: it waits, scheduled, and no driver is looked for. */
function input(ref: string, identity: string): BookingWorkflowInput {
  return {
    booking: {
      ref,
      source: 'agent_instant',
      quoteId: null,
      passengerName: 'Ada Client',
      passengerPhone: '+447400123401',
      passengerEmail: null,
      emailVerified: true,
      paymentMethod: 'cash',
      flightNumber: null,
      agent: null,
      pickupQuery: 'a',
      dropoffQuery: 'b',
      pickup: place,
      dropoff: place,
      pickupArea: 'client-area',
      farePence: 1500,
      fareSource: 'tariff',
      distanceM: 4000,
      durationS: 600,
      requestFingerprint: null,
      identity,
    },
    job: {
      pickupAt: new Date(Date.now() + 2 * 24 * 3600_000).toISOString(),
      passengers: 1,
      vehicleType: 'saloon',
      wheelchair: false,
      notes: null,
    },
    policy: {
      dispatchLeadSeconds: 900,
      offerTimeoutSeconds: 30,
      retryBaseSeconds: 60,
      maxRetrySeconds: 600,
      noShowGraceSeconds: 600,
    },
    awaitEmailConfirmation: false,
  };
}

const newRef = () => `BKC${randomUUID().slice(0, 8).toUpperCase()}`;

async function refusal(p: Promise<unknown>): Promise<Refusal> {
  try {
    await p;
  } catch (err) {
    if (err instanceof Refusal) return err;
    throw err;
  }
  throw new Error('expected a refusal');
}

const runs = async (ref: string) => {
  const ids: string[] = [];
  for await (const w of stack.client.workflow.list({ query: `WorkflowId = '${bookingWorkflowId(ref)}'` }))
    ids.push(w.runId);
  return ids;
};

describe('the booking client on the real server', () => {
  it("joins a duplicate start to the running booking, and refuses the reference to another request's ride", async () => {
    const ref = newRef();
    const first = await bookings.open(input(ref, `req-${ref}`));
    expect(first.state?.status).toBe('scheduled');
    const again = await bookings.open(input(ref, `req-${ref}`));
    expect(again.state?.status).toBe('scheduled');
    expect(await runs(ref)).toHaveLength(1);
    expect(await bookings.open(input(ref, `other-${ref}`))).toEqual({ refTaken: true });
    expect((await bookings.state(ref))?.status).toBe('scheduled');
    const record = await stack.sql<{ status: string }[]>`select status from bookings where ref = ${ref}`;
    expect(record).toEqual([{ status: 'scheduled' }]);
    await bookings.cancel(ref, { reason: null, by: 'ops' });
  });

  it("tells the workflow's refusals as the service's Refusals", async () => {
    const ref = newRef();
    await bookings.open(input(ref, `req-${ref}`));
    expect(await refusal(bookings.reportTrip(ref, { driverId: 'nobody', event: 'arrived' }))).toMatchObject({
      kind: 'conflict',
      code: 'not_your_job',
      message: `booking ${ref} is not assigned to nobody`,
    });
    expect(
      await refusal(bookings.settle(ref, { driverId: null, amountPence: 1500, method: 'cash', by: 'ops' })),
    ).toMatchObject({ kind: 'conflict', code: 'trip_not_completed' });
    expect(
      await refusal(bookings.endTrip(ref, { reason: 'test', settlement: { amountPence: 1500, method: 'cash' } })),
    ).toMatchObject({ kind: 'conflict', code: 'trip_not_in_progress' });
    await bookings.cancel(ref, { reason: null, by: 'ops' });
  });

  it('answers for a booking whose workflow has finished instead of failing', async () => {
    const ref = newRef();
    await bookings.open(input(ref, `req-${ref}`));
    const cancelled = await bookings.cancel(ref, { reason: 'plans changed', by: 'ops' });
    expect(cancelled?.status).toBe('cancelled');
    await eventually(async () => {
      const d = await stack.client.workflow.getHandle(bookingWorkflowId(ref)).describe();
      return d.status.name === 'COMPLETED' ? true : undefined;
    });
    // Started again for the same request: the finished booking's final state, not a second run.
    expect((await bookings.open(input(ref, `req-${ref}`))).state?.status).toBe('cancelled');
    expect(await bookings.open(input(ref, `other-${ref}`))).toEqual({ refTaken: true });
    expect(await runs(ref)).toHaveLength(1);
    expect(await bookings.cancel(ref, { reason: null, by: 'ops' })).toBeNull();
    expect(await bookings.whenCreated(ref)).toBeNull();
    expect(await bookings.reportTrip(ref, { driverId: 'd1', event: 'arrived' })).toBeNull();
    expect(await bookings.respondToOffer(ref, { offerId: `${ref}:1:d1`, driverId: 'd1', decision: 'accept' })).toBe(
      'expired',
    );
    expect(await bookings.emailConfirmed(ref)).toBe(false);
    expect(await bookings.driverDropped(ref, { driverId: 'd1', reason: 'released' })).toBe(false);
    // A closed workflow still answers its query: the last state it held.
    expect((await bookings.state(ref))?.status).toBe('cancelled');
  });

  it('answers null for a booking that never ran', async () => {
    const ref = newRef();
    expect(await bookings.state(ref)).toBeNull();
    expect(await bookings.cancel(ref, { reason: null, by: 'ops' })).toBeNull();
    expect(await bookings.offerSeen(ref, { offerId: `${ref}:1:d1`, driverId: 'd1' })).toBe(false);
  });
});
