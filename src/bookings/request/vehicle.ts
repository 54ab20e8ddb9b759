import { VEHICLE_TYPES, type VehicleType } from '../../pricing/types.js';
import { SEATS } from '../../quotes/vehicle-choice.js';
import { Refusal } from '../../refusal.js';
import { screenedOrDropped } from '../../screening/free-text.js';

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
    throw Refusal.invalid(
      'vehicle_too_small',
      `A ${named} seats ${SEATS[named]}; for ${passengers} passengers choose ${fits}.`,
      {
        field: { name: choice.field, message: `seats ${SEATS[named]}, fewer than ${passengers} passengers` },
      },
    );
  }
  return named;
}

/** Wheelchair access goes with the wav class (the spec: "use wav for wheelchair access"). */
export function needsWheelchair(vehicleType: string): boolean {
  return vehicleType === 'wav';
}

// Where a class is named in free text (the v1 booking's vehicleType, spec 2.6; a PartnerJob's,
// spec 2.4), it is read generously and never refused (docs/partners.md, "Vehicle types in free
// text"): case, spaces, hyphens, plurals and number words do not matter; the v1 classes pass
// through ("6-seater", "MPV"); a seat count names the class that seats it ("8 seater", "eight
// seats": an mpv; "4 seater": a saloon); wheelchair words name a wav whatever else is said; then
// everyday names ("estate car", "people carrier", "exec") by the words they hold. A name none of
// that reads falls back to the class the group gets when none is named (defaultVehicleClass), and
// its text is kept for the driver (vehicleNote): a job is never lost for the word its sender used.

/** Whole names meaning "no class in particular": the group's own class. */
const NO_PREFERENCE: ReadonlySet<string> = new Set([
  'any',
  'anything',
  'any car',
  'any vehicle',
  'any type',
  'any class',
  'no preference',
  'none',
  'not specified',
  'unspecified',
  'n a',
  'na',
  'tbc',
  'default',
]);

/** Words naming a class, checked in this order (the first class with a word in the name wins). */
const CLASS_WORDS: readonly (readonly [VehicleType, readonly string[]])[] = [
  ['wav', ['wav', 'wheelchair', 'wheelchairs', 'accessible', 'accessibility', 'ramp', 'disabled', 'disability']],
  [
    'mpv',
    [
      'mpv',
      'minibus',
      'minivan',
      'van',
      'carrier',
      'multiseater',
      'multi seater',
      'people mover',
      'large vehicle',
      'large car',
      'xl',
    ],
  ],
  ['luxury', ['luxury', 'lux', 'premium', 'vip', 'first class', 'prestige', 'limo', 'limousine', 'chauffeur']],
  ['executive', ['exec', 'executive', 'business', 'business class']],
  ['estate', ['estate', 'wagon', 'station wagon', 'tourer', 'estate car']],
  [
    'saloon',
    [
      'saloon',
      'sedan',
      'car',
      'taxi',
      'cab',
      'standard',
      'regular',
      'normal',
      'economy',
      'hatchback',
      'private hire',
      'black cab',
      'hackney',
    ],
  ],
];

const NUMBER_WORDS: Record<string, string> = {
  one: '1',
  two: '2',
  three: '3',
  four: '4',
  five: '5',
  six: '6',
  seven: '7',
  eight: '8',
  nine: '9',
  ten: '10',
  eleven: '11',
  twelve: '12',
  fourteen: '14',
  sixteen: '16',
};

/** "seats" is "seat", "minibuses" "minibus"; "class", "bus" and short words stay as they are. */
function singular(w: string): string {
  if (w.length <= 3 || !w.endsWith('s') || /(?:ss|us)$/.test(w)) return w;
  return w.endsWith('uses') ? w.slice(0, -2) : w.slice(0, -1);
}

/** Lower case, words only, single spaces, number words as digits, a plural's "s" dropped ("Seats" is "seat"). */
function normaliseVehicleName(input: string): string {
  return input
    .toLowerCase()
    .replace(/(\d)([a-z])/g, '$1 $2')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .map((w) => NUMBER_WORDS[w] ?? singular(w))
    .join(' ');
}

/** The class that seats `seats`: 4 or fewer a saloon, 5, 6 and 7 their own classes, 8 or more an mpv. */
function classForSeats(seats: number): VehicleType {
  if (seats <= 4) return 'saloon';
  if (seats >= 8) return 'mpv';
  return `${seats}seater` as VehicleType;
}

/** A seat count said in a name: "8 seater", "8 seat", "8 passenger", "8 person", "8 pax", "seat 8". */
function seatsNamed(key: string): number | null {
  const m =
    /\b(\d{1,2}) ?(?:seater|seat|passenger|person|people|pax|place)\b/.exec(key) ??
    /\b(?:seater|seat) (\d{1,2})\b/.exec(key);
  return m ? Number(m[1]) : null;
}

/** What a free-text vehicle name says: the class it names (undefined: none), and its text when it named nothing known. */
export interface VehicleName {
  vehicle: VehicleType | undefined;
  /** The name as sent (trimmed), when it named no class this reads: kept for the driver, never refused. */
  unrecognised: string | null;
}

/** Reads a class named in free text. Never refuses: a name it cannot read is `unrecognised`. */
export function readVehicleName(input: string | undefined): VehicleName {
  if (input === undefined || input.trim() === '') return { vehicle: undefined, unrecognised: null };
  const key = normaliseVehicleName(input);
  if (key === '' || NO_PREFERENCE.has(key)) return { vehicle: undefined, unrecognised: null };
  const direct = VEHICLE_TYPES.find((v) => v === key.replace(/ /g, ''));
  if (direct) return { vehicle: direct, unrecognised: null };
  const padded = ` ${key} `;
  const says = (word: string) => padded.includes(` ${word} `);
  // Wheelchair access first: whatever else the name says, a wheelchair user needs a wav.
  if (CLASS_WORDS[0]![1].some(says)) return { vehicle: 'wav', unrecognised: null };
  const seats = seatsNamed(key);
  if (seats !== null && seats >= 1) return { vehicle: classForSeats(seats), unrecognised: null };
  const named = CLASS_WORDS.find(([, words]) => words.some(says))?.[0];
  if (named) return { vehicle: named, unrecognised: null };
  return { vehicle: undefined, unrecognised: input.trim().replace(/\s+/g, ' ') };
}

/** A class named in free text; undefined when none is named or the name is not one this reads. */
export function vehicleFromName(input: string | undefined): VehicleType | undefined {
  return readVehicleName(input).vehicle;
}

/** How the job card's notes name a vehicle the sender asked for in words no class matched. */
export const VEHICLE_ASKED_FOR = 'Vehicle asked for: ';

/**
 * The notes a booking carries with a vehicle name nobody could read: the name first ("Vehicle
 * asked for: ..."), then the sender's own notes, so the driver's job card shows what was asked for.
 * The name is screened like any text that reaches a driver; one that fails the screen is dropped.
 */
export function notesWithVehicleName(notes: string | null, unrecognised: string | null): string | null {
  const name = screenedOrDropped('vehicleType', unrecognised, { maxLength: 60 });
  if (!name) return notes;
  return [`${VEHICLE_ASKED_FOR}${name}`, notes].filter(Boolean).join('\n');
}
