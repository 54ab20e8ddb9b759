// One booking's run: its state (src/model/booking-state.ts), its inbox (inbox.ts) and the little the
// process keeps for itself. Every status change goes through markStatus, which keeps the Web UI's search
// attributes in step.
import { proxyLocalActivities, upsertSearchAttributes } from '@temporalio/workflow';
import type { Activities } from '../../activities/index.js';
import { db } from '../activities.js';
import { BookingSearchAttributes, type BookingWorkflowInput } from './definitions.js';
import * as model from '../../src/model/bookings.js';
import { Inbox } from './inbox.js';
import * as S from '../../src/model/booking-state.js';

export type Next = 'again' | 'closed';

/**
 * Job cards, undeliverable past the offer window: local activities, so no server round trip stands before
 * a card; each is idempotent per offer and channel, so a rerun after a worker crash never sends one twice.
 */
const jobCardActivities = (policy: model.DispatchPolicy) =>
  proxyLocalActivities<Activities>({
    startToCloseTimeout: '30 seconds',
    scheduleToCloseTimeout: policy.offerTimeoutSeconds * 1000,
    retry: { initialInterval: '1 second', maximumInterval: '10 seconds' },
  });
export type JobCards = ReturnType<typeof jobCardActivities>;

export class BookingRun {
  readonly ref: string;
  state: model.BookingState;
  readonly inbox: Inbox;
  readonly jobCards: JobCards;
  /** Operator bookings never enter the cascade: the operator's dashboard picks the driver. */
  readonly operatorId: string | null;
  /** The passenger is emailed their confirmation before dispatch begins. */
  readonly confirmationFirst: boolean;
  /** When an unconfirmed booking is cancelled for want of the passenger's confirmation. */
  readonly emailDeadlineMs: number;
  /** The record is written: the routes waiting on bookingCreated may answer. */
  persisted = false;
  exhaustedRounds = 0;
  assignedAtMs = 0;
  /** The driver asked to confirm on the day (once per driver). */
  confirmAskedOf: string | null = null;
  /** Ops have been told that a suspended driver has a passenger on board. */
  opsToldOnBoard = false;
  /** Round 1's first page, claimed with the record, until the first round takes it up (or lets it go). */
  firstPage: (model.FirstCardPage & model.GroupClaim) | null = null;
  /** The status, pickup time and driver last written to the search attributes. */
  private attributesShown: string | null = null;
  /** Drivers whose card was withdrawn since the last amendment: a new pickup or drop-off tells them. */
  withdrawnCards: string[] = [];

  constructor(readonly input: BookingWorkflowInput) {
    this.ref = input.booking.ref;
    this.operatorId = input.booking.operatorId ?? null;
    this.confirmationFirst =
      input.emailConfirmationFirst ?? Boolean(input.booking.passengerEmail && input.booking.source.startsWith('v1'));
    this.state = S.opened(input, Date.now());
    this.emailDeadlineMs = model.emailDeadline(input.job.pickupAt, Date.now());
    this.jobCards = jobCardActivities(input.policy);
    this.inbox = new Inbox(() => model.holderSuspended(this.state) || this.onBoardWithSuspendedDriver());
  }

  get policy() {
    return this.input.policy;
  }

  move(transition: (s: model.BookingState) => model.BookingState): void {
    this.state = transition(this.state);
  }

  closed(): boolean {
    return model.isClosed(this.state);
  }

  onBoardWithSuspendedDriver(): boolean {
    return (
      model.isSuspended(this.state, this.state.driverId) && this.state.status === 'on_board' && !this.opsToldOnBoard
    );
  }

  /** The passenger confirmed their email, or was never asked to. */
  emailConfirmed(): boolean {
    return !this.input.awaitEmailConfirmation || this.inbox.count('emailConfirmed') > 0;
  }

  /** What the booking's rules read besides its state: who picks the driver, and what waits in the inbox. */
  pending(): model.BookingInbox {
    const { inbox } = this;
    return {
      operatorId: this.operatorId,
      emailConfirmed: this.emailConfirmed(),
      cancelling: inbox.peek('cancel') !== undefined,
      reported: inbox.waitingOf('progress').map((e) => e.msg.progress),
      fleetPicking: inbox.peek('fleetPick') !== undefined,
      opsPicking: inbox.peek('opsPick') !== undefined,
      claimants: inbox.waitingOf('boardClaim').map((e) => e.msg.claim.driverId),
      settlementSent: inbox.count('settle') > 0,
    };
  }

  record(tier: model.Tier, candidate: S.Candidate, outcome: model.CandidateOutcome, reason?: string | null): void {
    this.move((s) => S.recorded(s, { tier, candidate, outcome, reason, at: new Date().toISOString() }));
    // (A driver suspended, or told the job was taken, needs no news of an amendment.)
    const quiet = reason === 'driver_suspended' || reason === S.TAKEN_BY_ANOTHER;
    if (outcome === 'withdrawn' && !quiet && !this.withdrawnCards.includes(candidate.driverId))
      this.withdrawnCards.push(candidate.driverId);
  }

  markStatus(status: model.BookingStatus): void {
    this.move((s) => S.statusSet(s, status));
    // Each upsert is a history event: a group's second and third cards change nothing the Web UI searches on.
    const shown = [status, this.state.job.pickupAt, this.state.driverId].join('|');
    if (shown === this.attributesShown) return;
    this.attributesShown = shown;
    upsertSearchAttributes([
      { key: BookingSearchAttributes.status, value: status },
      { key: BookingSearchAttributes.pickupAt, value: new Date(this.state.job.pickupAt) },
      { key: BookingSearchAttributes.driver, value: this.state.driverId },
      { key: BookingSearchAttributes.source, value: this.input.booking.source },
      { key: BookingSearchAttributes.partner, value: this.input.booking.partnerId ?? null },
    ]);
  }

  /** A status change the workflow itself records in Postgres (others are written by the activity that caused them). */
  async setStatus(status: model.BookingStatus): Promise<void> {
    if (this.state.status === status) return;
    this.markStatus(status);
    await db.setBookingStatus({ ref: this.ref, status });
  }

  assigned(driverId: string): void {
    this.assignedAtMs = Date.now();
    this.move((s) => S.assigned(s, driverId));
    this.markStatus('assigned');
  }

  released(driverId: string, outcome: model.CandidateOutcome, reason: string): void {
    this.move((s) => S.released(s, { driverId, outcome, reason, at: new Date().toISOString() }));
    this.markStatus('dispatching');
  }
}
