// The dispatch policy, written once: which driver may be offered a job, which driver still fits a
// job they hold after it is amended, why not (the reason codes of the decision log), how far each
// tier reaches, the buffer between two jobs of one driver, and the order candidates are asked in.
// The candidate decision (activities/bookings/dispatch.ts), the amendment fit check (applyAmendment,
// activities/bookings/records.ts) and the decision log all take their verdicts and reasons from
// here. Pure: no I/O and no clock reads (the caller passes `now`), so the same snapshot always
// yields the same decisions. SQL (src/dispatch/store.ts) only narrows what it reads and counts a
// driver's load, with its parameters taken from the constants below.
import { haversineMeters } from '../geo/haversine.js';
import type { VehicleType } from '../pricing/types.js';
import type { JobSpec, Tier } from '../model/bookings.js';
import {
  inForceAt,
  licenceKindForSeats,
  subcontractRefusal,
  type LicencesOnFile,
  type SubcontractRefusal,
} from '../model/operator-licences.js';

/** A driver as the rules see them, read by src/dispatch/store.ts. */
export interface DriverSnapshot {
  id: string;
  name: string;
  tier: Tier;
  /** Tariff area id a local driver serves, e.g. 'manchester'. */
  homeArea: string | null;
  partnerFleetId: string | null;
  partnerFleetApproved: boolean | null;
  approved: boolean;
  online: boolean;
  vehicleType: string;
  seats: number;
  wheelchairAccessible: boolean;
  lat: number | null;
  lon: number | null;
  locationAt: Date | null;
  /**
   * The driver's load over this job's time (computed by the caller's query, JOB_BUFFER_MINUTES
   * either side): for a new offer, their active jobs overlapping it plus the job cards they hold open
   * for other bookings; for a job they already hold, their other active jobs overlapping it (a
   * confirmed job is not given up for a card that is gone within a minute).
   */
  overlappingJobs: number;
  /** The first instant the driver's or vehicle's licence is no longer valid (null: no expiry on record). */
  licenceInvalidFrom?: Date | null;
  /**
   * A partner fleet's driver: the fleet's operator licences on file (a job card to them sub-contracts
   * the booking to the fleet). Null or absent for anyone else.
   */
  fleetLicences?: LicencesOnFile | null;
  /**
   * The driver's medical exemption certificates (Equality Act 2010 ss.166 and 169), each as the
   * first instant it no longer holds; absent or null: none on file.
   */
  exemptions?: { assistanceDogs: Date | null; wheelchairAssistance: Date | null } | null;
  /** A sandbox (test) driver: offered sandbox bookings only (docs/partners.md, "Sandbox keys"). Absent: a live driver. */
  sandbox?: boolean;
  /** How the driver answered their job cards in the last ANSWER_WINDOW_DAYS; absent: no record (new). */
  answers?: AnswerRecord | null;
}

/** A driver's job cards closed in the window (accepted, declined or left to time out), and of them accepted. */
export interface AnswerRecord {
  cards: number;
  accepted: number;
}

/** What a job asks of whoever drives it, wherever they are: the rules a held job is checked against again. */
export interface JobFit {
  passengers: number;
  /** Requested class. */
  vehicleType: string;
  /** Wheelchair access required (requested class 'wav' implies true). */
  wheelchair: boolean;
  /** An assistance dog travels (absent: none). */
  assistanceDog?: boolean;
  pickupAt: Date;
  now: Date;
}

/** Everything a new offer is decided on. */
export interface JobNeeds extends JobFit {
  pickup: { lat: number; lon: number };
  /** Tariff area id of the pickup. */
  pickupArea: string;
  /** A sandbox booking (made under a sandbox partner or key): offered to sandbox drivers only. Absent: a live booking. */
  sandbox?: boolean;
}

export type SkipReason =
  | 'sandbox_mismatch'
  | 'not_approved'
  | 'licence_expired'
  | 'fleet_not_approved'
  | SubcontractRefusal
  | 'offline'
  | 'stale_location'
  | 'no_location'
  | 'busy'
  | 'too_few_seats'
  | 'vehicle_class'
  | 'not_wheelchair_accessible'
  // A medical exemption certificate in date at pickup, for what it exempts only.
  | 'exempt_from_assistance_dogs'
  | 'exempt_from_wheelchair_assistance'
  | 'out_of_area'
  | 'too_far'
  | 'already_offered'
  // Decided after the rules (passOverAboveQuote): the driver's own approved fare is above the quote.
  | 'own_rate_above_fare';

export interface CandidateDecision {
  driverId: string;
  driverName: string;
  tier: Tier;
  /** Straight-line metres to the pickup, rounded to the metre; null when the driver has no position. */
  distanceMeters: number | null;
  eligible: boolean;
  skipReason: SkipReason | null;
  /**
   * What the driver is ranked on: the distance plus a handicap for not answering their cards
   * (rankingMeters). Absent (decisions made before it): the distance.
   */
  rankMeters?: number | null;
  /** The smoothed share of their cards the driver accepts (answerRate) that the rank came from. */
  answerRate?: number;
}

export interface CascadePolicy {
  /** A position older than this no longer says where the driver is. */
  freshLocationMs: number;
  /** Furthest straight-line distance from the pickup at which a driver of each tier is asked. */
  maxDistanceMeters: Record<Tier, number>;
  /**
   * How much further away a driver who never accepts a card is ranked than one who always does
   * (ANSWER_RANKING below); 0 ranks on distance alone.
   */
  answerHandicapMeters?: number;
}

/**
 * - Fresh location, 10 minutes: an online driver app reports far more often than that, so ten
 *   minutes of silence means the app is closed or out of signal; at urban speeds the car may be
 *   5 km or more from where it last said.
 * - Local, 15 km: a local driver is licensed for the pickup's own area, and 15 km straight line
 *   (about 20 km and 25-30 minutes by road in a city) spans a city-sized licensing area such as
 *   Manchester or Glasgow from edge to centre; anyone further away would reach the passenger late.
 * - National, 50 km: network drivers are asked only after the locals, i.e. when waiting longer
 *   beats no car; 50 km is roughly the neighbouring town along a motorway, under an hour away.
 * - Partner, 80 km: partner fleets are the last resort and dispatch from depots that cover a
 *   region rather than a town; beyond ~80 km (well over an hour's dead mileage) a pre-booked job
 *   is better left to the operator than sent to a driver who cannot be on time.
 */
export const DEFAULT_CASCADE_POLICY: CascadePolicy = {
  freshLocationMs: 10 * 60_000,
  maxDistanceMeters: { local: 15_000, national: 50_000, partner: 80_000 },
  answerHandicapMeters: 2_000,
};

/**
 * Drivers are ranked by how they answer, as well as by distance (docs/dispatch.md, "Ranking"):
 * a card sent to a driver who leaves it unanswered costs the passenger the card's whole window.
 * - Window, 7 days: recent enough to follow a driver who changes their habits, long enough for a
 *   part-time driver to have a record (Namma Yatri ranks on the same 7-day acceptance).
 * - The rate is smoothed towards 50 % by 4 imaginary cards, so a new driver (no cards) ranks as a
 *   driver who accepts half of theirs, and two ignored cards do not bury anyone:
 *   rate = (accepted + 2) / (cards + 4).
 * - Handicap, 2 km at a 0 % rate, scaled by (1 - rate): a new driver is ranked as 1 km further than
 *   they are, one who accepts everything about 0.3 km. Within a town's few kilometres the more
 *   reliable of two drivers a few streets apart is asked first; a driver 2 km nearer is still
 *   asked first whatever their record: distance stays first where the difference is large.
 */
export const ANSWER_RANKING = { windowDays: 7, priorCards: 4, priorRate: 0.5 } as const;

/** The smoothed share of cards a driver accepts (0-1); a driver with no record is at the prior. */
export function answerRate(a: AnswerRecord | null | undefined): number {
  const { priorCards, priorRate } = ANSWER_RANKING;
  return ((a?.accepted ?? 0) + priorCards * priorRate) / ((a?.cards ?? 0) + priorCards);
}

/** Distance plus the handicap for not answering (null distance: unknown position, ranked last). */
export function rankingMeters(
  distanceMeters: number | null,
  answers: AnswerRecord | null | undefined,
  policy: CascadePolicy = DEFAULT_CASCADE_POLICY,
): number | null {
  if (distanceMeters === null) return null;
  return Math.round(distanceMeters + (1 - answerRate(answers)) * (policy.answerHandicapMeters ?? 0));
}

/**
 * Minutes either side of a job during which the same driver cannot take another one. Counted in SQL
 * (driverLoad in src/dispatch/store.ts, into DriverSnapshot.overlappingJobs); decided by 'busy' below.
 */
export const JOB_BUFFER_MINUTES = 20;

/**
 * Which driver vehicles may serve each requested class: the class itself, or a better one that is
 * at least as good for what the passenger asked for (boot, comfort, seats). The group's size is
 * checked separately against the driver's own seat count, so an entry here never has to encode it.
 *
 * - saloon: any car is fine, a bigger or better one costs the passenger nothing extra (the fare
 *   was priced as a saloon). A WAV included: the purpose-built hackney (an LEVC TX, every London
 *   black cab) is the usual taxi, and a WAV driver passed over for every ordinary job earns nothing
 *   (issue 35). No capacity is held back for wheelchair users (docs/decisions.md): a wheelchair
 *   booking is offered only to accessible vehicles, and a WAV driver holding a saloon job is free
 *   again within the job's buffer.
 * - estate: asked for for the boot, so only vehicles with at least an estate's luggage space (a
 *   WAV's floor, built for a wheelchair, takes a saloon's luggage and more).
 * - executive, luxury: a comfort class; only the same or a higher one.
 * - 5seater, 6seater, 7seater: the same or a larger people carrier; a WAV (five seats) for a 5seater.
 * - mpv and 7seater serve each other: they are priced alike (the council table decides), and in a UK fleet a
 *   "7-seater" is an MPV by another name. An eight-person group still never gets a 7-seater,
 *   because the driver's seat count (7) fails the seat check before this table is consulted.
 * - wav: only a WAV; nothing else takes a wheelchair user. A WAV serves the other classes its seats
 *   fit (saloon, estate, 5seater) and no comfort class.
 *
 * A class not in this table (the v1 booking's vehicleType is a free string) is served only by a
 * vehicle of exactly that name.
 */
export const VEHICLE_SERVED_BY: Readonly<Record<VehicleType, readonly VehicleType[]>> = {
  saloon: ['saloon', 'estate', 'executive', 'luxury', '5seater', '6seater', '7seater', 'mpv', 'wav'],
  estate: ['estate', 'mpv', '7seater', 'wav'],
  executive: ['executive', 'luxury'],
  luxury: ['luxury'],
  '5seater': ['5seater', '6seater', '7seater', 'mpv', 'wav'],
  '6seater': ['6seater', '7seater', 'mpv'],
  '7seater': ['7seater', 'mpv'],
  mpv: ['mpv', '7seater'],
  wav: ['wav'],
};

export function vehicleCanServe(driverVehicle: string, requested: string): boolean {
  if (driverVehicle === requested) return true;
  if (!Object.hasOwn(VEHICLE_SERVED_BY, requested)) return false;
  const servers: readonly string[] = VEHICLE_SERVED_BY[requested as VehicleType];
  return servers.includes(driverVehicle);
}

export function needsWheelchair(job: { wheelchair: boolean; vehicleType: string }): boolean {
  return job.wheelchair || job.vehicleType === 'wav';
}

/** The booking's job as the rules read it, at `now`. */
export function jobFit(job: JobSpec, now: Date): JobFit {
  return {
    passengers: job.passengers,
    vehicleType: job.vehicleType,
    wheelchair: needsWheelchair(job),
    ...(job.assistanceDog ? { assistanceDog: true } : {}),
    pickupAt: new Date(job.pickupAt),
    now,
  };
}

/** What only a new offer is decided on, beyond the driver and the job. */
interface OfferFacts {
  distanceMeters: number | null;
  alreadyOffered: ReadonlySet<string>;
  policy: CascadePolicy;
}

/**
 * One rule: the reason recorded when a driver fails it. A 'job' rule is about the driver and the
 * job alone, so it decides a new offer and is checked again when a job the driver holds is amended;
 * an 'offer' rule is about asking now (approval, where the driver is, earlier offers) and decides a
 * new offer only (a suspended driver's jobs are withdrawn by the suspension itself).
 */
type Rule =
  | { reason: SkipReason; scope: 'job'; fails: (d: DriverSnapshot, job: JobFit) => boolean }
  | { reason: SkipReason; scope: 'offer'; fails: (d: DriverSnapshot, job: JobNeeds, offer: OfferFacts) => boolean };

/**
 * The rules in the order they are checked; the first one failed is the reason recorded.
 * Availability comes before suitability so the reason recorded is the most basic one.
 */
const RULES: readonly Rule[] = [
  // The sandbox and live service never meet: a sandbox booking is offered to sandbox (test) drivers
  // only, and a sandbox driver never to a live booking. First, so a real driver near a sandbox job is
  // logged for that reason whatever else is true of them.
  { reason: 'sandbox_mismatch', scope: 'offer', fails: (d, job) => (d.sandbox ?? false) !== (job.sandbox ?? false) },
  { reason: 'not_approved', scope: 'offer', fails: (d) => !d.approved },
  // A licence must be valid at pickup (and now, for a pickup already past), not only when the job is offered.
  {
    reason: 'licence_expired',
    scope: 'job',
    fails: (d, job) =>
      !!d.licenceInvalidFrom && d.licenceInvalidFrom.getTime() <= Math.max(job.now.getTime(), job.pickupAt.getTime()),
  },
  {
    reason: 'fleet_not_approved',
    scope: 'offer',
    fails: (d) => d.tier === 'partner' && (d.partnerFleetId === null || d.partnerFleetApproved !== true),
  },
  // A card to a partner fleet's driver passes our booking to the fleet's operator (1976 Act s.55A):
  // its licence for the vehicle's kind (private hire, or PSV for nine seats or more) must be on file
  // and valid at pickup. Decided for new offers; an amendment moving a held job's pickup is not
  // checked against it again (docs/records.md, "Sub-contracting").
  ...(['operator_licence_missing', 'operator_licence_wrong_kind', 'operator_licence_expired'] as const).map(
    (reason): Rule => ({ reason, scope: 'offer', fails: (d, job) => fleetLicenceRefusal(d, job) === reason }),
  ),
  { reason: 'offline', scope: 'offer', fails: (d) => !d.online },
  { reason: 'no_location', scope: 'offer', fails: (d, _job, o) => o.distanceMeters === null || d.locationAt === null },
  {
    reason: 'stale_location',
    scope: 'offer',
    fails: (d, job, o) => d.locationAt !== null && locationStale(d.locationAt, job.now, o.policy),
  },
  { reason: 'out_of_area', scope: 'offer', fails: (d, job) => d.tier === 'local' && d.homeArea !== job.pickupArea },
  {
    reason: 'too_far',
    scope: 'offer',
    fails: (d, _job, o) => o.distanceMeters !== null && o.distanceMeters > o.policy.maxDistanceMeters[d.tier],
  },
  { reason: 'busy', scope: 'job', fails: (d) => d.overlappingJobs > 0 },
  { reason: 'too_few_seats', scope: 'job', fails: (d, job) => d.seats < job.passengers },
  { reason: 'vehicle_class', scope: 'job', fails: (d, job) => !vehicleCanServe(d.vehicleType, job.vehicleType) },
  {
    reason: 'not_wheelchair_accessible',
    scope: 'job',
    fails: (d, job) => needsWheelchair(job) && !d.wheelchairAccessible,
  },
  // A medical exemption (Equality Act 2010 s.169 for assistance dogs, s.166 for a wheelchair user's
  // assistance) is respected only for what it exempts and while it is in date at pickup: a driver
  // exempt from dogs is still asked for a wheelchair user, and never for a charge.
  {
    reason: 'exempt_from_assistance_dogs',
    scope: 'job',
    fails: (d, job) => (job.assistanceDog ?? false) && inForceAt(d.exemptions?.assistanceDogs, job),
  },
  {
    reason: 'exempt_from_wheelchair_assistance',
    scope: 'job',
    fails: (d, job) => needsWheelchair(job) && inForceAt(d.exemptions?.wheelchairAssistance, job),
  },
  { reason: 'already_offered', scope: 'offer', fails: (d, _job, o) => o.alreadyOffered.has(d.id) },
];

const NO_LICENCES: LicencesOnFile = { private_hire: null, psv: null };

/** Why our booking may not go to this partner fleet's driver; null for a driver of ours, or a fleet whose licence fits. */
function fleetLicenceRefusal(d: DriverSnapshot, job: JobFit): SubcontractRefusal | null {
  if (d.tier !== 'partner') return null;
  return subcontractRefusal(d.fleetLicences ?? NO_LICENCES, licenceKindForSeats(d.seats), job);
}

/** A timestamp slightly in the future (device clock ahead) counts as fresh, not as stale. */
export function locationStale(locationAt: Date, now: Date, policy: CascadePolicy = DEFAULT_CASCADE_POLICY): boolean {
  return now.getTime() - locationAt.getTime() > policy.freshLocationMs;
}

/** Why a driver would be passed over for every job now, whatever the job: the driver-only rules above. */
export type NotReceivingJobs = 'not_approved' | 'licence_expired' | 'offline' | 'no_location' | 'stale_location';

/**
 * The first of the driver-only rules (in RULES' order) this driver fails now, or null when they
 * receive offers. For the driver's app and the ops view: an online driver must never be passed
 * over without knowing why.
 */
export function whyNotReceivingJobs(
  d: { approved: boolean; online: boolean; locationAt: Date | null; licenceInvalidFrom: Date | null },
  now: Date,
  policy: CascadePolicy = DEFAULT_CASCADE_POLICY,
): NotReceivingJobs | null {
  if (!d.approved) return 'not_approved';
  if (d.licenceInvalidFrom && d.licenceInvalidFrom.getTime() <= now.getTime()) return 'licence_expired';
  if (!d.online) return 'offline';
  if (d.locationAt === null) return 'no_location';
  if (locationStale(d.locationAt, now, policy)) return 'stale_location';
  return null;
}

/**
 * The first rule a driver fails for a new offer of the job, in the documented order, or null when
 * the driver may be offered it.
 */
export function skipReasonFor(
  driver: DriverSnapshot,
  needs: JobNeeds,
  distanceMeters: number | null,
  alreadyOffered: ReadonlySet<string>,
  policy: CascadePolicy = DEFAULT_CASCADE_POLICY,
): SkipReason | null {
  const offer = { distanceMeters, alreadyOffered, policy };
  return (
    RULES.find((r) => (r.scope === 'job' ? r.fails(driver, needs) : r.fails(driver, needs, offer)))?.reason ?? null
  );
}

/**
 * Whether a driver still fits a job they hold after it was amended: the 'job' rules, in the same
 * order and with the same reasons as a new offer, or null when they still fit. `driver` carries the
 * held job's load (their other active jobs within the buffer of its amended time).
 */
export function heldJobMisfit(driver: DriverSnapshot, job: JobFit): SkipReason | null {
  return RULES.find((r) => r.scope === 'job' && r.fails(driver, job))?.reason ?? null;
}

function distanceToPickup(driver: DriverSnapshot, needs: JobNeeds): number | null {
  if (driver.lat === null || driver.lon === null) return null;
  return Math.round(haversineMeters(driver.lat, driver.lon, needs.pickup.lat, needs.pickup.lon));
}

export function decideDriver(
  driver: DriverSnapshot,
  needs: JobNeeds,
  alreadyOffered: ReadonlySet<string>,
  policy: CascadePolicy = DEFAULT_CASCADE_POLICY,
): CandidateDecision {
  const distanceMeters = distanceToPickup(driver, needs);
  const skipReason = skipReasonFor(driver, needs, distanceMeters, alreadyOffered, policy);
  return {
    driverId: driver.id,
    driverName: driver.name,
    tier: driver.tier,
    distanceMeters,
    eligible: skipReason === null,
    skipReason,
    rankMeters: rankingMeters(distanceMeters, driver.answers, policy),
    answerRate: Math.round(answerRate(driver.answers) * 1000) / 1000,
  };
}

// Code-unit comparison rather than localeCompare: the order must not depend on the host's ICU data.
const byId = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

function byEligibilityThenRank(a: CandidateDecision, b: CandidateDecision): number {
  if (a.eligible !== b.eligible) return a.eligible ? -1 : 1;
  const da = (a.rankMeters === undefined ? a.distanceMeters : a.rankMeters) ?? Number.POSITIVE_INFINITY;
  const db = (b.rankMeters === undefined ? b.distanceMeters : b.rankMeters) ?? Number.POSITIVE_INFINITY;
  if (da !== db) return da < db ? -1 : 1;
  return byId(a.driverId, b.driverId);
}

/**
 * Decisions for one tier: eligible candidates first, best ranked first (the distance with the
 * answer handicap, rankingMeters; ties by driver id for determinism), then the skipped ones (ranked
 * alike, unknown positions last) with their reason. Drivers of other tiers are left out entirely: a
 * driver belongs to exactly one tier.
 */
export function rankTier(
  tier: Tier,
  drivers: DriverSnapshot[],
  needs: JobNeeds,
  alreadyOffered: ReadonlySet<string>,
  policy: CascadePolicy = DEFAULT_CASCADE_POLICY,
): CandidateDecision[] {
  return drivers
    .filter((d) => d.tier === tier)
    .map((d) => decideDriver(d, needs, alreadyOffered, policy))
    .sort(byEligibilityThenRank);
}

/**
 * The last check of a new offer, made once the rules have passed a driver: their own approved rate
 * (src/dispatch/driver-fare.ts, which needs the meter and the rates, so is read outside this pure
 * module) prices the job above the fare quoted to the passenger, who was promised no more. They are
 * passed over as 'own_rate_above_fare' and the decisions ranked again.
 */
export function passOverAboveQuote(
  decisions: CandidateDecision[],
  aboveQuote: ReadonlySet<string>,
): CandidateDecision[] {
  if (aboveQuote.size === 0) return decisions;
  return decisions
    .map((d) =>
      d.eligible && aboveQuote.has(d.driverId)
        ? { ...d, eligible: false, skipReason: 'own_rate_above_fare' as const }
        : d,
    )
    .sort(byEligibilityThenRank);
}
