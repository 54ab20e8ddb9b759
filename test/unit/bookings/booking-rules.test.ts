// The booking's rules (src/model/bookings.ts): what its workflow's validators refuse, read from the
// state and what waits in its inbox alone, without a workflow.
import { describe, expect, it } from 'vitest';
import * as B from '../../../src/model/bookings.js';

const place = { label: 'A', kind: 'address', lat: 53.48, lon: -2.24, postcodeDistrict: 'M1', council: 'Manchester' };
const job = { pickupAt: '2026-12-02T12:00:00Z', passengers: 1, vehicleType: 'saloon', wheelchair: false, notes: null };

function state(over: Partial<B.BookingState> = {}): B.BookingState {
  return {
    ref: 'TX1',
    identity: 'req-1',
    status: 'dispatching',
    job,
    round: 1,
    driverId: null,
    offer: null,
    candidates: [],
    droppedDriverIds: [],
    cancelReason: null,
    pickup: place,
    dropoff: place,
    ...over,
  };
}

const inbox = (over: Partial<B.BookingInbox> = {}): B.BookingInbox => ({
  operatorId: null,
  emailConfirmed: true,
  cancelling: false,
  reported: [],
  fleetPicking: false,
  opsPicking: false,
  claimants: [],
  settlementSent: false,
  ...over,
});

const type = (r: B.BookingRefusal | null) => r?.type ?? null;

describe('the booking rules', () => {
  it('refuses a creation made for another request, and anything but a cancel once closed', () => {
    expect(type(B.createdRefusal(state(), { identity: 'req-2' }))).toBe(B.BookingFailure.identityMismatch);
    expect(B.createdRefusal(state(), { identity: 'req-1' })).toBeNull();
    expect(B.createdRefusal(state({ identity: null }), { identity: 'req-2' })).toBeNull();
    const done = state({ status: 'completed' });
    expect(type(B.amendRefusal(done, {}, inbox()))).toBe(B.BookingFailure.closed);
    expect(type(B.cancelRefusal(done, {}, inbox()))).toBe(B.BookingFailure.closed);
  });

  it('never cancels a trip with the passenger on board, even one reported and not yet acted on', () => {
    expect(type(B.cancelRefusal(state({ status: 'on_board' }), {}, inbox()))).toBe(B.BookingFailure.tripInProgress);
    const reported = inbox({ reported: ['en_route', 'arrived', 'on_board'] });
    expect(type(B.cancelRefusal(state({ status: 'assigned' }), {}, reported))).toBe(B.BookingFailure.tripInProgress);
    expect(B.cancelRefusal(state({ status: 'assigned' }), {}, inbox())).toBeNull();
  });

  it('takes a new route only while no driver is on the way', () => {
    const route = { pickup: place };
    expect(B.amendRefusal(state({ status: 'assigned' }), { route }, inbox())).toBeNull();
    expect(type(B.amendRefusal(state({ status: 'en_route' }), { route }, inbox()))).toBe(
      B.BookingFailure.driverOnTheWay,
    );
    const moving = inbox({ reported: ['en_route'] });
    expect(type(B.amendRefusal(state({ status: 'assigned' }), { route }, moving))).toBe(
      B.BookingFailure.driverOnTheWay,
    );
    expect(B.amendRefusal(state({ status: 'en_route' }), { route: undefined }, inbox())).toBeNull();
  });

  it('answers a stale click by what became of the job', () => {
    const r = { offerId: 'TX1:1:d1', driverId: 'd1' };
    expect(type(B.offerAnswerRefusal(state(), r))).toBe(B.BookingFailure.offerExpired);
    expect(type(B.offerAnswerRefusal(state({ driverId: 'd2' }), r))).toBe(B.BookingFailure.offerTaken);
    expect(type(B.offerAnswerRefusal(state({ driverId: 'd1' }), r))).toBe(B.BookingFailure.offerAlreadyAccepted);
    const offer = { ...r, round: 1, tier: 'local' as const, expiresAt: job.pickupAt, response: null };
    expect(B.offerAnswerRefusal(state({ offer }), r)).toBeNull();
  });

  it('lets only the operator name a driver for its job, and only ops one for any other', () => {
    const operators = inbox({ operatorId: 'op1' });
    const pick = { operatorId: 'op1', driverId: 'd1' };
    expect(B.fleetPickRefusal(state(), pick, operators)).toBeNull();
    expect(type(B.fleetPickRefusal(state(), { ...pick, operatorId: 'op2' }, operators))).toBe(
      B.BookingFailure.notOperatorJob,
    );
    expect(type(B.fleetPickRefusal(state(), pick, inbox({ ...operators, fleetPicking: true })))).toBe(
      B.BookingFailure.alreadyAssigned,
    );
    expect(type(B.opsPickRefusal(state(), pick, operators))).toBe(B.BookingFailure.notOperatorJob);
    expect(type(B.opsPickRefusal(state(), pick, inbox({ cancelling: true })))).toBe(B.BookingFailure.closed);
    expect(B.opsPickRefusal(state(), pick, inbox())).toBeNull();
  });

  it('refuses a board claim that is plainly not the driver’s, and answers again the one who holds it', () => {
    const c = { driverId: 'd1' };
    expect(B.boardClaimRefusal(state(), c, inbox())).toBeNull();
    expect(type(B.boardClaimRefusal(state(), c, inbox({ claimants: ['d2'] })))).toBe(B.BookingFailure.alreadyAssigned);
    expect(type(B.boardClaimRefusal(state(), c, inbox({ emailConfirmed: false })))).toBe(B.BookingFailure.notClaimable);
    expect(type(B.boardClaimRefusal(state({ droppedDriverIds: ['d1'] }), c, inbox()))).toBe(
      B.BookingFailure.notClaimable,
    );
    const accepted = { round: 1, tier: 'local' as const, driverName: 'D', distanceMeters: null, reason: null, at: '' };
    const held = state({
      status: 'assigned',
      driverId: 'd1',
      candidates: [{ ...accepted, driverId: 'd1', outcome: 'accepted' }],
    });
    expect(B.heldOfferId(held, 'd1')).toBe('TX1:1:d1');
    expect(B.boardClaimRefusal(held, c, inbox({ cancelling: true }))).toBeNull();
  });

  it('takes trip reports forward only, from the assigned driver, a repeat being a retry', () => {
    const held = state({ status: 'assigned', driverId: 'd1' });
    const report = (event: B.TripEvent, s = held, q = inbox()) =>
      type(B.tripReportRefusal(s, { driverId: 'd1', event }, q));
    expect(report('en_route')).toBeNull();
    expect(report('completed')).toBe(B.BookingFailure.invalidTripStep);
    expect(report('en_route', state({ status: 'en_route', driverId: 'd1' }))).toBeNull();
    expect(report('confirm')).toBeNull();
    expect(report('confirm', state({ status: 'on_board', driverId: 'd1' }))).toBe(B.BookingFailure.invalidTripStep);
    expect(report('drop', state({ status: 'on_board', driverId: 'd1' }))).toBe(B.BookingFailure.invalidTripStep);
    expect(report('en_route', state({ status: 'assigned', driverId: 'd2' }))).toBe(B.BookingFailure.notYourJob);
    expect(report('en_route', held, inbox({ cancelling: true }))).toBe(B.BookingFailure.closed);
  });

  it('settles only a completed trip, by its driver, with an amount that can be a payment', () => {
    const done = state({ status: 'completed', driverId: 'd1' });
    const settle = (over: Partial<B.SettleInput> = {}) =>
      type(B.settlementRefusal(done, { driverId: 'd1', amountPence: 1200, method: 'cash', by: 'driver', ...over }));
    expect(settle()).toBeNull();
    expect(settle({ driverId: 'd2' })).toBe(B.BookingFailure.notYourJob);
    expect(settle({ amountPence: 12.5 })).toBe(B.BookingFailure.invalidPayment);
    expect(settle({ amountPence: B.MAX_SETTLEMENT_PENCE + 1 })).toBe(B.BookingFailure.invalidPayment);
    // With the passenger on board, only the driver's own confirmation settles (and completes) the trip.
    const onBoard = state({ status: 'on_board', driverId: 'd1' });
    const early = (s: B.BookingState, over: Partial<B.SettleInput> = {}) =>
      type(B.settlementRefusal(s, { driverId: 'd1', amountPence: 1200, method: 'cash', by: 'driver', ...over }));
    expect(early(onBoard)).toBeNull();
    expect(early(onBoard, { amountPence: -1 })).toBe(B.BookingFailure.invalidPayment);
    expect(early(onBoard, { by: 'provider', driverId: null })).toBe(B.BookingFailure.notCompleted);
    expect(early(onBoard, { by: 'ops', driverId: null })).toBe(B.BookingFailure.notCompleted);
    expect(early(onBoard, { driverId: 'd2' })).toBe(B.BookingFailure.notCompleted);
    expect(early(state({ status: 'arrived', driverId: 'd1' }))).toBe(B.BookingFailure.notCompleted);
    const e = { reason: 'app broken', settlement: { nothingDue: 'goodwill' } };
    expect(B.endTripRefusal(state({ status: 'on_board' }), e, inbox())).toBeNull();
    expect(B.endTripRefusal(done, e, inbox())).toBeNull();
    expect(type(B.endTripRefusal(done, e, inbox({ settlementSent: true })))).toBe(B.BookingFailure.alreadySettled);
    expect(type(B.endTripRefusal(state({ status: 'assigned' }), e, inbox()))).toBe(B.BookingFailure.tripNotInProgress);
  });
});
