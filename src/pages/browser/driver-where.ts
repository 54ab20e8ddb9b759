// Where the passenger's driver is, in words: the tracking page's first paint (src/pages/track-page.ts)
// and its script (track.ts) both say it with this, so the two never differ. Pure: no DOM.

/** What the words are made of (TrackStatus's fields of the same names). */
export interface DriverWhere {
  status: string;
  /** The street, suburb or town the driver is near (src/geo/nearest-place.ts); null when none is named. */
  driver_near: string | null;
  /** Straight-line metres from the driver to the pickup; null when the page does not show the driver. */
  driver_distance_m: number | null;
  eta_minutes: number | null;
}

const METERS_PER_MILE = 1609.344;

/** A distance as a UK road sign says it: "less than 0.1 miles", "0.8 miles", "1 mile", "2.5 miles", "12 miles". */
export function milesText(meters: number): string {
  const miles = meters / METERS_PER_MILE;
  if (miles < 0.05) return 'less than 0.1 miles';
  const rounded = miles < 9.95 ? Math.round(miles * 10) / 10 : Math.round(miles);
  return `${rounded} ${rounded === 1 ? 'mile' : 'miles'}`;
}

/**
 * "Your driver is near Prince of Wales Road, Norwich, 0.8 miles away: about 4 min."; at the
 * pickup, that they are there; nothing while there is no driver to place.
 */
export function driverWhereText(s: DriverWhere): string {
  if (s.status === 'arrived') return 'Your driver is at the pickup.';
  if (s.eta_minutes === null) return '';
  const about = `about ${s.eta_minutes} min`;
  if (s.driver_distance_m === null) return `Your driver is ${about} away.`;
  const away = `${milesText(s.driver_distance_m)} away`;
  return s.driver_near
    ? `Your driver is near ${s.driver_near}, ${away}: ${about}.`
    : `Your driver is ${away}: ${about}.`;
}
