// What a booking answers while it runs: the query, the updates and the signals. Each handler checks
// the message (validators refuse without entering history) and posts it to the inbox (inbox.ts);
// updates answer once the process has acted on it. What a handler must answer at once (an offer's
// answer, a suspension, a confirmation, an ops end) is folded into the state by its transition too.
import { ApplicationFailure, condition, setHandler } from '@temporalio/workflow';
import {
  amendBookingUpdate,
  assignFleetDriverUpdate,
  bookingCreatedUpdate,
  bookingStateQuery,
  cancelBookingUpdate,
  claimUpcomingJobUpdate,
  driverDroppedSignal,
  driverSuspendedSignal,
  emailConfirmedSignal,
  endTripUpdate,
  offerSeenSignal,
  offerToDriverUpdate,
  reportTripUpdate,
  respondToOfferUpdate,
  settleBookingUpdate,
  tripProgressSignal,
  type AmendInput,
  type BookingCreatedInput,
  type CancelInput,
  type ClaimUpcomingInput,
  type ClaimUpcomingResult,
  type FleetAssignInput,
  type OfferResponseInput,
  type OpsOfferInput,
  type ReportTripInput,
} from './definitions.js';
import {
  BookingFailure,
  DRIVER_ON_THE_WAY,
  NEXT_TRIP_STEPS,
  endTripSettlement,
  isNextTripStep,
  offerId as offerIdOf,
  type EndTripInput,
  type SettleInput,
} from '../../src/model/bookings.js';
import { installExchangeHandlers } from './exchange.js';
import type { Message } from './inbox.js';
import type { BookingRun } from './run.js';
import * as S from './state.js';

/** Far above any taxi fare: a typo in the amount, not a payment. */
export const MAX_SETTLEMENT_PENCE = 1_000_000;

export function installHandlers(run: BookingRun): void {
  setHandler(bookingStateQuery, () => run.state);
  handleCreation(run);
  handleOfferAnswers(run);
  handleCancel(run);
  handleAmend(run);
  handlePicks(run);
  handleDriverSignals(run);
  handleBoardClaims(run);
  handleTripReports(run);
  handleSettlement(run);
  installExchangeHandlers(run);
}

const refuse = (message: string, type: string) => ApplicationFailure.nonRetryable(message, type);

function refuseIfClosed(run: BookingRun): void {
  if (run.closed()) throw refuse(`booking ${run.ref} is ${run.state.status}`, BookingFailure.closed);
}

function refuseIfCancelling(run: BookingRun): void {
  if (run.inbox.peek('cancel')) throw refuse(`booking ${run.ref} is being cancelled`, BookingFailure.closed);
}

/** A trip report accepted but not yet acted on counts as made. */
const reported = (run: BookingRun, test: (p: string) => boolean) =>
  run.inbox.peek('progress', (m) => test(m.progress)) !== undefined;

function handleCreation(run: BookingRun): void {
  setHandler(
    bookingCreatedUpdate,
    async () => {
      await condition(() => run.persisted);
      return run.state;
    },
    {
      // A random reference can, however rarely, already name another request's ride: joining it
      // would hand a stranger someone else's booking.
      validator: (created?: BookingCreatedInput) => {
        const mine = run.input.booking.identity;
        if (created?.identity && mine && created.identity !== mine)
          throw refuse(`booking ${run.ref} was made for another request`, BookingFailure.identityMismatch);
      },
    },
  );
  setHandler(emailConfirmedSignal, () => void run.inbox.post({ kind: 'emailConfirmed' }));
}

function handleOfferAnswers(run: BookingRun): void {
  const answerNow = (r: { driverId: string }) =>
    run.state.driverId === r.driverId ? 'accepted' : run.state.driverId !== null ? 'taken' : 'expired';
  setHandler(
    respondToOfferUpdate,
    async (r) => {
      const offer = S.openOffer(run.state, r);
      if (!offer) return answerNow(r);
      if (offer.response) return offer.response;
      const response = r.decision === 'decline' ? 'declined' : 'accepted';
      run.move((s) => S.answered(s, r.offerId, response));
      run.inbox.post({ kind: 'answer', offerId: r.offerId });
      if (response === 'declined') return 'declined';
      // Answer only once the assignment is recorded, so the driver and every lookup agree.
      await condition(() => !S.openOffer(run.state, r));
      return answerNow(r);
    },
    {
      // Stale clicks (an old card, a job already gone) are answered without entering history.
      validator: (r: OfferResponseInput) => {
        if (S.openOffer(run.state, r)) return;
        if (run.state.driverId === r.driverId)
          throw refuse(`driver ${r.driverId} already has booking ${run.ref}`, BookingFailure.offerAlreadyAccepted);
        if (run.state.driverId !== null)
          throw refuse(`booking ${run.ref} went to another driver`, BookingFailure.offerTaken);
        throw refuse(`offer ${r.offerId} is no longer open`, BookingFailure.offerExpired);
      },
    },
  );
  setHandler(offerSeenSignal, (r) => void run.inbox.post({ kind: 'seen', ...r }));
}

function handleCancel(run: BookingRun): void {
  setHandler(
    cancelBookingUpdate,
    async (cancel) => {
      if (run.state.status === 'cancelled') return run.state;
      // The first cancel is the one acted on.
      if (!run.inbox.peek('cancel')) run.inbox.post({ kind: 'cancel', cancel });
      await condition(() => run.state.status === 'cancelled');
      return run.state;
    },
    {
      validator: (_c: CancelInput) => {
        const status = run.state.status;
        if (status === 'completed' || status === 'no_show')
          throw refuse(`booking ${run.ref} is ${status}`, BookingFailure.closed);
        // Whoever asks: a trip under way is ended by ops (endTrip), never cancelled into "nothing due".
        if (status === 'on_board' || reported(run, (p) => p === 'on_board'))
          throw refuse(
            `booking ${run.ref}: the passenger is on board, the trip cannot be cancelled`,
            BookingFailure.tripInProgress,
          );
      },
    },
  );
}

function handleAmend(run: BookingRun): void {
  setHandler(
    amendBookingUpdate,
    async (amend) => {
      const id = run.inbox.post({ kind: 'amend', amend, number: run.inbox.count('amend') + 1 });
      await run.inbox.replied(id, () => run.closed());
      return run.state;
    },
    {
      validator: (a: AmendInput) => {
        refuseIfClosed(run);
        // A new pickup or drop-off only while no driver is on the way (a report not yet acted on counts).
        if (a.route && (DRIVER_ON_THE_WAY.includes(run.state.status) || reported(run, (p) => p !== 'no_show')))
          throw refuse(
            `booking ${run.ref} is ${run.state.status}: the driver is on the way, the pickup and drop-off cannot change`,
            BookingFailure.driverOnTheWay,
          );
      },
    },
  );
}

/** Posts the message and answers the state once the process has acted on it. */
async function answered(run: BookingRun, msg: Message) {
  await run.inbox.replied(run.inbox.post(msg), () => run.closed());
  return run.state;
}

/** A driver named for the job: by the operator of its own fleet, or by ops for a booking nobody holds. */
function handlePicks(run: BookingRun): void {
  const notOperators = () => refuse(`booking ${run.ref} is not this operator's job`, BookingFailure.notOperatorJob);
  setHandler(assignFleetDriverUpdate, (pick) => answered(run, { kind: 'fleetPick', pick }), {
    validator: (pick: FleetAssignInput) => {
      if (!run.operatorId || pick.operatorId !== run.operatorId) throw notOperators();
      refuseIfClosed(run);
      if (run.state.driverId !== null || run.state.offer !== null || run.inbox.peek('fleetPick'))
        throw refuse(`booking ${run.ref} already has a driver or an open job card`, BookingFailure.alreadyAssigned);
    },
  });
  setHandler(offerToDriverUpdate, (pick) => answered(run, { kind: 'opsPick', pick }), {
    validator: (pick: OpsOfferInput) => {
      refuseIfClosed(run);
      if (run.operatorId)
        throw refuse(
          `booking ${run.ref} is an operator's job: its operator picks the driver`,
          BookingFailure.notOperatorJob,
        );
      refuseIfCancelling(run);
      if (run.state.driverId !== null || run.inbox.peek('opsPick'))
        throw refuse(
          `booking ${run.ref} already has a driver (take the job off them first) or a driver named for it`,
          BookingFailure.alreadyAssigned,
        );
      if (!pick.driverId) throw refuse('name a driver', BookingFailure.notYourJob);
    },
  });
}

function handleDriverSignals(run: BookingRun): void {
  setHandler(driverDroppedSignal, (drop) => {
    if (drop.driverId === run.state.driverId) run.inbox.post({ kind: 'drop', drop });
  });
  setHandler(driverSuspendedSignal, ({ driverId }) => {
    // Remembered even when the driver has neither the card nor the job yet: an accept racing the
    // suspension is taken off them as soon as it lands.
    if (run.closed() || S.isSuspended(run.state, driverId)) return;
    run.move((s) => S.suspended(s, driverId));
    run.inbox.post({ kind: 'suspended', driverId });
  });
  setHandler(tripProgressSignal, (p) => {
    if (p.driverId === run.state.driverId) run.inbox.post({ kind: 'progress', progress: p.progress });
  });
}

/**
 * A driver takes the job from the upcoming-jobs board. The validator refuses what is plainly not
 * theirs; two claims can both pass their validators in one task, so the handler checks again and
 * the first one in wins. A repeat by the driver who has it answers their offer again.
 */
function handleBoardClaims(run: BookingRun): void {
  const heldOffer = (driverId: string): ClaimUpcomingResult | null => {
    if (run.state.driverId !== driverId) return null;
    const accepted = run.state.candidates.findLast((c) => c.driverId === driverId && c.outcome === 'accepted');
    return accepted ? { offerId: offerIdOf(run.ref, accepted.round, driverId) } : null;
  };
  const taken = () =>
    refuse(`booking ${run.ref} has already been taken by another driver`, BookingFailure.alreadyAssigned);
  setHandler(
    claimUpcomingJobUpdate,
    async (c) => {
      const held = heldOffer(c.driverId);
      if (held) return held;
      const pending = run.inbox.peek('boardClaim');
      if (pending ? pending.msg.claim.driverId !== c.driverId : run.state.driverId !== null || run.state.offer !== null)
        throw taken();
      if (!pending && run.state.exchange?.fleetId) throw taken();
      const id = pending?.id ?? run.inbox.post({ kind: 'boardClaim', claim: c });
      const outcome = (await run.inbox.replied(id, () => run.closed())) as ClaimUpcomingResult | { refused: string };
      if (outcome && 'offerId' in outcome) return outcome;
      if (run.closed()) throw refuse(`booking ${run.ref} is ${run.state.status}`, BookingFailure.closed);
      if (outcome?.refused === 'taken') throw taken();
      throw refuse(
        `you cannot take booking ${run.ref}: ${outcome?.refused ?? 'refused'}`,
        BookingFailure.driverDoesNotFit,
      );
    },
    { validator: (c: ClaimUpcomingInput) => validateBoardClaim(run, c, heldOffer(c.driverId) !== null, taken) },
  );
}

function validateBoardClaim(run: BookingRun, c: ClaimUpcomingInput, holds: boolean, taken: () => Error): void {
  const s = run.state;
  const notClaimable = (why: string) => refuse(`booking ${run.ref} ${why}`, BookingFailure.notClaimable);
  refuseIfClosed(run);
  if (holds) return;
  refuseIfCancelling(run);
  const other = run.inbox.peek('boardClaim', (m) => m.claim.driverId !== c.driverId);
  if (s.driverId !== null || s.exchange?.fleetId || other) throw taken();
  if (run.operatorId) throw notClaimable("is an operator's job: its operator picks the driver");
  if (!run.emailConfirmed()) throw notClaimable('is waiting for the passenger to confirm it');
  if (s.offer !== null) throw notClaimable('is being offered to a driver right now');
  if (s.droppedDriverIds.includes(c.driverId))
    throw refuse(`you gave booking ${run.ref} back: it is not offered to you again`, BookingFailure.notClaimable);
  if (S.isSuspended(s, c.driverId)) throw notClaimable('cannot go to a suspended driver');
  if (!c.driverId) throw refuse('name a driver', BookingFailure.notYourJob);
}

function handleTripReports(run: BookingRun): void {
  const state = () => run.state;
  setHandler(
    reportTripUpdate,
    async (r) => {
      if (r.event === 'confirm') {
        run.move((s) => S.confirmedBy(s, r.driverId));
        run.inbox.post({ kind: 'confirmed', driverId: r.driverId });
        return state().status;
      }
      if (r.event === 'drop') run.inbox.post({ kind: 'drop', drop: { driverId: r.driverId, reason: 'dropped' } });
      else if (state().status !== r.event) run.inbox.post({ kind: 'progress', progress: r.event });
      const done = () => (r.event === 'drop' ? false : state().status === r.event);
      await condition(() => done() || state().driverId !== r.driverId || run.closed());
      return state().status;
    },
    { validator: (r: ReportTripInput) => validateTripReport(run, r) },
  );
}

function validateTripReport(run: BookingRun, r: ReportTripInput): void {
  const status = run.state.status;
  const invalid = (why: string) => refuse(why, BookingFailure.invalidTripStep);
  refuseIfClosed(run);
  // A cancel accepted first wins: a boarding report after it must not leave a cancelled trip on board.
  refuseIfCancelling(run);
  if (run.state.driverId !== r.driverId)
    throw refuse(`booking ${run.ref} is not assigned to ${r.driverId}`, BookingFailure.notYourJob);
  if (r.event === 'drop') {
    if (status === 'on_board') throw invalid('the passenger is on board: finish the trip instead');
    return;
  }
  // Confirming is for a job held and not yet started; once on the way, the trip speaks for itself.
  if (r.event === 'confirm') {
    if (!['assigned', 'en_route', 'arrived'].includes(status))
      throw invalid(`booking ${run.ref} is ${status}: nothing to confirm`);
    return;
  }
  // A repeated report of the current step is a retry, not a mistake.
  if (r.event === status || isNextTripStep(status, r.event)) return;
  const next = (NEXT_TRIP_STEPS[status] ?? []).join(' or ') || 'nowhere';
  throw invalid(`a trip goes ${status} -> ${next}, not ${r.event}`);
}

function refuseIfNotAPayment(amountPence: number): void {
  if (!Number.isInteger(amountPence) || amountPence < 0 || amountPence > MAX_SETTLEMENT_PENCE)
    throw refuse(`amount ${amountPence} pence is not a payment`, BookingFailure.invalidPayment);
}

function handleSettlement(run: BookingRun): void {
  const paid = async () => {
    await condition(() => run.state.payment != null);
    return run.state.payment!;
  };
  setHandler(
    settleBookingUpdate,
    async (settlement) => {
      // The first confirmation is the settlement; a repeat (a retry, a second tap) gets its record.
      if (run.inbox.count('settle') === 0) run.inbox.post({ kind: 'settle', settlement });
      return paid();
    },
    { validator: (input: SettleInput) => validateSettlement(run, input) },
  );
  setHandler(
    endTripUpdate,
    async (e: EndTripInput) => {
      const endedNow = run.state.ended == null;
      if (endedNow) {
        run.move((s) => S.endedByOps(s, e.reason));
        run.inbox.post({ kind: 'settle', settlement: endTripSettlement(e) });
        if (run.state.status === 'on_board') run.inbox.post({ kind: 'progress', progress: 'completed' });
      }
      return { payment: await paid(), endedNow };
    },
    { validator: (e: EndTripInput) => validateEndTrip(run, e) },
  );
}

function validateSettlement(run: BookingRun, input: SettleInput): void {
  const s = run.state;
  if (s.status !== 'completed')
    throw refuse(`booking ${run.ref} is ${s.status}: only a completed trip is settled`, BookingFailure.notCompleted);
  if (input.by === 'driver' && input.driverId !== s.driverId)
    throw refuse(`booking ${run.ref} is not assigned to ${input.driverId}`, BookingFailure.notYourJob);
  refuseIfNotAPayment(input.amountPence);
}

function validateEndTrip(run: BookingRun, e: EndTripInput): void {
  const s = run.state;
  if (s.ended != null) return; // a retry: answered with the record it wrote
  const awaitingSettlement = s.status === 'completed' && s.payment == null && run.inbox.count('settle') === 0;
  if (s.status === 'completed' && !awaitingSettlement)
    throw refuse(`booking ${run.ref} is already settled`, BookingFailure.alreadySettled);
  if (s.status !== 'on_board' && !awaitingSettlement)
    throw refuse(
      `booking ${run.ref} is ${s.status}: only a trip with the passenger on board is ended`,
      BookingFailure.tripNotInProgress,
    );
  if (!('nothingDue' in e.settlement)) refuseIfNotAPayment(e.settlement.amountPence);
}
