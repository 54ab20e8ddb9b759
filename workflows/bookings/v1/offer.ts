// The offer loop every driver goes through, whichever tier found them or whether an operator picked
// them: the job card out, the answer awaited for the offer's time, and the outcome recorded.
import { ActivityFailure, ApplicationFailure, TimeoutFailure, condition } from '@temporalio/workflow';
import { acts, db, type jobCardActivities } from './activities.js';
import type { FirstCardPage, Tier } from './definitions.js';
import type { BookingRun, Candidate } from './run.js';

export type OfferOutcome = 'assigned' | 'undeliverable' | 'suspended' | 'declined' | 'timed_out' | 'withdrawn';

export interface Offer {
  tier: Tier;
  round: number;
  candidate: Candidate;
  offerId: string;
  /** When the offer runs out (already claimed in Postgres by the caller). */
  expiresAt: string;
  /** The card already went with the claim (a first page claimed with the record), and how. */
  cardSent?: FirstCardPage['card'] | undefined;
  /** Called once the card is out, before the answer is awaited. */
  onCardOut?: () => void;
}

export async function offerJob(
  run: BookingRun,
  jobCards: ReturnType<typeof jobCardActivities>,
  o: Offer,
): Promise<OfferOutcome> {
  const { tier, candidate: c, offerId: id } = o;
  const driverId = c.driverId;
  run.offered({ offerId: id, driverId, round: o.round, tier, expiresAt: o.expiresAt });
  run.record(tier, c, 'offered');
  if (!(await cardDelivered(jobCards, { offerId: id, ref: run.ref, driverId }, o.cardSent))) {
    // Undeliverable, or not delivered within the offer's own time: the caller moves on.
    run.state.offer = null;
    await db.closeOffer({ offerId: id, status: 'withdrawn' });
    run.record(tier, c, 'skipped', 'job_card_undeliverable');
    return 'undeliverable';
  }
  // Offered once the card is out (and its search attribute off the path to the card).
  run.markStatus('offered');
  o.onCardOut?.();
  await condition(
    () => run.state.offer?.response != null || run.interrupted() || run.isSuspended(driverId),
    run.policy.offerTimeoutSeconds * 1000,
  );

  // Suspended while the card was out: withdrawn at once, whatever they answered, and the caller
  // moves on without waiting for the offer's time to run out.
  if (run.isSuspended(driverId)) {
    run.state.offer = null;
    await db.closeOffer({ offerId: id, status: 'withdrawn' });
    run.record(tier, c, 'withdrawn', 'driver_suspended');
    return 'suspended';
  }

  // An accept that raced the timer still counts: it arrived before we moved on.
  const response = run.state.offer?.response ?? null;
  if (response === 'accepted') {
    await acts.assignDriver({ ref: run.ref, driverId, offerId: id });
    run.assigned(driverId);
    run.record(tier, c, 'accepted');
    return 'assigned';
  }
  const outcome = response === 'declined' ? 'declined' : run.interrupted() ? 'withdrawn' : 'timed_out';
  run.state.offer = null;
  await db.closeOffer({ offerId: id, status: outcome });
  run.record(tier, c, outcome);
  return outcome;
}

/** Sends the card, unless it went with the claim already; false when it could not be delivered. */
export async function cardDelivered(
  jobCards: ReturnType<typeof jobCardActivities>,
  card: { offerId: string; ref: string; driverId: string; sms?: boolean },
  sentWithClaim: FirstCardPage['card'] | undefined,
): Promise<boolean> {
  if (sentWithClaim) return sentWithClaim === 'sent';
  try {
    await jobCards.sendJobCard(card);
    return true;
  } catch (err) {
    if (!cardNotDelivered(err)) throw err;
    return false;
  }
}

/**
 * A job card that failed for good or ran out of its offer's time. A full activity's failure comes
 * wrapped in an ActivityFailure; a local activity's arrives as the failure itself (the card's
 * ApplicationFailure, or the TimeoutFailure of its schedule-to-close).
 */
function cardNotDelivered(err: unknown): boolean {
  return err instanceof ActivityFailure || err instanceof ApplicationFailure || err instanceof TimeoutFailure;
}
