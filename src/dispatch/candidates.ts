// The pure core of the dispatch cascade: who may be offered a job, in what order, and why the
// others were passed over. No I/O and no clock reads (the caller passes `now`), so the same
// snapshot always yields the same decisions; the activity that calls this records them in the
// workflow history, and tests can assert them exactly.
import { haversineMeters } from '../geo/haversine.js';
import type { VehicleType } from '../pricing/types.js';

export type Tier = 'local' | 'national' | 'partner';
/** Cascade order: a job goes to the next tier only when the previous one has nobody left to ask. */
export const TIERS: readonly Tier[] = ['local', 'national', 'partner'];

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
  /** Accepted/assigned jobs of this driver whose time window overlaps this job's (computed by the caller's query). */
  overlappingJobs: number;
  /** The first instant the driver's or vehicle's licence is no longer valid (null: no expiry on record). */
  licenceInvalidFrom?: Date | null;
}

export interface JobNeeds {
  pickup: { lat: number; lon: number };
  /** Tariff area id of the pickup. */
  pickupArea: string;
  passengers: number;
  /** Requested class. */
  vehicleType: string;
  /** Wheelchair access required (requested class 'wav' implies true). */
  wheelchair: boolean;
  now: Date;
}

export type SkipReason =
  | 'not_approved'
  | 'licence_expired'
  | 'fleet_not_approved'
  | 'offline'
  | 'stale_location'
  | 'no_location'
  | 'busy'
  | 'too_few_seats'
  | 'vehicle_class'
  | 'not_wheelchair_accessible'
  | 'out_of_area'
  | 'too_far'
  | 'already_offered';

export interface CandidateDecision {
  driverId: string;
  driverName: string;
  tier: Tier;
  /** Straight-line metres to the pickup, rounded to the metre; null when the driver has no position. */
  distanceMeters: number | null;
  eligible: boolean;
  skipReason: SkipReason | null;
}

export interface CascadePolicy {
  /** A position older than this no longer says where the driver is. */
  freshLocationMs: number;
  /** Furthest straight-line distance from the pickup at which a driver of each tier is asked. */
  maxDistanceMeters: Record<Tier, number>;
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
};

/**
 * Which driver vehicles may serve each requested class: the class itself, or a better one that is
 * at least as good for what the passenger asked for (boot, comfort, seats). The group's size is
 * checked separately against the driver's own seat count, so an entry here never has to encode it.
 *
 * - saloon: any car is fine, a bigger or better one costs the passenger nothing extra (the fare
 *   was priced as a saloon). A WAV is deliberately not listed: wheelchair-accessible vehicles are
 *   scarce, and a WAV driver left free for the wheelchair user who needs one is worth more than
 *   one more saloon job.
 * - estate: asked for for the boot, so only vehicles with at least an estate's luggage space.
 * - executive, luxury: a comfort class; only the same or a higher one.
 * - 5seater, 6seater, 7seater: the same or a larger people carrier.
 * - mpv and 7seater serve each other: they are priced alike (the council table decides), and in a UK fleet a
 *   "7-seater" is an MPV by another name. An eight-person group still never gets a 7-seater,
 *   because the driver's seat count (7) fails the seat check before this table is consulted.
 * - wav: only a WAV; nothing else takes a wheelchair user.
 *
 * A class not in this table (the v1 booking's vehicleType is a free string) is served only by a
 * vehicle of exactly that name.
 */
export const VEHICLE_SERVED_BY: Readonly<Record<VehicleType, readonly VehicleType[]>> = {
  saloon: ['saloon', 'estate', 'executive', 'luxury', '5seater', '6seater', '7seater', 'mpv'],
  estate: ['estate', 'mpv', '7seater'],
  executive: ['executive', 'luxury'],
  luxury: ['luxury'],
  '5seater': ['5seater', '6seater', '7seater', 'mpv'],
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

export function needsWheelchair(needs: JobNeeds): boolean {
  return needs.wheelchair || needs.vehicleType === 'wav';
}

function distanceToPickup(driver: DriverSnapshot, needs: JobNeeds): number | null {
  if (driver.lat === null || driver.lon === null) return null;
  return Math.round(haversineMeters(driver.lat, driver.lon, needs.pickup.lat, needs.pickup.lon));
}

/**
 * The first rule a driver fails, in the documented order, or null when the driver may be offered
 * the job. Availability comes before suitability so the reason recorded is the most basic one.
 */
export function skipReasonFor(
  driver: DriverSnapshot,
  needs: JobNeeds,
  distanceMeters: number | null,
  alreadyOffered: ReadonlySet<string>,
  policy: CascadePolicy = DEFAULT_CASCADE_POLICY,
): SkipReason | null {
  if (!driver.approved) return 'not_approved';
  if (driver.licenceInvalidFrom && driver.licenceInvalidFrom.getTime() <= needs.now.getTime()) return 'licence_expired';
  if (driver.tier === 'partner' && (driver.partnerFleetId === null || driver.partnerFleetApproved !== true)) return 'fleet_not_approved';
  if (!driver.online) return 'offline';
  if (distanceMeters === null || driver.locationAt === null) return 'no_location';
  // A timestamp slightly in the future (device clock ahead) counts as fresh, not as stale.
  if (needs.now.getTime() - driver.locationAt.getTime() > policy.freshLocationMs) return 'stale_location';
  if (driver.tier === 'local' && driver.homeArea !== needs.pickupArea) return 'out_of_area';
  if (distanceMeters > policy.maxDistanceMeters[driver.tier]) return 'too_far';
  if (driver.overlappingJobs > 0) return 'busy';
  if (driver.seats < needs.passengers) return 'too_few_seats';
  if (!vehicleCanServe(driver.vehicleType, needs.vehicleType)) return 'vehicle_class';
  if (needsWheelchair(needs) && !driver.wheelchairAccessible) return 'not_wheelchair_accessible';
  if (alreadyOffered.has(driver.id)) return 'already_offered';
  return null;
}

export function decideDriver(
  driver: DriverSnapshot,
  needs: JobNeeds,
  alreadyOffered: ReadonlySet<string>,
  policy: CascadePolicy = DEFAULT_CASCADE_POLICY,
): CandidateDecision {
  const distanceMeters = distanceToPickup(driver, needs);
  const skipReason = skipReasonFor(driver, needs, distanceMeters, alreadyOffered, policy);
  return { driverId: driver.id, driverName: driver.name, tier: driver.tier, distanceMeters, eligible: skipReason === null, skipReason };
}

// Code-unit comparison rather than localeCompare: the order must not depend on the host's ICU data.
const byId = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

function byEligibilityThenDistance(a: CandidateDecision, b: CandidateDecision): number {
  if (a.eligible !== b.eligible) return a.eligible ? -1 : 1;
  const da = a.distanceMeters ?? Number.POSITIVE_INFINITY;
  const db = b.distanceMeters ?? Number.POSITIVE_INFINITY;
  if (da !== db) return da < db ? -1 : 1;
  return byId(a.driverId, b.driverId);
}

/**
 * Decisions for one tier: eligible candidates first, nearest first (ties by driver id for
 * determinism), then the skipped ones (also nearest first, unknown positions last) with their
 * reason. Drivers of other tiers are left out entirely: a driver belongs to exactly one tier.
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
    .sort(byEligibilityThenDistance);
}
