import type { GeoLocation } from '../geo/types.js';
import { formatBasisPoints, formatPence, shareOf } from './money.js';
import type { PricedRule } from './priced-rule.js';
import { PricingError, type PriceRequest, type RateOverride, type VehicleType } from './types.js';

// The service's own charges on top of the council's table. There is deliberately no charge for
// the vehicle class: the council's table is the maximum fare whatever car answers the hire, so a
// bigger or better car costs more only where the council's own table says so (its extra-passenger
// and large-group rules) or where an approved rate override applies.

export const MEET_AND_GREET_PENCE = 2500;

/**
 * Jersey, Guernsey and the Isle of Man are not in the UK: no UK council licenses those hires and
 * the service only goes there when the caller opts in, so a mistyped postcode cannot silently
 * produce an off-island quote.
 */
export function isWorldwideJourney(req: Pick<PriceRequest, 'pickup' | 'dropoff'>): boolean {
  return !req.pickup.inUk || !req.dropoff.inUk;
}

export function assertWithinServiceArea(req: PriceRequest): void {
  if (!isWorldwideJourney(req) || req.worldwide) return;
  const outside = [req.pickup, req.dropoff].filter((l) => !l.inUk).map((l) => l.label);
  throw new PricingError(
    'outside_service_area',
    `${outside.join(' and ')} ${outside.length > 1 ? 'are' : 'is'} outside the UK. Set worldwide: true on the request to quote journeys that start or end outside the UK.`,
  );
}

/**
 * Informational only: outside the UK there is no council table, so the national default prices
 * the journey, and no extra is added (ferries, flights or tolls are not part of a taxi fare and
 * are left to the passenger, as Mersey tunnel tolls are).
 */
export function worldwideRule(pickup: GeoLocation, dropoff: GeoLocation): PricedRule {
  const outside = [pickup, dropoff].filter((l) => !l.inUk).map((l) => l.country ?? l.label);
  return {
    code: 'worldwide',
    description: `Worldwide journey (${[...new Set(outside)].join(', ')} is outside the UK): priced on the service's national default tariff because no UK council tariff applies; no worldwide surcharge; ferry, toll and crossing costs are not included`,
    amountPence: 0,
    provisional: false,
  };
}

/**
 * Meet and greet is waiting inside arrivals with a name board: an airport service. Asked for on a
 * trip with no airport at either end it is not charged (issue 23: £25 was added to trips that touched
 * no airport), and the quote says why. An airport is a place the gazetteer knows as one, as for the
 * councils' airport extras.
 */
export function meetAndGreetApplies(pickup: GeoLocation, dropoff: GeoLocation): boolean {
  return pickup.kind === 'airport' || dropoff.kind === 'airport';
}

/** The rule for a request that asked for meet and greet: the charge, or a zero line saying why not. */
export function meetAndGreetRule(pickup: GeoLocation, dropoff: GeoLocation): PricedRule {
  if (!meetAndGreetApplies(pickup, dropoff)) {
    return {
      code: 'meet_and_greet_not_applied',
      description:
        'Meet and greet is an airport service (the driver waits in arrivals with a name board); neither end of this trip is an airport, so nothing is added',
      amountPence: 0,
      provisional: false,
    };
  }
  return {
    code: 'meet_and_greet',
    description: `Meet and greet: the driver meets the passenger inside with a name board (${formatPence(MEET_AND_GREET_PENCE)})`,
    amountPence: MEET_AND_GREET_PENCE,
    provisional: false,
  };
}

/**
 * Itemised at zero so a wheelchair user sees why nothing was added: Equality Act 2010 s.165
 * forbids charging them extra, and the passenger should not have to wonder whether we did.
 * Other classes get no rule at all, because nothing about them changes the fare.
 */
export function wheelchairAccessibleRule(vehicleType: VehicleType): PricedRule | null {
  if (vehicleType !== 'wav') return null;
  return {
    code: 'vehicle_class',
    description:
      'Wheelchair-accessible vehicle: no surcharge (Equality Act 2010 s.165 forbids charging wheelchair users extra)',
    amountPence: 0,
    provisional: false,
  };
}

/**
 * Itemised at zero, like the wheelchair-accessible vehicle: Equality Act 2010 s.168 says an
 * assistance dog is carried at no extra charge, and the passenger should see that nothing was added.
 */
export function assistanceDogRule(assistanceDog: boolean | undefined): PricedRule | null {
  if (!assistanceDog) return null;
  return {
    code: 'assistance_dog',
    description: 'Assistance dog: carried at no extra charge (Equality Act 2010 s.168)',
    amountPence: 0,
    provisional: false,
  };
}

/**
 * An approved driver or partner rate replaces the tariff's meter: the adjustment applies to the
 * raw meter reading and the override's own minimum (when it has one) replaces the tariff's. The
 * rule carries the difference from the tariff's metered fare, so the total still adds up.
 */
export function rateOverrideRule(
  override: RateOverride,
  rawMeterPence: number,
  meteredPence: number,
  tariffMinimumPence: number | null,
): PricedRule {
  const floor = override.minimumFarePence ?? tariffMinimumPence ?? 0;
  const adjusted = Math.max(rawMeterPence + shareOf(rawMeterPence, override.adjustmentBasisPoints), floor);
  const minimumNote =
    override.minimumFarePence === null ? '' : `, minimum fare ${formatPence(override.minimumFarePence)}`;
  return {
    code: 'rate_override',
    description:
      `Approved ${override.scope} rate ${override.id} (${formatBasisPoints(override.adjustmentBasisPoints)} on the meter${minimumNote}), ` +
      `approved by ${override.approvedBy} on ${override.approvedAt}: metered fare ${formatPence(meteredPence)} becomes ${formatPence(adjusted)}`,
    amountPence: adjusted - meteredPence,
    provisional: false,
  };
}
