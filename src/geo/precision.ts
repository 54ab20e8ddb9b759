import type { Precision } from './types.js';

/** A stored place's precision; places stored before it was kept are judged by their kind. */
export function precisionOf(place: { precision?: string | null; kind: string }): Precision {
  switch (place.precision) {
    case 'point':
    case 'postcode':
    case 'street':
    case 'postcode_sector':
    case 'postcode_district':
    case 'town_centre':
      return place.precision;
  }
  if (place.kind === 'station' || place.kind === 'airport' || place.kind === 'poi') return 'point';
  if (place.kind === 'street') return 'street';
  // Before unit postcodes were in the data, a full postcode answered at its sector.
  if (place.kind === 'postcode_sector' || place.kind === 'postcode') return 'postcode_sector';
  if (place.kind === 'postcode_district') return 'postcode_district';
  return 'town_centre';
}

/** In words, for drivers and passengers: only what is less than the door is worth saying. */
export function precisionNote(precision: Precision): string | null {
  switch (precision) {
    case 'point':
    case 'postcode':
    case 'street':
      return null;
    case 'postcode_sector':
      return 'approximate: postcode area only';
    case 'postcode_district':
      return 'approximate: postcode district only';
    case 'town_centre':
      return 'approximate: town centre only, ask the passenger for the exact pickup';
  }
}

/**
 * Not a place to send a driver: a town centre or a postcode district. The booking page asks for
 * more before booking one (src/pages/book-page.ts); an assistant's booking is refused until it has
 * asked (src/bookings/book.ts); a house number placed no nearer is asked for its postcode
 * (src/geo/embedded-geocoder.ts).
 */
export function tooVagueForPickup(precision: Precision): boolean {
  return VAGUE_PRECISIONS.includes(precision);
}

/**
 * The precisions tooVagueForPickup refuses, for code that holds a precision as a plain string (the
 * pages' browser code imports this module too: it has no imports but a type).
 */
export const VAGUE_PRECISIONS: readonly string[] = ['town_centre', 'postcode_district'];

/** "the centre of Manchester", "the postcode district M14": what a vague answer finds, in words. */
export function vagueWhere(p: {
  label: string;
  precision: string;
  town?: string | null | undefined;
  postcode_district?: string | null | undefined;
}): string {
  return p.precision === 'postcode_district'
    ? `the postcode district ${p.postcode_district || p.label}`
    : `the centre of ${p.town || p.label}`;
}
