// UK wall-clock time written out without a time zone database, against luxon's Europe/London:
// every hour of 2026-2028 (both clock changes of each year) at a minute past, and the minutes
// either side of each change, as a passenger's text and a driver's card show them.
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { londonHourMinute, londonOffsetMs, londonShortTime } from '../../../src/model/london-clock.js';

const ZONE = 'Europe/London';
const HOUR = 3_600_000;
const MINUTE = 60_000;

function everyHour(fromIso: string, toIso: string, plus: number): number[] {
  const out: number[] = [];
  for (let t = Date.parse(fromIso) + plus; t < Date.parse(toIso); t += HOUR) out.push(t);
  return out;
}

describe('UK wall-clock time without a zone database', () => {
  // One luxon zone object, asked once an hour; a DateTime per hour is what costs (see weeks.test.ts).
  const zone = DateTime.now().setZone(ZONE).zone;
  const hours = everyHour('2026-01-01T00:00:00Z', '2029-01-01T00:00:00Z', 7 * MINUTE);

  it('has the offset luxon has, every hour of three years', () => {
    const wrong = hours.filter((t) => londonOffsetMs(t) !== zone.offset(t) * MINUTE);
    expect(wrong.map((t) => new Date(t).toISOString())).toEqual([]);
  });

  it('shows a pickup the way luxon formats it, either side of each clock change and through the year', () => {
    const changes = ['2026-03-29T01:00:00Z', '2026-10-25T01:00:00Z', '2027-03-28T01:00:00Z', '2027-10-31T01:00:00Z'];
    const around = changes.flatMap((c) => [-61, -1, 0, 1, 59, 60, 61].map((m) => Date.parse(c) + m * MINUTE));
    // Every 37th hour walks through each weekday, day and month at changing hours.
    const sample = [...around, ...hours.filter((_, i) => i % 37 === 0)];
    const wrong = sample.filter((t) => {
      const lux = DateTime.fromMillis(t, { zone: ZONE });
      return (
        londonShortTime(new Date(t)) !== lux.toFormat('ccc d LLL HH:mm') ||
        londonHourMinute(new Date(t)) !== lux.toFormat('HH:mm')
      );
    });
    expect(wrong.map((t) => new Date(t).toISOString())).toEqual([]);
    expect(londonShortTime(new Date('2026-12-08T14:05:00Z'))).toBe('Tue 8 Dec 14:05');
    expect(londonShortTime(new Date('2026-07-01T23:30:00Z'))).toBe('Thu 2 Jul 00:30');
  });

  it('refuses an invalid instant instead of printing "NaN"', () => {
    expect(() => londonShortTime(new Date('not a date'))).toThrow(RangeError);
  });
});
