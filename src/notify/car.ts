import { shownDriverDetail } from '../screening/driver-details.js';

// How a passenger is told which car to get into (issue 23, item 5): the driver's first name, the
// car as it looks from the kerb (colour, make and model) and its registration as the number plate
// shows it. The council's licence plate number is not the registration: it is shown only when no
// registration is on file, and then said to be what it is.
//
// Here with the texts rather than in src/drivers: src/drivers sends these texts, so what they read
// about a driver is named here (CarFacts: a driver row fits) and src/notify imports no area.

/** What the passenger is told about a driver's car: columns of src/drivers/store.ts's DriverRow. */
export interface CarFacts {
  vehicle_description: string | null;
  vehicle_make: string | null;
  vehicle_model: string | null;
  vehicle_colour: string | null;
}

/** Current (AB12 CDE), prefix (A123 BCD) and suffix (ABC 123D) registrations, spaced as on the plate. */
const FORMATS: Array<[RegExp, string]> = [
  [/^([A-Z]{2}[0-9]{2})([A-Z]{3})$/, '$1 $2'],
  [/^([A-Z][0-9]{1,3})([A-Z]{3})$/, '$1 $2'],
  [/^([A-Z]{3})([0-9]{1,3}[A-Z])$/, '$1 $2'],
];

/** "ab12cde" -> "AB12 CDE"; a dateless or foreign registration keeps its own spacing, in capitals. */
export function formatRegistration(raw: string | null | undefined): string | null {
  const spaced = raw?.trim().toUpperCase().replace(/\s+/g, ' ');
  if (!spaced || !/^[A-Z0-9 ]{2,12}$/.test(spaced)) return null;
  const joined = spaced.replace(/ /g, '');
  for (const [pattern, replacement] of FORMATS) if (pattern.test(joined)) return joined.replace(pattern, replacement);
  return spaced;
}

/** The first of the names a driver gave: the passenger is never shown a driver's surname. */
export function firstName(name: string | null | undefined): string | null {
  const first = name?.trim().split(/\s+/)[0];
  return first ? first : null;
}

const capitalised = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * "Silver Skoda Octavia": the colour (when on file, and not already in the description) before the
 * make and model the driver applied with, or their vehicle description when those are missing.
 */
export function carDescription(car: CarFacts, fallback: string): string {
  const make = shownDriverDetail('vehicle', car.vehicle_make);
  const model = shownDriverDetail('vehicle', car.vehicle_model);
  const vehicle = make && model ? `${make} ${model}` : car.vehicle_description?.trim() || fallback;
  const colour = car.vehicle_colour?.trim().toLowerCase();
  if (!colour || shownDriverDetail('vehicle', colour) === null) return vehicle;
  return new RegExp(`\\b${colour.replace(/[^\p{L} -]/gu, '')}\\b`, 'iu').test(vehicle)
    ? vehicle
    : `${capitalised(colour)} ${vehicle}`;
}
