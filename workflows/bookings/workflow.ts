import {
  ActivityFailure,
  ApplicationFailure,
  TimeoutFailure,
  allHandlersFinished,
  condition,
  upsertSearchAttributes,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
} from '@temporalio/workflow';
import type { Activities } from '../../activities/index.js';
import {
  BookingFailure,
  BookingSearchAttributes,
  CANDIDATE_PAGE_SIZE,
  TERMINAL_STATUSES,
  amendBookingUpdate,
  assignFleetDriverUpdate,
  bookingCreatedUpdate,
  bookingStateQuery,
  cancelBookingUpdate,
  driverDroppedSignal,
  driverSuspendedSignal,
  emailConfirmedSignal,
  endTripSettlement,
  endTripUpdate,
  initialStatus,
  NEXT_TRIP_STEPS,
  isNextTripStep,
  offerId,
  reportTripUpdate,
  respondToOfferUpdate,
  settleBookingUpdate,
  tripProgressSignal,
  type AmendInput,
  type BookingState,
  type BookingStatus,
  type BookingCreatedInput,
  type BookingWorkflowInput,
  type CandidateClaim,
  type FirstCardPage,
  type CancelInput,
  type CandidateOutcome,
  type DriverDroppedInput,
  type EndTripInput,
  type FleetAssignInput,
  type OfferResponseInput,
  type ReportTripInput,
  type SettleInput,
  type Tier,
  type TripProgress,
} from './definitions.js';

type BookingActivities = Activities;
// Messages leave the service, so they are full activities (visible in history, retried by the server).
const acts = proxyActivities<BookingActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});
// Short Postgres writes and reads run as local activities: no server round trip per step, which
// is most of the time between a booking and its first job card.
const db = proxyLocalActivities<BookingActivities>({
  startToCloseTimeout: '10 seconds',
  retry: { initialInterval: '500 ms', maximumInterval: '30 seconds' },
});

const TIERS: readonly Tier[] = ['local', 'national', 'partner'];
/** After pickup time an unassigned booking stays cancellable this long before the workflow closes. */
const UNASSIGNED_GRACE_MS = 60 * 60_000;
/** An unconfirmed booking waits at least this long for the passenger to open the emailed link. */
const EMAIL_CONFIRM_MIN_MS = 30 * 60_000;

type RoundResult = 'assigned' | 'exhausted' | 'interrupted';

/** How long a completed trip waits for the driver (or a provider) to confirm what was paid. */
const SETTLEMENT_WINDOW_MS = 7 * 24 * 60 * 60_000;
/** Far above any taxi fare: a typo in the amount, not a payment. */
const MAX_SETTLEMENT_PENCE = 1_000_000;

type Candidate = { driverId: string; driverName: string; distanceMeters: number | null };

/**
 * One booking from creation to completion or cancellation: waits for a pre-booked pickup, runs the
 * dispatch cascade (local, national, partner fleet; one job card at a time, each with a timeout),
 * and reassigns when a driver declines, times out, drops the job or no longer fits an amendment.
 * Every decision is kept in `candidates` and answered by the bookingState query.
 */
export async function bookingWorkflow(input: BookingWorkflowInput): Promise<BookingState> {
  const ref = input.booking.ref;
  const policy = input.policy;
  // A job card that cannot be delivered within the offer window is no use to anyone. It runs
  // inside the workflow task, so no server round trip stands between a booking and its card; a
  // card is a couple of notifier calls under an idempotency key per offer and channel, so running
  // it again after a worker crash (a local activity's at-least-once) never sends one twice.
  const jobCards = proxyLocalActivities<BookingActivities>({
    startToCloseTimeout: '30 seconds',
    scheduleToCloseTimeout: policy.offerTimeoutSeconds * 1000,
    retry: { initialInterval: '1 second', maximumInterval: '10 seconds' },
  });
  const sendJobCard = (card: { offerId: string; ref: string; driverId: string }) => jobCards.sendJobCard(card);
  const state: BookingState = {
    ref,
    identity: input.booking.identity ?? null,
    status: initialStatus(input, Date.now()),
    job: { ...input.job },
    round: 0,
    driverId: null,
    offer: null,
    candidates: [],
    droppedDriverIds: [],
    cancelReason: null,
  };
  let persisted = false;
  let emailConfirmed = !input.awaitEmailConfirmation;
  let cancelRequest: CancelInput | null = null;
  const amendments: AmendInput[] = [];
  let amendmentsApplied = 0;
  let amendmentsReceived = 0;
  let drop: DriverDroppedInput | null = null;
  let progress: TripProgress | null = null;
  let settlement: SettleInput | null = null;
  let exhaustedRounds = 0;
  /** Operator bookings: the fleet driver the operator picked, waiting to be offered the job. */
  let fleetPick: FleetAssignInput | null = null;
  let fleetPicksServed = 0;
  const operatorId = input.booking.operatorId ?? null;
  /**
   * The first page of round 1, read and claimed with the booking's record and its card sent
   * (openBookingWithFirstCard), waiting for the cascade to take it up; let go (its claim
   * withdrawn) if anything else comes first.
   */
  let firstPage: FirstCardPage | null = null;

  const closed = () => TERMINAL_STATUSES.includes(state.status);
  /** Staff suspended this driver while they had this booking's job card or job. */
  const isSuspended = (driverId: string | null | undefined) => driverId != null && (state.suspendedDriverIds?.includes(driverId) ?? false);
  /**
   * The job is held by a suspended driver and must be taken off them. Not once the passenger is on
   * board: pulling the job then would strand them mid-trip; ops are told instead and end the trip.
   */
  const holderSuspended = () => isSuspended(state.driverId) && state.status !== 'on_board' && !closed();
  /** Ops have not yet been told that a suspended driver has a passenger on board. */
  let opsToldOnBoard = false;
  const onBoardWithSuspendedDriver = () => isSuspended(state.driverId) && state.status === 'on_board' && !opsToldOnBoard;
  const interrupted = () =>
    cancelRequest !== null || amendments.length > 0 || drop !== null || holderSuspended() || onBoardWithSuspendedDriver();
  const record = (tier: Tier, c: { driverId: string; driverName: string; distanceMeters: number | null }, outcome: CandidateOutcome, reason: string | null = null) =>
    state.candidates.push({ round: state.round, tier, ...c, outcome, reason, at: new Date().toISOString() });
  /**
   * Every status change goes through here: the state the query answers, and the search attributes
   * ops filter on in the Web UI (for bookings started after they were introduced; the starting
   * values come with the start request, src/bookings/start-workflow.ts).
   */
  const markStatus = (status: BookingStatus) => {
    state.status = status;
    upsertSearchAttributes([
      { key: BookingSearchAttributes.status, value: status },
      { key: BookingSearchAttributes.pickupAt, value: new Date(state.job.pickupAt) },
      { key: BookingSearchAttributes.driver, value: state.driverId },
      { key: BookingSearchAttributes.source, value: input.booking.source },
      { key: BookingSearchAttributes.partner, value: input.booking.partnerId ?? null },
    ]);
  };
  /** A status change the workflow itself records in Postgres (others are written by the activity that caused them). */
  const setStatus = async (status: BookingStatus) => {
    if (state.status === status) return;
    markStatus(status);
    await db.setBookingStatus({ ref, status });
  };

  setHandler(bookingStateQuery, () => state);
  setHandler(
    bookingCreatedUpdate,
    async () => {
      await condition(() => persisted);
      return state;
    },
    {
      // A random reference can, however rarely, already name another request's ride: joining it
      // would hand a stranger someone else's booking.
      validator: (created?: BookingCreatedInput) => {
        const mine = input.booking.identity;
        if (created?.identity && mine && created.identity !== mine) {
          throw ApplicationFailure.nonRetryable(`booking ${ref} was made for another request`, BookingFailure.identityMismatch);
        }
      },
    },
  );
  setHandler(emailConfirmedSignal, () => {
    emailConfirmed = true;
  });
  setHandler(
    respondToOfferUpdate,
    async (r) => {
      const offer = state.offer;
      if (!offer || offer.offerId !== r.offerId || offer.driverId !== r.driverId) {
        if (state.driverId === r.driverId) return 'accepted';
        return state.driverId !== null ? 'taken' : 'expired';
      }
      if (offer.response) return offer.response;
      if (r.decision === 'decline') {
        offer.response = 'declined';
        return 'declined';
      }
      offer.response = 'accepted';
      // Answer only once the assignment is recorded, so the driver and every lookup agree.
      await condition(() => state.offer?.offerId !== r.offerId);
      return state.driverId === r.driverId ? 'accepted' : 'expired';
    },
    {
      // Stale clicks (an old card, a job already gone) are answered without entering history.
      validator: (r: OfferResponseInput) => {
        const offer = state.offer;
        if (offer && offer.offerId === r.offerId && offer.driverId === r.driverId) return;
        if (state.driverId === r.driverId) {
          throw ApplicationFailure.nonRetryable(`driver ${r.driverId} already has booking ${ref}`, BookingFailure.offerAlreadyAccepted);
        }
        if (state.driverId !== null) throw ApplicationFailure.nonRetryable(`booking ${ref} went to another driver`, BookingFailure.offerTaken);
        throw ApplicationFailure.nonRetryable(`offer ${r.offerId} is no longer open`, BookingFailure.offerExpired);
      },
    },
  );
  setHandler(
    cancelBookingUpdate,
    async (c) => {
      if (state.status !== 'cancelled') {
        cancelRequest ??= c;
        await condition(() => state.status === 'cancelled');
      }
      return state;
    },
    {
      validator: (_c: CancelInput) => {
        if (state.status === 'completed' || state.status === 'no_show') {
          throw ApplicationFailure.nonRetryable(`booking ${ref} is ${state.status}`, BookingFailure.closed);
        }
        // Whoever asks: a trip under way is ended by ops (endTrip), never cancelled into "nothing due".
        // (A boarding report not yet applied counts: it was accepted first.)
        if (state.status === 'on_board' || progress === 'on_board') {
          throw ApplicationFailure.nonRetryable(`booking ${ref}: the passenger is on board, the trip cannot be cancelled`, BookingFailure.tripInProgress);
        }
      },
    },
  );
  setHandler(
    amendBookingUpdate,
    async (a) => {
      const ticket = ++amendmentsReceived;
      amendments.push(a);
      await condition(() => amendmentsApplied >= ticket || closed());
      return state;
    },
    {
      validator: (_a: AmendInput) => {
        if (closed()) throw ApplicationFailure.nonRetryable(`booking ${ref} is ${state.status}`, BookingFailure.closed);
      },
    },
  );
  setHandler(
    assignFleetDriverUpdate,
    async (pick) => {
      fleetPick = pick;
      const served = fleetPicksServed;
      await condition(() => fleetPicksServed > served || closed());
      return state;
    },
    {
      validator: (pick: FleetAssignInput) => {
        if (!operatorId || pick.operatorId !== operatorId) throw ApplicationFailure.nonRetryable(`booking ${ref} is not this operator's job`, BookingFailure.notOperatorJob);
        if (closed()) throw ApplicationFailure.nonRetryable(`booking ${ref} is ${state.status}`, BookingFailure.closed);
        if (state.driverId !== null || state.offer !== null || fleetPick !== null) {
          throw ApplicationFailure.nonRetryable(`booking ${ref} already has a driver or an open job card`, BookingFailure.alreadyAssigned);
        }
      },
    },
  );
  setHandler(driverDroppedSignal, (d) => {
    if (d.driverId === state.driverId) drop = d;
  });
  setHandler(driverSuspendedSignal, ({ driverId }) => {
    // Remembered even when the driver has neither the card nor the job yet: an accept racing the
    // suspension is taken off them as soon as it lands (the main loop and the cascade check).
    if (closed() || isSuspended(driverId)) return;
    (state.suspendedDriverIds ??= []).push(driverId);
  });
  setHandler(tripProgressSignal, (p) => {
    if (p.driverId === state.driverId) progress = p.progress;
  });
  setHandler(
    reportTripUpdate,
    async (r) => {
      if (r.event === 'drop') {
        drop = { driverId: r.driverId, reason: 'dropped' };
        await condition(() => state.driverId !== r.driverId || closed());
        return state.status;
      }
      if (state.status !== r.event) progress = r.event;
      await condition(() => state.status === r.event || state.driverId !== r.driverId || closed());
      return state.status;
    },
    {
      validator: (r: ReportTripInput) => {
        if (closed()) throw ApplicationFailure.nonRetryable(`booking ${ref} is ${state.status}`, BookingFailure.closed);
        // A cancel accepted first wins: a boarding report after it must not leave a cancelled trip on board.
        if (cancelRequest !== null) throw ApplicationFailure.nonRetryable(`booking ${ref} is being cancelled`, BookingFailure.closed);
        if (state.driverId !== r.driverId) throw ApplicationFailure.nonRetryable(`booking ${ref} is not assigned to ${r.driverId}`, BookingFailure.notYourJob);
        if (r.event === 'drop') {
          if (state.status === 'on_board') {
            throw ApplicationFailure.nonRetryable('the passenger is on board: finish the trip instead', BookingFailure.invalidTripStep);
          }
          return;
        }
        // A repeated report of the current step is a retry, not a mistake.
        if (r.event === state.status) return;
        if (!isNextTripStep(state.status, r.event)) {
          throw ApplicationFailure.nonRetryable(`a trip goes ${state.status} -> ${(NEXT_TRIP_STEPS[state.status] ?? []).join(' or ') || 'nowhere'}, not ${r.event}`, BookingFailure.invalidTripStep);
        }
      },
    },
  );

  setHandler(
    settleBookingUpdate,
    async (input) => {
      // The first confirmation is the settlement; a repeat (a retry, a second tap) gets its record.
      settlement ??= input;
      await condition(() => state.payment != null);
      return state.payment!;
    },
    {
      validator: (input: SettleInput) => {
        if (state.status !== 'completed') {
          throw ApplicationFailure.nonRetryable(`booking ${ref} is ${state.status}: only a completed trip is settled`, BookingFailure.notCompleted);
        }
        if (input.by === 'driver' && input.driverId !== state.driverId) {
          throw ApplicationFailure.nonRetryable(`booking ${ref} is not assigned to ${input.driverId}`, BookingFailure.notYourJob);
        }
        if (!Number.isInteger(input.amountPence) || input.amountPence < 0 || input.amountPence > MAX_SETTLEMENT_PENCE) {
          throw ApplicationFailure.nonRetryable(`amount ${input.amountPence} pence is not a payment`, BookingFailure.invalidPayment);
        }
      },
    },
  );

  setHandler(
    endTripUpdate,
    async (e: EndTripInput) => {
      const endedNow = state.ended == null;
      if (endedNow) {
        state.ended = { by: 'ops', reason: e.reason };
        settlement = endTripSettlement(e);
        if (state.status === 'on_board') progress = 'completed';
      }
      await condition(() => state.payment != null);
      return { payment: state.payment!, endedNow };
    },
    {
      validator: (e: EndTripInput) => {
        if (state.ended != null) return; // a retry: answered with the record it wrote
        const awaitingSettlement = state.status === 'completed' && state.payment == null && settlement === null;
        if (state.status === 'completed' && !awaitingSettlement) {
          throw ApplicationFailure.nonRetryable(`booking ${ref} is already settled`, BookingFailure.alreadySettled);
        }
        if (state.status !== 'on_board' && !awaitingSettlement) {
          throw ApplicationFailure.nonRetryable(`booking ${ref} is ${state.status}: only a trip with the passenger on board is ended`, BookingFailure.tripNotInProgress);
        }
        const s = e.settlement;
        if (!('nothingDue' in s) && (!Number.isInteger(s.amountPence) || s.amountPence < 0 || s.amountPence > MAX_SETTLEMENT_PENCE)) {
          throw ApplicationFailure.nonRetryable(`amount ${s.amountPence} pence is not a payment`, BookingFailure.invalidPayment);
        }
      },
    },
  );

  const pageQuery = (round: number, tier: Tier, page: number, offered: Set<string>) => {
    const b = input.booking;
    return {
      ref, round, tier, job: state.job, exclude: [...offered], limit: CANDIDATE_PAGE_SIZE, page,
      trip: { pickup: { lat: b.pickup.lat, lon: b.pickup.lon }, pickupArea: b.pickupArea, durationS: b.durationS },
    };
  };

  /**
   * A first page claimed with the record but overtaken (a cancel or an amendment came first): the
   * driver it holds is let go at once, and its round counts as run, so the next round's offers
   * and decision log start afresh.
   */
  async function letFirstPageGo(page: FirstCardPage): Promise<void> {
    firstPage = null;
    const claim = page.claim;
    const held = claim?.driverId ? page.candidates.find((c) => c.driverId === claim.driverId) : undefined;
    if (!claim?.offerId || !held) return;
    await db.closeOffer({ offerId: claim.offerId, status: 'withdrawn' });
    record(TIERS[0]!, held, 'withdrawn', cancelRequest ? 'cancelled' : 'amendment');
  }

  /**
   * The next page of eligible candidates of a tier. Bookings from before the decision log fetched
   * (and recorded in history) every driver of the tier at once; their histories keep that path.
   */
  async function candidatePage(
    round: number, tier: Tier, page: number, offered: Set<string>,
  ): Promise<{ candidates: Candidate[]; claim: CandidateClaim | null; card?: FirstCardPage['card'] }> {
    // Round 1's first page, when it came with the record (runCascadeRound keeps its round number).
    if (firstPage && tier === TIERS[0] && page === 0) {
      const p = firstPage;
      firstPage = null;
      (state.tiers ??= []).push({ round, tier, considered: p.considered, eligible: p.eligible });
      return { candidates: p.candidates, claim: p.claim, card: p.card };
    }
    const p = await db.claimFromCandidatePage({ ...pageQuery(round, tier, page, offered), offerTimeoutSeconds: policy.offerTimeoutSeconds });
    if (page === 0) (state.tiers ??= []).push({ round, tier, considered: p.considered, eligible: p.eligible });
    return { candidates: p.candidates, claim: p.claim };
  }

  /** Sends the card, unless it went with the claim already; false when it could not be delivered. */
  async function cardDelivered(card: { offerId: string; ref: string; driverId: string }, sentWithClaim: FirstCardPage['card'] | undefined): Promise<boolean> {
    if (sentWithClaim) return sentWithClaim === 'sent';
    try {
      await sendJobCard(card);
      return true;
    } catch (err) {
      if (!cardNotDelivered(err)) throw err;
      return false;
    }
  }

  async function runCascadeRound(): Promise<RoundResult> {
    // A round begun with the booking's record (its first page already claimed) is this one.
    if (!firstPage) state.round += 1;
    const round = state.round;
    // Nobody who dropped the job, or was suspended while offered it, is asked again.
    const offered = new Set([...state.droppedDriverIds, ...(state.suspendedDriverIds ?? [])]);
    await setStatus('dispatching');
    for (const tier of TIERS) {
      for (let page = 0; ; page++) {
        const { candidates, claim, card } = await candidatePage(round, tier, page, offered);
        if (candidates.length === 0) break;
        // What the page's own claim found: drivers taken by other bookings, and the one it holds.
        const busy = new Set(claim?.busy ?? []);
        let held = claim?.driverId != null ? claim : null;
        for (const c of candidates) {
          if (interrupted()) {
            // A driver claimed with the page but never sent the card is let go at once.
            if (held?.offerId) await db.closeOffer({ offerId: held.offerId, status: 'withdrawn' });
            return 'interrupted';
          }
          const id = offerId(ref, round, c.driverId);
          offered.add(c.driverId);
          let expiresAt: string;
          // What became of the card already sent with the claim (first pages claimed with the record).
          let cardSent: FirstCardPage['card'] | undefined;
          if (isSuspended(c.driverId)) {
            // Suspended since the page was read: not asked (a card sent with the page's claim is withdrawn).
            if (held?.driverId === c.driverId && held.offerId) await db.closeOffer({ offerId: held.offerId, status: 'withdrawn' });
            if (held?.driverId === c.driverId) held = null;
            record(tier, c, 'skipped', 'driver_suspended');
            continue;
          }
          if (busy.has(c.driverId)) {
            record(tier, c, 'skipped', 'busy');
            continue;
          } else if (held?.driverId === c.driverId && held.expiresAt) {
            expiresAt = held.expiresAt;
            cardSent = card;
            held = null;
          } else {
            expiresAt = new Date(Date.now() + policy.offerTimeoutSeconds * 1000).toISOString();
            // Another booking may have claimed this driver since the candidates were read.
            const { claimed } = await db.openOffer({ offerId: id, ref, driverId: c.driverId, round, tier, expiresAt });
            if (!claimed) {
              record(tier, c, 'skipped', 'busy');
              continue;
            }
          }
          state.offer = { offerId: id, driverId: c.driverId, round, tier, expiresAt, response: null };
          record(tier, c, 'offered');
          if (!(await cardDelivered({ offerId: id, ref, driverId: c.driverId }, cardSent))) {
            // Undeliverable, or not delivered within the offer's own time: try the next driver.
            state.offer = null;
            await db.closeOffer({ offerId: id, status: 'withdrawn' });
            record(tier, c, 'skipped', 'job_card_undeliverable');
            continue;
          }
          // Offered once the card is out (and its search attribute off the path to the first card).
          markStatus('offered');
          await condition(() => state.offer?.response != null || interrupted() || isSuspended(c.driverId), policy.offerTimeoutSeconds * 1000);

          // Suspended while the card was out: withdrawn at once, whatever they answered, and the
          // next driver asked without waiting for the offer's time to run out.
          if (isSuspended(c.driverId)) {
            state.offer = null;
            await db.closeOffer({ offerId: id, status: 'withdrawn' });
            record(tier, c, 'withdrawn', 'driver_suspended');
            continue;
          }

          // An accept that raced the timer still counts: it arrived before we moved on.
          const response = state.offer?.response ?? null;
          if (response === 'accepted') {
            await acts.assignDriver({ ref, driverId: c.driverId, offerId: id });
            state.driverId = c.driverId;
            markStatus('assigned');
            state.offer = null;
            record(tier, c, 'accepted');
            return 'assigned';
          }
          const outcome = response === 'declined' ? 'declined' : interrupted() ? 'withdrawn' : 'timed_out';
          state.offer = null;
          await db.closeOffer({ offerId: id, status: outcome });
          record(tier, c, outcome);
          if (outcome === 'withdrawn') return 'interrupted';
        }
      }
    }
    return 'exhausted';
  }

  async function applyAmendments(): Promise<void> {
    const batch = amendments.splice(0);
    const next = { ...state.job };
    for (const a of batch) {
      if (a.pickupAt !== undefined) next.pickupAt = a.pickupAt;
      if (a.passengers !== undefined) next.passengers = a.passengers;
      if (a.vehicleType !== undefined) next.vehicleType = a.vehicleType;
      if (a.wheelchair !== undefined) next.wheelchair = a.wheelchair;
      if (a.notes !== undefined) next.notes = a.notes;
    }
    state.job = next;
    const { driverStillFits } = await acts.applyAmendment({ ref, job: next, driverId: state.driverId });
    if (state.driverId && !driverStillFits) {
      await acts.releaseDriver({ ref, driverId: state.driverId, reason: 'no longer fits the amended booking' });
      state.candidates.push({
        round: state.round, tier: 'local', driverId: state.driverId, driverName: '', distanceMeters: null,
        outcome: 'withdrawn', reason: 'amendment', at: new Date().toISOString(),
      });
      state.driverId = null;
      markStatus('dispatching');
    }
    amendmentsApplied += batch.length;
  }

  async function handleDrop(d: DriverDroppedInput): Promise<void> {
    drop = null;
    if (d.driverId !== state.driverId) return;
    await acts.releaseDriver({ ref, driverId: d.driverId, reason: d.reason });
    state.droppedDriverIds.push(d.driverId);
    state.candidates.push({
      round: state.round, tier: 'local', driverId: d.driverId, driverName: '', distanceMeters: null,
      outcome: d.reason === 'suspended' ? 'withdrawn' : 'dropped', reason: d.reason, at: new Date().toISOString(),
    });
    state.driverId = null;
    markStatus('dispatching');
  }

  /**
   * Operator bookings never enter the cascade: the operator picks a driver of its own fleet, who gets
   * the job card like any other and accepts or declines in the driver app. A decline or silence
   * hands the job back to the operator's dashboard.
   */
  async function offerToFleetDriver(pick: FleetAssignInput): Promise<void> {
    state.round += 1;
    const round = state.round;
    const c = { driverId: pick.driverId, driverName: pick.driverName, distanceMeters: null };
    const id = offerId(ref, round, pick.driverId);
    const expiresAt = new Date(Date.now() + policy.offerTimeoutSeconds * 1000).toISOString();
    const { claimed } = await db.openOffer({ offerId: id, ref, driverId: pick.driverId, round, tier: 'partner', expiresAt });
    if (!claimed) {
      record('partner', c, 'skipped', 'busy');
      fleetPicksServed += 1;
      return;
    }
    state.offer = { offerId: id, driverId: pick.driverId, round, tier: 'partner', expiresAt, response: null };
    record('partner', c, 'offered');
    try {
      await sendJobCard({ offerId: id, ref, driverId: pick.driverId });
    } catch (err) {
      if (!cardNotDelivered(err)) throw err;
      state.offer = null;
      await db.closeOffer({ offerId: id, status: 'withdrawn' });
      record('partner', c, 'skipped', 'job_card_undeliverable');
      fleetPicksServed += 1;
      return;
    }
    markStatus('offered');
    fleetPicksServed += 1;
    await condition(() => state.offer?.response != null || interrupted() || isSuspended(pick.driverId), policy.offerTimeoutSeconds * 1000);
    if (isSuspended(pick.driverId)) {
      // Back to the operator's dashboard, to pick another of its drivers.
      state.offer = null;
      await db.closeOffer({ offerId: id, status: 'withdrawn' });
      record('partner', c, 'withdrawn', 'driver_suspended');
      return;
    }
    const response = state.offer?.response ?? null;
    if (response === 'accepted') {
      await acts.assignDriver({ ref, driverId: pick.driverId, offerId: id });
      state.driverId = pick.driverId;
      markStatus('assigned');
      state.offer = null;
      record('partner', c, 'accepted');
      return;
    }
    const outcome = response === 'declined' ? 'declined' : interrupted() ? 'withdrawn' : 'timed_out';
    state.offer = null;
    await db.closeOffer({ offerId: id, status: outcome });
    record('partner', c, outcome);
  }

  // The record is written first: every route returns only once it exists (bookingCreated). A
  // booking dispatched at once (no confirmation email to send or wait for, no operator) claims its
  // first driver and sends the job card in the same step.
  const confirmationFirst = Boolean(input.booking.passengerEmail && input.booking.source.startsWith('v1'));
  // (A booking waiting for its email to be confirmed starts as awaiting_confirmation, not dispatching.)
  const dispatchAtOnce = state.status === 'dispatching' && !operatorId && !confirmationFirst;
  if (dispatchAtOnce) {
    state.round = 1;
    firstPage = await db.openBookingWithFirstCard({
      booking: input.booking,
      job: state.job,
      status: state.status,
      claim: { ...pageQuery(state.round, TIERS[0]!, 0, new Set(state.droppedDriverIds)), offerTimeoutSeconds: policy.offerTimeoutSeconds },
    });
  } else {
    await db.persistBooking({ booking: input.booking, job: state.job, status: state.status });
  }
  persisted = true;
  if (confirmationFirst) {
    await acts.sendBookingConfirmation({ ref, awaitingConfirmation: input.awaitEmailConfirmation });
  }

  if (!emailConfirmed) {
    const confirmed = await condition(
      () => emailConfirmed || cancelRequest !== null,
      Math.max(msUntil(state.job.pickupAt), EMAIL_CONFIRM_MIN_MS),
    );
    if (!confirmed) cancelRequest = { reason: 'email not confirmed before pickup', by: 'ops' };
    else if (!cancelRequest) await setStatus('scheduled');
  }

  for (;;) {
    if (firstPage && interrupted()) await letFirstPageGo(firstPage);
    if (cancelRequest) {
      await acts.cancelBooking({ ref, reason: cancelRequest.reason, by: cancelRequest.by, offerId: state.offer?.offerId ?? null, driverId: state.driverId });
      state.offer = null;
      state.cancelReason = cancelRequest.reason;
      markStatus('cancelled');
      break;
    }
    if (amendments.length > 0) {
      await applyAmendments();
      continue;
    }
    if (drop) {
      await handleDrop(drop);
      continue;
    }
    if (holderSuspended()) {
      // Taken off the suspended driver and dispatched again; releaseDriver tells them and the passenger.
      await handleDrop({ driverId: state.driverId!, reason: 'suspended' });
      continue;
    }
    if (onBoardWithSuspendedDriver()) {
      opsToldOnBoard = true;
      await acts.alertOpsSuspendedOnBoard({ ref, driverId: state.driverId! });
      continue;
    }

    if (state.driverId === null && operatorId) {
      // Waiting on the operator's dashboard until it picks a driver, and a while past pickup.
      await setStatus('scheduled');
      const picked = await condition(() => fleetPick !== null || interrupted(), msUntil(state.job.pickupAt) + UNASSIGNED_GRACE_MS);
      if (!picked) {
        await setStatus('unassigned');
        break;
      }
      if (fleetPick) {
        const pick: FleetAssignInput = fleetPick;
        await offerToFleetDriver(pick);
        fleetPick = null;
      }
      continue;
    }

    if (state.driverId === null) {
      const dispatchAt = Date.parse(state.job.pickupAt) - policy.dispatchLeadSeconds * 1000;
      if (Date.now() < dispatchAt) {
        await setStatus('scheduled');
        await condition(interrupted, dispatchAt - Date.now());
        continue;
      }
      const result = await runCascadeRound();
      if (result !== 'exhausted') continue;

      exhaustedRounds += 1;
      await setStatus('unassigned');
      await acts.alertOps({ ref, round: state.round });
      const untilPickup = msUntil(state.job.pickupAt);
      if (untilPickup <= 0) {
        // Past pickup with nobody found: stop retrying but stay cancellable for a while.
        const woke = await condition(interrupted, UNASSIGNED_GRACE_MS);
        if (!woke) break;
        continue;
      }
      const backoff = Math.min(policy.retryBaseSeconds * 2 ** (exhaustedRounds - 1), policy.maxRetrySeconds) * 1000;
      await condition(interrupted, Math.min(backoff, untilPickup));
      continue;
    }

    // Assigned: wait for the trip to progress, or for something that changes the plan. A driver
    // who has not reached the pickup by pickup time plus the grace is treated as a no-show.
    const woken = () => interrupted() || progress !== null;
    // Only a driver who never reported moving is a no-show; one on the way may be stuck in traffic.
    if (state.status === 'assigned') {
      const noShowAt = Date.parse(state.job.pickupAt) + policy.noShowGraceSeconds * 1000;
      if (!(await condition(woken, Math.max(1000, noShowAt - Date.now())))) {
        drop = { driverId: state.driverId, reason: 'no_show' };
        continue;
      }
    } else {
      await condition(woken);
    }
    if (progress !== null) {
      const p: TripProgress = progress;
      progress = null;
      // Reports arriving as signals are checked here; the reportTrip update's validator already
      // refuses them.
      if (!isNextTripStep(state.status, p)) continue;
      await setStatus(p);
      if (p === 'completed' || p === 'no_show') break;
    }
  }

  // Settling is a step of the booking: the driver confirms what was received (or a provider's
  // webhook does), and it is written once as an immutable payment record.
  if (state.status === 'completed') {
    state.payment = null;
    if (await condition(() => settlement !== null, SETTLEMENT_WINDOW_MS)) {
      state.payment = await acts.recordPayment({ ref, driverId: state.driverId, settlement: settlement! });
      // Ended by ops: the passenger and the driver hear how it was settled.
      if (state.ended) await acts.sendTripEndedByOps({ ref, driverId: state.driverId });
    }
  }

  await condition(allHandlersFinished);
  return state;
}

/**
 * A job card that failed for good or ran out of its offer's time. A full activity's failure comes
 * wrapped in an ActivityFailure; a local activity's arrives as the failure itself (the card's
 * ApplicationFailure, or the TimeoutFailure of its schedule-to-close).
 */
function cardNotDelivered(err: unknown): boolean {
  return err instanceof ActivityFailure || err instanceof ApplicationFailure || err instanceof TimeoutFailure;
}

function msUntil(iso: string): number {
  return Math.max(0, Date.parse(iso) - Date.now());
}
