import { screenFreeText } from './free-text.js';

// What a driver types about themselves and their car reaches other people: the passenger's "your
// driver" SMS, the booking's lookup and tracking page, a partner's status events, an operator's
// fleet list. Unlike a note, none of it needs more than letters, digits and a little punctuation,
// so it is held to that when the driver applies (src/schemas/drivers.ts), and again where a
// message is built (src/notify/templates.ts) for rows written before the rule: nothing that can
// carry a link (no '.', '/' outside licence numbers, ':', '@'), markup, a phone number to call,
// or an instruction to whatever model reads it (free-text.ts).

const LATIN_LETTERS = 'A-Za-z\\u00C0-\\u00D6\\u00D8-\\u00F6\\u00F8-\\u017F';
/** Letters of any script (a driver's name is theirs), spaces, apostrophes, hyphens. */
const NAME = /^\p{L}[\p{L}\p{M} '\u2019-]*$/u;
/** Make and model: Latin letters (Škoda, Citroën), digits, spaces and - ' & + (Mercedes-Benz, Prius+). */
const VEHICLE = new RegExp(`^[${LATIN_LETTERS}0-9][${LATIN_LETTERS}0-9 '&+-]*$`);
/** Licence (plate) numbers as councils write them: NCC-V-99, PH/1234, HCV 001234. */
const LICENCE = /^[A-Za-z0-9][A-Za-z0-9 /-]*$/;
/** A vehicle needs a few digits (Peugeot 3008); a phone number needs ten or more. */
const MAX_VEHICLE_DIGITS = 6;
const MAX_LICENCE_DIGITS = 8;

export type DriverDetail = 'name' | 'vehicle' | 'licence';

const digits = (v: string) => (v.match(/\d/g) ?? []).length;

/** Why a driver's name, vehicle (make, model, or both as stored) or licence number may not be shown to others; null when it may. */
export function driverDetailProblem(kind: DriverDetail, value: string): string | null {
  switch (kind) {
    case 'name':
      if (!NAME.test(value)) return 'may contain only letters, spaces, apostrophes and hyphens';
      break;
    case 'vehicle':
      if (!VEHICLE.test(value)) return "may contain only letters, digits, spaces and - ' & +";
      if (digits(value) > MAX_VEHICLE_DIGITS) return `may contain at most ${MAX_VEHICLE_DIGITS} digits`;
      break;
    case 'licence':
      if (!LICENCE.test(value)) return 'may contain only letters, digits, spaces, - and /';
      if (digits(value) > MAX_LICENCE_DIGITS) return `may contain at most ${MAX_LICENCE_DIGITS} digits`;
      break;
  }
  // Letters and spaces can still spell "ignore previous instructions".
  const screened = screenFreeText(kind, value, { maxLength: 200 });
  return screened.ok ? null : 'looks like an instruction, not a ' + (kind === 'licence' ? 'licence number' : kind);
}

/** The value when it may be shown to a passenger or partner, else null (and the message leaves it out). */
export function shownDriverDetail(kind: DriverDetail, value: string | null | undefined): string | null {
  const v = value?.trim();
  return v && driverDetailProblem(kind, v) === null ? v : null;
}

/**
 * Another fleet's driver, as an exchange fleet's status event names them (docs/exchange.md): held to
 * the rules our own drivers' details are, since they reach the same pages, lookups and messages.
 * Each detail that fails is dropped (''), never shown; the rest of the event stands.
 */
export function screenedFleetDriver<D extends { name: string; vehicle: string; plate: string }>(
  d: D | null | undefined,
): { name: string; vehicle: string; plate: string } | null {
  if (!d) return null;
  return {
    name: shownDriverDetail('name', d.name) ?? '',
    vehicle: shownDriverDetail('vehicle', d.vehicle) ?? '',
    plate: shownDriverDetail('licence', d.plate) ?? '',
  };
}
