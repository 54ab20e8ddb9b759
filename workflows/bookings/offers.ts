// The one offer engine (docs/dispatch.md): up to `size` drivers hold the job card at once, each
// card withdrawn as soon as it is declined, or left unopened for the unseen cut, or opened and left
// unanswered for offerTimeoutSeconds; a freed place goes to the next driver at once. One driver at
// a time is a group of one with no unseen cut. The first acceptance to reach the workflow wins (its
// messages are handled one at a time, and Postgres holds one open card per driver), so a booking
// never gets two drivers nor a driver two jobs; the others are told at once, never by SMS.
import { ActivityFailure, ApplicationFailure, TimeoutFailure } from '@temporalio/workflow';
import { acts, db, type jobCardActivities } from './activities.js';
import {
  isSuspended,
  openOffers,
  type CurrentOffer,
  type FirstCardPage,
  type OfferRules,
  type Tier,
} from '../../src/model/bookings.js';
import type { BookingRun } from './run.js';
import * as S from './state.js';

export type JobCards = ReturnType<typeof jobCardActivities>;

export interface Member {
  tier: Tier;
  candidate: S.Candidate;
  offerId: string;
  /** When the offer runs out in Postgres (claimed there by the caller). */
  expiresAt: string;
  /** The card already went with the claim (a first page claimed with the record), and how. */
  cardSent?: FirstCardPage['card'] | undefined;
}

export type Settled = 'assigned' | 'interrupted' | null;

export class OfferGroup {
  private readonly open: { member: Member; outAtMs: number }[] = [];
  /** Offers accepted, in the order the answers arrived. */
  private readonly acceptances: string[] = [];

  constructor(
    private readonly run: BookingRun,
    private readonly jobCards: JobCards,
    private readonly rules: OfferRules,
  ) {
    // Answers to cards of an earlier group are stale: their cards are closed.
    for (const kind of ['answer', 'seen', 'suspended'] as const) run.inbox.takeAll(kind);
  }

  private offer(offerId: string): CurrentOffer | undefined {
    return openOffers(this.run.state).find((o) => o.offerId === offerId);
  }

  private sync(extra: CurrentOffer[] = []): void {
    const offers = this.open.map((o) => this.offer(o.member.offerId)).filter((o) => o !== undefined);
    this.run.move((s) => S.offersOut(s, [...offers, ...extra]));
  }

  /**
   * The card out to one more driver (claimed in Postgres already). Only a driver alone in holding
   * it is texted: one joining others may see it taken before they read it, and each SMS costs 2p.
   * False when it could not be delivered (their claim is let go).
   */
  async add(m: Member, onCardOut?: () => void): Promise<boolean> {
    const { run } = this;
    const d = m.candidate.driverId;
    const texted = this.open.length === 0;
    const offer = { offerId: m.offerId, driverId: d, round: run.state.round, tier: m.tier, expiresAt: m.expiresAt };
    this.sync([{ ...offer, response: null, seen: false }]);
    this.open.push({ member: m, outAtMs: Date.now() });
    run.record(m.tier, m.candidate, 'offered');
    const card = { offerId: m.offerId, ref: run.ref, driverId: d, ...(texted ? {} : { sms: false }) };
    if (!(await cardDelivered(this.jobCards, card, m.cardSent))) {
      await this.close(this.open.at(-1)!, 'withdrawn', 'skipped', 'job_card_undeliverable');
      return false;
    }
    // The window runs from when the card is out, not from the claim.
    this.open.find((o) => o.member.offerId === m.offerId)!.outAtMs = Date.now();
    run.markStatus('offered');
    onCardOut?.();
    return true;
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
      let freed = await this.closeWhere((o) => isSuspended(run.state, o.driverId), 'withdrawn', 'driver_suspended');
      const winner = this.acceptances.find((id) => this.offer(id)?.response === 'accepted');
      if (winner) {
        await this.award(this.open.find((o) => o.member.offerId === winner)!);
        return 'assigned';
      }
      freed = (await this.closeWhere((o) => o.response === 'declined', 'declined')) || freed;
      if (run.inbox.interrupted()) {
        await this.withdrawAll();
        return 'interrupted';
      }
      const now = Date.now();
      for (const o of [...this.open]) {
        if (now < this.deadline(o)) continue;
        // 'unseen': never opened, withdrawn at the short cut.
        const unseen = this.rules.unseenMs !== null && !this.offer(o.member.offerId)?.seen;
        await this.close(o, 'timed_out', 'timed_out', unseen ? 'unseen' : null);
        freed = true;
      }
      if (freed || this.open.length === 0) return 'freed';
      const next = Math.min(...this.open.map((o) => this.deadline(o)));
      await run.inbox.waitFor(['answer', 'seen', 'suspended'], Math.max(1, next - Date.now()));
    }
  }

  /** The drivers' answers and openings, in the order they came. */
  private readAnswers(): void {
    for (const { msg } of this.run.inbox.takeAll('seen')) {
      if (this.offer(msg.offerId)?.driverId === msg.driverId) this.run.move((s) => S.seen(s, msg.offerId));
    }
    for (const { msg } of this.run.inbox.takeAll('answer')) this.acceptances.push(msg.offerId);
    this.run.inbox.takeAll('suspended');
  }

  private deadline(o: { member: Member; outAtMs: number }): number {
    const seen = this.offer(o.member.offerId)?.seen;
    return o.outAtMs + (seen || this.rules.unseenMs === null ? this.rules.fullMs : this.rules.unseenMs);
  }

  private async closeWhere(
    test: (o: CurrentOffer) => boolean,
    outcome: 'withdrawn' | 'declined',
    reason: string | null = null,
  ): Promise<boolean> {
    const hit = this.open.filter((o) => test(this.offer(o.member.offerId)!));
    for (const o of hit) await this.close(o, outcome, outcome, reason);
    return hit.length > 0;
  }

  private async close(
    o: { member: Member },
    status: 'withdrawn' | 'declined' | 'timed_out',
    outcome: 'withdrawn' | 'declined' | 'timed_out' | 'skipped',
    reason: string | null = null,
  ): Promise<void> {
    this.open.splice(this.open.indexOf(o as (typeof this.open)[number]), 1);
    this.sync();
    await db.closeOffer({ offerId: o.member.offerId, status });
    this.run.record(o.member.tier, o.member.candidate, outcome, reason);
  }

  /** The winner is assigned first (so every later answer hears the job is taken), then the others told. */
  private async award(w: { member: Member }): Promise<void> {
    const { run } = this;
    const { driverId } = w.member.candidate;
    await acts.assignDriver({ ref: run.ref, driverId, offerId: w.member.offerId });
    const losers = this.open.filter((o) => o !== w).map((o) => o.member);
    const cards = openOffers(run.state);
    this.open.length = 0;
    run.assigned(driverId);
    // The cards stay on show until the others are told: only then do the drivers' updates answer.
    run.move((s) => S.stillOut(s, cards));
    run.record(w.member.tier, w.member.candidate, 'accepted');
    for (const m of losers) {
      await db.closeOffer({ offerId: m.offerId, status: 'withdrawn' });
      run.record(m.tier, m.candidate, 'withdrawn', S.TAKEN_BY_ANOTHER);
    }
    const told = (m: Member) => ({ offerId: m.offerId, ref: run.ref, driverId: m.candidate.driverId });
    await Promise.all(losers.map((m) => acts.tellJobCardTaken(told(m))));
    run.move((s) => S.stillOut(s, []));
  }

  /** Something interrupted the round: every card out is withdrawn before the main loop acts. */
  async withdrawAll(): Promise<void> {
    for (const o of [...this.open]) await this.close(o, 'withdrawn', 'withdrawn');
  }
}

/** Sends the card, unless it went with the claim already; false when it could not be delivered. */
async function cardDelivered(
  jobCards: JobCards,
  card: { offerId: string; ref: string; driverId: string; sms?: boolean },
  sentWithClaim: FirstCardPage['card'] | undefined,
): Promise<boolean> {
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
