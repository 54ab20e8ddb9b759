// What a booking answers while it runs: the query, the updates and the signals. Each handler checks
// the message (validators refuse without entering history) and hands it to the main loop through
// the run; updates answer once the main loop has acted on them.
import { ApplicationFailure, condition, setHandler } from '@temporalio/workflow';
import {
  BookingFailure,
  DRIVER_ON_THE_WAY,
  NEXT_TRIP_STEPS,
  amendBookingUpdate,
  assignFleetDriverUpdate,
  bookingCreatedUpdate,
  offerToDriverUpdate,
  offerSeenSignal,
  bookingStateQuery,
  cancelBookingUpdate,
  claimUpcomingJobUpdate,
  offerId as offerIdOf,
  driverDroppedSignal,
  driverSuspendedSignal,
  emailConfirmedSignal,
  endTripSettlement,
  endTripUpdate,
  isNextTripStep,
  reportTripUpdate,
  respondToOfferUpdate,
  settleBookingUpdate,
  tripProgressSignal,
  type AmendInput,
  type BookingCreatedInput,
  type CancelInput,
  type ClaimUpcomingInput,
  type ClaimUpcomingResult,
  type EndTripInput,
  type FleetAssignInput,
  type OpsOfferInput,
  type OfferResponseInput,
  type ReportTripInput,
  type SettleInput,
} from './definitions.js';
import type { BookingRun } from './run.js';

/** Far above any taxi fare: a typo in the amount, not a payment. */
export const MAX_SETTLEMENT_PENCE = 1_000_000;

export function installHandlers(run: BookingRun): void {
  setHandler(bookingStateQuery, () => run.state);
  handleCreation(run);
  handleOfferAnswers(run);
  handleCancelAndAmend(run);
  handleFleetPicks(run);
  handleDriverMessages(run);
  handleBoardClaims(run);
  handleTripReports(run);
  handleSettlement(run);
}

const refuse = (message: string, type: string) => ApplicationFailure.nonRetryable(message, type);

function refuseIfClosed(run: BookingRun): void {
  if (run.closed()) throw refuse(`booking ${run.ref} is ${run.state.status}`, BookingFailure.closed);
}

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
        if (created?.identity && mine && created.identity !== mine) {
          throw refuse(`booking ${run.ref} was made for another request`, BookingFailure.identityMismatch);
        }
      },
    },
  );
  setHandler(emailConfirmedSignal, () => {
    run.emailConfirmed = true;
  });
}

function handleOfferAnswers(run: BookingRun): void {
  const state = run.state;
  /** The open card this answer is for: one of a group's, or the one card out. */
  const openOffer = (r: { offerId: string; driverId: string }) =>
    run.openOffers().find((o) => o.offerId === r.offerId && o.driverId === r.driverId);
  setHandler(
    respondToOfferUpdate,
    async (r) => {
      const offer = openOffer(r);
      if (!offer) {
        if (state.driverId === r.driverId) return 'accepted';
        return state.driverId !== null ? 'taken' : 'expired';
      }
      if (offer.response) return offer.response;
      if (r.decision === 'decline') {
        offer.response = 'declined';
        return 'declined';
      }
      offer.response = 'accepted';
      // In a group offer several may accept in one task: the first to arrive wins (group-offer.ts).
      run.acceptances.push(r.offerId);
      // Answer only once the assignment is recorded, so the driver and every lookup agree.
      await condition(() => !openOffer(r));
      if (state.driverId === r.driverId) return 'accepted';
      // Another driver of the group accepted first: told plainly, not that the offer ran out.
      return state.driverId !== null ? 'taken' : 'expired';
    },
    {
      // Stale clicks (an old card, a job already gone) are answered without entering history.
      validator: (r: OfferResponseInput) => {
        if (openOffer(r)) return;
        if (state.driverId === r.driverId)
          throw refuse(`driver ${r.driverId} already has booking ${run.ref}`, BookingFailure.offerAlreadyAccepted);
        if (state.driverId !== null)
          throw refuse(`booking ${run.ref} went to another driver`, BookingFailure.offerTaken);
        throw refuse(`offer ${r.offerId} is no longer open`, BookingFailure.offerExpired);
      },
    },
  );
  // The driver opened the card: it is given the full window (group-offer.ts). Stale ones change nothing.
  setHandler(offerSeenSignal, (r) => {
    const offer = openOffer(r);
    if (offer) offer.seen = true;
  });
}

function handleCancelAndAmend(run: BookingRun): void {
  setHandler(
    cancelBookingUpdate,
    async (c) => {
      if (run.state.status !== 'cancelled') {
        run.cancelRequest ??= c;
        await condition(() => run.state.status === 'cancelled');
      }
      return run.state;
    },
    {
      validator: (_c: CancelInput) => {
        const status = run.state.status;
        if (status === 'completed' || status === 'no_show')
          throw refuse(`booking ${run.ref} is ${status}`, BookingFailure.closed);
        // Whoever asks: a trip under way is ended by ops (endTrip), never cancelled into "nothing due".
        // (A boarding report not yet applied counts: it was accepted first.)
        if (status === 'on_board' || run.progress === 'on_board') {
          throw refuse(
            `booking ${run.ref}: the passenger is on board, the trip cannot be cancelled`,
            BookingFailure.tripInProgress,
          );
        }
      },
    },
  );
  setHandler(
    amendBookingUpdate,
    async (a) => {
      const ticket = ++run.amendmentsReceived;
      run.amendments.push(a);
      await condition(() => run.amendmentsApplied >= ticket || run.closed());
      return run.state;
    },
    {
      validator: (a: AmendInput) => {
        refuseIfClosed(run);
        // A new pickup or drop-off only while no driver is on the way (a report accepted but not yet applied counts).
        if (
          a.route &&
          (DRIVER_ON_THE_WAY.includes(run.state.status) || (run.progress !== null && run.progress !== 'no_show'))
        ) {
          throw refuse(
            `booking ${run.ref} is ${run.state.status}: the driver is on the way, the pickup and drop-off cannot change`,
            BookingFailure.driverOnTheWay,
          );
        }
      },
    },
  );
}

function handleFleetPicks(run: BookingRun): void {
  setHandler(
    assignFleetDriverUpdate,
    async (pick) => {
      run.fleetPick = pick;
      const served = run.fleetPicksServed;
      await condition(() => run.fleetPicksServed > served || run.closed());
      return run.state;
    },
    {
      validator: (pick: FleetAssignInput) => {
        if (!run.operatorId || pick.operatorId !== run.operatorId)
          throw refuse(`booking ${run.ref} is not this operator's job`, BookingFailure.notOperatorJob);
        refuseIfClosed(run);
        if (run.state.driverId !== null || run.state.offer !== null || run.fleetPick !== null) {
          throw refuse(`booking ${run.ref} already has a driver or an open job card`, BookingFailure.alreadyAssigned);
        }
      },
    },
  );
}

function handleDriverMessages(run: BookingRun): void {
  setHandler(
    offerToDriverUpdate,
    async (pick) => {
      run.opsPick = pick;
      const served = run.opsPicksServed;
      await condition(() => run.opsPicksServed > served || run.closed());
      return run.state;
    },
    {
      validator: (pick: OpsOfferInput) => {
        refuseIfClosed(run);
        if (run.operatorId)
          throw refuse(
            `booking ${run.ref} is an operator's job: its operator picks the driver`,
            BookingFailure.notOperatorJob,
          );
        if (run.cancelRequest !== null) throw refuse(`booking ${run.ref} is being cancelled`, BookingFailure.closed);
        if (run.state.driverId !== null || run.opsPick !== null) {
          throw refuse(
            `booking ${run.ref} already has a driver (take the job off them first) or a driver named for it`,
            BookingFailure.alreadyAssigned,
          );
        }
        if (!pick.driverId) throw refuse('name a driver', BookingFailure.notYourJob);
      },
    },
  );
  setHandler(driverDroppedSignal, (d) => {
    if (d.driverId === run.state.driverId) run.drop = d;
  });
  setHandler(driverSuspendedSignal, ({ driverId }) => {
    // Remembered even when the driver has neither the card nor the job yet: an accept racing the
    // suspension is taken off them as soon as it lands (the main loop and the cascade check).
    if (run.closed() || run.isSuspended(driverId)) return;
    (run.state.suspendedDriverIds ??= []).push(driverId);
  });
  setHandler(tripProgressSignal, (p) => {
    if (p.driverId === run.state.driverId) run.progress = p.progress;
  });
}

/**
 * A driver takes the job from the upcoming-jobs board. The validator refuses what is plainly not
 * theirs to take; the handler checks again, since two claims can both pass their validators in the
 * same workflow task, and the first one in wins. A repeat by the driver who has it answers their
 * offer again (a retried request, a second tap).
 */
function handleBoardClaims(run: BookingRun): void {
  const state = run.state;
  /** The offer through which this driver holds the job now, if they do. */
  const heldOffer = (driverId: string): ClaimUpcomingResult | null => {
    if (state.driverId !== driverId) return null;
    const known = run.boardClaims.get(driverId);
    if (known && 'offerId' in known) return known;
    const accepted = state.candidates.findLast((c) => c.driverId === driverId && c.outcome === 'accepted');
    return accepted ? { offerId: offerIdOf(run.ref, accepted.round, driverId) } : null;
  };
  const refuseTaken = () =>
    refuse(`booking ${run.ref} has already been taken by another driver`, BookingFailure.alreadyAssigned);
  setHandler(
    claimUpcomingJobUpdate,
    async (c) => {
      const held = heldOffer(c.driverId);
      if (held) return held;
      if (run.boardClaim === null) {
        if (state.driverId !== null || state.offer !== null || state.exchange?.fleetId) throw refuseTaken();
        // (What became of an earlier claim of theirs, refused, is not this one's answer.)
        run.boardClaims.delete(c.driverId);
        run.boardClaim = c;
      } else if (run.boardClaim.driverId !== c.driverId) {
        throw refuseTaken();
      }
      await condition(() => run.boardClaims.has(c.driverId) || run.closed());
      const outcome = run.boardClaims.get(c.driverId);
      if (outcome && 'offerId' in outcome) return outcome;
      if (run.closed()) throw refuse(`booking ${run.ref} is ${state.status}`, BookingFailure.closed);
      if (outcome?.refused === 'taken') throw refuseTaken();
      throw refuse(
        `you cannot take booking ${run.ref}: ${outcome?.refused ?? 'refused'}`,
        BookingFailure.driverDoesNotFit,
      );
    },
    {
      validator: (c: ClaimUpcomingInput) => {
        refuseIfClosed(run);
        if (heldOffer(c.driverId)) return;
        if (run.cancelRequest !== null) throw refuse(`booking ${run.ref} is being cancelled`, BookingFailure.closed);
        if (state.driverId !== null || state.exchange?.fleetId) throw refuseTaken();
        if (run.boardClaim !== null && run.boardClaim.driverId !== c.driverId) throw refuseTaken();
        if (run.operatorId)
          throw refuse(
            `booking ${run.ref} is an operator's job: its operator picks the driver`,
            BookingFailure.notClaimable,
          );
        if (!run.emailConfirmed)
          throw refuse(`booking ${run.ref} is waiting for the passenger to confirm it`, BookingFailure.notClaimable);
        if (state.offer !== null)
          throw refuse(`booking ${run.ref} is being offered to a driver right now`, BookingFailure.notClaimable);
        if (state.droppedDriverIds.includes(c.driverId))
          throw refuse(`you gave booking ${run.ref} back: it is not offered to you again`, BookingFailure.notClaimable);
        if (run.isSuspended(c.driverId))
          throw refuse(`booking ${run.ref} cannot go to a suspended driver`, BookingFailure.notClaimable);
        if (!c.driverId) throw refuse('name a driver', BookingFailure.notYourJob);
      },
    },
  );
}

function handleTripReports(run: BookingRun): void {
  const state = run.state;
  setHandler(
    reportTripUpdate,
    async (r) => {
      if (r.event === 'drop') {
        run.drop = { driverId: r.driverId, reason: 'dropped' };
        await condition(() => state.driverId !== r.driverId || run.closed());
        return state.status;
      }
      if (r.event === 'confirm') {
        state.confirmedDriverId = r.driverId;
        return state.status;
      }
      if (state.status !== r.event) run.progress = r.event;
      await condition(() => state.status === r.event || state.driverId !== r.driverId || run.closed());
      return state.status;
    },
    {
      validator: (r: ReportTripInput) => {
        refuseIfClosed(run);
        // A cancel accepted first wins: a boarding report after it must not leave a cancelled trip on board.
        if (run.cancelRequest !== null) throw refuse(`booking ${run.ref} is being cancelled`, BookingFailure.closed);
        if (state.driverId !== r.driverId)
          throw refuse(`booking ${run.ref} is not assigned to ${r.driverId}`, BookingFailure.notYourJob);
        if (r.event === 'drop') {
          if (state.status === 'on_board')
            throw refuse('the passenger is on board: finish the trip instead', BookingFailure.invalidTripStep);
          return;
        }
        // Confirming is for a job held and not yet started; once on the way, the trip speaks for itself.
        if (r.event === 'confirm') {
          if (!['assigned', 'en_route', 'arrived'].includes(state.status))
            throw refuse(`booking ${run.ref} is ${state.status}: nothing to confirm`, BookingFailure.invalidTripStep);
          return;
        }
        // A repeated report of the current step is a retry, not a mistake.
        if (r.event === state.status) return;
        if (!isNextTripStep(state.status, r.event)) {
          const next = (NEXT_TRIP_STEPS[state.status] ?? []).join(' or ') || 'nowhere';
          throw refuse(`a trip goes ${state.status} -> ${next}, not ${r.event}`, BookingFailure.invalidTripStep);
        }
      },
    },
  );
}

function refuseIfNotAPayment(amountPence: number): void {
  if (!Number.isInteger(amountPence) || amountPence < 0 || amountPence > MAX_SETTLEMENT_PENCE) {
    throw refuse(`amount ${amountPence} pence is not a payment`, BookingFailure.invalidPayment);
  }
}

function handleSettlement(run: BookingRun): void {
  const state = run.state;
  setHandler(
    settleBookingUpdate,
    async (input) => {
      // The first confirmation is the settlement; a repeat (a retry, a second tap) gets its record.
      run.settlement ??= input;
      await condition(() => state.payment != null);
      return state.payment!;
    },
    {
      validator: (input: SettleInput) => {
        if (state.status !== 'completed')
          throw refuse(
            `booking ${run.ref} is ${state.status}: only a completed trip is settled`,
            BookingFailure.notCompleted,
          );
        if (input.by === 'driver' && input.driverId !== state.driverId)
          throw refuse(`booking ${run.ref} is not assigned to ${input.driverId}`, BookingFailure.notYourJob);
        refuseIfNotAPayment(input.amountPence);
      },
    },
  );
  setHandler(
    endTripUpdate,
    async (e: EndTripInput) => {
      const endedNow = state.ended == null;
      if (endedNow) {
        state.ended = { by: 'ops', reason: e.reason };
        run.settlement = endTripSettlement(e);
        if (state.status === 'on_board') run.progress = 'completed';
      }
      await condition(() => state.payment != null);
      return { payment: state.payment!, endedNow };
    },
    {
      validator: (e: EndTripInput) => {
        if (state.ended != null) return; // a retry: answered with the record it wrote
        const awaitingSettlement = state.status === 'completed' && state.payment == null && run.settlement === null;
        if (state.status === 'completed' && !awaitingSettlement)
          throw refuse(`booking ${run.ref} is already settled`, BookingFailure.alreadySettled);
        if (state.status !== 'on_board' && !awaitingSettlement) {
          throw refuse(
            `booking ${run.ref} is ${state.status}: only a trip with the passenger on board is ended`,
            BookingFailure.tripNotInProgress,
          );
        }
        const s = e.settlement;
        if (!('nothingDue' in s)) refuseIfNotAPayment(s.amountPence);
      },
    },
  );
}
