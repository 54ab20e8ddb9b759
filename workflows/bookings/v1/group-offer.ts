// The offer policy (issue 25, docs/dispatch.md "Offer policy"): up to offerGroupSize drivers hold
// the job card at once, each card withdrawn as soon as it is declined, or left unopened for
// offerUnseenSeconds, or opened and left unanswered for offerTimeoutSeconds; a freed place goes to
// the next driver at once. The first acceptance to reach the workflow wins: the workflow assigns
// exactly one driver (its messages are handled one at a time) and Postgres holds one open card per
// driver (claimOffer), so a booking never gets two drivers nor a driver two jobs. The others'
// cards are withdrawn and they are told at once, by WhatsApp and the app, never by SMS.
import { condition } from '@temporalio/workflow';
import { acts, db, type jobCardActivities } from './activities.js';
import type { CurrentOffer, FirstCardPage, Tier } from './definitions.js';
import { cardDelivered } from './offer.js';
import { TAKEN_BY_ANOTHER, type BookingRun, type Candidate } from './run.js';

/**
 * Patch (issue 25): bookings whose policy carries the offer policy's knobs (offerGroupSize,
 * offerUnseenSeconds) run their cascade rounds through OfferGroup: several cards open at once,
 * an unopened card withdrawn early, the others told when one driver wins (tellJobCardTaken).
 * Bookings started without the knobs keep one driver at a time for the full window.
 */
export const GROUP_OFFERS = 'group-offers';

/** Whether this booking was started under the offer policy (its knobs are in its input). */
export function hasOfferPolicy(run: BookingRun): boolean {
  return run.policy.offerGroupSize !== undefined || run.policy.offerUnseenSeconds !== undefined;
}

export interface GroupMember {
  tier: Tier;
  candidate: Candidate;
  offerId: string;
  /** When the offer runs out in Postgres (claimed there by the caller): the full window. */
  expiresAt: string;
  /** The card already went with the claim (a first page claimed with the record), and how. */
  cardSent?: FirstCardPage['card'] | undefined;
}

interface Open {
  member: GroupMember;
  offer: CurrentOffer;
  /** Workflow time the card went out: its windows run from here. */
  outAtMs: number;
}

export type GroupWait = 'assigned' | 'freed' | 'withdrawn';

type JobCards = ReturnType<typeof jobCardActivities>;

export class OfferGroup {
  private readonly open: Open[] = [];

  constructor(
    private readonly run: BookingRun,
    private readonly jobCards: JobCards,
  ) {}

  /** How many drivers may hold the card at once (1: one at a time, as before the policy). */
  get capacity(): number {
    return Math.max(1, Math.floor(this.run.policy.offerGroupSize ?? 1));
  }

  get size(): number {
    return this.open.length;
  }

  private get fullMs(): number {
    return this.run.policy.offerTimeoutSeconds * 1000;
  }

  private get unseenMs(): number {
    return Math.min(this.fullMs, (this.run.policy.offerUnseenSeconds ?? this.run.policy.offerTimeoutSeconds) * 1000);
  }

  /** The cards out, as the handlers and the query see them (`offer` is the first). */
  private sync(): void {
    const offers = this.open.map((o) => o.offer);
    this.run.state.group = offers.length > 0 ? offers : null;
    this.run.state.offer = offers[0] ?? null;
  }

  /**
   * The card out to one more driver (already claimed in Postgres). Only a driver who is alone in
   * holding the card is texted: one joining others may see it taken before they read it, and each
   * SMS costs them 2p. False when the card could not be delivered (their claim is let go).
   */
  async add(m: GroupMember): Promise<boolean> {
    const { run } = this;
    const offer: CurrentOffer = {
      offerId: m.offerId,
      driverId: m.candidate.driverId,
      round: run.state.round,
      tier: m.tier,
      expiresAt: m.expiresAt,
      response: null,
      seen: false,
    };
    const texted = this.open.length === 0;
    this.open.push({ member: m, offer, outAtMs: Date.now() });
    this.sync();
    run.record(m.tier, m.candidate, 'offered');
    const card = {
      offerId: m.offerId,
      ref: run.ref,
      driverId: m.candidate.driverId,
      ...(texted ? {} : { sms: false }),
    };
    if (!(await cardDelivered(this.jobCards, card, m.cardSent))) {
      this.remove(m.offerId);
      await db.closeOffer({ offerId: m.offerId, status: 'withdrawn' });
      run.record(m.tier, m.candidate, 'skipped', 'job_card_undeliverable');
      return false;
    }
    // The window runs from when the card is out, not from the claim.
    const o = this.open.find((x) => x.offer.offerId === m.offerId);
    if (o) o.outAtMs = Date.now();
    run.markStatus('offered');
    return true;
  }

  private remove(offerId: string): void {
    const i = this.open.findIndex((o) => o.offer.offerId === offerId);
    if (i >= 0) this.open.splice(i, 1);
    this.sync();
  }

  private deadline(o: Open): number {
    return o.outAtMs + (o.offer.seen ? this.fullMs : this.unseenMs);
  }

  /**
   * Waits until something changes the group: a driver won the job ('assigned'), a place was freed
   * (a decline, a card unopened or unanswered in its time, a driver suspended: 'freed'), or the main
   * loop must act (every card withdrawn: 'withdrawn'). An acceptance that reached the workflow
   * before the card's time ran out counts, as with one driver at a time.
   */
  async wait(): Promise<GroupWait> {
    const { run } = this;
    for (;;) {
      let freed = false;
      for (const o of [...this.open]) {
        if (!run.isSuspended(o.offer.driverId)) continue;
        this.remove(o.offer.offerId);
        await db.closeOffer({ offerId: o.offer.offerId, status: 'withdrawn' });
        run.record(o.member.tier, o.member.candidate, 'withdrawn', 'driver_suspended');
        freed = true;
      }
      // The first acceptance to arrive, among the cards still open.
      const winnerId = run.acceptances.find((id) =>
        this.open.some((o) => o.offer.offerId === id && o.offer.response === 'accepted'),
      );
      const winner = winnerId ? this.open.find((o) => o.offer.offerId === winnerId) : undefined;
      if (winner) {
        await this.award(winner);
        return 'assigned';
      }
      for (const o of [...this.open]) {
        if (o.offer.response !== 'declined') continue;
        this.remove(o.offer.offerId);
        await db.closeOffer({ offerId: o.offer.offerId, status: 'declined' });
        run.record(o.member.tier, o.member.candidate, 'declined');
        freed = true;
      }
      if (run.interrupted()) {
        await this.withdrawAll();
        return 'withdrawn';
      }
      const now = Date.now();
      for (const o of [...this.open]) {
        if (now < this.deadline(o)) continue;
        this.remove(o.offer.offerId);
        await db.closeOffer({ offerId: o.offer.offerId, status: 'timed_out' });
        // 'unseen': never opened, withdrawn at the short cut; an opened card ran its full window.
        run.record(o.member.tier, o.member.candidate, 'timed_out', o.offer.seen ? null : 'unseen');
        freed = true;
      }
      if (freed || this.open.length === 0) return 'freed';
      const next = Math.min(...this.open.map((o) => this.deadline(o)));
      await condition(
        () =>
          run.interrupted() || this.open.some((o) => o.offer.response !== null || run.isSuspended(o.offer.driverId)),
        Math.max(1, next - Date.now()),
      );
    }
  }

  /**
   * The winner is assigned first (so every later answer hears the job is taken), then every other
   * card is withdrawn and its driver told; only then do the others' updates answer ('taken').
   */
  private async award(w: Open): Promise<void> {
    const { run } = this;
    const driverId = w.offer.driverId;
    await acts.assignDriver({ ref: run.ref, driverId, offerId: w.offer.offerId });
    run.assigned(driverId);
    run.record(w.member.tier, w.member.candidate, 'accepted');
    const losers = this.open.filter((o) => o !== w);
    for (const o of losers) {
      await db.closeOffer({ offerId: o.offer.offerId, status: 'withdrawn' });
      run.record(o.member.tier, o.member.candidate, 'withdrawn', TAKEN_BY_ANOTHER);
    }
    await Promise.all(
      losers.map((o) => acts.tellJobCardTaken({ offerId: o.offer.offerId, ref: run.ref, driverId: o.offer.driverId })),
    );
    this.open.length = 0;
    this.sync();
    run.state.offer = null;
  }

  /** Something interrupted the round: every card out is withdrawn before the main loop acts. */
  async withdrawAll(): Promise<void> {
    const { run } = this;
    for (const o of [...this.open]) {
      this.remove(o.offer.offerId);
      await db.closeOffer({ offerId: o.offer.offerId, status: 'withdrawn' });
      run.record(o.member.tier, o.member.candidate, 'withdrawn');
    }
  }
}
