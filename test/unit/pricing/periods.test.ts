import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { loadBankHolidays } from '../../../src/pricing/index.js';
import { conditionMatches, describeLocal, localInstant, londonIso, londonTime } from '../../../src/pricing/periods.js';
import type { Condition } from '../../../src/pricing/tariff-schema.js';

const holidays = loadBankHolidays();
const at = (iso: string) => localInstant(new Date(iso), holidays, 'england-and-wales');

describe('local time', () => {
  it('reads Europe/London wall-clock time across both 2026 clock changes', () => {
    expect(describeLocal(at('2026-03-29T00:59:00Z').dateTime)).toBe('Sun 00:59 GMT');
    expect(describeLocal(at('2026-03-29T01:00:00Z').dateTime)).toBe('Sun 02:00 BST');
    // 01:30 happens twice on 25 October; both readings are the same wall time
    expect(describeLocal(at('2026-10-25T00:30:00Z').dateTime)).toBe('Sun 01:30 BST');
    expect(describeLocal(at('2026-10-25T01:30:00Z').dateTime)).toBe('Sun 01:30 GMT');
    expect(at('2026-10-25T00:30:00Z').minuteOfDay).toBe(at('2026-10-25T01:30:00Z').minuteOfDay);
  });

  it('agrees with the Europe/London zone through two years of clock changes, offsets read once an hour', () => {
    // londonTime reads the offset once per UTC hour, so what can go wrong is a change inside an
    // hour or an hour given a neighbour's offset: either shows at the hour's first or last
    // millisecond, which are checked for every UTC hour of 2026-2027, and every minute of the two
    // hours either side of each clock change is checked too. The sweep every 7 minutes this
    // replaces asked the zone four times as often, and Intl once more per sample for the
    // formatted offset: near 5 s, vitest's timeout, on a busy 2-core machine. Fields are compared,
    // not formatted strings: 'yyyy-MM-dd HH:mm ZZ' is these six fields and nothing else.
    const wall = (dt: DateTime) => [dt.year, dt.month, dt.day, dt.hour, dt.minute, dt.offset].join(' ');
    const wrong: string[] = [];
    /** Checks londonTime against the zone at `ms`; the zone's offset there. */
    const check = (ms: number) => {
      const zone = DateTime.fromMillis(ms, { zone: 'Europe/London' });
      const ours = londonTime(new Date(ms));
      if (wall(ours) !== wall(zone)) wrong.push(`${new Date(ms).toISOString()}: ${wall(ours)}, zone ${wall(zone)}`);
      return zone.offset;
    };
    const HOUR = 3_600_000;
    const MINUTE = 60_000;
    const changes: number[] = [];
    let before = check(Date.parse('2026-01-01T00:00:00Z') - 1);
    for (let h = Date.parse('2026-01-01T00:00:00Z'); h < Date.parse('2028-01-01T00:00:00Z'); h += HOUR) {
      const offset = check(h);
      if (offset !== before) changes.push(h);
      before = offset;
      check(h + HOUR - 1);
    }
    expect(changes.map((t) => new Date(t).toISOString())).toEqual([
      '2026-03-29T01:00:00.000Z',
      '2026-10-25T01:00:00.000Z',
      '2027-03-28T01:00:00.000Z',
      '2027-10-31T01:00:00.000Z',
    ]);
    for (const change of changes) for (let ms = change - 2 * HOUR; ms <= change + 2 * HOUR; ms += MINUTE) check(ms);
    expect(wrong).toEqual([]);
    expect(londonIso(londonTime(new Date('2026-01-15T09:05:00Z')))).toBe('2026-01-15T09:05:00+00:00');
    expect(londonIso(londonTime(new Date('2026-07-15T09:05:00Z')))).toBe('2026-07-15T10:05:00+01:00');
  });

  it('uses the LOCAL date for bank holidays: 23:30 UTC on 24 May 2026 is 00:30 BST on the Spring bank holiday', () => {
    expect(at('2026-05-24T23:30:00Z').bankHoliday).toBe('Spring bank holiday');
    expect(at('2026-05-24T22:30:00Z').bankHoliday).toBeNull();
  });
});

describe('conditions', () => {
  const night: Condition = { type: 'weekly', days: ['fri'], from: '22:00', to: '06:00' };
  it('a window past midnight belongs to the day it starts', () => {
    expect(conditionMatches(night, at('2026-06-19T21:30:00Z'))).toBe(true); // Fri 22:30 BST
    expect(conditionMatches(night, at('2026-06-20T04:59:00Z'))).toBe(true); // Sat 05:59 BST
    expect(conditionMatches(night, at('2026-06-20T05:00:00Z'))).toBe(false); // Sat 06:00 BST
    expect(conditionMatches(night, at('2026-06-18T22:00:00Z'))).toBe(false); // Thu 23:00 BST
  });

  it('a bank-holiday window past midnight belongs to the holiday it started on (Sheffield 07:00-07:00)', () => {
    const holiday: Condition = { type: 'bank_holiday', from: '07:00', to: '07:00' };
    // Spring bank holiday, Mon 25 May 2026
    expect(conditionMatches(holiday, at('2026-05-25T05:59:00Z'))).toBe(false); // Mon 06:59 BST
    expect(conditionMatches(holiday, at('2026-05-25T06:00:00Z'))).toBe(true); // Mon 07:00 BST
    expect(conditionMatches(holiday, at('2026-05-26T05:59:00Z'))).toBe(true); // Tue 06:59 BST
    expect(conditionMatches(holiday, at('2026-05-26T06:00:00Z'))).toBe(false); // Tue 07:00 BST
    // a window inside the day (Nottingham's holiday night 22:00-24:00)
    const lateEvening: Condition = { type: 'bank_holiday', from: '22:00', to: '24:00' };
    expect(conditionMatches(lateEvening, at('2026-05-25T21:00:00Z'))).toBe(true); // Mon 22:00 BST
    expect(conditionMatches(lateEvening, at('2026-05-25T23:00:00Z'))).toBe(false); // Tue 00:00 BST
  });

  it('annual windows wrap past New Year', () => {
    const newYear: Condition = { type: 'annual', from: '12-31T20:00', to: '01-02T06:00' };
    expect(conditionMatches(newYear, at('2026-12-31T20:00:00Z'))).toBe(true);
    expect(conditionMatches(newYear, at('2027-01-02T05:59:00Z'))).toBe(true);
    expect(conditionMatches(newYear, at('2027-01-02T06:00:00Z'))).toBe(false);
    expect(conditionMatches(newYear, at('2026-12-31T19:59:00Z'))).toBe(false);
  });
});
