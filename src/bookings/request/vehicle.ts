import { VEHICLE_TYPES, type VehicleType } from '../../pricing/types.js';
import { SEATS } from '../../quotes/vehicle-choice.js';
import { Refusal } from '../../refusal.js';

// The vehicle rules every booking request and quote shares, whichever source it came from.
//
// docs/interface.md, section 2.6: "vehicleType of the v1 booking is a free string. Guidance for v1
// quote: use mpv or 6seater and larger for groups over 4; use wav for wheelchair access."
//
// So, with no class named: up to 4 passengers get a saloon; a group over 4 gets the smallest of
// 6seater, 7seater and mpv that seats it (never a 5seater, which the guidance leaves out): 5 and 6
// passengers a 6seater, 7 a 7seater, 8 an mpv. The smallest such class is the one the most
// drivers can serve (an mpv or 7seater also answers a 6seater job: src/dispatch/policy.ts),
// and the class adds nothing to the fare (docs/decisions.md, "Fares follow the council table").
// Wheelchair access is the wav class, and only it.

/** Classes chosen for a group when none is named, by group size: the spec's guidance above. */
const DEFAULT_FOR_UP_TO_4: readonly VehicleType[] = ['saloon'];
const DEFAULT_FOR_OVER_4: readonly VehicleType[] = ['6seater', '7seater', 'mpv'];
/** Standard classes by size, for telling a caller which classes fit a group. */
const BY_SIZE: readonly VehicleType[] = ['saloon', '5seater', '6seater', '7seater', 'mpv'];

/** The class a group gets when the request names none (the spec's rule, quoted above). */
export function defaultVehicleClass(passengers: number): VehicleType {
  const choices = passengers > 4 ? DEFAULT_FOR_OVER_4 : DEFAULT_FOR_UP_TO_4;
  return choices.find((v) => SEATS[v] >= passengers) ?? 'mpv';
}

/** Does a class seat the group? A class outside the enumeration (an old free-text booking) is taken at its word. */
export function seatsGroup(vehicleType: string, passengers: number): boolean {
  const seats = (SEATS as Record<string, number | undefined>)[vehicleType];
  return seats === undefined || seats >= passengers;
}

export interface VehicleChoice {
  /** Where the class was named, for errors ("vehicle_type", "vehicleType", "body[3].vehicleType"). */
  field: string;
  /**
   * A named class too small for the group: refused as invalid (the API's and MCP's contract: the
   * fare would change under the caller if it were upgraded), or kept and left to dispatch to find a
   * car of that class with enough seats (partner intake since it opened: senders name a class in
   * free text, and a refusal there is a lost job).
   */
  tooSmall: 'refuse' | 'keep';
}

/**
 * The vehicle to book or price: the class named, if the group fits in it (or the source keeps it
 * anyway); otherwise the spec's class for the group's size.
 */
export function vehicleClass(named: VehicleType | undefined, passengers: number, choice: VehicleChoice): VehicleType {
  if (named === undefined) return defaultVehicleClass(passengers);
  if (SEATS[named] < passengers && choice.tooSmall === 'refuse') {
    const fits = BY_SIZE.filter((v) => SEATS[v] >= passengers).join(', ');
    throw Refusal.invalid('vehicle_too_small', `A ${named} seats ${SEATS[named]}; for ${passengers} passengers choose ${fits}.`, {
      field: { name: choice.field, message: `seats ${SEATS[named]}, fewer than ${passengers} passengers` },
    });
  }
  return named;
}

/** Wheelchair access goes with the wav class (the spec: "use wav for wheelchair access"). */
export function needsWheelchair(vehicleType: string): boolean {
  return vehicleType === 'wav';
}

// Where a class is named in free text (the v1 booking's vehicleType, spec 2.6; a PartnerJob's,
// spec 2.4), known classes pass through; a few everyday names map onto them; anything else is a
// clear refusal rather than a guess that changes the fare.
const SYNONYMS: Record<string, VehicleType> = {
  car: 'saloon',
  taxi: 'saloon',
  sedan: 'saloon',
  standard: 'saloon',
  exec: 'executive',
  business: 'executive',
  premium: 'luxury',
  minibus: 'mpv',
  minivan: 'mpv',
  'people carrier': 'mpv',
  van: 'mpv',
  wheelchair: 'wav',
  accessible: 'wav',
  'wheelchair accessible': 'wav',
  '5 seater': '5seater',
  '6 seater': '6seater',
  '7 seater': '7seater',
};

/** A class named in free text; undefined when none is named. `field` names it in the refusal (default the v1 booking's). */
export function vehicleFromName(input: string | undefined, field = 'vehicleType'): VehicleType | undefined {
  if (input === undefined || input.trim() === '') return undefined;
  const key = input.trim().toLowerCase().replace(/[-_]/g, ' ').replace(/\s+/g, ' ');
  const direct = VEHICLE_TYPES.find((v) => v === key.replace(/ /g, ''));
  const mapped = direct ?? SYNONYMS[key];
  if (!mapped) {
    throw Refusal.invalid('validation_failed', `Unknown vehicleType "${input}".`, {
      field: { name: field, message: `use one of ${VEHICLE_TYPES.join(', ')}` },
    });
  }
  return mapped;
}
