// One booking from creation to completion or cancellation, read top to bottom as the business
// process: open the record, wait for the passenger's confirmation if one is awaited, then until the
// booking closes find a driver (the cascade, or an operator's pick) and follow the trip, dealing
// first with whatever arrived meanwhile (a cancel, an amendment, a driver dropping out or being
// suspended); a completed trip then waits for its settlement.
// State and transitions: run.ts. Messages: handlers.ts. Finding a driver: cascade.ts, offer.ts.
import { allHandlersFinished, condition, patched } from '@temporalio/workflow';
import { acts, db, jobCardActivities } from './activities.js';
import {
  firstPageQuery,
  letFirstPageGo,
  offerToFleetDriver,
  offerToOpsPick,
  runCascadeRound,
  takeBoardClaim,
} from './cascade.js';
import { cancelExchangeJob, installExchangeHandlers, sendAmendmentToExchangeFleet } from './exchange.js';
import {
  isNextTripStep,
  type AmendedFare,
  type AmendedRoute,
  type BookingState,
  type BookingWorkflowInput,
  type DriverDroppedInput,
  type FleetAssignInput,
  type JobSpec,
  type PassengerNews,
  type TripProgress,
  passengerHearsFromUs,
} from './definitions.js';
import { installHandlers } from './handlers.js';
import { BookingRun } from './run.js';

/** After pickup time an unassigned booking stays cancellable this long before the workflow closes. */
const UNASSIGNED_GRACE_MS = 60 * 60_000;
/** An unconfirmed booking waits at least this long for the passenger to open the emailed link. */
const EMAIL_CONFIRM_MIN_MS = 30 * 60_000;
/** How long a completed trip waits for the driver (or a provider) to confirm what was paid. */
const SETTLEMENT_WINDOW_MS = 7 * 24 * 60 * 60_000;

/**
 * Patch (issue 22): an amendment may carry a new pickup or drop-off and a new fare. With one, the
 * driver holding the job (or its withdrawn card) is told and released before the amendment is
 * written, and the amendment activity writes the route and fare too. Only amendments carrying a
 * route or fare reach the check, which bookings of release 0.1.0 never received.
 */
export const AMEND_ROUTE_AND_FARE = 'amend-route-and-fare';

/**
 * Patch (issue 23): the passenger is told at every turn by the workflow (tellPassenger): booked,
 * their driver replaced, no driver yet, no driver found, and a receipt once paid. Before it only
 * v1 bookings were emailed when opened, and only a suspended driver's passenger heard of a change.
 */
export const PASSENGER_TOLD = 'passenger-told-at-every-turn';

/**
 * Patch (issue 24): a driver who accepted a job well ahead (advance allocation) confirms on the
 * day: asked an hour before pickup, and replaced if they have not confirmed (or started) half an
 * hour before it, while there is still time to find another.
 */
export const CONFIRM_ON_THE_DAY = 'confirm-on-the-day';
/** Defaults for bookings whose policy does not say (DispatchPolicy.confirmAskSeconds, confirmDeadlineSeconds). */
const CONFIRM_ASK_MS = 60 * 60_000;
const CONFIRM_DEADLINE_MS = 30 * 60_000;

/** Patch (issue 24): ops hand a booking nobody holds to a driver they name (offerToDriver). */
export const OPS_OFFER_TO_DRIVER = 'ops-offer-to-driver';

/**
 * Patch (issue 24): a driver takes a pre-booked job from the upcoming-jobs board (claimUpcomingJob):
 * the main loop claims and assigns it to them (claimUpcomingJob, assignDriver: no job card), ending
 * a wait for the dispatch time for good. Only bookings that received a claim reach the check.
 */
export const CLAIM_UPCOMING = 'claim-upcoming';

/**
 * Patch (issue 25): a driver who accepts late (after pickup plus the no-show grace, or so close to
 * it that less than DispatchPolicy.lateAcceptWindowSeconds is left) has that long from accepting to
 * report moving before the no-show watch lets them go. Before it the watch's timer was its floor of
 * one second, and the job went back to dispatching a second after a late acceptance. Only bookings
 * accepted with less than the window left reach the check (with the defaults, window = grace, an
 * immediate booking's driver does: they accept after its pickup time).
 */
export const LATE_ACCEPT_WINDOW = 'late-accept-window';
/** Default for bookings whose policy does not say (DispatchPolicy.lateAcceptWindowSeconds). */
const LATE_ACCEPT_WINDOW_MS = 10 * 60_000;

type JobCards = ReturnType<typeof jobCardActivities>;
/** What a step of the main loop leaves: go round again, or the booking is closed. */
type Next = 'again' | 'closed';

export async function bookingWorkflow(input: BookingWorkflowInput): Promise<BookingState> {
  const run = new BookingRun(input);
  const jobCards = jobCardActivities(input.policy);
  installHandlers(run);
  installExchangeHandlers(run);

  await open(run);
  // The passenger hears they are booked while the first driver's card is already out. Not awaited
  // here: the round starts in this same task, so a driver who accepts at once finds their offer open.
  const toldBooked = patched(PASSENGER_TOLD) ? tell(run, { kind: 'booked' }) : null;
  if (!toldBooked && run.confirmationFirst) {
    await acts.sendBookingConfirmation({ ref: run.ref, awaitingConfirmation: run.input.awaitEmailConfirmation });
  }
  await awaitEmailConfirmation(run);
  for (;;) {
    if (run.firstPage && run.interrupted()) await letFirstPageGo(run, run.firstPage);
    if (run.cancelRequest) {
      await cancel(run);
      break;
    }
    // (Only a trip an exchange fleet drove is closed here; every other closes where it ends.)
    if (run.closed()) break;
    if (await applyChanges(run)) {
      await sendAmendmentToExchangeFleet(run);
      continue;
    }
    if (run.opsPick && patched(OPS_OFFER_TO_DRIVER)) {
      // Taken first: a pick still waiting interrupts whatever is in progress, its own offer included.
      const pick = run.opsPick;
      run.opsPick = null;
      await offerToOpsPick(run, jobCards, pick);
      continue;
    }
    if (run.boardClaim && patched(CLAIM_UPCOMING)) {
      await takeBoardClaim(run);
      continue;
    }
    const next =
      run.state.driverId !== null
        ? await followTrip(run)
        : run.operatorId
          ? await awaitOperatorPick(run, jobCards)
          : await findDriver(run, jobCards);
    if (next === 'closed') break;
  }
  // A trip an exchange fleet drove is settled by that fleet (docs/exchange.md).
  if (run.state.status === 'completed' && !run.state.exchange?.fleetId) await settle(run);

  await toldBooked;
  await condition(allHandlersFinished);
  return run.state;
}

/**
 * The record is written first: every route returns only once it exists (bookingCreated). A booking
 * dispatched at once (no confirmation email to send or wait for, no operator) claims its first
 * driver and sends the job card in the same step.
 */
async function open(run: BookingRun): Promise<void> {
  const { booking } = run.input;
  // (A booking waiting for its email to be confirmed starts as awaiting_confirmation, not dispatching.)
  const dispatchAtOnce = run.state.status === 'dispatching' && !run.operatorId && !run.confirmationFirst;
  if (dispatchAtOnce) {
    run.state.round = 1;
    run.firstPage = await db.openBookingWithFirstCard({
      booking,
      job: run.state.job,
      status: run.state.status,
      claim: firstPageQuery(run),
    });
  } else {
    await db.persistBooking({ booking, job: run.state.job, status: run.state.status });
  }
  run.persisted = true;
}

/** The passenger hears the news by the channel they gave, unless a partner's customer (the partner tells them). */
async function tell(run: BookingRun, news: PassengerNews): Promise<void> {
  if (passengerHearsFromUs(run.input.booking.source)) await acts.tellPassenger({ ref: run.ref, news });
}

/** An unverified passenger confirms by the emailed link before pickup, or the booking is cancelled. */
async function awaitEmailConfirmation(run: BookingRun): Promise<void> {
  if (run.emailConfirmed) return;
  const confirmed = await condition(
    () => run.emailConfirmed || run.cancelRequest !== null,
    Math.max(msUntil(run.state.job.pickupAt), EMAIL_CONFIRM_MIN_MS),
  );
  if (!confirmed) run.cancelRequest = { reason: 'email not confirmed before pickup', by: 'ops' };
  else if (!run.cancelRequest) await run.setStatus('scheduled');
}

async function cancel(run: BookingRun): Promise<void> {
  const c = run.cancelRequest!;
  await acts.cancelBooking({
    ref: run.ref,
    reason: c.reason,
    by: c.by,
    offerId: run.state.offer?.offerId ?? null,
    driverId: run.state.driverId,
  });
  run.cancelled(c.reason);
  await cancelExchangeJob(run);
}

/** Whatever changed the plan since the last step, dealt with one at a time; true when one was. */
async function applyChanges(run: BookingRun): Promise<boolean> {
  if (run.amendments.length > 0) {
    await applyAmendments(run);
  } else if (run.drop) {
    await releaseDriver(run, run.drop);
  } else if (run.holderSuspended()) {
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

async function applyAmendments(run: BookingRun): Promise<void> {
  const batch = run.amendments.splice(0);
  const withdrawnCards = run.withdrawnCards.splice(0);
  const next = { ...run.state.job };
  let route: AmendedRoute | undefined;
  let fare: AmendedFare | undefined;
  for (const a of batch) {
    if (a.pickupAt !== undefined) next.pickupAt = a.pickupAt;
    if (a.passengers !== undefined) next.passengers = a.passengers;
    if (a.vehicleType !== undefined) next.vehicleType = a.vehicleType;
    if (a.wheelchair !== undefined) next.wheelchair = a.wheelchair;
    if (a.notes !== undefined) next.notes = a.notes;
    if (a.route !== undefined) route = a.route;
    if (a.fare !== undefined) fare = a.fare;
  }
  run.state.job = next;
  const driverId = run.state.driverId;
  if ((route || fare) && patched(AMEND_ROUTE_AND_FARE)) {
    await applyRouteAndFare(run, { job: next, route, fare, driverId, withdrawnCards, ticket: run.amendmentsReceived });
    run.amendmentsApplied += batch.length;
    return;
  }
  const { driverStillFits } = await acts.applyAmendment({ ref: run.ref, job: next, driverId });
  if (driverId && !driverStillFits) {
    await acts.releaseDriver({ ref: run.ref, driverId, reason: 'no longer fits the amended booking' });
    run.released(driverId, 'withdrawn', 'amendment');
  }
  run.amendmentsApplied += batch.length;
}

/**
 * A new pickup or drop-off (or fare), before any driver is on the way: the driver holding the job,
 * and any whose card the amendment withdrew, are told it is withdrawn, before the record changes
 * (their text names the job they knew); then the amended job is written and dispatched again from
 * the start. A fare change alone keeps the driver if they still fit, like any other amendment.
 */
async function applyRouteAndFare(
  run: BookingRun,
  a: {
    job: JobSpec;
    route: AmendedRoute | undefined;
    fare: AmendedFare | undefined;
    driverId: string | null;
    withdrawnCards: string[];
    ticket: number;
  },
): Promise<void> {
  let holder = a.driverId;
  if (a.route) {
    const told = holder ? [holder, ...a.withdrawnCards.filter((d) => d !== holder)] : a.withdrawnCards;
    for (const driverId of told) {
      await acts.releaseDriver({ ref: run.ref, driverId, reason: 'amended', amendment: a.ticket });
    }
    if (holder) run.released(holder, 'withdrawn', 'amendment');
    holder = null;
  }
  run.rerouted(a.route, a.fare);
  const { driverStillFits } = await acts.applyAmendment({
    ref: run.ref,
    job: a.job,
    driverId: holder,
    route: a.route ?? null,
    fare: a.fare ?? null,
  });
  if (holder && !driverStillFits) {
    await acts.releaseDriver({ ref: run.ref, driverId: holder, reason: 'no longer fits the amended booking' });
    run.released(holder, 'withdrawn', 'amendment');
  }
}

async function releaseDriver(run: BookingRun, d: DriverDroppedInput): Promise<void> {
  run.drop = null;
  if (d.driverId !== run.state.driverId) return;
  await acts.releaseDriver({ ref: run.ref, driverId: d.driverId, reason: d.reason });
  run.state.droppedDriverIds.push(d.driverId);
  run.released(d.driverId, d.reason === 'suspended' || d.reason === 'released' ? 'withdrawn' : 'dropped', d.reason);
  if (patched(PASSENGER_TOLD)) await tell(run, { kind: 'driver_replaced', driverId: d.driverId });
}

/** An operator's job waits on the operator's dashboard until it picks a driver, and a while past pickup. */
async function awaitOperatorPick(run: BookingRun, jobCards: JobCards): Promise<Next> {
  await run.setStatus('scheduled');
  const picked = await condition(
    () => run.fleetPick !== null || run.interrupted(),
    msUntil(run.state.job.pickupAt) + UNASSIGNED_GRACE_MS,
  );
  if (!picked) {
    await run.setStatus('unassigned');
    return 'closed';
  }
  if (run.fleetPick) {
    const pick: FleetAssignInput = run.fleetPick;
    await offerToFleetDriver(run, jobCards, pick);
    run.fleetPick = null;
  }
  return 'again';
}

/**
 * Dispatch at the lead time before pickup; a round of the cascade; when every tier is exhausted,
 * ops are alerted and the next round waits on a backoff, until pickup and a grace after it.
 */
async function findDriver(run: BookingRun, jobCards: JobCards): Promise<Next> {
  const policy = run.policy;
  const dispatchAt = Date.parse(run.state.job.pickupAt) - policy.dispatchLeadSeconds * 1000;
  if (Date.now() < dispatchAt) {
    await run.setStatus('scheduled');
    await condition(() => run.interrupted(), dispatchAt - Date.now());
    return 'again';
  }
  const result = await runCascadeRound(run, jobCards);
  if (result !== 'exhausted') return 'again';

  run.exhaustedRounds += 1;
  await run.setStatus('unassigned');
  await acts.alertOps({ ref: run.ref, round: run.state.round });
  if (run.exhaustedRounds === 1 && patched(PASSENGER_TOLD)) await tell(run, { kind: 'no_driver_yet' });
  const untilPickup = msUntil(run.state.job.pickupAt);
  if (untilPickup <= 0) {
    // Past pickup with nobody found: stop retrying but stay cancellable for a while.
    if (await condition(() => run.interrupted(), UNASSIGNED_GRACE_MS)) return 'again';
    if (patched(PASSENGER_TOLD)) await tell(run, { kind: 'no_driver_found' });
    return 'closed';
  }
  const backoff = Math.min(policy.retryBaseSeconds * 2 ** (run.exhaustedRounds - 1), policy.maxRetrySeconds) * 1000;
  await condition(() => run.interrupted(), Math.min(backoff, untilPickup));
  return 'again';
}

/**
 * Assigned: wait for the trip to progress, or for something that changes the plan. A driver who
 * has not reported moving by pickup time plus the grace is a no-show and the job goes to another;
 * one on the way may be stuck in traffic.
 */
async function followTrip(run: BookingRun): Promise<Next> {
  const woken = () => run.interrupted() || run.progress !== null;
  if (run.state.status === 'assigned' && acceptedWellAhead(run) && patched(CONFIRM_ON_THE_DAY)) {
    if ((await confirmOnTheDay(run)) === 'again') return 'again';
  }
  if (run.state.status === 'assigned') {
    const noShowAt = noShowTime(run);
    if (!(await condition(woken, Math.max(1000, noShowAt - Date.now())))) {
      run.drop = { driverId: run.state.driverId!, reason: 'no_show' };
      return 'again';
    }
  } else {
    await condition(woken);
  }
  if (run.progress === null) return 'again';
  const p: TripProgress = run.progress;
  run.progress = null;
  // Reports arriving as signals are checked here; the reportTrip update's validator already refuses them.
  if (!isNextTripStep(run.state.status, p)) return 'again';
  await run.setStatus(p);
  return p === 'completed' || p === 'no_show' ? 'closed' : 'again';
}

/**
 * When the assigned driver who has not reported moving is let go: pickup plus the grace, or, for a
 * driver who accepted late, the late-accept window after they accepted (counted from the
 * acceptance, so a wake-up meanwhile does not shorten it). Not their ETA: the watch waits for them
 * to set off, not to arrive, and once on the way they are never a no-show.
 */
function noShowTime(run: BookingRun): number {
  const graceEnds = Date.parse(run.state.job.pickupAt) + run.policy.noShowGraceSeconds * 1000;
  const windowEnds = run.assignedAtMs + (run.policy.lateAcceptWindowSeconds ?? LATE_ACCEPT_WINDOW_MS / 1000) * 1000;
  return run.assignedAtMs > 0 && windowEnds > graceEnds && patched(LATE_ACCEPT_WINDOW) ? windowEnds : graceEnds;
}

function acceptedWellAhead(run: BookingRun): boolean {
  const askMs = (run.policy.confirmAskSeconds ?? CONFIRM_ASK_MS / 1000) * 1000;
  return run.assignedAtMs > 0 && run.assignedAtMs < Date.parse(run.state.job.pickupAt) - askMs;
}

/**
 * A job accepted well ahead is confirmed on the day: the driver is asked an hour before pickup
 * (unless they have confirmed, or started, already) and, with no answer half an hour before it, let
 * go like a driver who dropped it (the passenger hears their driver is being replaced) so another
 * is found in time. 'again' when something else came first or the driver was let go.
 */
async function confirmOnTheDay(run: BookingRun): Promise<'again' | 'proceed'> {
  const driverId = run.state.driverId!;
  const settled = () => run.state.confirmedDriverId === driverId || run.progress !== null;
  if (settled()) return 'proceed';
  const pickupMs = Date.parse(run.state.job.pickupAt);
  const askAt = pickupMs - (run.policy.confirmAskSeconds ?? CONFIRM_ASK_MS / 1000) * 1000;
  const deadline = pickupMs - (run.policy.confirmDeadlineSeconds ?? CONFIRM_DEADLINE_MS / 1000) * 1000;
  if (Date.now() < askAt && (await condition(() => settled() || run.interrupted(), askAt - Date.now()))) {
    return settled() ? 'proceed' : 'again';
  }
  if (run.confirmAskedOf !== driverId) {
    run.confirmAskedOf = driverId;
    await acts.askDriverToConfirm({ ref: run.ref, driverId, deadline: new Date(deadline).toISOString() });
  }
  if (await condition(() => settled() || run.interrupted(), Math.max(1000, deadline - Date.now()))) {
    return settled() ? 'proceed' : 'again';
  }
  run.drop = { driverId, reason: 'not_confirmed' };
  return 'again';
}

/**
 * Settling is a step of the booking: the driver confirms what was received (or a provider's
 * webhook does, or ops ending the trip), and it is written once as an immutable payment record.
 */
async function settle(run: BookingRun): Promise<void> {
  run.state.payment = null;
  if (!(await condition(() => run.settlement !== null, SETTLEMENT_WINDOW_MS))) return;
  run.state.payment = await acts.recordPayment({
    ref: run.ref,
    driverId: run.state.driverId,
    settlement: run.settlement!,
  });
  if (patched(PASSENGER_TOLD)) await tell(run, { kind: 'receipt' });
  // Ended by ops: the passenger and the driver hear how it was settled.
  if (run.state.ended) await acts.sendTripEndedByOps({ ref: run.ref, driverId: run.state.driverId });
}

function msUntil(iso: string): number {
  return Math.max(0, Date.parse(iso) - Date.now());
}
