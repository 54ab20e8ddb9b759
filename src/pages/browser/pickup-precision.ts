// How near the door a place is, for "Where exactly?" (book-refine.ts, and src/pages/book-page.ts
// on the server): a pickup known only as a town centre or a postcode district is not a place to
// send a driver.

// Which precisions are too vague, and how they are said, are the server's own (one definition).
export { VAGUE_PRECISIONS, vagueWhere } from '../../geo/precision.js';

/** Closest to the door first (src/geo/types.ts). */
export const PRECISION_ORDER: readonly string[] = [
  'point',
  'postcode',
  'street',
  'postcode_sector',
  'postcode_district',
  'town_centre',
];
export const POSTCODE_EXAMPLE = 'M14 5TP';

/** Lower is nearer the door; an unknown precision is the vaguest of all. */
export function rank(precision: string | undefined): number {
  const i = PRECISION_ORDER.indexOf(precision ?? '');
  return i < 0 ? PRECISION_ORDER.length : i;
}

/** A place name as compared: trimmed, any case. */
export function placeKey(label: string | null | undefined): string {
  return String(label || '')
    .trim()
    .toLowerCase();
}

const FULL_POSTCODE = /^[A-Za-z]{1,2}[0-9][A-Za-z0-9]? ?[0-9][A-Za-z]{2}$/;

/** A full postcode stands on its own; anything else is looked for in the pickup's town, once. */
export function withTown(detail: string, town: string | null | undefined): string {
  return !town || FULL_POSTCODE.test(detail) || placeKey(detail).includes(placeKey(town))
    ? detail
    : `${detail}, ${town}`;
}

/**
 * The answer to "Where exactly?" with the passenger's own words kept (issue 35): a postcode given for
 * "221B Baker Street, London" is asked for as "221B Baker Street, London, NW1 6XE", so the house number
 * stays on the booking beside the place the postcode finds. Anything else (a street, a building) is
 * the new pickup as it stands.
 */
export function withTyped(detail: string, typed: string | null | undefined): string {
  const words = (typed ?? '').trim();
  const hasPostcode = /\b[A-Za-z]{1,2}[0-9][A-Za-z0-9]? ?[0-9][A-Za-z]{2}\b/.test(words);
  if (!words || !FULL_POSTCODE.test(detail.trim()) || hasPostcode || !/\d/.test(words)) return detail;
  return `${words}, ${detail.trim()}`;
}
