// One booking's workflow state: what the bookingState query answers, the messages waiting for the
// main loop, and the named transitions that move it. Handlers (handlers.ts) only put messages in;
// the main loop (workflow.ts) and the offer loop (offer.ts) take them out and move the state.
import { upsertSearchAttributes } from '@temporalio/workflow';
import { db } from './activities.js';
import {
  BookingSearchAttributes,
  TERMINAL_STATUSES,
  initialStatus,
  type AmendInput,
  type AmendedFare,
  type AmendedRoute,
  type BookingState,
  type BookingStatus,
  type BookingWorkflowInput,
  type CancelInput,
  type CandidateOutcome,
  type ClaimUpcomingInput,
  type CurrentOffer,
  type DriverDroppedInput,
  type FirstCardPage,
  type FleetAssignInput,
  type OpsOfferInput,
  type SettleInput,
  type Tier,
  type TripProgress,
} from './definitions.js';

/** The decision log's reason for a group offer's card withdrawn because another driver accepted first. */
export const TAKEN_BY_ANOTHER = 'taken_by_another_driver';

export type Candidate = { driverId: string; driverName: string; distanceMeters: number | null };

export class BookingRun {
  readonly ref: string;
  readonly state: BookingState;
  /** Operator bookings never enter the cascade: the operator's dashboard picks the driver. */
  readonly operatorId: string | null;
  /** The passenger is emailed their confirmation before dispatch begins. */
  readonly confirmationFirst: boolean;

  // Messages for the main loop, put there by the handlers.
  /** The record is written: the routes waiting on bookingCreated may answer. */
  persisted = false;
  emailConfirmed: boolean;
  cancelRequest: CancelInput | null = null;
  readonly amendments: AmendInput[] = [];
  amendmentsReceived = 0;
  amendmentsApplied = 0;
  drop: DriverDroppedInput | null = null;
  progress: TripProgress | null = null;
  settlement: SettleInput | null = null;
  /** Operator bookings: the fleet driver the operator picked, waiting to be offered the job. */
  fleetPick: FleetAssignInput | null = null;
  fleetPicksServed = 0;
  /** A driver ops named for the job (offerToDriver), waiting to be offered it. */
  opsPick: OpsOfferInput | null = null;
  opsPicksServed = 0;
  /** A driver taking the job from the upcoming-jobs board (claimUpcomingJob), waiting for the main loop. */
  boardClaim: ClaimUpcomingInput | null = null;
  /** What became of each board claim taken, by driver: their offer, or why the locked claim refused them. */
  readonly boardClaims = new Map<string, { offerId: string } | { refused: string }>();

  // The main loop's own bookkeeping.
  exhaustedRounds = 0;
  /** When the driver holding the job accepted it (workflow time): one who took it well ahead confirms on the day. */
  assignedAtMs = 0;
  /** The driver asked to confirm on the day (once per driver). */
  confirmAskedOf: string | null = null;
  /** Ops have been told that a suspended driver has a passenger on board. */
  opsToldOnBoard = false;
  /**
   * The first page of round 1, read and claimed with the booking's record and its card sent
   * (openBookingWithFirstCard), waiting for the cascade to take it up; let go (its claim
   * withdrawn) if anything else comes first.
   */
  firstPage: FirstCardPage | null = null;
  /**
   * Drivers whose job card was withdrawn since the last amendment was applied (the cascade withdraws
   * an open card whenever something interrupts it): a new pickup or drop-off tells them.
   */
  readonly withdrawnCards: string[] = [];
  /** Offers accepted, in the order the acceptances arrived: the first still open wins a group offer. */
  readonly acceptances: string[] = [];

  constructor(readonly input: BookingWorkflowInput) {
    this.ref = input.booking.ref;
    this.operatorId = input.booking.operatorId ?? null;
    // Release 0.1.0 started bookings without the field and decided it from the source: its
    // bookings keep that rule until they have drained (docs/versioning.md).
    this.confirmationFirst =
      input.emailConfirmationFirst ?? Boolean(input.booking.passengerEmail && input.booking.source.startsWith('v1'));
    this.emailConfirmed = !input.awaitEmailConfirmation;
    this.state = {
      ref: this.ref,
      identity: input.booking.identity ?? null,
      status: initialStatus(input, Date.now()),
      job: { ...input.job },
      round: 0,
      driverId: null,
      offer: null,
      candidates: [],
      droppedDriverIds: [],
      cancelReason: null,
      fare: { farePence: input.booking.farePence, fareSource: input.booking.fareSource },
      pickup: input.booking.pickup,
      dropoff: input.booking.dropoff,
    };
  }

  get policy() {
    return this.input.policy;
  }

  closed(): boolean {
    return TERMINAL_STATUSES.includes(this.state.status);
  }

  /** The job cards out now: a group offer's, or the one card of one driver at a time. */
  openOffers(): CurrentOffer[] {
    return this.state.group ?? (this.state.offer ? [this.state.offer] : []);
  }

  /** Staff suspended this driver while they had this booking's job card or job. */
  isSuspended(driverId: string | null | undefined): boolean {
    return driverId != null && (this.state.suspendedDriverIds?.includes(driverId) ?? false);
  }

  /**
   * The job is held by a suspended driver and must be taken off them. Not once the passenger is on
   * board: pulling the job then would strand them mid-trip; ops are told instead and end the trip.
   */
  holderSuspended(): boolean {
    return this.isSuspended(this.state.driverId) && this.state.status !== 'on_board' && !this.closed();
  }

  onBoardWithSuspendedDriver(): boolean {
    return this.isSuspended(this.state.driverId) && this.state.status === 'on_board' && !this.opsToldOnBoard;
  }

  /** Something the main loop must deal with before waiting any longer. */
  interrupted(): boolean {
    return (
      this.cancelRequest !== null ||
      this.amendments.length > 0 ||
      this.drop !== null ||
      this.opsPick !== null ||
      this.boardClaim !== null ||
      this.holderSuspended() ||
      this.onBoardWithSuspendedDriver()
    );
  }

  /** The decision log: every driver considered, and what became of them. */
  record(tier: Tier, c: Candidate, outcome: CandidateOutcome, reason: string | null = null): void {
    this.state.candidates.push({ round: this.state.round, tier, ...c, outcome, reason, at: new Date().toISOString() });
    // (A driver who lost a group offer was told the job was taken: an amendment is no news to them.)
    if (
      outcome === 'withdrawn' &&
      reason !== 'driver_suspended' &&
      reason !== TAKEN_BY_ANOTHER &&
      !this.withdrawnCards.includes(c.driverId)
    )
      this.withdrawnCards.push(c.driverId);
  }

  /**
   * Every status change goes through here: the state the query answers, and the search attributes
   * ops filter on in the Web UI (the starting values come with the start request,
   * src/bookings/start-workflow.ts).
   */
  markStatus(status: BookingStatus): void {
    this.state.status = status;
    upsertSearchAttributes([
      { key: BookingSearchAttributes.status, value: status },
      { key: BookingSearchAttributes.pickupAt, value: new Date(this.state.job.pickupAt) },
      { key: BookingSearchAttributes.driver, value: this.state.driverId },
      { key: BookingSearchAttributes.source, value: this.input.booking.source },
      { key: BookingSearchAttributes.partner, value: this.input.booking.partnerId ?? null },
    ]);
  }

  /** A status change the workflow itself records in Postgres (others are written by the activity that caused them). */
  async setStatus(status: BookingStatus): Promise<void> {
    if (this.state.status === status) return;
    this.markStatus(status);
    await db.setBookingStatus({ ref: this.ref, status });
  }

  // Transitions.

  /** A job card is on its way to a driver. */
  offered(offer: Omit<CurrentOffer, 'response'>): void {
    this.state.offer = { ...offer, response: null };
  }

  /** The driver accepted and the assignment is recorded. */
  assigned(driverId: string): void {
    this.assignedAtMs = Date.now();
    this.state.driverId = driverId;
    this.markStatus('assigned');
    this.state.offer = null;
  }

  /** The driver no longer has the job (dropped it, no-show, suspended, no longer fits): dispatch again. */
  released(driverId: string, outcome: CandidateOutcome, reason: string): void {
    this.state.candidates.push({
      round: this.state.round,
      tier: 'local',
      driverId,
      driverName: '',
      distanceMeters: null,
      outcome,
      reason,
      at: new Date().toISOString(),
    });
    this.state.driverId = null;
    this.markStatus('dispatching');
  }

  /** An amendment moved the pickup or drop-off, or changed the fare. */
  rerouted(route: AmendedRoute | undefined, fare: AmendedFare | undefined): void {
    if (route) {
      this.state.pickup = route.pickup;
      this.state.dropoff = route.dropoff;
    }
    if (fare) this.state.fare = fare;
  }

  cancelled(reason: string | null): void {
    this.state.offer = null;
    this.state.cancelReason = reason;
    this.markStatus('cancelled');
  }
}
