// The billing week's boundaries, written without a time zone database for workflow code, against
// luxon's Europe/London: every hour of 2026-2028 (both clock changes of each year) and the minutes
// either side of each change.
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { londonDate, nextWeekStart, weekStartAtOrAfter, weekStartOf } from '../../../src/model/billing.js';
import { londonOffsetMs } from '../../../src/model/london-clock.js';

const ZONE = 'Europe/London';
const HOUR = 3_600_000;
const iso = (t: number) => new Date(t).toISOString();
const luxonWeekStart = (t: number) => DateTime.fromMillis(t, { zone: ZONE }).startOf('week').toMillis();
const luxonNextWeekStart = (t: number) =>
  DateTime.fromMillis(t, { zone: ZONE }).startOf('week').plus({ weeks: 1 }).toMillis();

function everyHour(fromIso: string, toIso: string): number[] {
  const out: number[] = [];
  for (let t = Date.parse(fromIso); t < Date.parse(toIso); t += HOUR) out.push(t);
  return out;
}

// Every answer luxon gives costs Intl calls for the zone (a week start several): asked afresh for
// each of the 26,304 hours, and the offset twice more an hour to find the clock changes, this file
// took over 4 s on a busy 2-core machine, against vitest's 5 s. Luxon is asked each hour's offset
// once, shared by the tests below, and each week's boundaries once; the hours are checked against
// those, and the instants around every boundary are checked against luxon directly.

describe('billing weeks (Monday 00:00 Europe/London)', () => {
  const hours = everyHour('2026-01-01T00:00:00Z', '2029-01-01T00:00:00Z');
  let offsets: number[] | undefined;
  /** luxon's UK offset (ms) at each of `hours`, asked once. */
  const luxonOffsets = () => (offsets ??= hours.map((t) => DateTime.fromMillis(t, { zone: ZONE }).offset * 60_000));
  /** The clock changes per luxon: the hours whose offset differs from the hour before's. */
  const clockChanges = () => {
    const o = luxonOffsets();
    return hours.filter((t, i) => i > 0 && o[i] !== o[i - 1]);
  };

  it('agrees with luxon on the UK offset every hour of 2026-2028', () => {
    const o = luxonOffsets();
    const wrong = hours.filter((t, i) => londonOffsetMs(t) !== o[i]);
    expect(wrong.map(iso)).toEqual([]);
    // The hour before the first is not in the list: 1 January is winter time either side of it.
    expect(DateTime.fromMillis(hours[0]! - HOUR, { zone: ZONE }).offset * 60_000).toBe(o[0]);
  });

  it('agrees with luxon on the week start and the next week start every hour of 2026-2028', () => {
    // luxon's billing weeks, each boundary from the one before, from the week the first hour is in
    // until one past the last hour: each hour's week start is the last boundary at or before it.
    const bounds = [luxonWeekStart(hours[0]!)];
    while (bounds.at(-1)! <= hours.at(-1)!) bounds.push(luxonNextWeekStart(bounds.at(-1)!));
    // Every boundary is a week start to luxon too, and the millisecond before it is in the week before.
    expect(bounds.filter((b) => luxonWeekStart(b) !== b).map(iso)).toEqual([]);
    expect(
      bounds
        .slice(1)
        .filter((b, i) => luxonWeekStart(b - 1) !== bounds[i])
        .map(iso),
    ).toEqual([]);
    let w = 0;
    const wrong = hours.filter((t) => {
      while (bounds[w + 1]! <= t) w++;
      return weekStartOf(t) !== bounds[w] || nextWeekStart(t) !== bounds[w + 1];
    });
    expect(wrong.map(iso)).toEqual([]);
  });

  it('agrees with luxon a minute either side of every clock change and every Monday midnight', () => {
    const changes = clockChanges();
    expect(changes.map(iso)).toEqual([
      '2026-03-29T01:00:00.000Z',
      '2026-10-25T01:00:00.000Z',
      '2027-03-28T01:00:00.000Z',
      '2027-10-31T01:00:00.000Z',
      '2028-03-26T01:00:00.000Z',
      '2028-10-29T01:00:00.000Z',
    ]);
    const mondays = hours.filter((t) => weekStartOf(t) === t);
    expect(mondays).toHaveLength(156);
    const edges = [...changes, ...mondays].flatMap((t) => [t - 60_000, t - 1, t, t + 1, t + 60_000]);
    const wrong = edges.filter(
      (t) => weekStartOf(t) !== luxonWeekStart(t) || nextWeekStart(t) !== luxonNextWeekStart(t),
    );
    expect(wrong.map(iso)).toEqual([]);
  });

  it('makes the weeks spanning the clock changes 169 and 167 hours long', () => {
    // Autumn 2026: Monday 19 October 00:00 BST to Monday 26 October 00:00 GMT.
    const autumn = weekStartOf(Date.parse('2026-10-21T12:00:00Z'));
    expect(iso(autumn)).toBe('2026-10-18T23:00:00.000Z');
    expect(iso(nextWeekStart(autumn))).toBe('2026-10-26T00:00:00.000Z');
    expect((nextWeekStart(autumn) - autumn) / HOUR).toBe(169);
    // Spring 2027: Monday 22 March 00:00 GMT to Monday 29 March 00:00 BST.
    const spring = weekStartOf(Date.parse('2027-03-24T12:00:00Z'));
    expect(iso(spring)).toBe('2027-03-22T00:00:00.000Z');
    expect(iso(nextWeekStart(spring))).toBe('2027-03-28T23:00:00.000Z');
    expect((nextWeekStart(spring) - spring) / HOUR).toBe(167);
    // Every other week is 168 hours.
    const lengths = new Set(hours.filter((t) => weekStartOf(t) === t).map((t) => (nextWeekStart(t) - t) / HOUR));
    expect([...lengths].sort()).toEqual([167, 168, 169]);
  });

  it('starts the first billing week at a trial end on a Monday midnight, else at the next one', () => {
    const monday = Date.parse('2026-10-18T23:00:00Z');
    expect(weekStartAtOrAfter(monday)).toBe(monday);
    expect(iso(weekStartAtOrAfter(monday + 1))).toBe('2026-10-26T00:00:00.000Z');
    expect(iso(weekStartAtOrAfter(monday - 1))).toBe('2026-10-18T23:00:00.000Z');
    // Sunday 23:30 BST is still Sunday in London although it is Sunday 22:30 UTC.
    expect(iso(weekStartAtOrAfter(Date.parse('2026-10-18T22:30:00Z')))).toBe('2026-10-18T23:00:00.000Z');
  });

  it("names a week by its Monday's London date, also when that Monday starts on Sunday in UTC", () => {
    expect(londonDate(Date.parse('2026-10-18T23:00:00Z'))).toBe('2026-10-19');
    expect(londonDate(Date.parse('2026-10-26T00:00:00Z'))).toBe('2026-10-26');
    const wrong = hours
      .filter((t) => weekStartOf(t) === t)
      .filter((t) => londonDate(t) !== DateTime.fromMillis(t, { zone: ZONE }).toISODate());
    expect(wrong.map(iso)).toEqual([]);
  });
});
