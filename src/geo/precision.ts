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
  return precision === 'town_centre' || precision === 'postcode_district';
}
