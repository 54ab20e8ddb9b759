import { DateTime } from 'luxon';
import type { BankHolidayCalendar } from './bank-holidays.js';
import { WEEKDAYS, type BankHolidayDivision, type Condition, type Period, type TariffVersion, type Weekday } from './tariff-schema.js';

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

export function londonTime(instant: Date): DateTime {
  const dt = DateTime.fromJSDate(instant, { zone: LONDON_ZONE }).setLocale('en-GB');
  if (!dt.isValid) throw new RangeError(`invalid instant: ${String(instant)}`);
  return dt;
}

export function localInstant(instant: Date, holidays: BankHolidayCalendar, division: BankHolidayDivision): LocalInstant {
  const dateTime = londonTime(instant);
  const isoDate = dateTime.toFormat('yyyy-MM-dd');
  return {
    dateTime,
    isoDate,
    weekday: WEEKDAYS[dateTime.weekday - 1]!,
    minuteOfDay: dateTime.hour * 60 + dateTime.minute,
    annualKey: dateTime.toFormat("MM-dd'T'HH:mm"),
    bankHoliday: holidays.holidayOn(division, isoDate),
    previousBankHoliday: holidays.holidayOn(division, dateTime.minus({ days: 1 }).toFormat('yyyy-MM-dd')),
  };
}

/** "Sat 23:30 BST": what a passenger would read off a clock in the UK. */
export function describeLocal(dateTime: DateTime): string {
  return `${dateTime.toFormat('ccc HH:mm')} ${zoneAbbreviation(dateTime)}`.trim();
}

/**
 * GMT or BST for UK time, read off the offset: luxon's offsetNameShort builds a new Intl formatter
 * on every call, which was half of a quote's pricing time (bench/quote.ts under --cpu-prof).
 */
function zoneAbbreviation(dateTime: DateTime): string {
  if (dateTime.zoneName === LONDON_ZONE && (dateTime.offset === 0 || dateTime.offset === 60)) return dateTime.offset === 0 ? 'GMT' : 'BST';
  return dateTime.offsetNameShort ?? '';
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
export function matchedBankHoliday(condition: Extract<Condition, { type: 'bank_holiday' }>, at: LocalInstant): string | null {
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
