// Finding a driver: a round goes through the tiers in order (local, national, partner fleets), a page
// of the nearest fitting drivers at a time, through the offer engine (offers.ts); a tier's cards are
// all settled before the next tier is asked. Then an exchange fleet may take the job (exchange.ts).
import { award, db } from '../activities.js';
import type { ClaimUpcomingInput, ClaimUpcomingResult } from './definitions.js';
import * as model from '../../src/model/bookings.js';
import { followExchangeFleet, handToExchangeFleet, heldByExchangeFleet } from './exchange.js';
import { OfferGroup, type Member } from './offers.js';
import type { BookingRun } from './run.js';
import * as S from '../../src/model/booking-state.js';

export type RoundResult = 'assigned' | 'exhausted' | 'interrupted';
/** A board claim taken: the claimant's offer, or why they were refused ('taken': someone came first). */
export type BoardClaimAnswer = ClaimUpcomingResult | { refused: string };
type Page = { candidates: S.Candidate[] } & model.GroupClaim;

/** What a page of candidates is read with, and claimed for the group's free places. */
const pageQuery = (run: BookingRun, tier: model.Tier, page: number, offered: Set<string>, claimUpTo: number) => ({
  ...model.candidatePageQuery(run.state, run.input.booking, run.policy, { tier, page, exclude: [...offered] }),
  claimUpTo,
});

/** Round 1's first page, read and claimed for a whole group with the booking's record (and their cards sent). */
export const firstPageQuery = (run: BookingRun) =>
  pageQuery(run, model.TIERS[0]!, 0, new Set(run.state.droppedDriverIds), model.cascadeOfferRules(run.policy).size);

/** A first page overtaken (a cancel or an amendment came first): the drivers it holds are let go at once. */
export async function letFirstPageGo(run: BookingRun, page: model.FirstCardPage & model.GroupClaim): Promise<void> {
  run.firstPage = null;
  const reason = run.inbox.peek('cancel') ? 'cancelled' : 'amendment';
  for (const h of page.held) {
    const candidate = page.candidates.find((c) => c.driverId === h.driverId);
    if (!candidate) continue;
    await db.closeOffer({ offerId: h.offerId, status: 'withdrawn' });
    run.record(model.TIERS[0]!, candidate, 'withdrawn', reason);
  }
}

async function candidatePage(
  run: BookingRun,
  group: OfferGroup,
  tier: model.Tier,
  page: number,
  offered: Set<string>,
): Promise<Page> {
  const count = (p: { considered: number; eligible: number }) =>
    run.move((s) => S.tierCounted(s, { round: s.round, tier, considered: p.considered, eligible: p.eligible }));
  if (run.firstPage && tier === model.TIERS[0] && page === 0) {
    const p = run.firstPage;
    run.firstPage = null;
    count(p);
    return p;
  }
  const p = await db.claimFromCandidatePage(pageQuery(run, tier, page, offered, group.freePlaces()));
  if (page === 0) count(p);
  return p;
}

export async function runRound(run: BookingRun): Promise<RoundResult> {
  if (heldByExchangeFleet(run)) return followExchangeFleet(run);
  // A round begun with the booking's record (its first page already claimed) is this one.
  if (!run.firstPage) run.move(S.roundBegun);
  // Nobody who dropped or declined the job, or was suspended while offered it, is asked again.
  const offered = new Set([...model.notToAskAgain(run.state), ...(run.state.suspendedDriverIds ?? [])]);
  await run.setStatus('dispatching');
  const group = new OfferGroup(run, model.cascadeOfferRules(run.policy));
  for (const tier of model.TIERS) {
    for (let page = 0; ; page++) {
      const p = await candidatePage(run, group, tier, page, offered);
      if (p.candidates.length === 0) break;
      const ended = await offerPage(run, group, tier, p, offered);
      if (ended) return ended;
    }
    const ended = await group.settle(true);
    if (ended) return ended;
  }
  return handToExchangeFleet(run);
}

/**
 * Each candidate of a page offered in turn, as places in the group free up: first the drivers the page's
 * claim holds (their cards sent with it, on a first page), then one claim at a time.
 */
async function offerPage(run: BookingRun, group: OfferGroup, tier: model.Tier, p: Page, offered: Set<string>) {
  const busy = new Set(p.busy);
  const held = new Map(p.held.map((h) => [h.driverId, h]));
  for (const c of p.candidates) {
    if (run.inbox.interrupted()) {
      // Drivers claimed with the page but not yet in the group are let go at once.
      for (const h of held.values()) await db.closeOffer({ offerId: h.offerId, status: 'withdrawn' });
      await group.withdrawAll();
      return 'interrupted';
    }
    const heldHere = held.get(c.driverId);
    held.delete(c.driverId);
    offered.add(c.driverId);
    const suspended = model.isSuspended(run.state, c.driverId);
    if (suspended || busy.has(c.driverId)) {
      // Suspended since the page was read: not asked (a card sent with the page's claim is withdrawn).
      if (heldHere) await db.closeOffer({ offerId: heldHere.offerId, status: 'withdrawn' });
      run.record(tier, c, 'skipped', suspended ? 'driver_suspended' : 'busy');
      continue;
    }
    const member = heldHere
      ? { tier, candidate: c, offerId: heldHere.offerId, expiresAt: heldHere.expiresAt, cardSent: heldHere.card }
      : await claim(run, tier, c);
    if (!member) continue;
    await group.add(member);
    const ended = await group.settle(false);
    if (ended) return ended;
  }
  return null;
}

/** The driver's card claimed in Postgres: null (recorded busy) when another booking has them now. */
async function claim(run: BookingRun, tier: model.Tier, c: S.Candidate): Promise<Member | null> {
  const round = run.state.round;
  const id = model.offerId(run.ref, round, c.driverId);
  const expiresAt = new Date(Date.now() + run.policy.offerTimeoutSeconds * 1000).toISOString();
  const { claimed } = await db.openOffer({ offerId: id, ref: run.ref, driverId: c.driverId, round, tier, expiresAt });
  if (claimed) return { tier, candidate: c, offerId: id, expiresAt };
  run.record(tier, c, 'skipped', 'busy');
  return null;
}

/**
 * A driver ops (or an operator, of its own fleet) named is offered the job alone, in a round of its own;
 * `served` answers whoever named them once the card is out, or could not be.
 */
export async function offerToNamedDriver(
  run: BookingRun,
  pick: { driverId: string; driverName: string },
  tier: model.Tier,
  served: () => void,
): Promise<void> {
  run.move(S.roundBegun);
  const member = await claim(run, tier, { driverId: pick.driverId, driverName: pick.driverName, distanceMeters: null });
  const group = new OfferGroup(run, model.namedOfferRules(run.policy));
  if (member && (await group.add(member, served))) await group.settle(true);
  served();
}

/** A driver took the job from the upcoming-jobs board: claimed under their row lock and accepted, with no card. */
export async function takeBoardClaim(run: BookingRun, c: ClaimUpcomingInput): Promise<BoardClaimAnswer> {
  if (model.isTaken(run.state)) return { refused: 'taken' };
  run.move(S.roundBegun);
  const round = run.state.round;
  const candidate = { driverId: c.driverId, driverName: c.driverName, distanceMeters: null };
  const id = model.offerId(run.ref, round, c.driverId);
  const claim = { ref: run.ref, driverId: c.driverId, offerId: id, round, job: run.state.job };
  const r = await db.claimUpcomingJob({ ...claim, durationS: run.input.booking.durationS });
  if (!r.claimed) {
    run.record('local', candidate, 'skipped', 'board_claim_refused');
    return { refused: r.reason };
  }
  await award.assignDriver({ ref: run.ref, driverId: c.driverId, offerId: id });
  run.assigned(c.driverId);
  run.record('local', candidate, 'accepted', 'claimed_from_board');
  return { offerId: id };
}
