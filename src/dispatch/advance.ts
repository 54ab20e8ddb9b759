import { londonHour, londonOffsetMs, londonWallToUtc } from '../model/london-clock.js';

// When a pre-booked trip starts looking for a driver (issue 24): early enough for its distance and
// its time of day that a driver accepts while there is still time to replace one who drops out,
// and ops hear of one nobody takes while they can still act. Pure: the API works the lead out when
// the booking is made and the booking's workflow waits on it (its DispatchPolicy).

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

export interface AdvanceSettings {
  /** Any trip: this long before pickup (DISPATCH_LEAD_SECONDS). */
  baseLeadSeconds: number;
  /** Airport runs and long trips: this long before pickup; 0 turns the rule off. */
  advanceLeadSeconds: number;
  /** A trip at least this long (straight-line metres × circuity, as priced) is a long trip. */
  longTripMeters: number;
  /** A pickup before this hour (Europe/London) is dispatched the evening before; 0 turns the rule off. */
  earlyBeforeHour: number;
  /** ...from this hour the evening before (Europe/London). */
  eveningFromHour: number;
}

export interface TripForLead {
  pickupAt: Date;
  pickupKind: string;
  dropoffKind: string;
  distanceMeters: number;
}

/**
 * Seconds before pickup at which dispatch starts: the base lead; hours ahead for an airport run or
 * a long trip (a driver has to plan for it, and a flight will not wait); and for a pickup in the
 * small hours, from the evening before (nobody is awake to find a driver at 04:30 for 05:00). The
 * evening is counted in London time, so a clock change overnight moves it with the clocks.
 */
export function dispatchLeadSeconds(trip: TripForLead, s: AdvanceSettings): number {
  let lead = s.baseLeadSeconds;
  const airport = trip.pickupKind === 'airport' || trip.dropoffKind === 'airport';
  if (s.advanceLeadSeconds > 0 && (airport || trip.distanceMeters >= s.longTripMeters))
    lead = Math.max(lead, s.advanceLeadSeconds);
  if (s.earlyBeforeHour > 0 && londonHour(trip.pickupAt) < s.earlyBeforeHour) {
    // The previous London day at eveningFromHour:00, as a wall time read as UTC, then the instant.
    const at = trip.pickupAt.getTime();
    const wall = at + londonOffsetMs(at);
    const eveningWall = wall - (wall % DAY_MS) - DAY_MS + s.eveningFromHour * HOUR_MS;
    lead = Math.max(lead, (at - londonWallToUtc(eveningWall)) / 1000);
  }
  return Math.round(lead);
}
