// bookingWorkflowV2, the business process top to bottom (docs/dispatch.md): open the record, then turn
// by turn deal with whatever arrived, then do what the state asks: wait for the passenger's confirmation,
// offer the job to the nearest fitting drivers (dispatch.ts, offers.ts), or follow the trip (trip.ts).
// v1/ is the process as released in 0.4.0.
import { allHandlersFinished, condition } from '@temporalio/workflow';
import { acts, db } from '../activities.js';
import type { BookingWorkflowInput, CancelInput } from './definitions.js';
import type { Envelope } from './inbox.js';
import * as model from '../../src/model/bookings.js';
import { firstPageQuery, letFirstPageGo, offerToNamedDriver, runRound, takeBoardClaim } from './dispatch.js';
import { cancelExchangeJob, sendAmendmentToExchangeFleet } from './exchange.js';
import { installHandlers } from './handlers.js';
import { BookingRun, type Next } from './run.js';
import * as S from '../../src/model/booking-state.js';
import { followTrip, releaseDriver, settle, tell } from './trip.js';

export async function bookingWorkflowV2(input: BookingWorkflowInput): Promise<model.BookingState> {
  const run = new BookingRun(input);
  installHandlers(run);
  const toldWithCards = await open(run);
  // Not awaited here: the first round starts in this same task, so a driver who accepts at once finds their offer open.
  const toldBooked = toldWithCards ? Promise.resolve() : tell(run, { kind: 'booked' });
  while ((await turn(run)) === 'again');
  // A trip an exchange fleet drove is settled by that fleet (docs/exchange.md).
  if (run.state.status === 'completed' && !run.state.exchange?.fleetId) await settle(run);
  await toldBooked;
  await condition(allHandlersFinished);
  return run.state;
}

async function turn(run: BookingRun): Promise<Next> {
  const { inbox } = run;
  if (run.firstPage && inbox.interrupted()) await letFirstPageGo(run, run.firstPage);
  const cancel = inbox.take('cancel');
  if (cancel) return cancelBooking(run, cancel.msg.cancel);
  // (Only a trip an exchange fleet drove is closed here; every other closes where it ends.)
  if (run.closed()) return 'closed';
  if (await applyChanges(run)) {
    await sendAmendmentToExchangeFleet(run);
    return 'again';
  }
  // A driver ops named comes first: it interrupts whatever was in progress, its own offer included.
  const pick = inbox.take('opsPick');
  if (pick) {
    await offerToNamedDriver(run, pick.msg.pick, 'local', () => inbox.reply(pick.id));
    return 'again';
  }
  const claim = inbox.take('boardClaim');
  if (claim) {
    inbox.reply(claim.id, await takeBoardClaim(run, claim.msg.claim));
    return 'again';
  }
  if (run.state.status === 'awaiting_confirmation') return awaitEmailConfirmation(run);
  if (run.state.driverId !== null) return followTrip(run);
  return run.operatorId ? awaitOperatorPick(run) : findDriver(run);
}

/**
 * The record first (every route returns once it exists); dispatched at once, it claims the first
 * drivers too and tells the passenger they are booked beside their cards (the reply waits for the
 * cards anyway; a message of its own would be an activity and a workflow task more). True when the
 * passenger was told so.
 */
async function open(run: BookingRun): Promise<boolean> {
  const { booking } = run.input;
  const { job, status } = run.state;
  let toldBooked = false;
  if (status === 'dispatching' && !run.operatorId && !run.confirmationFirst) {
    run.move(S.roundBegun);
    const claim = firstPageQuery(run);
    const page = await db.openBookingWithFirstCard({ booking, job, status, claim, tellBooked: true });
    ({ toldBooked } = page);
    run.firstPage = page;
  } else {
    await db.persistBooking({ booking, job, status });
  }
  run.persisted = true;
  return toldBooked;
}

/** An unverified passenger confirms by the emailed link before pickup, or the booking is cancelled. */
async function awaitEmailConfirmation(run: BookingRun): Promise<Next> {
  const woken = run.emailConfirmed()
    ? 'message'
    : await run.inbox.waitFor(['emailConfirmed'], Math.max(1, run.emailDeadlineMs - Date.now()));
  if (run.emailConfirmed()) await run.setStatus('scheduled');
  else if (woken === 'timeout') return cancelBooking(run, { reason: 'email not confirmed before pickup', by: 'ops' });
  return 'again';
}

async function cancelBooking(run: BookingRun, c: CancelInput): Promise<Next> {
  const { offer, driverId } = run.state;
  await acts.cancelBooking({ ref: run.ref, reason: c.reason, by: c.by, offerId: offer?.offerId ?? null, driverId });
  run.move((s) => S.cancelled(s, c.reason));
  run.markStatus('cancelled');
  await cancelExchangeJob(run);
  return 'closed';
}

/** Whatever changed the plan since the last turn, dealt with one at a time; true when one was. */
async function applyChanges(run: BookingRun): Promise<boolean> {
  const amendments = run.inbox.takeAll('amend');
  const drop = amendments.length > 0 ? undefined : run.inbox.take('drop');
  if (amendments.length > 0) {
    await applyAmendments(run, amendments);
    for (const e of amendments) run.inbox.reply(e.id);
  } else if (drop) {
    await releaseDriver(run, drop.msg.drop);
  } else if (model.holderSuspended(run.state)) {
    // Taken off the suspended driver and dispatched again; releaseDriver tells them and the passenger.
    await releaseDriver(run, { driverId: run.state.driverId!, reason: 'suspended' });
  } else if (run.onBoardWithSuspendedDriver()) {
    run.opsToldOnBoard = true;
    await acts.alertOpsSuspendedOnBoard({ ref: run.ref, driverId: run.state.driverId! });
  } else {
    return false;
  }
  return true;
}

/**
 * Amendments, folded into one. A new pickup or drop-off: the driver holding the job, and any whose card
 * an amendment withdrew, are told before the record changes (their text names the job they knew), and
 * the job is dispatched afresh. Any other change keeps the driver if they still fit.
 */
async function applyAmendments(run: BookingRun, batch: Envelope<'amend'>[]): Promise<void> {
  const amendments = batch.map((e) => e.msg.amend);
  const { job, route, fare } = model.amendmentsFolded(run.state.job, amendments);
  const withdrawnCards = run.withdrawnCards.splice(0);
  run.move((s) => S.amended(s, job));
  let holder = run.state.driverId;
  if (route) {
    const told = holder ? [holder, ...withdrawnCards.filter((d) => d !== holder)] : withdrawnCards;
    const amendment = run.inbox.count('amend');
    for (const driverId of told) await acts.releaseDriver({ ref: run.ref, driverId, reason: 'amended', amendment });
    if (holder) run.released(holder, 'withdrawn', 'amendment');
    holder = null;
  }
  run.move((s) => S.rerouted(s, route, fare));
  const changes = route || fare ? { route: route ?? null, fare: fare ?? null } : {};
  const { driverStillFits } = await acts.applyAmendment({ ref: run.ref, job, driverId: holder, ...changes });
  if (holder && !driverStillFits) {
    await acts.releaseDriver({ ref: run.ref, driverId: holder, reason: 'no longer fits the amended booking' });
    run.released(holder, 'withdrawn', 'amendment');
  }
}

/** An operator's job waits on the operator's dashboard until it picks a driver, and a while past pickup. */
async function awaitOperatorPick(run: BookingRun): Promise<Next> {
  await run.setStatus('scheduled');
  const woken = await run.inbox.waitFor(['fleetPick'], msUntil(run.state.job.pickupAt) + model.UNASSIGNED_GRACE_MS);
  const pick = run.inbox.take('fleetPick');
  if (pick) {
    await offerToNamedDriver(run, pick.msg.pick, 'partner', () => run.inbox.reply(pick.id));
  } else if (woken === 'timeout') {
    await run.setStatus('unassigned');
    return 'closed';
  }
  return 'again';
}

/**
 * At the lead time, a round of the cascade; all tiers exhausted, ops are alerted and the next round
 * waits a backoff, until half an hour past pickup (model.searchEndsAt). Then the booking is closed.
 */
async function findDriver(run: BookingRun): Promise<Next> {
  const { pickupAt } = run.state.job;
  const dispatchAt = model.dispatchTime(run.policy, pickupAt);
  if (Date.now() < dispatchAt) {
    await run.setStatus('scheduled');
    await run.inbox.waitFor([], dispatchAt - Date.now());
    return 'again';
  }
  if ((await runRound(run)) !== 'exhausted') return 'again';
  run.exhaustedRounds += 1;
  await run.setStatus('unassigned');
  await acts.alertOps({ ref: run.ref, round: run.state.round });
  const searchUntil = new Date(model.searchEndsAt(pickupAt)).toISOString();
  if (run.exhaustedRounds === 1) await tell(run, { kind: 'no_driver_yet', searchUntil });
  const waitMs = model.backoffMs(run.policy, run.exhaustedRounds, pickupAt, Date.now());
  // Any message that interrupts (a cancel, a new pickup time, a driver ops name) ends the wait at once.
  if (waitMs !== null) return run.inbox.waitFor([], waitMs).then(() => 'again');
  await tell(run, { kind: 'no_driver_found' });
  return 'closed';
}

function msUntil(iso: string): number {
  return Math.max(0, Date.parse(iso) - Date.now());
}
