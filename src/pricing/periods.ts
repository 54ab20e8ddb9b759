import { DateTime, FixedOffsetZone, IANAZone } from 'luxon';
import type { BankHolidayCalendar } from './bank-holidays.js';
import {
  WEEKDAYS,
  type BankHolidayDivision,
  type Condition,
  type Period,
  type TariffVersion,
  type Weekday,
} from './tariff-schema.js';

// Councils define tariff periods in local wall-clock time, so every decision here is made in
// Europe/London, never UTC. An instant of 21:30 UTC in July is 22:30 BST: night in Manchester.
// On the autumn change day 01:00-02:00 happens twice; both readings have the same wall time and
// so the same period. The spring gap (01:00-02:00 missing) cannot occur as a local time at all.

export const LONDON_ZONE = 'Europe/London';

/** An instant as the tariff sees it: local calendar facts only. */
export interface LocalInstant {
  dateTime: DateTime;
  /** Local calendar date, YYYY-MM-DD. */
  isoDate: string;
  weekday: Weekday;
  /** Minutes since local midnight, 0..1439. */
  minuteOfDay: number;
  /** "MM-DDTHH:MM", comparable as a string with annual windows. */
  annualKey: string;
  /** Title of the bank holiday on this local date in the tariff's division, or null. */
  bankHoliday: string | null;
  /** The same for the previous local date: a holiday window can run on past midnight. */
  previousBankHoliday: string | null;
}

/**
 * UK time's offset from UTC in minutes (0 or 60), by UTC hour. The clocks change at 01:00 UTC, on
 * an hour boundary, so one reading per UTC hour is exact; each reading asks Intl through luxon's
 * IANA zone, which under bench/quote.ts's --cpu-prof was most of a quote's pricing CPU when every
 * instant (and every `minus`, `toFormat` and `toISO` on it) asked again.
 */
const londonOffsets = new Map<number, number>();
const LONDON = IANAZone.create(LONDON_ZONE);
const HOUR_MS = 3600_000;

function londonOffsetMinutes(ms: number): number {
  const hour = Math.floor(ms / HOUR_MS);
  let offset = londonOffsets.get(hour);
  if (offset === undefined) {
    offset = LONDON.offset(hour * HOUR_MS);
    // Quotes reach a year ahead: 8,784 hours. A map past that is a caller walking through time.
    if (londonOffsets.size >= 20_000) londonOffsets.clear();
    londonOffsets.set(hour, offset);
  }
  return offset;
}

/**
 * The instant on UK wall clocks: a DateTime at the fixed offset UK time had at that instant (its
 * `toISO()` reads "+01:00" in summer), so calendar arithmetic and formatting never touch Intl.
 */
export function londonTime(instant: Date): DateTime {
  const ms = instant.getTime();
  if (!Number.isFinite(ms)) throw new RangeError(`invalid instant: ${String(instant)}`);
  const dt = DateTime.fromMillis(ms, { zone: FixedOffsetZone.instance(londonOffsetMinutes(ms)), locale: 'en-GB' });
  if (!dt.isValid) throw new RangeError(`invalid instant: ${String(instant)}`);
  return dt;
}

const pad = (n: number) => String(n).padStart(2, '0');
const isoDateOf = (dt: DateTime) => `${dt.year}-${pad(dt.month)}-${pad(dt.day)}`;

export function localInstant(
  instant: Date,
  holidays: BankHolidayCalendar,
  division: BankHolidayDivision,
): LocalInstant {
  const dateTime = londonTime(instant);
  const isoDate = isoDateOf(dateTime);
  return {
    dateTime,
    isoDate,
    weekday: WEEKDAYS[dateTime.weekday - 1]!,
    minuteOfDay: dateTime.hour * 60 + dateTime.minute,
    annualKey: `${pad(dateTime.month)}-${pad(dateTime.day)}T${pad(dateTime.hour)}:${pad(dateTime.minute)}`,
    bankHoliday: holidays.holidayOn(division, isoDate),
    // A calendar day back on the wall clock (the date, not 24 hours: the difference is the clock change).
    previousBankHoliday: holidays.holidayOn(division, isoDateOf(dateTime.minus({ days: 1 }))),
  };
}

/** The local calendar date of an instant in UK time, YYYY-MM-DD. */
export function londonDate(instant: Date): string {
  return isoDateOf(londonTime(instant));
}

/** "2026-03-29T00:30:00+00:00": the UK wall-clock reading with its offset, "+00:00" in winter, never "Z". */
export function londonIso(dateTime: DateTime): string {
  const offset = dateTime.offset;
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  return `${dateTime.toISO({ suppressMilliseconds: true, includeOffset: false })!}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

const SHORT_WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const;

/** "Sat 23:30 BST": what a passenger would read off a clock in the UK. */
export function describeLocal(dateTime: DateTime): string {
  const zone = dateTime.offset === 0 ? 'GMT' : dateTime.offset === 60 ? 'BST' : (dateTime.offsetNameShort ?? '');
  return `${SHORT_WEEKDAYS[dateTime.weekday - 1]} ${pad(dateTime.hour)}:${pad(dateTime.minute)} ${zone}`.trim();
}

function minutes(clock: string): number {
  const [h, m] = clock.split(':');
  return Number(h) * 60 + Number(m);
}

function previousDay(day: Weekday): Weekday {
  return WEEKDAYS[(WEEKDAYS.indexOf(day) + 6) % 7]!;
}

/**
 * The holiday a bank_holiday condition matched at this instant, or null. A window that runs past
 * midnight belongs to the holiday it started on, so after midnight it is the previous date's.
 */
export function matchedBankHoliday(
  condition: Extract<Condition, { type: 'bank_holiday' }>,
  at: LocalInstant,
): string | null {
  if (condition.from === undefined || condition.to === undefined) return at.bankHoliday;
  const from = minutes(condition.from);
  const to = minutes(condition.to);
  if (from < to) return at.minuteOfDay >= from && at.minuteOfDay < to ? at.bankHoliday : null;
  if (at.minuteOfDay >= from && at.bankHoliday !== null) return at.bankHoliday;
  return at.minuteOfDay < to ? at.previousBankHoliday : null;
}

export function conditionMatches(condition: Condition, at: LocalInstant): boolean {
  switch (condition.type) {
    case 'always':
      return true;
    case 'bank_holiday':
      return matchedBankHoliday(condition, at) !== null;
    case 'annual':
      return condition.from <= condition.to
        ? at.annualKey >= condition.from && at.annualKey < condition.to
        : at.annualKey >= condition.from || at.annualKey < condition.to;
    case 'weekly': {
      const from = minutes(condition.from);
      const to = minutes(condition.to);
      if (from < to) return condition.days.includes(at.weekday) && at.minuteOfDay >= from && at.minuteOfDay < to;
      // The window runs past midnight, so after midnight it belongs to the previous day's start.
      return (
        (condition.days.includes(at.weekday) && at.minuteOfDay >= from) ||
        (condition.days.includes(previousDay(at.weekday)) && at.minuteOfDay < to)
      );
    }
  }
}

export function firstMatchingCondition(conditions: readonly Condition[], at: LocalInstant): Condition | undefined {
  return conditions.find((c) => conditionMatches(c, at));
}

export interface ChosenPeriod {
  period: Period;
  /** The condition that selected it; its code (if any) names why, e.g. bank_holiday vs night_rate. */
  condition: Condition;
}

/** Periods are listed most specific first (festive, holiday, night, day), so the first match wins. */
export function choosePeriod(version: TariffVersion, at: LocalInstant): ChosenPeriod {
  for (const period of version.periods) {
    const condition = firstMatchingCondition(period.when, at);
    if (condition) return { period, condition };
  }
  // The schema requires the last period to match "always", so this is unreachable for loaded data.
  throw new Error('no tariff period matches; the tariff file is missing its "always" period');
}
