import { divisionForCountry } from './bank-holidays.js';
import { airportExtraRules, largeGroupRule, passengerExtraRules } from './council-extras.js';
import { licensingAreaFor } from './licensing-area.js';
import { readMeter, type MeterReading, type RouteDistanceTime } from './meter.js';
import { formatPence, shareOf } from './money.js';
import {
  choosePeriod,
  describeLocal,
  localInstant,
  londonDate,
  londonIso,
  matchedBankHoliday,
  type LocalInstant,
} from './periods.js';
import { provisionalNote, publicRule, type PricedRule } from './priced-rule.js';
import { defaultPricingData, type PricingData } from './pricing-data.js';
import {
  assertWithinServiceArea,
  isWorldwideJourney,
  meetAndGreetRule,
  rateOverrideRule,
  wheelchairAccessibleRule,
  assistanceDogRule,
  worldwideRule,
} from './surcharges.js';
import { NATIONAL_DEFAULT_AREA } from './tariff-book.js';
import { switchAfterMeters, switchRateId, type Period, type TariffVersion } from './tariff-schema.js';
import { timeSupplementRules } from './time-supplements.js';
import { PricingError, VEHICLE_TYPES, type PriceRequest, type PriceResult } from './types.js';
import type { Country } from '../geo/types.js';

/*
 * How a quote is put together:
 *
 *   meterPence  the fare the council's meter would show for this route in the tariff's BASE
 *               (ordinary day) period, after its minimum fare.
 *   rules       everything else, each with the money it adds: the period actually in force
 *               (informational), the extra that period costs over the day rate (night_rate,
 *               bank_holiday, christmas_new_year, ...), per-hire supplements, council extras,
 *               then meet and greet and any approved override. The vehicle class adds nothing:
 *               the council's table is the maximum whatever car takes the hire.
 *   total       meterPence + the sum of the rule amounts, in whole pence.
 *
 * Itemising the night or holiday rate against the day rate lets a passenger see what the hour
 * cost them, while the total still equals the council's meter at the real period plus extras.
 * Percentages (large groups, overrides) are taken from that real-period meter.
 * The tariff period is chosen from the pickup time in Europe/London; a real meter also changes
 * tariff mid-journey at the boundary, which an upfront quote does not model.
 */

interface MeteredFare {
  reading: MeterReading;
  /** After the period multiplier, before the minimum fare. */
  rawPence: number;
  /** What the passenger would be charged on the meter: rawPence raised to the minimum fare. */
  pence: number;
  minimumApplied: boolean;
  provisional: boolean;
}

function meteredFare(version: TariffVersion, period: Period, route: RouteDistanceTime): MeteredFare {
  const rate = version.rates[period.rate]!;
  const switchRate = version.switchRate ? version.rates[switchRateId(version.switchRate, period.rate)]! : null;
  const reading = readMeter(
    rate,
    route,
    version.switchRate && switchRate
      ? { afterMeters: switchAfterMeters(version.switchRate, period.rate), rate: switchRate }
      : null,
  );
  const rawPence = shareOf(reading.pence, period.multiplierBasisPoints);
  const minimum = version.minimumFarePence ?? 0;
  const reachesSwitch = reading.beyondSwitch !== null;
  return {
    reading,
    rawPence,
    pence: Math.max(rawPence, minimum),
    minimumApplied: rawPence < minimum,
    provisional:
      rate.provisional ||
      period.provisional ||
      (reachesSwitch && (switchRate?.provisional === true || version.switchRate?.provisional === true)),
  };
}

function describeMeter(version: TariffVersion, period: Period, fare: MeteredFare): string {
  const rate = version.rates[period.rate]!;
  const { main, beyondSwitch } = fare.reading;
  const clock = (s: { distanceUnits: number; timeUnits: number }) =>
    s.timeUnits > s.distanceUnits ? 'time' : 'distance';
  let text = `meter ${formatPence(fare.reading.flagFallPence)} + ${main.unitsCharged} x ${formatPence(rate.unitPence)} (${clock(main)})`;
  if (beyondSwitch && version.switchRate) {
    const after = version.rates[switchRateId(version.switchRate, period.rate)]!;
    text += ` + ${beyondSwitch.unitsCharged} x ${formatPence(after.unitPence)} beyond ${switchAfterMeters(version.switchRate, period.rate).toLocaleString('en-GB')} m at ${version.switchRate.name} (${clock(beyondSwitch)})`;
  }
  if (period.multiplierBasisPoints !== 10000) text += `, x ${period.multiplierBasisPoints / 10000}`;
  text += ` = ${formatPence(fare.rawPence)}`;
  if (fare.minimumApplied) text += `, raised to the ${formatPence(fare.pence)} minimum fare`;
  return text;
}

function validate(req: PriceRequest): void {
  if (!(req.departAt instanceof Date) || Number.isNaN(req.departAt.getTime()))
    throw new RangeError('departAt must be a valid Date');
  if (!Number.isInteger(req.passengers) || req.passengers < 1)
    throw new RangeError(`passengers must be a whole number >= 1, got ${req.passengers}`);
  if (!VEHICLE_TYPES.includes(req.vehicleType)) throw new RangeError(`unknown vehicle type ${String(req.vehicleType)}`);
}

function divisionFor(version: TariffVersion, req: PriceRequest) {
  return version.bankHolidayDivision === 'pickup_country'
    ? divisionForCountry(req.pickup.country)
    : version.bankHolidayDivision;
}

/** The place a passenger would recognise: the council, else the town, else the label. */
function placeName(pickup: PriceRequest['pickup']): string {
  return pickup.council ?? pickup.town ?? pickup.label;
}

/**
 * Says plainly why a quote is on the national default (issue 23 item 8): no council table is held
 * for the pickup's area, so the fare is the service's estimate from the medians of the council
 * tables it holds, not the council's maximum. Informational: it adds nothing.
 */
export function nationalDefaultRule(pickup: PriceRequest['pickup']): PricedRule {
  return {
    code: 'national_default',
    description:
      `National default fare: the pickup (${placeName(pickup)}) is outside every licensing area whose council fare table this service holds, ` +
      `so this fare is the service's estimate from the medians of the council tables it holds, not ${pickup.council ? `${pickup.council}'s` : "the local council's"} own table. ` +
      `Where a locally licensed hackney carriage takes the hire, that council's table is the legal maximum.`,
    amountPence: 0,
    provisional: true,
  };
}

/** Prices a journey against the tariffs in `data`; tests pass their own data to pin it. */
export function priceJourneyWith(data: PricingData, req: PriceRequest): PriceResult {
  validate(req);
  assertWithinServiceArea(req);
  const worldwide = isWorldwideJourney(req);
  return priceInArea(data, worldwide ? NATIONAL_DEFAULT_AREA : licensingAreaFor(req.pickup, data.areaMap), req);
}

/**
 * Prices a journey on one area's tariff, whatever the pickup's council: the quote's engine, and
 * the meter calculator's (meter-calculator.ts), so the two cannot disagree.
 */
export function priceInArea(data: PricingData, areaId: string, req: PriceRequest): PriceResult {
  const worldwide = isWorldwideJourney(req);
  const area = data.tariffs.area(areaId);
  const localDate = londonDate(req.departAt);
  const version = data.tariffs.versionFor(areaId, localDate);
  if (!area || !version) {
    throw new PricingError('no_tariff', `no ${areaId} tariff is in force on ${localDate} (Europe/London)`);
  }

  const division = divisionFor(version, req);
  const start: LocalInstant = localInstant(req.departAt, data.holidays, division);
  const end: LocalInstant = localInstant(
    new Date(req.departAt.getTime() + req.route.durationSeconds * 1000),
    data.holidays,
    division,
  );

  const { period, condition } = choosePeriod(version, start);
  const basePeriod = version.periods.find((p) => p.id === version.basePeriod)!;
  const actual = meteredFare(version, period, req.route);
  const baseline = period.id === basePeriod.id ? actual : meteredFare(version, basePeriod, req.route);

  const holiday =
    start.bankHoliday ?? (condition.type === 'bank_holiday' ? matchedBankHoliday(condition, start) : null);
  const holidayNote = holiday ? `, ${holiday}` : '';
  const rules: PricedRule[] = [];
  if (areaId === NATIONAL_DEFAULT_AREA && !worldwide) rules.push(nationalDefaultRule(req.pickup));
  rules.push({
    code: 'tariff_period',
    description: `${period.name} — ${describeLocal(start.dateTime)}${holidayNote}; ${describeMeter(version, period, actual)}`,
    amountPence: 0,
    provisional: actual.provisional,
  });
  if (period.id !== basePeriod.id) {
    rules.push({
      code: condition.code ?? period.code ?? 'tariff_period_premium',
      description: `${period.name} instead of ${basePeriod.name}${holidayNote}: ${formatPence(actual.pence)} on the meter vs ${formatPence(baseline.pence)}${provisionalNote(actual.provisional)}`,
      amountPence: actual.pence - baseline.pence,
      provisional: actual.provisional,
    });
  }
  rules.push(...timeSupplementRules(version, period.id, start, end));
  rules.push(...passengerExtraRules(version, req.passengers));
  rules.push(...airportExtraRules(version, req.pickup, req.dropoff));

  const group = largeGroupRule(version, req.passengers, actual.pence);
  if (group) rules.push(group);
  const wav = wheelchairAccessibleRule(req.vehicleType);
  if (wav) rules.push(wav);
  const dog = assistanceDogRule(req.assistanceDog);
  if (dog) rules.push(dog);
  if (req.meetAndGreet) rules.push(meetAndGreetRule(req.pickup, req.dropoff));
  if (req.override) rules.push(rateOverrideRule(req.override, actual.rawPence, actual.pence, version.minimumFarePence));
  if (worldwide) rules.push(worldwideRule(req.pickup, req.dropoff));

  const totalPence = baseline.pence + rules.reduce((sum, r) => sum + r.amountPence, 0);
  return {
    totalPence,
    currency: 'GBP',
    meterPence: baseline.pence,
    rules: rules.map(publicRule),
    tariff: {
      areaId,
      authority: area.authority,
      period: period.name,
      effectiveFrom: version.effectiveFrom,
      status: version.status,
      provisional: version.provisional || baseline.provisional || rules.some((r) => r.provisional),
      sources: [...version.sources],
    },
    localDepartAt: londonIso(start.dateTime),
  };
}

/**
 * The council meter of a trip already priced, in the period in force at its pickup, as an approved
 * rate is applied to it (rateOverrideRule): what a driver's own rate re-prices a booked job on
 * (src/dispatch/driver-fare.ts). Read from what the booking keeps (its tariff area, pickup time,
 * route and pickup country), so it is the same meter its fare was priced on; null when no
 * tariff of the area is in force that day.
 */
export interface TripMeter {
  /** After the period multiplier, before the tariff's minimum fare. */
  rawPence: number;
  /** rawPence raised to the tariff's minimum fare. */
  pence: number;
  tariffMinimumPence: number | null;
  period: string;
  authority: string;
}

export function tripMeterWith(
  data: PricingData,
  trip: { areaId: string; departAt: Date; route: RouteDistanceTime; country: Country | null },
): TripMeter | null {
  const area = data.tariffs.area(trip.areaId);
  const version = data.tariffs.versionFor(trip.areaId, londonDate(trip.departAt));
  if (!area || !version) return null;
  const division =
    version.bankHolidayDivision === 'pickup_country' ? divisionForCountry(trip.country) : version.bankHolidayDivision;
  const { period } = choosePeriod(version, localInstant(trip.departAt, data.holidays, division));
  const fare = meteredFare(version, period, trip.route);
  return {
    rawPence: fare.rawPence,
    pence: fare.pence,
    tariffMinimumPence: version.minimumFarePence ?? null,
    period: period.name,
    authority: area.authority,
  };
}

/** Prices a journey against the project's tariff data (loaded and validated on first call). */
export function priceJourney(req: PriceRequest): PriceResult {
  return priceJourneyWith(defaultPricingData(), req);
}
