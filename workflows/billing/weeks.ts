// Billing weeks run Monday 00:00 to Monday 00:00 Europe/London. Workflow code cannot load a time
// zone database (luxon stays out of the workflow bundle, and Intl's zone data moves with a worker's
// Node version, which a replay must never notice), so the UK rule is written out:
// BST (UTC+1) from 01:00 UTC on the last Sunday of March to 01:00 UTC on the last Sunday of
// October, GMT otherwise. Pure and import-free; test/unit/billing/weeks.test.ts holds it to
// luxon's tz data hour by hour across 2026-2028.

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
export const WEEK_MS = 7 * DAY_MS;

/** 01:00 UTC on the last Sunday of a month (0-based), when the UK clocks change. */
function lastSundayAt0100Utc(year: number, month: number): number {
  const lastDay = Date.UTC(year, month + 1, 0);
  return lastDay - new Date(lastDay).getUTCDay() * DAY_MS + HOUR_MS;
}

/** Europe/London's offset from UTC at an instant: one hour in summer time, else none. */
export function londonOffsetMs(t: number): number {
  const year = new Date(t).getUTCFullYear();
  return t >= lastSundayAt0100Utc(year, 2) && t < lastSundayAt0100Utc(year, 9) ? HOUR_MS : 0;
}

/**
 * The instant a London wall-clock midnight happens (wall time given as if it were UTC). Midnight
 * is never in a gap or an overlap: the clocks change at 01:00 and 02:00 local on a Sunday.
 */
function londonMidnightToUtc(wall: number): number {
  const summer = wall - HOUR_MS;
  return londonOffsetMs(summer) === HOUR_MS ? summer : wall;
}

/** Monday 00:00 Europe/London at or before t: the start of the billing week t falls in. */
export function weekStartOf(t: number): number {
  const local = new Date(t + londonOffsetMs(t));
  const daysSinceMonday = (local.getUTCDay() + 6) % 7;
  return londonMidnightToUtc(
    Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate() - daysSinceMonday),
  );
}

/**
 * The first Monday 00:00 Europe/London strictly after t. Seven calendar days on, not 168 hours:
 * a week spanning a clock change is 167 or 169 hours long.
 */
export function nextWeekStart(t: number): number {
  const start = weekStartOf(t);
  return londonMidnightToUtc(start + londonOffsetMs(start) + WEEK_MS);
}

/** The first week boundary at or after t: a trial ending exactly on a Monday midnight bills that week. */
export function weekStartAtOrAfter(t: number): number {
  const start = weekStartOf(t);
  return start === t ? t : nextWeekStart(t);
}

/** The London calendar date (YYYY-MM-DD) of an instant; a week's Monday names it in ids. */
export function londonDate(t: number): string {
  return new Date(t + londonOffsetMs(t)).toISOString().slice(0, 10);
}
