// Finding a driver: a round of the cascade goes through the tiers in order (local, national,
// partner fleets), a page of the nearest eligible drivers at a time, offering the job to one
// driver at a time (offer.ts); when every tier is exhausted, an exchange fleet running this same API
// may take the job (exchange.ts), and the round then follows it there. An operator's job skips the
// cascade: its own pick is offered.
import { patched } from '@temporalio/workflow';
import { acts, db, type jobCardActivities } from './activities.js';
import {
  CANDIDATE_PAGE_SIZE,
  TIERS,
  offerId,
  type CandidateClaim,
  type FirstCardPage,
  type FleetAssignInput,
  type OpsOfferInput,
  type Tier,
} from './definitions.js';
import { followExchangeFleet, handToExchangeFleet, heldByExchangeFleet } from './exchange.js';
import { GROUP_OFFERS, OfferGroup, hasOfferPolicy, type GroupMember } from './group-offer.js';
import { offerJob } from './offer.js';
import type { BookingRun, Candidate } from './run.js';

export type RoundResult = 'assigned' | 'exhausted' | 'interrupted';

type JobCards = ReturnType<typeof jobCardActivities>;

/** What a page of candidates is read with; round 1's first page is read so with the record. */
export function pageQuery(run: BookingRun, round: number, tier: Tier, page: number, offered: Set<string>) {
  const b = run.input.booking;
  return {
    ref: run.ref,
    round,
    tier,
    job: run.state.job,
    exclude: [...offered],
    limit: CANDIDATE_PAGE_SIZE,
    page,
    trip: { pickup: { lat: b.pickup.lat, lon: b.pickup.lon }, pickupArea: b.pickupArea, durationS: b.durationS },
  };
}

/** Round 1's first page, read and claimed with the booking's record (and its card sent). */
export function firstPageQuery(run: BookingRun) {
  return {
    ...pageQuery(run, run.state.round, TIERS[0]!, 0, new Set(run.state.droppedDriverIds)),
    offerTimeoutSeconds: run.policy.offerTimeoutSeconds,
  };
}

/**
 * A first page claimed with the record but overtaken (a cancel or an amendment came first): the
 * driver it holds is let go at once, and its round counts as run, so the next round's offers
 * and decision log start afresh.
 */
export async function letFirstPageGo(run: BookingRun, page: FirstCardPage): Promise<void> {
  run.firstPage = null;
  const claim = page.claim;
  const held = claim?.driverId ? page.candidates.find((c) => c.driverId === claim.driverId) : undefined;
  if (!claim?.offerId || !held) return;
  await db.closeOffer({ offerId: claim.offerId, status: 'withdrawn' });
  run.record(TIERS[0]!, held, 'withdrawn', run.cancelRequest ? 'cancelled' : 'amendment');
}

/** The next page of eligible candidates of a tier, with the first of them claimed if free. */
async function candidatePage(
  run: BookingRun,
  round: number,
  tier: Tier,
  page: number,
  offered: Set<string>,
): Promise<{ candidates: Candidate[]; claim: CandidateClaim | null; card?: FirstCardPage['card'] }> {
  // Round 1's first page, when it came with the record (runCascadeRound keeps its round number).
  if (run.firstPage && tier === TIERS[0] && page === 0) {
    const p = run.firstPage;
    run.firstPage = null;
    (run.state.tiers ??= []).push({ round, tier, considered: p.considered, eligible: p.eligible });
    return { candidates: p.candidates, claim: p.claim, card: p.card };
  }
  const p = await db.claimFromCandidatePage({
    ...pageQuery(run, round, tier, page, offered),
    offerTimeoutSeconds: run.policy.offerTimeoutSeconds,
  });
  if (page === 0) (run.state.tiers ??= []).push({ round, tier, considered: p.considered, eligible: p.eligible });
  return { candidates: p.candidates, claim: p.claim };
}

export async function runCascadeRound(run: BookingRun, jobCards: JobCards): Promise<RoundResult> {
  // The job is with an exchange fleet (only ever so on the exchange's patched path): follow it there.
  if (heldByExchangeFleet(run)) return followExchangeFleet(run);
  // A round begun with the booking's record (its first page already claimed) is this one.
  if (!run.firstPage) run.state.round += 1;
  const round = run.state.round;
  // Nobody who dropped the job, or was suspended while offered it, is asked again.
  const offered = new Set([...run.state.droppedDriverIds, ...(run.state.suspendedDriverIds ?? [])]);
  await run.setStatus('dispatching');
  if (hasOfferPolicy(run) && patched(GROUP_OFFERS)) return runGroupRound(run, jobCards, round, offered);
  for (const tier of TIERS) {
    for (let page = 0; ; page++) {
      const { candidates, claim, card } = await candidatePage(run, round, tier, page, offered);
      if (candidates.length === 0) break;
      // What the page's own claim found: drivers taken by other bookings, and the one it holds.
      const busy = new Set(claim?.busy ?? []);
      let held = claim?.driverId != null ? claim : null;
      for (const c of candidates) {
        if (run.interrupted()) {
          // A driver claimed with the page but never sent the card is let go at once.
          if (held?.offerId) await db.closeOffer({ offerId: held.offerId, status: 'withdrawn' });
          return 'interrupted';
        }
        const id = offerId(run.ref, round, c.driverId);
        offered.add(c.driverId);
        if (run.isSuspended(c.driverId)) {
          // Suspended since the page was read: not asked (a card sent with the page's claim is withdrawn).
          if (held?.driverId === c.driverId && held.offerId)
            await db.closeOffer({ offerId: held.offerId, status: 'withdrawn' });
          if (held?.driverId === c.driverId) held = null;
          run.record(tier, c, 'skipped', 'driver_suspended');
          continue;
        }
        if (busy.has(c.driverId)) {
          run.record(tier, c, 'skipped', 'busy');
          continue;
        }
        let expiresAt: string;
        // What became of the card already sent with the claim (first pages claimed with the record).
        let cardSent: FirstCardPage['card'] | undefined;
        if (held?.driverId === c.driverId && held.expiresAt) {
          expiresAt = held.expiresAt;
          cardSent = card;
          held = null;
        } else {
          expiresAt = new Date(Date.now() + run.policy.offerTimeoutSeconds * 1000).toISOString();
          // Another booking may have claimed this driver since the candidates were read.
          const { claimed } = await db.openOffer({
            offerId: id,
            ref: run.ref,
            driverId: c.driverId,
            round,
            tier,
            expiresAt,
          });
          if (!claimed) {
            run.record(tier, c, 'skipped', 'busy');
            continue;
          }
        }
        const outcome = await offerJob(run, jobCards, { tier, round, candidate: c, offerId: id, expiresAt, cardSent });
        if (outcome === 'assigned') return 'assigned';
        if (outcome === 'withdrawn') return 'interrupted';
      }
    }
  }
  // Nobody of ours: an exchange fleet, if one takes it (bookings started before it: 'exhausted').
  return handToExchangeFleet(run);
}

/**
 * A round under the offer policy (group-offer.ts): the same tiers, pages and checks as one driver
 * at a time, but up to offerGroupSize drivers hold the card at once and a place freed (a decline, a
 * card unopened or unanswered in its time) goes to the next candidate at once. A tier's cards are
 * all settled before the next tier is asked, so a nearer tier is never raced by a further one.
 */
async function runGroupRound(
  run: BookingRun,
  jobCards: JobCards,
  round: number,
  offered: Set<string>,
): Promise<RoundResult> {
  const group = new OfferGroup(run, jobCards);
  /** Waits while the group is full (`drain`: until it is empty); what ends the round, if anything. */
  const settle = async (drain: boolean): Promise<RoundResult | null> => {
    while (drain ? group.size > 0 : group.size >= group.capacity) {
      const r = await group.wait();
      if (r === 'assigned') return 'assigned';
      if (r === 'withdrawn') return 'interrupted';
    }
    return null;
  };
  for (const tier of TIERS) {
    for (let page = 0; ; page++) {
      const { candidates, claim, card } = await candidatePage(run, round, tier, page, offered);
      if (candidates.length === 0) break;
      const busy = new Set(claim?.busy ?? []);
      let held = claim?.driverId != null ? claim : null;
      for (const c of candidates) {
        if (run.interrupted()) {
          // A driver claimed with the page but never sent the card is let go at once, and every card out withdrawn.
          if (held?.offerId) await db.closeOffer({ offerId: held.offerId, status: 'withdrawn' });
          await group.withdrawAll();
          return 'interrupted';
        }
        offered.add(c.driverId);
        if (run.isSuspended(c.driverId)) {
          if (held?.driverId === c.driverId && held.offerId)
            await db.closeOffer({ offerId: held.offerId, status: 'withdrawn' });
          if (held?.driverId === c.driverId) held = null;
          run.record(tier, c, 'skipped', 'driver_suspended');
          continue;
        }
        if (busy.has(c.driverId)) {
          run.record(tier, c, 'skipped', 'busy');
          continue;
        }
        const id = offerId(run.ref, round, c.driverId);
        let member: GroupMember;
        if (held?.driverId === c.driverId && held.expiresAt) {
          member = { tier, candidate: c, offerId: id, expiresAt: held.expiresAt, cardSent: card };
          held = null;
        } else {
          const expiresAt = new Date(Date.now() + run.policy.offerTimeoutSeconds * 1000).toISOString();
          // Another booking may have claimed this driver since the candidates were read.
          const { claimed } = await db.openOffer({
            offerId: id,
            ref: run.ref,
            driverId: c.driverId,
            round,
            tier,
            expiresAt,
          });
          if (!claimed) {
            run.record(tier, c, 'skipped', 'busy');
            continue;
          }
          member = { tier, candidate: c, offerId: id, expiresAt };
        }
        await group.add(member);
        const ended = await settle(false);
        if (ended) return ended;
      }
    }
    const ended = await settle(true);
    if (ended) return ended;
  }
  return handToExchangeFleet(run);
}

/**
 * Operator bookings never enter the cascade: the operator picks a driver of its own fleet, who gets
 * the job card like any other and accepts or declines in the driver app. A decline or silence
 * hands the job back to the operator's dashboard.
 */
export async function offerToFleetDriver(run: BookingRun, jobCards: JobCards, pick: FleetAssignInput): Promise<void> {
  await offerToNamedDriver(run, jobCards, pick, 'partner', () => (run.fleetPicksServed += 1));
}

/**
 * Ops hand a booking nobody holds to a driver they name: that driver alone is offered it, with the
 * usual job card, in a round of its own. A decline or silence puts the booking back in the cascade.
 */
export async function offerToOpsPick(run: BookingRun, jobCards: JobCards, pick: OpsOfferInput): Promise<void> {
  await offerToNamedDriver(run, jobCards, pick, 'local', () => (run.opsPicksServed += 1));
}

/** One named driver offered the job; `served` answers whoever named them once the card is out (or could not be). */
async function offerToNamedDriver(
  run: BookingRun,
  jobCards: JobCards,
  pick: { driverId: string; driverName: string },
  tier: Tier,
  served: () => void,
): Promise<void> {
  run.state.round += 1;
  const round = run.state.round;
  const c = { driverId: pick.driverId, driverName: pick.driverName, distanceMeters: null };
  const id = offerId(run.ref, round, pick.driverId);
  const expiresAt = new Date(Date.now() + run.policy.offerTimeoutSeconds * 1000).toISOString();
  const { claimed } = await db.openOffer({
    offerId: id,
    ref: run.ref,
    driverId: pick.driverId,
    round,
    tier,
    expiresAt,
  });
  if (!claimed) {
    run.record(tier, c, 'skipped', 'busy');
    served();
    return;
  }
  // The request is answered once the card is out (or could not be delivered).
  const outcome = await offerJob(run, jobCards, {
    tier,
    round,
    candidate: c,
    offerId: id,
    expiresAt,
    onCardOut: served,
  });
  if (outcome === 'undeliverable') served();
}

/**
 * A driver took the job from the upcoming-jobs board: their claim is made as an offer's is, under
 * their row lock, and accepted at once (no job card: they chose it), so the passenger hears who is
 * coming as on any assignment. The decision log records it as claimed from the board. Refused
 * (the answer says why) when the job went to someone first or the driver no longer fits; the
 * booking then carries on as it was, waiting for its dispatch time or its next round.
 */
export async function takeBoardClaim(run: BookingRun): Promise<void> {
  const claim = run.boardClaim!;
  run.boardClaim = null;
  if (run.state.driverId !== null || run.state.offer !== null || heldByExchangeFleet(run)) {
    run.boardClaims.set(claim.driverId, { refused: 'taken' });
    return;
  }
  run.state.round += 1;
  const round = run.state.round;
  const c = { driverId: claim.driverId, driverName: claim.driverName, distanceMeters: null };
  const id = offerId(run.ref, round, claim.driverId);
  const r = await db.claimUpcomingJob({
    ref: run.ref,
    driverId: claim.driverId,
    offerId: id,
    round,
    job: run.state.job,
    durationS: run.input.booking.durationS,
  });
  if (!r.claimed) {
    run.record('local', c, 'skipped', 'board_claim_refused');
    run.boardClaims.set(claim.driverId, { refused: r.reason });
    return;
  }
  await acts.assignDriver({ ref: run.ref, driverId: claim.driverId, offerId: id });
  run.assigned(claim.driverId);
  run.record('local', c, 'accepted', 'claimed_from_board');
  run.boardClaims.set(claim.driverId, { offerId: id });
}
