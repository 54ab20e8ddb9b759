// The booking's state model (src/model/booking-state.ts): each named transition, without a workflow,
// and the readings and times src/model/bookings.ts derives from the state.
import { describe, expect, it } from 'vitest';
import type { BookingWorkflowInput } from '../../../workflows/bookings/definitions.js';
import * as B from '../../../src/model/bookings.js';
import * as S from '../../../src/model/booking-state.js';

const NOW = Date.parse('2026-12-02T12:00:00Z');
const place = { label: 'A', kind: 'address', lat: 53.48, lon: -2.24, postcodeDistrict: 'M1', council: 'Manchester' };
const policy: B.DispatchPolicy = {
  dispatchLeadSeconds: 900,
  offerTimeoutSeconds: 60,
  retryBaseSeconds: 60,
  maxRetrySeconds: 900,
  noShowGraceSeconds: 600,
};

function input(pickupInMs: number, over: Partial<BookingWorkflowInput> = {}): BookingWorkflowInput {
  return {
    booking: {
      ref: 'TX1',
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
      dropoff: { ...place, label: 'B' },
      pickupArea: 'M1',
      farePence: 1200,
      fareSource: 'tariff',
      distanceM: 5000,
      durationS: 900,
      requestFingerprint: null,
    },
    job: {
      pickupAt: new Date(NOW + pickupInMs).toISOString(),
      passengers: 1,
      vehicleType: 'saloon',
      wheelchair: false,
      notes: null,
    },
    policy,
    awaitEmailConfirmation: false,
    ...over,
  };
}

const offer = (driverId: string) => ({
  offerId: `TX1:1:${driverId}`,
  driverId,
  round: 1,
  tier: 'local' as const,
  expiresAt: new Date(NOW + 60_000).toISOString(),
  response: null,
  seen: false,
});

describe('the booking state model', () => {
  it('opens dispatching, scheduled or awaiting confirmation, with the fare and places booked', () => {
    expect(S.opened(input(0), NOW)).toMatchObject({
      status: 'dispatching',
      round: 0,
      driverId: null,
      fare: { farePence: 1200 },
    });
    expect(S.opened(input(3_600_000), NOW).status).toBe('scheduled');
    expect(S.opened(input(0, { awaitEmailConfirmation: true }), NOW).status).toBe('awaiting_confirmation');
  });

  it('shows the cards out as a group whose first is the offer, and records answers and openings on them', () => {
    const s = S.offersOut(S.opened(input(0), NOW), [offer('d1'), offer('d2')]);
    expect(s.offer?.driverId).toBe('d1');
    const answered = S.seen(S.answered(s, 'TX1:1:d2', 'accepted'), 'TX1:1:d1');
    expect(B.openOffer(answered, { offerId: 'TX1:1:d2', driverId: 'd2' })?.response).toBe('accepted');
    expect(B.openOffer(answered, { offerId: 'TX1:1:d2', driverId: 'd1' })).toBeUndefined();
    expect(answered.offer?.seen).toBe(true);
    // Transitions never change the state they were given.
    expect(s.offer?.seen).toBe(false);
    expect(S.offersOut(s, []).group).toBeNull();
  });

  it('assigns a driver (no card left out), releases them to dispatch again with a line in the log', () => {
    const s = S.assigned(S.offersOut(S.opened(input(0), NOW), [offer('d1')]), 'd1');
    expect(s).toMatchObject({ status: 'assigned', driverId: 'd1', offer: null, group: null });
    const r = S.droppedBy(S.released(s, { driverId: 'd1', outcome: 'dropped', reason: 'dropped', at: 'now' }), 'd1');
    expect(r).toMatchObject({ status: 'dispatching', driverId: null, droppedDriverIds: ['d1'] });
    expect(r.candidates.at(-1)).toMatchObject({ driverId: 'd1', outcome: 'dropped', reason: 'dropped', tier: 'local' });
  });

  it('takes a suspended holder off the job unless the passenger is on board, and counts a suspension once', () => {
    const held = S.suspended(S.suspended(S.assigned(S.opened(input(0), NOW), 'd1'), 'd1'), 'd1');
    expect(held.suspendedDriverIds).toEqual(['d1']);
    expect(B.holderSuspended(held)).toBe(true);
    expect(B.holderSuspended(S.statusSet(held, 'on_board'))).toBe(false);
    expect(B.holderSuspended(S.statusSet(held, 'completed'))).toBe(false);
  });

  it('folds a batch of amendments: later fields win, the route and fare are the last given', () => {
    const job = input(0).job;
    const route = {
      pickupQuery: 'c',
      dropoffQuery: 'd',
      pickup: place,
      dropoff: place,
      pickupArea: 'M2',
      distanceM: 1,
      durationS: 1,
    };
    const folded = B.amendmentsFolded(job, [
      { passengers: 2, route },
      { passengers: 3, notes: 'gate 4' },
      { fare: { farePence: 900, fareSource: 'partner' } },
    ]);
    expect(folded.job).toEqual({ ...job, passengers: 3, notes: 'gate 4' });
    expect(folded.route).toBe(route);
    expect(folded.fare).toEqual({ farePence: 900, fareSource: 'partner' });
    const moved = S.rerouted(S.opened(input(0), NOW), { ...route, pickup: { ...place, label: 'C' } }, folded.fare);
    expect(moved.pickup?.label).toBe('C');
    expect(moved.fare).toEqual({ farePence: 900, fareSource: 'partner' });
  });

  it('cancels with the reason, dropping any offer', () => {
    const s = S.cancelled(S.offersOut(S.opened(input(0), NOW), [offer('d1')]), 'changed plans');
    expect(s).toMatchObject({ status: 'cancelled', offer: null, cancelReason: 'changed plans' });
    expect(B.isClosed(s)).toBe(true);
  });

  it('lets a late-accepting driver have the late-accept window, others pickup plus the grace', () => {
    const pickupAt = new Date(NOW).toISOString();
    const grace = NOW + 600_000;
    expect(B.noShowTime(policy, pickupAt, 0)).toBe(grace);
    expect(B.noShowTime(policy, pickupAt, NOW - 3_600_000)).toBe(grace);
    expect(B.noShowTime(policy, pickupAt, NOW + 300_000)).toBe(NOW + 300_000 + 600_000);
  });

  it('asks a driver who accepted well ahead to confirm an hour before pickup', () => {
    const pickupAt = new Date(NOW + 3 * 3_600_000).toISOString();
    expect(B.confirmTimes(policy, pickupAt)).toEqual({ askAt: NOW + 2 * 3_600_000, deadline: NOW + 2.5 * 3_600_000 });
    expect(B.acceptedWellAhead(policy, pickupAt, NOW)).toBe(true);
    expect(B.acceptedWellAhead(policy, pickupAt, NOW + 2.5 * 3_600_000)).toBe(false);
  });

  it('backs off exhausted rounds: doubling before pickup, every 2 minutes while the passenger waits, over half an hour past pickup', () => {
    const inAnHour = new Date(NOW + 3_600_000).toISOString();
    expect([1, 2, 3, 5].map((n) => B.backoffMs(policy, n, inAnHour, NOW))).toEqual([60_000, 120_000, 240_000, 900_000]);
    // One round at the pickup time itself.
    expect(B.backoffMs(policy, 1, new Date(NOW + 10_000).toISOString(), NOW)).toBe(10_000);
    // A "now" booking: the passenger is already waiting.
    const now = new Date(NOW).toISOString();
    expect([1, 2, 3, 6].map((n) => B.backoffMs(policy, n, now, NOW + 60_000))).toEqual([
      60_000, 120_000, 120_000, 120_000,
    ]);
    // The last round at the end of the search, and then none.
    expect(B.backoffMs(policy, 9, now, NOW + 29 * 60_000)).toBe(60_000);
    expect(B.searchEndsAt(now)).toBe(NOW + 30 * 60_000);
    expect(B.backoffMs(policy, 10, now, NOW + 30 * 60_000)).toBeNull();
  });

  it('keeps the exchange fleets tried when one lets the job go', () => {
    const held = S.exchangeChanged(S.opened(input(0), NOW), { fleetId: 'f1', tried: ['f1'], pending: true });
    const gone = S.exchangeChanged(held, { ...B.NO_EXCHANGE, tried: held.exchange!.tried });
    expect(gone.exchange).toMatchObject({ fleetId: null, tried: ['f1'], pending: false });
  });
});
