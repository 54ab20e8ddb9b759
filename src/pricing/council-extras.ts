import type { GeoLocation } from '../geo/types.js';
import { formatBasisPoints, formatPence, shareOf } from './money.js';
import { provisionalNote, type PricedRule } from './priced-rule.js';
import type { TariffVersion } from './tariff-schema.js';

// Extras the council's own table adds automatically. Extras that depend on things a quote cannot
// know (luggage outside the cab, soiling, rank barriers) are kept in the files as "not_applied".

export function passengerExtraRules(version: TariffVersion, passengers: number): PricedRule[] {
  const rules: PricedRule[] = [];
  for (const extra of version.extras) {
    if (extra.type === 'group_flat') {
      if (passengers < extra.minPassengers || extra.amountPence === 0) continue;
      rules.push({
        code: 'extra_passengers',
        description: `${extra.name}: ${passengers} passengers, ${formatPence(extra.amountPence)} per hire${provisionalNote(extra.provisional)}`,
        amountPence: extra.amountPence,
        provisional: extra.provisional,
      });
      continue;
    }
    if (extra.type !== 'per_passenger') continue;
    const extraPassengers = passengers - extra.beyond;
    if (extraPassengers <= 0 || extra.amountPence === 0) continue;
    rules.push({
      code: 'extra_passengers',
      description: `${extra.name}: ${extraPassengers} x ${formatPence(extra.amountPence)}${provisionalNote(extra.provisional)}`,
      amountPence: extraPassengers * extra.amountPence,
      provisional: extra.provisional,
    });
  }
  return rules;
}

function isAirport(location: GeoLocation, iata: readonly string[]): boolean {
  return location.kind === 'airport' && location.iata !== undefined && iata.includes(location.iata.toUpperCase());
}

export function airportExtraRules(version: TariffVersion, pickup: GeoLocation, dropoff: GeoLocation): PricedRule[] {
  const rules: PricedRule[] = [];
  for (const extra of version.extras) {
    if (extra.type !== 'airport_dropoff' && extra.type !== 'airport_pickup') continue;
    const place = extra.type === 'airport_dropoff' ? dropoff : pickup;
    if (!isAirport(place, extra.iata)) continue;
    rules.push({
      code: extra.type,
      description: `${extra.name} (${place.iata}): ${formatPence(extra.amountPence)}${provisionalNote(extra.provisional)}`,
      amountPence: extra.amountPence,
      provisional: extra.provisional,
    });
  }
  return rules;
}

/** Bracknell's "more than 4 passengers +50 % of the meter", Brighton's tariffs 5-8 (1.5 x). */
export function largeGroupRule(version: TariffVersion, passengers: number, meteredPence: number): PricedRule | null {
  const rule = version.largeGroup;
  if (!rule || passengers < rule.minPassengers) return null;
  return {
    code: 'large_group',
    description: `${rule.name}: ${passengers} passengers, ${formatBasisPoints(rule.basisPoints)} of the ${formatPence(meteredPence)} meter${provisionalNote(rule.provisional)}`,
    amountPence: shareOf(meteredPence, rule.basisPoints),
    provisional: rule.provisional,
  };
}
