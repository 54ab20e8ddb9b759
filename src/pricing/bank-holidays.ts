import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { Country } from '../geo/types.js';
import { DATA_DIR } from './data-dir.js';
import { BANK_HOLIDAY_DIVISIONS, type BankHolidayDivision } from './tariff-schema.js';

// GOV.UK publishes bank holidays per division, and they differ: Scotland has 2 January and
// St Andrew's Day but no Easter Monday; Northern Ireland has St Patrick's Day and 12 July.
// A holiday tariff must therefore use the calendar of the nation the hire starts in.

const GovUkBankHolidaysSchema = z.record(
  z.string(),
  z.object({
    division: z.string(),
    events: z.array(
      z.object({
        title: z.string(),
        date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
        notes: z.string(),
        bunting: z.boolean(),
      }),
    ),
  }),
);
export type GovUkBankHolidays = z.infer<typeof GovUkBankHolidaysSchema>;

export class BankHolidayCalendar {
  private readonly byDivision = new Map<BankHolidayDivision, Map<string, string>>();

  constructor(data: GovUkBankHolidays) {
    for (const division of BANK_HOLIDAY_DIVISIONS) {
      const entry = data[division];
      if (!entry) throw new Error(`bank holidays: division ${division} missing`);
      this.byDivision.set(division, new Map(entry.events.map((e) => [e.date, e.title])));
    }
  }

  /** The holiday's title on a local calendar date (YYYY-MM-DD), or null on an ordinary day. */
  holidayOn(division: BankHolidayDivision, isoDate: string): string | null {
    return this.byDivision.get(division)?.get(isoDate) ?? null;
  }

  /**
   * First and last dates the data knows about. Outside this range every day looks ordinary,
   * which can only under-quote; refresh data/bank-holidays.json from GOV.UK yearly.
   */
  coverage(division: BankHolidayDivision): { first: string; last: string } {
    const dates = [...(this.byDivision.get(division)?.keys() ?? [])].sort();
    return { first: dates[0] ?? '', last: dates[dates.length - 1] ?? '' };
  }
}

/**
 * Wales shares England's calendar. Outside the UK (Channel Islands, Isle of Man) there is no
 * GOV.UK division; England and Wales is the nearest, as those islands keep most of its dates.
 */
export function divisionForCountry(country: Country | null): BankHolidayDivision {
  switch (country) {
    case 'Scotland':
      return 'scotland';
    case 'Northern Ireland':
      return 'northern-ireland';
    default:
      return 'england-and-wales';
  }
}

export function loadBankHolidays(path = join(DATA_DIR, 'bank-holidays.json')): BankHolidayCalendar {
  return new BankHolidayCalendar(GovUkBankHolidaysSchema.parse(JSON.parse(readFileSync(path, 'utf8'))));
}
