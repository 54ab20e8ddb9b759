// A booking handed to an exchange fleet (docs/exchange.md), on Temporal's time-skipping test server
// with fake activities: the fleet's status events arrive as the booking-status hook signals them,
// repeated, late and out of order, and each moves the booking once; a fleet that gives the job back
// is never asked again; amendments and the cancel follow the job; a fleet that finds nobody by
// pickup and a grace loses it.
import { randomUUID } from 'node:crypto';
import type { WorkflowHandle } from '@temporalio/client';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker, type WorkflowBundle } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  amendBookingUpdate,
  bookingCreatedUpdate,
  bookingStateQuery,
  bookingWorkflowId,
  cancelBookingUpdate,
  exchangeStatusSignal,
  type BookingWorkflowInput,
} from '../../workflows/bookings/definitions.js';
import type { BookingState, ExchangeStatusInput } from '../../src/model/bookings.js';
import { fakeActivities, type FakeWorld } from '../support/fake-activities.js';
import { startTimeSkipping, until } from '../support/time-skipping.js';

let env: TestWorkflowEnvironment;
let bundle: WorkflowBundle;

beforeAll(async () => {
  ({ env, bundle } = await startTimeSkipping());
}, 180_000);
afterAll(async () => env?.teardown());

const HOUR = 3_600_000;
const policy = {
  dispatchLeadSeconds: 900,
  offerTimeoutSeconds: 60,
  retryBaseSeconds: 60,
  maxRetrySeconds: 900,
  noShowGraceSeconds: 600,
};
const place = { label: 'Test Town', kind: 'place', lat: 52, lon: -1, postcodeDistrict: null, council: null };
const DRIVER = { name: 'Bea Exchange', vehicle: 'Skoda Octavia', plate: 'TS12 ABC' };

function input(ref: string, nowMs: number): BookingWorkflowInput {
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
      pickupAt: new Date(nowMs + 10 * 60_000).toISOString(),
      passengers: 1,
      vehicleType: 'saloon',
      wheelchair: false,
      notes: null,
    },
    policy,
    awaitEmailConfirmation: false,
  };
}

interface Fleets {
  /** The fleets that exist, in the order they are asked. */
  ids: string[];
  /** Fleets that refuse a new job. */
  refusing?: string[];
  /** Fleets whose operator licence has lapsed by the pickup. */
  lapsed?: string[];
}

/** No drivers of ours at all; exchange fleets as given. One task queue per test. */
async function scenario(
  fleets: Fleets,
  run: (t: { world: FakeWorld; b: WorkflowHandle }) => Promise<void>,
): Promise<void> {
  const { activities, world } = fakeActivities([]);
  activities.nextExchangeFleet = async (q) => {
    world.calls.push(['nextExchangeFleet', q]);
    const id = fleets.ids.find((f) => !q.tried.includes(f));
    if (!id) return null;
    return {
      fleetId: id,
      name: `Fleet ${id}`,
      refusal: fleets.lapsed?.includes(id) ? 'operator_licence_expired' : null,
    };
  };
  activities.sendExchangeJob = async (s) => {
    world.calls.push(['sendExchangeJob', s]);
    return s.action === 'new' && fleets.refusing?.includes(s.fleetId)
      ? { outcome: 'rejected', code: 'address_uncertain' }
      : { outcome: 'accepted', code: 'booked' };
  };
  const taskQueue = `wf-x-${randomUUID()}`;
  const worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    workflowBundle: bundle,
    activities,
  });
  const ref = `TXX${randomUUID().slice(0, 7).toUpperCase()}`;
  await worker.runUntil(async () => {
    const b = await env.client.workflow.start('bookingWorkflowV2', {
      workflowId: bookingWorkflowId(ref),
      taskQueue,
      args: [input(ref, await env.currentTimeMs())],
    });
    try {
      await b.executeUpdate(bookingCreatedUpdate, { args: [{ identity: null }] });
      await run({ world, b });
    } finally {
      await b.terminate('test over').catch(() => undefined);
    }
  });
}

const state = (b: WorkflowHandle): Promise<BookingState> => b.query(bookingStateQuery);
const statusIs = (b: WorkflowHandle, status: string) =>
  until(
    () => state(b),
    (s) => s.status === status,
    `status ${status}`,
  );
const heldBy = (b: WorkflowHandle, fleetId: string | null) =>
  until(
    () => state(b),
    (s) => (s.exchange?.fleetId ?? null) === fleetId && s.status !== 'dispatching',
    `held by ${fleetId}`,
  );
const event = (
  fleetId: string,
  sequence: number,
  status: string,
  driver: ExchangeStatusInput['driver'] = null,
): ExchangeStatusInput => ({
  fleetId,
  eventId: `evt_${fleetId}_${sequence}`,
  sequence,
  status,
  driver,
});
const applied = (world: FakeWorld) =>
  world.called('applyExchangeStatus') as { sequence: number; status: string | null; driver: unknown }[];
const sent = (world: FakeWorld) =>
  (world.called('sendExchangeJob') as { fleetId: string; action: string }[]).map((s) => `${s.action}:${s.fleetId}`);

describe('a booking handed to an exchange fleet (time-skipping)', () => {
  it('follows the fleet to completed, each event once, however often and in whatever order it arrives', async () => {
    await scenario({ ids: ['fx'] }, async ({ world, b }) => {
      await heldBy(b, 'fx');
      await statusIs(b, 'offered');
      expect(sent(world)).toEqual(['new:fx']);

      await b.signal(exchangeStatusSignal, event('fx', 1, 'dispatching'));
      await b.signal(exchangeStatusSignal, event('fx', 3, 'assigned', DRIVER));
      const assigned = await statusIs(b, 'assigned');
      expect(assigned.driverId).toBeNull();
      // A redelivery and a late event: nothing moves.
      await b.signal(exchangeStatusSignal, event('fx', 3, 'assigned', DRIVER));
      await b.signal(exchangeStatusSignal, event('fx', 2, 'offered'));
      // Another fleet's event about this booking: not its job.
      await b.signal(exchangeStatusSignal, event('fy', 9, 'completed', DRIVER));
      // Out of order: en_route (5) before arrived... and arrived's predecessor (4) only after it.
      await b.signal(exchangeStatusSignal, event('fx', 5, 'en_route', DRIVER));
      await statusIs(b, 'en_route');
      await b.signal(exchangeStatusSignal, event('fx', 4, 'assigned', DRIVER));
      await b.signal(exchangeStatusSignal, event('fx', 6, 'arrived', DRIVER));
      await statusIs(b, 'arrived');
      await b.signal(exchangeStatusSignal, event('fx', 7, 'on_board', DRIVER));
      await statusIs(b, 'on_board');
      // The passenger is on board at the fleet: our cancel is refused as for any trip under way.
      await expect(
        b.executeUpdate(cancelBookingUpdate, { args: [{ reason: 'no', by: 'passenger' }] }),
      ).rejects.toThrow();
      await b.signal(exchangeStatusSignal, event('fx', 8, 'completed', DRIVER));
      // Closed at once: the fleet that drove it settles it.
      const final = (await b.result()) as BookingState;
      expect(final.status).toBe('completed');
      const moved = applied(world)
        .filter((a) => a.status !== null)
        .map((a) => [a.sequence, a.status]);
      expect(moved).toEqual([
        [3, 'assigned'],
        [5, 'en_route'],
        [6, 'arrived'],
        [7, 'on_board'],
        [8, 'completed'],
      ]);
      expect(applied(world).map((a) => a.sequence)).toEqual([...new Set(applied(world).map((a) => a.sequence))]);
      expect(final.candidates.filter((c) => c.tier === 'partner').map((c) => [c.driverId, c.outcome])).toEqual([
        ['exchange:fx', 'offered'],
        ['exchange:fx', 'accepted'],
      ]);
    });
  });

  it('passes over a fleet that refuses, and one that gives the job back is never asked again', async () => {
    await scenario({ ids: ['fa', 'fb', 'fc'], refusing: ['fa'] }, async ({ world, b }) => {
      await heldBy(b, 'fb');
      await b.signal(exchangeStatusSignal, event('fb', 2, 'assigned', DRIVER));
      await statusIs(b, 'assigned');
      // Its driver dropped the job: offered to the fleet again, our passenger sees no driver.
      await b.signal(exchangeStatusSignal, event('fb', 3, 'dispatching'));
      await statusIs(b, 'offered');
      expect(applied(world).at(-1)).toMatchObject({ sequence: 3, status: 'offered', driver: null });
      // It cancels: the cascade starts afresh, and the next fleet gets it.
      await b.signal(exchangeStatusSignal, event('fb', 4, 'cancelled'));
      await heldBy(b, 'fc');
      expect(sent(world)).toEqual(['new:fa', 'new:fb', 'new:fc']);
      expect(world.called('endExchangeJob')).toEqual([expect.objectContaining({ fleetId: 'fb', state: 'released' })]);
      const s = await state(b);
      expect(s.exchange?.tried).toEqual(['fa', 'fb', 'fc']);
      // The new fleet numbers its own events from 1.
      await b.signal(exchangeStatusSignal, event('fc', 1, 'assigned', DRIVER));
      await statusIs(b, 'assigned');
    });
  });

  it('never hands the job to a fleet whose operator licence has lapsed, and the decision log says why', async () => {
    await scenario({ ids: ['fl', 'fm'], lapsed: ['fl'] }, async ({ world, b }) => {
      await heldBy(b, 'fm');
      expect(sent(world)).toEqual(['new:fm']);
      const s = await state(b);
      // Asked again next round (its licence may be renewed by then): not among the fleets tried.
      expect(s.exchange?.tried).toEqual(['fm']);
      expect(
        s.candidates.filter((c) => c.tier === 'partner').map((c) => [c.driverId, c.outcome, c.reason ?? null]),
      ).toEqual([
        ['exchange:fl', 'skipped', 'operator_licence_expired'],
        ['exchange:fm', 'offered', null],
      ]);
    });
  });

  it('sends the fleet our amendments, and our cancel', async () => {
    await scenario({ ids: ['fx'] }, async ({ world, b }) => {
      await heldBy(b, 'fx');
      await b.executeUpdate(amendBookingUpdate, { args: [{ passengers: 3 }] });
      await until(
        () => sent(world),
        (s) => s.includes('amend:fx'),
        'the amendment sent',
      );
      await b.signal(exchangeStatusSignal, event('fx', 2, 'assigned', DRIVER));
      await statusIs(b, 'assigned');
      const cancelled = await b.executeUpdate(cancelBookingUpdate, {
        args: [{ reason: 'plans changed', by: 'passenger' }],
      });
      expect(cancelled.status).toBe('cancelled');
      await b.result();
      expect(sent(world)).toEqual(['new:fx', 'amend:fx', 'cancel:fx']);
      expect(world.called('endExchangeJob')).toEqual([expect.objectContaining({ fleetId: 'fx', state: 'cancelled' })]);
      // Its own cancel echoing back changes nothing (the workflow is closed).
    });
  });

  it("waits as scheduled when an amendment moves the pickup hours away, then shows the fleet's last word again", async () => {
    await scenario({ ids: ['fx'] }, async ({ world, b }) => {
      await heldBy(b, 'fx');
      await b.signal(exchangeStatusSignal, event('fx', 2, 'assigned', DRIVER));
      await statusIs(b, 'assigned');
      const later = new Date((await env.currentTimeMs()) + 3 * HOUR).toISOString();
      await b.executeUpdate(amendBookingUpdate, { args: [{ pickupAt: later }] });
      await statusIs(b, 'scheduled');
      // Sent at once, not when our booking next looks for a driver.
      await until(
        () => sent(world),
        (s) => s.includes('amend:fx'),
        'the amendment sent',
      );
      await env.sleep(3 * HOUR - 10 * 60_000);
      await statusIs(b, 'assigned');
      expect(sent(world)).toEqual(['new:fx', 'amend:fx']);
      await b.signal(exchangeStatusSignal, event('fx', 3, 'en_route', DRIVER));
      await statusIs(b, 'en_route');
    });
  });

  it('takes the job back from a fleet that found nobody by pickup and an hour after it', async () => {
    await scenario({ ids: ['fx'] }, async ({ world, b }) => {
      await heldBy(b, 'fx');
      await b.signal(exchangeStatusSignal, event('fx', 2, 'unassigned'));
      await until(
        () => applied(world),
        (a) => a.length === 1,
        'the unassigned event applied',
      );
      await env.sleep(10 * 60_000 + HOUR + 1000);
      await statusIs(b, 'unassigned');
      expect(sent(world)).toEqual(['new:fx', 'cancel:fx']);
      expect(world.called('endExchangeJob')).toEqual([expect.objectContaining({ fleetId: 'fx', state: 'released' })]);
    });
  });
});
