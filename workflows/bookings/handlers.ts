// What a booking answers while it runs. Each update is checked by its rule in src/model/bookings.ts (a
// refused message never enters history) and posted to the inbox; it answers once the process has acted
// on it. What must be answered at once (an offer's answer, a suspension, an ops end) is folded in too.
import { ApplicationFailure, condition, setHandler } from '@temporalio/workflow';
import * as messages from './definitions.js';
import * as model from '../../src/model/bookings.js';
import type { BoardClaimAnswer } from './dispatch.js';
import { installExchangeHandlers } from './exchange.js';
import type { Message } from './inbox.js';
import type { BookingRun } from './run.js';
import * as S from '../../src/model/booking-state.js';

export function installHandlers(run: BookingRun): void {
  setHandler(messages.bookingStateQuery, () => run.state);
  const created = async () => {
    await condition(() => run.persisted);
    return run.state;
  };
  setHandler(messages.bookingCreatedUpdate, created, checkedBy(run, model.createdRefusal));
  setHandler(messages.emailConfirmedSignal, () => void run.inbox.post({ kind: 'emailConfirmed' }));
  handleOfferAnswers(run);
  handleChanges(run);
  handleDrivers(run);
  handleTripReports(run);
  installExchangeHandlers(run);
}

type Refusal = model.BookingRefusal | null;
const refuse = (r: model.BookingRefusal) => ApplicationFailure.nonRetryable(r.message, r.type);

/** An update's validator: its rule, read against the booking as it stands and what waits in its inbox. */
function checkedBy<T>(run: BookingRun, rule: (s: model.BookingState, input: T, q: model.BookingInbox) => Refusal) {
  return {
    validator: (input: T) => {
      const refused = rule(run.state, input, run.pending());
      if (refused) throw refuse(refused);
    },
  };
}

/** Posts the message and answers the state once the process has acted on it. */
async function answered(run: BookingRun, msg: Message) {
  await run.inbox.replied(run.inbox.post(msg), () => run.closed());
  return run.state;
}

function handleOfferAnswers(run: BookingRun): void {
  const answerNow = (r: { driverId: string }) =>
    run.state.driverId === r.driverId ? 'accepted' : run.state.driverId !== null ? 'taken' : 'expired';
  const respond = async (r: messages.OfferResponseInput) => {
    const offer = model.openOffer(run.state, r);
    if (!offer) return answerNow(r);
    if (offer.response) return offer.response;
    const response = r.decision === 'decline' ? 'declined' : 'accepted';
    run.move((s) => S.answered(s, r.offerId, response));
    run.inbox.post({ kind: 'answer', offerId: r.offerId });
    if (response === 'declined') return 'declined';
    // Answer only once the assignment is recorded, so the driver and every lookup agree.
    await condition(() => !model.openOffer(run.state, r));
    return answerNow(r);
  };
  setHandler(messages.respondToOfferUpdate, respond, checkedBy(run, model.offerAnswerRefusal));
  setHandler(messages.offerSeenSignal, (r) => void run.inbox.post({ kind: 'seen', ...r }));
}

/** A cancel, an amendment, or a driver named for the job (by ops, or by the operator of its own fleet). */
function handleChanges(run: BookingRun): void {
  const cancel = async (cancel: messages.CancelInput) => {
    if (run.state.status === 'cancelled') return run.state;
    // The first cancel is the one acted on.
    if (!run.inbox.peek('cancel')) run.inbox.post({ kind: 'cancel', cancel });
    await condition(() => run.state.status === 'cancelled');
    return run.state;
  };
  setHandler(messages.cancelBookingUpdate, cancel, checkedBy(run, model.cancelRefusal));
  const amend = (amend: messages.AmendInput) =>
    answered(run, { kind: 'amend', amend, number: run.inbox.count('amend') + 1 });
  setHandler(messages.amendBookingUpdate, amend, checkedBy(run, model.amendRefusal));
  const fleetPick = (pick: messages.FleetAssignInput) => answered(run, { kind: 'fleetPick', pick });
  setHandler(messages.assignFleetDriverUpdate, fleetPick, checkedBy(run, model.fleetPickRefusal));
  const opsPick = (pick: messages.OpsOfferInput) => answered(run, { kind: 'opsPick', pick });
  setHandler(messages.offerToDriverUpdate, opsPick, checkedBy(run, model.opsPickRefusal));
}

/**
 * Drivers dropping the job, suspended, or taking it from the upcoming-jobs board. Two board claims can
 * both pass their validators in one task, so the handler checks again and the first one in wins. A
 * repeat by the driver who has it answers their offer again.
 */
function handleDrivers(run: BookingRun): void {
  setHandler(messages.driverDroppedSignal, (drop) => {
    if (drop.driverId === run.state.driverId) run.inbox.post({ kind: 'drop', drop });
  });
  setHandler(messages.driverSuspendedSignal, ({ driverId }) => {
    // Remembered even when the driver has neither the card nor the job yet: an accept racing the
    // suspension is taken off them as soon as it lands.
    if (run.closed() || model.isSuspended(run.state, driverId)) return;
    run.move((s) => S.suspended(s, driverId));
    run.inbox.post({ kind: 'suspended', driverId });
  });
  setHandler(messages.tripProgressSignal, (p) => {
    if (p.driverId === run.state.driverId) run.inbox.post({ kind: 'progress', progress: p.progress });
  });
  const claim = async (c: messages.ClaimUpcomingInput): Promise<messages.ClaimUpcomingResult> => {
    const held = model.heldOfferId(run.state, c.driverId);
    if (held) return { offerId: held };
    const pending = run.inbox.peek('boardClaim');
    if (pending ? pending.msg.claim.driverId !== c.driverId : model.isTaken(run.state))
      throw refuse(model.takenRefusal(run.state));
    const id = pending?.id ?? run.inbox.post({ kind: 'boardClaim', claim: c });
    const outcome = await run.inbox.replied<BoardClaimAnswer>(id, () => run.closed());
    if (outcome && 'offerId' in outcome) return outcome;
    if (run.closed()) throw refuse(model.closedRefusal(run.state));
    if (outcome?.refused === 'taken') throw refuse(model.takenRefusal(run.state));
    const why = `you cannot take booking ${run.ref}: ${outcome?.refused ?? 'refused'}`;
    throw refuse({ message: why, type: model.BookingFailure.driverDoesNotFit });
  };
  setHandler(messages.claimUpcomingJobUpdate, claim, checkedBy(run, model.boardClaimRefusal));
}

/** The driver's reports, and the settlement once the trip is over. */
function handleTripReports(run: BookingRun): void {
  const report = async (r: messages.ReportTripInput) => {
    if (r.event === 'confirm') {
      run.move((s) => S.confirmedBy(s, r.driverId));
      run.inbox.post({ kind: 'confirmed', driverId: r.driverId });
      return run.state.status;
    }
    if (r.event === 'drop') run.inbox.post({ kind: 'drop', drop: { driverId: r.driverId, reason: 'dropped' } });
    else if (run.state.status !== r.event) run.inbox.post({ kind: 'progress', progress: r.event });
    const done = () => r.event !== 'drop' && run.state.status === r.event;
    await condition(() => done() || run.state.driverId !== r.driverId || run.closed());
    return run.state.status;
  };
  setHandler(messages.reportTripUpdate, report, checkedBy(run, model.tripReportRefusal));
  const paid = async () => {
    await condition(() => run.state.payment != null);
    return run.state.payment!;
  };
  const settle = async (settlement: model.SettleInput) => {
    // The first confirmation is the settlement; a repeat (a retry, a second tap) gets its record.
    if (run.inbox.count('settle') === 0) {
      // Confirmed with the passenger on board: the trip's last step and its settlement in one update.
      if (model.completedBySettling(run.state, settlement) && !run.inbox.peek('progress'))
        run.inbox.post({ kind: 'progress', progress: 'completed' });
      run.inbox.post({ kind: 'settle', settlement });
    }
    return paid();
  };
  setHandler(messages.settleBookingUpdate, settle, checkedBy(run, model.settlementRefusal));
  const endTrip = async (e: model.EndTripInput) => {
    const endedNow = run.state.ended == null;
    if (endedNow) {
      run.move((s) => S.endedByOps(s, e.reason));
      run.inbox.post({ kind: 'settle', settlement: model.endTripSettlement(e) });
      if (run.state.status === 'on_board') run.inbox.post({ kind: 'progress', progress: 'completed' });
    }
    return { payment: await paid(), endedNow };
  };
  setHandler(messages.endTripUpdate, endTrip, checkedBy(run, model.endTripRefusal));
}
