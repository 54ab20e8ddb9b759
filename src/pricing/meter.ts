import type { Rate } from './tariff-schema.js';

/*
 * The meter model.
 *
 * A UK hackney meter charges the flag fall, which covers an initial distance (or initial time),
 * then adds a fixed increment for each further distance unit OR time unit, whichever is reached
 * first; a unit that has been started is charged in full ("or part thereof"). Time units only
 * accrue while the cab is slower than the changeover speed (unit distance / unit time).
 *
 * An upfront quote knows only an estimated distance D and duration T, so it assumes a constant
 * average speed. At a constant speed every unit is reached by the same clock - distance when the
 * cab is faster than the changeover, time when slower - so the number of increments is
 *
 *     max( ceil((D - initialDistance) / unitDistance), ceil((T - initialTime) / unitTime) )
 *
 * each term floored at zero. The time term is dropped when the council publishes no time unit;
 * initialTime is 0 when it publishes a time unit but no initial time. Real traffic mixes fast
 * and slow stretches, which a real meter charges on both clocks, so a real fare can be higher
 * than this; the quote is the fare at the route's average speed.
 *
 * Switch point (London's Tariff 4, Birmingham's after-first-mile rate): the part of the journey
 * beyond `afterMeters` is metered separately at the switch rate's unit price, distance and time.
 * The time is split in proportion to distance (the same constant-speed assumption), so
 *
 *     before = flag + unitPence  * max(ceil((S - initialDistance) / unitDistance), ceil((T*S/D - initialTime) / unitTime))
 *     after  =        unitPence' * max(ceil((D - S) / unitDistance'),               ceil((T*(D-S)/D) / unitTime'))
 *
 * Nothing is rounded: distances are held in whole micrometres and times in whole centiseconds
 * (every published figure is exact in those units; yards convert exactly, 1 yd = 914,400 um),
 * and all division is integer ceiling division, so a journey that lands exactly on a unit
 * boundary is never pushed into the next unit by floating-point error. The result is whole pence.
 */

const MICROMETRES_PER = { m: 1_000_000, yd: 914_400 } as const;

function micrometres(value: number, unit: 'm' | 'yd'): bigint {
  return BigInt(Math.round(value * MICROMETRES_PER[unit]));
}

function centiseconds(seconds: number): bigint {
  return BigInt(Math.round(seconds * 100));
}

/** ceil(numerator / denominator) for positive denominators, and 0 when nothing is owed. */
function unitsOwed(numerator: bigint, denominator: bigint): bigint {
  return numerator <= 0n ? 0n : (numerator + denominator - 1n) / denominator;
}

const max = (a: bigint, b: bigint): bigint => (a > b ? a : b);

export interface MeterSegment {
  distanceUnits: number;
  timeUnits: number;
  /** max(distanceUnits, timeUnits): the increments actually charged. */
  unitsCharged: number;
  pence: number;
}

export interface MeterReading {
  pence: number;
  flagFallPence: number;
  /** Up to the switch point (or the whole journey when there is none). */
  main: MeterSegment;
  /** Beyond the switch point; null when the journey does not reach it. */
  beyondSwitch: MeterSegment | null;
}

export interface RouteDistanceTime {
  distanceMeters: number;
  durationSeconds: number;
}

export interface SwitchPoint {
  afterMeters: number;
  rate: Rate;
}

function segment(distanceUnits: bigint, timeUnits: bigint, unitPence: number): MeterSegment {
  const charged = max(distanceUnits, timeUnits);
  return {
    distanceUnits: Number(distanceUnits),
    timeUnits: Number(timeUnits),
    unitsCharged: Number(charged),
    pence: Number(charged) * unitPence,
  };
}

/** The taximeter reading for one rate, before any period multiplier or minimum fare. */
export function readMeter(rate: Rate, route: RouteDistanceTime, switchPoint?: SwitchPoint | null): MeterReading {
  if (!(route.distanceMeters >= 0) || !(route.durationSeconds >= 0)) {
    throw new RangeError(
      `route distance and duration must be non-negative numbers, got ${route.distanceMeters} m / ${route.durationSeconds} s`,
    );
  }
  const D = micrometres(route.distanceMeters, 'm');
  const T = centiseconds(route.durationSeconds);
  const initialD = micrometres(rate.initialDistance, rate.distanceUnit);
  const unitD = micrometres(rate.unitDistance, rate.distanceUnit);
  const initialT = centiseconds(rate.initialSeconds ?? 0);
  const unitT = rate.unitSeconds === null ? null : centiseconds(rate.unitSeconds);

  const S = switchPoint ? micrometres(switchPoint.afterMeters, 'm') : null;
  if (S === null || D <= S || !switchPoint) {
    const main = segment(
      unitsOwed(D - initialD, unitD),
      unitT === null ? 0n : unitsOwed(T - initialT, unitT),
      rate.unitPence,
    );
    return { pence: rate.flagFallPence + main.pence, flagFallPence: rate.flagFallPence, main, beyondSwitch: null };
  }

  // Time before the switch is T*S/D; scaling both sides by D keeps the division exact.
  const main = segment(
    unitsOwed(S - initialD, unitD),
    unitT === null ? 0n : unitsOwed(T * S - initialT * D, unitT * D),
    rate.unitPence,
  );
  const after = switchPoint.rate;
  const afterUnitD = micrometres(after.unitDistance, after.distanceUnit);
  const afterUnitT = after.unitSeconds === null ? null : centiseconds(after.unitSeconds);
  const beyondSwitch = segment(
    unitsOwed(D - S, afterUnitD),
    afterUnitT === null ? 0n : unitsOwed(T * (D - S), afterUnitT * D),
    after.unitPence,
  );
  return {
    pence: rate.flagFallPence + main.pence + beyondSwitch.pence,
    flagFallPence: rate.flagFallPence,
    main,
    beyondSwitch,
  };
}
