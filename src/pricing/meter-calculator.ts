import { DateTime } from 'luxon';
import type { Country, GeoLocation } from '../geo/types.js';
import { Refusal } from '../refusal.js';
import { priceInArea } from './price-journey.js';
import { defaultPricingData, type PricingData } from './pricing-data.js';
import { PricingError, type AppliedRule } from './types.js';

// The meter calculator (issue 36, item 3): what a council's meter would show for a distance and a
// time, on the table in force at a moment in an area, with the lines that make it up, so ops, a
// driver or a licensing officer can check a table against what the council publishes without
// reading code ("2 miles and 6 minutes on Tariff 1 at 14:00 on a Tuesday in August 2023").
// It is the quote's own engine (priceInArea) on a hire with no extras of its own: one passenger,
// a saloon, not at an airport, no meet and greet, no approved rate.

export interface MeterQuestion {
  areaId: string;
  /** The moment the hire starts (UTC); its Europe/London wall time picks the table and the tariff. */
  at: Date;
  distanceMeters: number;
  durationSeconds: number;
  /** Whose bank holidays apply where the table follows the pickup's nation (the national default). */
  country?: Country | undefined;
}

export interface MeterAnswer {
  areaId: string;
  authority: string;
  /** The table in force: its first day, its status and whether any figure used is provisional. */
  effectiveFrom: string;
  status: string;
  provisional: boolean;
  /** The tariff (period) in force, e.g. "Tariff 1 (weekday day)". */
  period: string;
  /** The moment in Europe/London, ISO 8601 with its offset. */
  localAt: string;
  /**
   * What the meter shows, in pence: the tariff in force after its minimum fare, with the extras
   * the table adds by the clock (a late-night or Christmas supplement), as a quote adds them.
   */
  meterPence: number;
  /** Each line: the table's arithmetic, what the tariff in force costs over the day rate, supplements. */
  rules: AppliedRule[];
  sources: string[];
}

export function meterReading(q: MeterQuestion, data: PricingData = defaultPricingData()): MeterAnswer {
  if (!data.tariffs.area(q.areaId)) throw new PricingError('no_tariff', `no tariff area ${q.areaId}`);
  const place: GeoLocation = {
    label: q.areaId,
    kind: 'place',
    lat: 0,
    lon: 0,
    postcodeDistrict: null,
    council: null,
    region: null,
    country: q.country ?? 'England',
    inUk: true,
    confidence: 1,
    precision: 'town_centre',
    town: null,
  };
  const priced = priceInArea(data, q.areaId, {
    pickup: place,
    dropoff: place,
    route: {
      distanceMeters: q.distanceMeters,
      durationSeconds: q.durationSeconds,
      straightLineMeters: q.distanceMeters,
      circuityFactor: 1,
      model: 'meter-calculator',
    },
    departAt: q.at,
    vehicleType: 'saloon',
    passengers: 1,
    meetAndGreet: false,
    worldwide: false,
  });
  return {
    areaId: q.areaId,
    authority: priced.tariff.authority,
    effectiveFrom: priced.tariff.effectiveFrom,
    status: priced.tariff.status,
    provisional: priced.tariff.provisional,
    period: priced.tariff.period,
    localAt: priced.localDepartAt,
    meterPence: priced.totalPence,
    rules: priced.rules,
    sources: priced.tariff.sources,
  };
}

/** What a person asks, as typed: the area, a London wall time or instant, miles or metres, minutes or seconds. */
export interface MeterAsked {
  area: string;
  at: string;
  miles?: number | undefined;
  meters?: number | undefined;
  minutes?: number | undefined;
  seconds?: number | undefined;
  country?: Country | undefined;
}

const METERS_PER_MILE = 1609.344;

/** The question, or refused naming the field: one distance and one time, a moment that is one. */
export function meterQuestion(a: MeterAsked, data: PricingData = defaultPricingData()): MeterQuestion {
  if (!data.tariffs.area(a.area)) {
    throw Refusal.invalid('unknown_area', `No tariff area ${a.area}.`, {
      field: { name: 'area', in: 'query', message: `must be one of: ${data.tariffs.areaIds().join(', ')}` },
    });
  }
  // A wall time without an offset is London's; "2023-08-15 14:00" is read as typed too.
  const at = DateTime.fromISO(a.at.trim().replace(' ', 'T'), { zone: 'Europe/London' });
  if (!at.isValid) {
    throw Refusal.invalid('validation_failed', 'The time is not one.', {
      field: {
        name: 'at',
        in: 'query',
        message: 'must be a London time such as 2023-08-15T14:00, or an ISO 8601 instant',
      },
    });
  }
  const one = (names: [string, string], x: number | undefined, y: number | undefined, factor: number): number => {
    if ((x === undefined) === (y === undefined)) {
      throw Refusal.invalid('validation_failed', `Give ${names[0]} or ${names[1]}, one of them.`, {
        field: { name: names[0], in: 'query', message: `give this or ${names[1]}, one of them` },
      });
    }
    return Math.round(x !== undefined ? x * factor : y!);
  };
  return {
    areaId: a.area,
    at: at.toJSDate(),
    distanceMeters: one(['miles', 'meters'], a.miles, a.meters, METERS_PER_MILE),
    durationSeconds: one(['minutes', 'seconds'], a.minutes, a.seconds, 60),
    country: a.country,
  };
}

/** Every tariff area, with its authority. */
export function meterAreas(data: PricingData = defaultPricingData()): { id: string; authority: string }[] {
  return data.tariffs.areaIds().map((id) => ({ id, authority: data.tariffs.area(id)?.authority ?? id }));
}
