// UK wall-clock time, written out without a time zone database. Workflow code cannot load one
// (luxon stays out of the workflow bundle, and Intl's zone data moves with a worker's Node
// version, which a replay must never notice), and every text a booking sends shows its pickup
// time: asked through luxon's Intl zone, that was most of the worker's date CPU under
// bench/dispatch.ts's --cpu-prof. The rule: BST (UTC+1) from 01:00 UTC on the last Sunday of
// March to 01:00 UTC on the last Sunday of October, GMT otherwise, as the UK has kept it since
// 1996. test/unit/model/london-clock.test.ts holds it, and the formats, to luxon's tz data hour by
// hour across 2026-2028. Pure: shared by src/, activities/ and workflows/.

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

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
 * The instant a London wall-clock time happens (the wall time given as if it were UTC). For a time
 * the clocks skip (01:00-02:00 on the spring Sunday) or pass twice (01:00-02:00 on the autumn
 * Sunday) it gives the GMT reading; callers ask it for midnights and evening hours, which are neither.
 */
export function londonWallToUtc(wall: number): number {
  const summer = wall - HOUR_MS;
  return londonOffsetMs(summer) === HOUR_MS ? summer : wall;
}

/** The hour (0-23) London's clocks show at an instant. */
export function londonHour(at: Date): number {
  return wallClock(at).getUTCHours();
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad = (n: number) => String(n).padStart(2, '0');

/** The instant as a Date whose UTC fields read London's wall clock. */
function wallClock(at: Date): Date {
  const ms = at.getTime();
  if (!Number.isFinite(ms)) throw new RangeError(`invalid instant: ${String(at)}`);
  return new Date(ms + londonOffsetMs(ms));
}

/** "Tue 8 Dec 14:05": how a text shows a pickup time (luxon's 'ccc d LLL HH:mm'). */
export function londonShortTime(at: Date): string {
  const w = wallClock(at);
  return `${WEEKDAYS[w.getUTCDay()]} ${w.getUTCDate()} ${MONTHS[w.getUTCMonth()]} ${pad(w.getUTCHours())}:${pad(w.getUTCMinutes())}`;
}

/** "14:05" in London. */
export function londonHourMinute(at: Date): string {
  const w = wallClock(at);
  return `${pad(w.getUTCHours())}:${pad(w.getUTCMinutes())}`;
}
