// The one offer engine (docs/dispatch.md): up to `size` drivers hold the job card at once, each
// card withdrawn as soon as it is declined, or left unopened for the unseen cut, or opened and left
// unanswered for offerTimeoutSeconds; a freed place goes to the next driver at once. The first
// acceptance to reach the workflow wins (its messages are handled one at a time, and Postgres holds
// one open card per driver), so a booking never gets two drivers nor a driver two jobs.
import { ActivityFailure, ApplicationFailure, TimeoutFailure } from '@temporalio/workflow';
import { award, db } from '../activities.js';
import * as model from '../../src/model/bookings.js';
import type { BookingRun, JobCards } from './run.js';
import * as S from '../../src/model/booking-state.js';

export interface Member {
  tier: model.Tier;
  candidate: S.Candidate;
  offerId: string;
  /** When the offer runs out in Postgres (claimed there by the caller). */
  expiresAt: string;
  /** The card already went with the claim (a first page claimed with the record), and how. */
  cardSent?: model.FirstCardPage['card'] | undefined;
}

type Out = Member & { outAtMs: number };

type Card = Parameters<JobCards['sendJobCard']>[0];

/** How a card is closed: its status in Postgres, and the decision log's outcome and reason. */
type Closing = [
  status: 'withdrawn' | 'declined' | 'timed_out',
  outcome: model.CandidateOutcome,
  reason?: string | null,
];

export type Settled = 'assigned' | 'interrupted' | null;

export class OfferGroup {
  private readonly open: Out[] = [];
  /** Offers accepted, in the order the answers arrived. */
  private readonly acceptances: string[] = [];

  constructor(
    private readonly run: BookingRun,
    private readonly rules: model.OfferRules,
  ) {
    // Answers to cards of an earlier group are stale: their cards are closed.
    for (const kind of ['answer', 'seen', 'suspended'] as const) run.inbox.takeAll(kind);
  }

  private offer(offerId: string): model.CurrentOffer | undefined {
    return model.openOffers(this.run.state).find((o) => o.offerId === offerId);
  }

  private sync(extra: model.CurrentOffer[] = []): void {
    const offers = this.open.map((o) => this.offer(o.offerId)).filter((o) => o !== undefined);
    this.run.move((s) => S.offersOut(s, [...offers, ...extra]));
  }

  /**
   * The card out to one more driver (claimed already); false when undeliverable. Only a driver alone in
   * holding it is texted: one joining others may see it taken before they read it, and each SMS costs 2p.
   */
  async add(m: Member, onCardOut?: () => void): Promise<boolean> {
    const { run } = this;
    const { driverId } = m.candidate;
    const texted = this.open.length === 0;
    const offer = { offerId: m.offerId, driverId, round: run.state.round, tier: m.tier, expiresAt: m.expiresAt };
    this.sync([{ ...offer, response: null, seen: false }]);
    const out: Out = { ...m, outAtMs: Date.now() };
    this.open.push(out);
    run.record(m.tier, m.candidate, 'offered');
    const card = { offerId: m.offerId, ref: run.ref, driverId, ...(texted ? {} : { sms: false }) };
    if (!(await cardDelivered(run.jobCards, card, m.cardSent))) {
      await this.close(out, 'withdrawn', 'skipped', 'job_card_undeliverable');
      return false;
    }
    // The window runs from when the card is out, not from the claim.
    out.outAtMs = Date.now();
    run.markStatus('offered');
    onCardOut?.();
    return true;
  }

  /** How many more cards the group may have out now (at least one: a page is read only when there is room). */
  freePlaces(): number {
    return Math.max(1, this.rules.size - this.open.length);
  }

  /** Waits while the group is full (`drain`: until it is empty); what ends the round, if anything. */
  async settle(drain: boolean): Promise<Settled> {
    while (drain ? this.open.length > 0 : this.open.length >= this.rules.size) {
      const r = await this.wait();
      if (r !== 'freed') return r;
    }
    return null;
  }

  /**
   * Until something changes the group: a driver won the job, a place was freed (a decline, a card
   * unopened or unanswered in its time, a driver suspended), or the main loop must act (every card
   * withdrawn). An acceptance that arrived before the card's time ran out counts.
   */
  private async wait(): Promise<'assigned' | 'freed' | 'interrupted'> {
    const { run } = this;
    for (;;) {
      this.readAnswers();
      const suspended = (o: Out) => model.isSuspended(run.state, o.candidate.driverId);
      let freed = await this.closeAll(suspended, 'withdrawn', 'withdrawn', 'driver_suspended');
      const accepted = this.acceptances.map((id) => this.open.find((o) => o.offerId === id));
      const winner = accepted.find((o) => o && this.answer(o) === 'accepted');
      if (winner) {
        await this.award(winner);
        return 'assigned';
      }
      freed = (await this.closeAll((o) => this.answer(o) === 'declined', 'declined', 'declined')) || freed;
      if (run.inbox.interrupted()) {
        await this.withdrawAll();
        return 'interrupted';
      }
      // 'unseen': never opened, withdrawn at the short cut.
      const unseen = (o: Out) => this.rules.unseenMs !== null && !this.offer(o.offerId)?.seen;
      const now = Date.now();
      await this.readOpened(this.open.filter((o) => now >= this.deadline(o) && unseen(o)));
      for (const o of this.open.filter((o) => now >= this.deadline(o))) {
        await this.close(o, 'timed_out', 'timed_out', unseen(o) ? 'unseen' : null);
        freed = true;
      }
      if (freed || this.open.length === 0) return 'freed';
      const next = Math.min(...this.open.map((o) => this.deadline(o)));
      await run.inbox.waitFor(['answer', 'seen', 'suspended'], Math.max(1, next - Date.now()));
    }
  }

  private answer(o: Out) {
    return this.offer(o.offerId)?.response;
  }

  private readAnswers(): void {
    for (const { msg } of this.run.inbox.takeAll('seen')) {
      if (this.offer(msg.offerId)?.driverId === msg.driverId) this.run.move((s) => S.seen(s, msg.offerId));
    }
    for (const { msg } of this.run.inbox.takeAll('answer')) this.acceptances.push(msg.offerId);
    this.run.inbox.takeAll('suspended');
  }

  /**
   * Cards at their unseen cut: whether their drivers opened them is read from Postgres here, where
   * the page or the app recorded it, rather than signalled at each look (a workflow task apiece).
   * An opened card gets its full window. (A booking's 'seen' messages, from an older API, count too.)
   */
  private async readOpened(atCut: Out[]): Promise<void> {
    if (atCut.length === 0) return;
    const { opened } = await db.cardsOpened({ offerIds: atCut.map((o) => o.offerId) });
    for (const offerId of opened) this.run.move((s) => S.seen(s, offerId));
  }

  private deadline(o: Out): number {
    return model.cardDeadline(this.rules, o.outAtMs, Boolean(this.offer(o.offerId)?.seen));
  }

  private async closeAll(which: (o: Out) => boolean, ...how: Closing): Promise<boolean> {
    const hit = this.open.filter(which);
    for (const o of hit) await this.close(o, ...how);
    return hit.length > 0;
  }

  private async close(o: Out, ...[status, outcome, reason = null]: Closing): Promise<void> {
    this.open.splice(this.open.indexOf(o), 1);
    this.sync();
    await db.closeOffer({ offerId: o.offerId, status });
    this.run.record(o.tier, o.candidate, outcome, reason);
  }

  /**
   * The winner is assigned first (so every later answer hears the job is taken), then the others'
   * cards withdrawn and the drivers told, all in the one local activity: an answer arriving meanwhile
   * is taken up in the next workflow task, and hears the job is taken.
   */
  private async award(w: Out): Promise<void> {
    const { run } = this;
    const { driverId } = w.candidate;
    const losers = this.open.filter((o) => o !== w);
    const taken = losers.map((m) => ({ offerId: m.offerId, driverId: m.candidate.driverId }));
    await award.assignDriver({ ref: run.ref, driverId, offerId: w.offerId, taken });
    this.open.length = 0;
    run.assigned(driverId);
    run.record(w.tier, w.candidate, 'accepted');
    for (const m of losers) run.record(m.tier, m.candidate, 'withdrawn', S.TAKEN_BY_ANOTHER);
  }

  /** Something interrupted the round: every card out is withdrawn before the main loop acts. */
  async withdrawAll(): Promise<void> {
    await this.closeAll(() => true, 'withdrawn', 'withdrawn');
  }
}

/** Sends the card, unless it went with the claim already; false when it could not be delivered. */
async function cardDelivered(jobCards: JobCards, card: Card, sentWithClaim: Member['cardSent']): Promise<boolean> {
  if (sentWithClaim) return sentWithClaim === 'sent';
  try {
    await jobCards.sendJobCard(card);
    return true;
  } catch (err) {
    // A full activity's failure comes wrapped in an ActivityFailure; a local activity's arrives as
    // the failure itself (the card's ApplicationFailure, or the TimeoutFailure of its schedule-to-close).
    if (err instanceof ActivityFailure || err instanceof ApplicationFailure || err instanceof TimeoutFailure)
      return false;
    throw err;
  }
}
