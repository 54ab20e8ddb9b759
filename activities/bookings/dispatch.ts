import { log } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { insertBooking, loadBooking, newBookingView, unassignDriver } from '../../src/bookings/store.js';
import type { Sql } from '../../src/db/sql.js';
import { offerFareFor, type OfferFare } from '../../src/dispatch/driver-fare.js';
import { driverFares, offerFare, type DriverFares } from '../../src/dispatch/offer-fares.js';
import {
  DEFAULT_CASCADE_POLICY,
  heldJobMisfit,
  jobFit,
  passOverAboveQuote,
  rankTier,
  type CandidateDecision,
  type DriverSnapshot,
  type JobNeeds,
  type SkipReason,
} from '../../src/dispatch/policy.js';
import { markClaimedFromBoard } from '../../src/dispatch/board-store.js';
import {
  bookingIsSandbox,
  claimOffer,
  claimOfferReadingDriver,
  type ClaimedDriver,
  closeOffer,
  findOffer,
  openedOffers,
  readHeldJobDriver,
  readNearestTierDrivers,
  recordAcceptance,
  recordDecisions,
} from '../../src/dispatch/store.js';
import { loadDriver } from '../../src/drivers/store.js';
import type { DriverMapService } from '../../src/drivers/map-service.js';
import { findDriverPosition, type DriverPosition } from '../../src/pages/driver-position-store.js';
import { pickupEtaMinutes } from '../../src/geo/pickup-eta.js';
import { sendBestEffort } from '../../src/notify/best-effort.js';
import type { Notifier } from '../../src/notify/notifier.js';
import {
  renderDriverJobReleasedText,
  renderDriverJobAmendedText,
  renderDriverJobWithdrawnText,
  renderPassengerAssignedText,
  renderPassengerDriverChangedText,
} from '../../src/notify/templates.js';
import type { WorkerMetrics } from '../../src/ops/metrics.js';
import {
  offerId as offerIdFor,
  type BookingStatus,
  type CandidateClaim,
  type CandidatePage,
  type FirstCardPage,
  type GroupClaim,
  type HeldClaim,
  type JobSpec,
  type NewBooking,
  type Tier,
} from '../../src/model/bookings.js';
import {
  deliverJobCard,
  deliverWonCard,
  JOB_CARD_UNDELIVERABLE,
  tellCardTaken,
  type KnownForCard,
} from './job-card.js';
import { tellPassenger, type PassengerPhoneChannel } from './passenger.js';
import { licenceKindForSeats } from '../../src/model/operator-licences.js';
import { providingOperator } from '../../src/operator-licences/store.js';
import { callerWorkflowType } from '../caller.js';
import type { PassengerNews } from '../../src/model/bookings.js';

/** Why a board claim was refused, in the driver's words (policy.ts's reasons). */
const BOARD_REFUSALS: Partial<Record<SkipReason, string>> = {
  busy: 'you have another job at that time (or a job card open), or your account is not cleared to take jobs',
  licence_expired: 'a licence we hold for you is not valid at the pickup time',
  too_few_seats: 'your car has too few seats for the group',
  vehicle_class: 'your car is not of the class booked',
  not_wheelchair_accessible: 'the passenger needs a wheelchair-accessible vehicle',
};

/** A driver's reported position older than this says nothing about when they will arrive. */
const POSITION_FRESH_MS = 10 * 60_000;
/** A pickup further off than this is given as its time, not as minutes away. */
const ETA_HORIZON_MS = 60 * 60_000;

/**
 * "Arriving in about N min" for a pickup due within the hour, from where the driver last said they
 * were (by road on the driver's own map-service key when they have one); null (say the pickup time
 * instead) for a booking ahead or a driver whose position is stale.
 */
async function arrivingSoonEta(
  b: { pickup_at: Date; pickup: { lat: number; lon: number } },
  driverId: string,
  position: DriverPosition | null,
  driverMaps: DriverMapService | undefined,
  now = Date.now(),
): Promise<number | null> {
  if (!position || now - position.at.getTime() > POSITION_FRESH_MS) return null;
  if (b.pickup_at.getTime() - now > ETA_HORIZON_MS) return null;
  if (!driverMaps) return pickupEtaMinutes(position, b.pickup);
  return (await driverMaps.pickupEta(driverId, position, b.pickup)).minutes;
}

/**
 * Drivers read in the first window, nearest first: five pages of offers, so one window is the usual
 * round. Each further window doubles, so a crowd of drivers who cannot take the job (busy, too few
 * seats) costs a few reads, not dozens. Every driver read has their load counted and is written to
 * the decision log, so a first window of 50 rather than 200 is most of the database's work per
 * booking saved (bench/dispatch.ts prints it by process).
 */
export const CANDIDATE_WINDOW = 50;
/**
 * The most drivers one round of one tier considers. When none of the 2,000 nearest online drivers
 * can take the job (all busy, say), the cascade moves to the next tier and later tries again, rather
 * than reading further out than any passenger would wait for.
 */
export const MAX_CONSIDERED = 2_000;

/** What a claim of a candidate page needs: the page's query and how long the offer stands. */
type ClaimQuery = {
  ref: string;
  round: number;
  tier: Tier;
  job: JobSpec;
  exclude: string[];
  limit: number;
  page: number;
  trip: TripFacts;
  /** Whether the booking is a sandbox one, when the caller knows it (it has just written the row). */
  sandbox?: boolean;
  offerTimeoutSeconds: number;
  /** How many free drivers to claim (a group's free places); absent: one. */
  claimUpTo?: number;
};

interface TripFacts {
  pickup: { lat: number; lon: number };
  pickupArea: string;
  durationS: number;
}

/** The cascade's reads and claims: who may be asked, the offer a driver holds, the assignment. */
export function createDispatchActivities({
  sql,
  notifier,
  publicBaseUrl,
  jobLinkSecret,
  metrics,
  passengerPhoneChannel = 'sms',
  driverMaps,
  answerHandicapMeters = DEFAULT_CASCADE_POLICY.answerHandicapMeters,
  tellPassengerNews,
}: {
  sql: Sql;
  notifier: Notifier;
  publicBaseUrl: string;
  jobLinkSecret: string;
  metrics: WorkerMetrics;
  passengerPhoneChannel?: PassengerPhoneChannel;
  driverMaps?: DriverMapService | undefined;
  answerHandicapMeters?: number | undefined;
  /** The tellPassenger activity (notifications.ts): the 'booked' message sent with a booking's first cards. */
  tellPassengerNews?: (t: { ref: string; news: PassengerNews }) => Promise<void>;
}) {
  const cascadePolicy = { ...DEFAULT_CASCADE_POLICY, answerHandicapMeters };
  const jobCards = { sql, notifier, publicBaseUrl, jobLinkSecret };
  const passengerNotifier = { notifier, channel: passengerPhoneChannel };
  const warn = (m: string, a: Record<string, unknown>) => log.warn(m, a);

  /** A card closed, counted once: a retried activity finds it closed already. */
  async function closeCounted(offerId: string, status: 'declined' | 'timed_out' | 'withdrawn'): Promise<void> {
    if (await closeOffer(sql, offerId, status)) metrics.offerOutcomes.inc({ outcome: status });
  }

  /**
   * The nearest drivers of the tier within its reach, ranked: eligible nearest first, then the rest
   * with reasons. Read a window at a time, widened only while fewer than `wanted` are eligible, up to
   * MAX_CONSIDERED: a round's reads, ranking and decision log are bounded however many drivers are
   * near the pickup (50,000 round one station cost what 50 do), and drivers beyond the window were
   * not considered, which the decision log's ops view says.
   */
  async function decide(
    ref: string,
    tier: Tier,
    job: JobSpec,
    exclude: string[],
    trip: TripFacts,
    wanted: number,
    knownSandbox: boolean | undefined,
  ): Promise<{ decisions: CandidateDecision[]; fares: DriverFares | null }> {
    const start = new Date(job.pickupAt);
    // A sandbox booking reads and is offered to sandbox (test) drivers only (policy.ts's 'sandbox_mismatch').
    const sandbox = knownSandbox ?? (await bookingIsSandbox(sql, ref));
    const needs: JobNeeds = { ...jobFit(job, new Date()), pickup: trip.pickup, pickupArea: trip.pickupArea, sandbox };
    const excluded = new Set(exclude);
    const drivers: DriverSnapshot[] = [];
    let decisions: CandidateDecision[] = [];
    let fares: DriverFares | null = null;
    for (
      let offset = 0, size = CANDIDATE_WINDOW;
      offset < MAX_CONSIDERED;
      offset += size, size = Math.min(size * 2, MAX_CONSIDERED - offset)
    ) {
      const window = await readNearestTierDrivers(sql, {
        ref,
        tier,
        pickup: trip.pickup,
        reachMeters: DEFAULT_CASCADE_POLICY.maxDistanceMeters[tier],
        start,
        end: new Date(start.getTime() + trip.durationS * 1000),
        limit: size,
        offset,
        sandbox,
      });
      drivers.push(...window);
      decisions = rankTier(tier, drivers, needs, excluded, cascadePolicy);
      // A driver's own approved rate prices the job for them; above the quoted fare, they are passed over.
      const eligibleIds = decisions.filter((d) => d.eligible).map((d) => d.driverId);
      fares = eligibleIds.length > 0 ? await driverFares(sql, ref, eligibleIds) : null;
      if (fares)
        decisions = passOverAboveQuote(
          decisions,
          new Set([...fares.fares].filter(([, f]) => f.aboveQuote).map(([id]) => id)),
        );
      if (window.length < size || decisions.filter((d) => d.eligible).length >= wanted) break;
    }
    return { decisions, fares };
  }

  /** The fare a page's candidate is offered at: their own, never above the quote. */
  function fareOf(fares: DriverFares | null, driverId: string): OfferFare | undefined {
    return fares ? offerFareFor(fares.basis, fares.fares.get(driverId) ?? null) : undefined;
  }

  /**
   * The next page of drivers to offer this job to, best first. Every driver considered is written
   * to the decision log in Postgres (eligible, or with the reason they were passed over); only
   * the page itself goes back to the workflow, so its history stays small however many drivers
   * are near the pickup.
   */
  async function readCandidatePage(p: {
    ref: string;
    round: number;
    tier: Tier;
    job: JobSpec;
    exclude: string[];
    limit: number;
    page: number;
    /** What the read needs of the booking, from the workflow (one query fewer on the way to the first card). */
    trip: TripFacts;
    sandbox?: boolean;
  }): Promise<CandidatePage & { fares: DriverFares | null; logged: Promise<void> }> {
    const { decisions, fares } = await decide(p.ref, p.tier, p.job, p.exclude, p.trip, p.limit, p.sandbox);
    // Every page logs what it considered; a later page may reach drivers beyond the first window.
    // The first decision recorded for a driver in a round stands (an offer made is not undone).
    // Written on another connection while the page's drivers are claimed (no claim reads the log),
    // so the first card does not wait for a page's worth of rows; the caller awaits it before
    // returning, so a failed write fails the activity and its retry writes the log again.
    const logged = recordDecisions(sql, { ref: p.ref, round: p.round, decisions });
    logged.catch(() => {}); // (awaited by the caller; kept from being an unhandled rejection meanwhile)
    const eligible = decisions.filter((d) => d.eligible);
    return {
      candidates: eligible
        .slice(0, p.limit)
        .map((d) => ({ driverId: d.driverId, driverName: d.driverName, distanceMeters: d.distanceMeters })),
      considered: decisions.length,
      eligible: eligible.length,
      fares,
      logged,
    };
  }

  async function findCandidatePage(p: Parameters<typeof readCandidatePage>[0]): Promise<CandidatePage> {
    const { fares: _fares, logged, ...page } = await readCandidatePage(p);
    await logged;
    return page;
  }

  /**
   * findCandidatePage and openOffer in one step: reads and logs the page as findCandidatePage does,
   * then claims, in page order, up to `claimUpTo` (default 1) drivers on it that no other booking has
   * taken since, as openOffer would one by one: a group's free places filled in one activity, not one
   * claim each. Drivers found taken come back as `busy`, in page order. A retry (after a crash) finds
   * its own claims again. `claim` is the first held (and the drivers found taken before them), the
   * shape bookings on v1 read. `onHeld` hears of each driver as soon as they are held (and is awaited
   * before the next claim), so a card can go before the next driver is claimed.
   */
  async function claimFromCandidatePage(
    p: ClaimQuery,
    onHeld: (
      h: HeldClaim,
      index: number,
      farePence: number | null,
      driver: ClaimedDriver | null,
    ) => Promise<void> | void = () => {},
  ): Promise<CandidatePage & GroupClaim & { claim: CandidateClaim | null }> {
    const { fares, logged, ...page } = await readCandidatePage(p);
    const wanted = Math.max(1, p.claimUpTo ?? 1);
    const busy: string[] = [];
    const held: HeldClaim[] = [];
    let busyBeforeFirst: string[] = [];
    for (const c of page.candidates) {
      if (held.length >= wanted) break;
      const offerId = offerIdFor(p.ref, p.round, c.driverId);
      const expiresAt = new Date(Date.now() + p.offerTimeoutSeconds * 1000).toISOString();
      const fare = fareOf(fares, c.driverId);
      const { outcome: claim, driver } = await claimOfferReadingDriver(sql, {
        offerId,
        ref: p.ref,
        driverId: c.driverId,
        round: p.round,
        tier: p.tier,
        expiresAt,
        ...(fare ? { fare } : {}),
      });
      if (claim === 'taken') {
        busy.push(c.driverId);
        continue;
      }
      if (claim === 'claimed') metrics.offersSent.inc({ tier: p.tier });
      if (held.length === 0) busyBeforeFirst = [...busy];
      // A claim found from an earlier attempt keeps that attempt's expiry and fare.
      const earlier = claim === 'claimed' ? null : await findOffer(sql, offerId);
      const h = { driverId: c.driverId, offerId, expiresAt: earlier?.expires_at.toISOString() ?? expiresAt };
      await onHeld(h, held.length, earlier ? (earlier.fare_pence ?? null) : (fare?.farePence ?? null), driver);
      held.push(h);
    }
    await logged;
    const first = held[0];
    const claim: CandidateClaim | null = first
      ? { ...first, busy: busyBeforeFirst }
      : busy.length > 0
        ? { driverId: null, offerId: null, expiresAt: null, busy }
        : null;
    return { ...page, claim, held, busy };
  }

  /**
   * One held driver's card: 'undeliverable' when it failed for good, or keeps failing and its offer has
   * run out (as the card's own activity would have been given up at the offer's end); any other failure
   * is thrown, for the activity to be retried (the outbox keys send nothing twice).
   */
  async function heldCard(
    ref: string,
    h: HeldClaim,
    sms: boolean,
    known: KnownForCard,
  ): Promise<'sent' | 'undeliverable'> {
    try {
      const card = { offerId: h.offerId, ref, driverId: h.driverId, ...(sms ? {} : { sms: false }) };
      await deliverJobCard(jobCards, card, known);
      return 'sent';
    } catch (err) {
      const givenUp = err instanceof ApplicationFailure && err.type === JOB_CARD_UNDELIVERABLE;
      if (givenUp || Date.now() >= Date.parse(h.expiresAt)) {
        log.warn('job card not delivered', { ref, driverId: h.driverId, error: String(err) });
        return 'undeliverable';
      }
      throw err;
    }
  }

  return {
    findCandidatePage,

    claimFromCandidatePage,

    /**
     * A booking dispatched at once, up to its first job cards in one local activity (one workflow
     * activation instead of one per claim and card): its record written, the first page of its first
     * round read, logged and claimed as claimFromCandidatePage does (up to the group's size), and the
     * cards sent to the drivers claimed, at once: the first by SMS and WhatsApp, the others without
     * the SMS, as the offer group sends them (offers.ts). Every part is idempotent, so a retry writes
     * and sends nothing twice and finds its own claims again.
     */
    async openBookingWithFirstCard(p: {
      booking: NewBooking;
      job: JobSpec;
      status: BookingStatus;
      claim: ClaimQuery;
      /** The passenger's 'booked' message too, sent beside the cards (the reply waits for the cards anyway). */
      tellBooked?: boolean;
    }): Promise<FirstCardPage & GroupClaim & { toldBooked: boolean }> {
      // The row as written serves the page's read and the cards; only a retry, finding it there, reads it.
      const written = await insertBooking(sql, p.booking, p.job, p.status, callerWorkflowType());
      const toldBooked = Boolean(p.tellBooked && tellPassengerNews);
      const booked = toldBooked ? tellPassengerNews!({ ref: p.booking.ref, news: { kind: 'booked' } }) : null;
      booked?.catch(() => {}); // (awaited below; kept from being an unhandled rejection meanwhile)
      // Read once for every card, beside the page's read; each card knows its fare from its claim.
      const booking = written ? Promise.resolve(newBookingView(written)) : loadBooking(sql, p.booking.ref);
      booking.catch(() => {}); // (awaited by the cards; kept from being an unhandled rejection before)
      // The first card goes before anyone else is claimed, so it waits for nothing the others need; the
      // others leave as soon as their drivers are held.
      const sending: Promise<'sent' | 'undeliverable'>[] = [];
      const claim = written ? { ...p.claim, sandbox: written.sandbox ?? false } : p.claim;
      const page = await claimFromCandidatePage(claim, async (h, i, farePence, driver) => {
        const known = { booking, farePence, driver, firstRound: p.claim.round === 1 };
        const card = heldCard(p.booking.ref, h, i === 0, known);
        card.catch(() => {}); // (awaited below; kept from being an unhandled rejection meanwhile)
        sending.push(card);
        if (i === 0) await card;
      });
      const cards = await Promise.all(sending);
      await booked;
      if (page.held.length === 0) return { ...page, card: null, toldBooked };
      const held = page.held.map((h, i) => ({ ...h, card: cards[i]! }));
      return { ...page, held, card: cards[0]!, toldBooked };
    },

    async openOffer(o: {
      offerId: string;
      ref: string;
      driverId: string;
      round: number;
      tier: Tier;
      expiresAt: string;
    }): Promise<{ claimed: boolean }> {
      // The cascade's later candidates, and drivers staff or an operator name: the fare is read again
      // here (a rate approved since the page was read counts), never above the quote.
      const claim = await claimOffer(sql, { ...o, fare: await offerFare(sql, o.ref, o.driverId) });
      // Counted where the decision is recorded, once: a retried activity finds its offer already claimed.
      if (claim === 'claimed') metrics.offersSent.inc({ tier: o.tier });
      return { claimed: claim !== 'taken' };
    },

    /** Which of these cards their drivers have opened, read at the cards' unseen cut (offers.seen_at). */
    async cardsOpened({ offerIds }: { offerIds: string[] }): Promise<{ opened: string[] }> {
      return { opened: await openedOffers(sql, offerIds) };
    },

    async closeOffer({
      offerId,
      status,
    }: {
      offerId: string;
      status: 'declined' | 'timed_out' | 'withdrawn';
    }): Promise<void> {
      await closeCounted(offerId, status);
    },

    /**
     * A driver taking the job from the upcoming-jobs board, decided as an amended job's holder is
     * (policy.ts's job rules: licence at pickup, their other jobs, seats, class, wheelchair), then
     * claimed under the driver's row lock as any offer is (approved, sandbox, load): two bookings
     * never give one driver overlapping jobs. Claimed, the offer is marked as taken from the board
     * for the decision log. Idempotent: a retry finds its own claim.
     */
    async claimUpcomingJob(c: {
      ref: string;
      driverId: string;
      offerId: string;
      round: number;
      job: JobSpec;
      durationS: number;
    }): Promise<{ claimed: true } | { claimed: false; reason: string }> {
      const start = new Date(c.job.pickupAt);
      const existing = await findOffer(sql, c.offerId);
      if (!existing) {
        const held = await readHeldJobDriver(sql, {
          driverId: c.driverId,
          ref: c.ref,
          start,
          end: new Date(start.getTime() + c.durationS * 1000),
        });
        const misfit = heldJobMisfit(held, jobFit(c.job, new Date()));
        if (misfit) return { claimed: false, reason: BOARD_REFUSALS[misfit] ?? misfit };
        const expiresAt = new Date(Date.now() + 60_000).toISOString();
        // At the driver's own approved rate where they have one, never above the quote (src/dispatch/driver-fare.ts).
        const claim = await claimOffer(sql, {
          offerId: c.offerId,
          ref: c.ref,
          driverId: c.driverId,
          round: c.round,
          tier: 'local',
          expiresAt,
          fare: await offerFare(sql, c.ref, c.driverId),
        });
        if (claim === 'taken') return { claimed: false, reason: BOARD_REFUSALS.busy! };
      }
      await markClaimedFromBoard(sql, c.offerId);
      return { claimed: true };
    },

    /**
     * Records the accepted offer, withdraws the cards of the group's other drivers (`taken`) and tells
     * them the job is taken, and tells the passenger who is coming: the whole award in one activity,
     * so a group's acceptance costs the booking one activity rather than one per card.
     */
    async assignDriver({
      ref,
      driverId,
      offerId,
      taken = [],
    }: {
      ref: string;
      driverId: string;
      offerId: string;
      /** The other cards of the winner's group, still open: withdrawn once the winner's is recorded. */
      taken?: { offerId: string; driverId: string }[];
    }): Promise<void> {
      const accepted = await recordAcceptance(sql, { ref, driverId, offerId });
      if (accepted.newlyAccepted) {
        metrics.offerOutcomes.inc({ outcome: 'accepted' });
        if (accepted.secondsSinceDispatch !== null) metrics.timeToAssignment.observe(accepted.secondsSinceDispatch);
      }
      for (const t of taken) await closeCounted(t.offerId, 'withdrawn');
      await Promise.all([
        deliverWonCard(jobCards, { offerId, ref, driverId }, warn),
        ...taken.map((t) => tellCardTaken(jobCards, { ...t, ref }, warn)),
      ]);
      const [b, d, position] = await Promise.all([
        loadBooking(sql, ref),
        loadDriver(sql, driverId),
        findDriverPosition(sql, driverId),
      ]);
      // A partner fleet's driver: the booking is sub-contracted to the fleet, and the passenger is told who provides it.
      const provider =
        d.tier === 'partner' && d.partner_fleet_id
          ? await providingOperator(sql, 'partner_fleet', d.partner_fleet_id, licenceKindForSeats(d.seats) === 'psv')
          : null;
      await tellPassenger(passengerNotifier, b, {
        key: `assigned:${offerId}`,
        text: renderPassengerAssignedText(
          b,
          d,
          `${publicBaseUrl}/track/${ref}`,
          await arrivingSoonEta(b, driverId, position, driverMaps),
          provider,
        ),
      });
    },

    /**
     * Takes the job off a driver (dropped, no-show, no longer fits, suspended) and tells them so.
     * A job withdrawn from a suspended driver is news to the passenger too, who had their name.
     */
    async releaseDriver({
      ref,
      driverId,
      reason,
      amendment,
    }: {
      ref: string;
      driverId: string;
      reason: string;
      /** reason 'amended': which amendment (the booker moved the pickup or drop-off), so each is told once. */
      amendment?: number;
    }): Promise<void> {
      await unassignDriver(sql, ref, driverId);
      const d = await loadDriver(sql, driverId);
      const suspended = reason === 'suspended';
      const amended = reason === 'amended';
      // Taken off them by staff (suspended, or released by ops): told it is withdrawn, not to go.
      const withdrawn = suspended || reason === 'released';
      const b = withdrawn || amended ? await loadBooking(sql, ref) : null;
      await sendBestEffort(
        notifier,
        {
          channel: 'sms',
          to: d.phone,
          body: b
            ? amended
              ? renderDriverJobAmendedText(b)
              : renderDriverJobWithdrawnText(b)
            : renderDriverJobReleasedText(ref, reason),
          idempotencyKey: `released:${ref}:${driverId}:${reason}${amendment !== undefined ? `:${amendment}` : ''}`,
          bookingRef: ref,
        },
        warn,
      );
      // (A booking's workflow of this release tells the passenger of any driver replaced; one of an
      // older release relies on this, under the same outbox key, so the passenger hears once.)
      if (b && suspended) {
        await tellPassenger(passengerNotifier, b, {
          key: `driver-changed:${ref}:${driverId}`,
          text: renderPassengerDriverChangedText(b, `${publicBaseUrl}/track/${ref}`),
        });
      }
    },
  };
}
