// A pickup or drop-off as a person reads it (issue 35): the words the passenger typed, with their
// house number, flat, building or "outside the Co-op", beside the place the service resolved them
// to and priced. The geocoder may only know the postcode ("NW1 6XE, Camden"); a driver cannot find a
// door from that, and the passenger's own words are what they will be standing beside. Pure.

const SPACES = /\s+/g;
const SPACE_BEFORE_COMMA = /\s+,/g;
// A UK postcode anywhere in the text ("nw1 6xe", "NW16XE"), to be written as Royal Mail does.
const POSTCODE = /\b([A-Za-z]{1,2}[0-9][A-Za-z0-9]?) ?([0-9][A-Za-z]{2})\b/g;
// Words that stay lower case inside a name typed all in one case ("Church of St Mary").
const MINOR = new Set(['of', 'the', 'and', 'on', 'in', 'upon', 'by', 'at', 'de', 'le', 'la']);

/** A word typed in one case, capitalised: "baker" → "Baker", "221b" → "221B", "t2" → "T2", "o'neill" → "O'Neill". */
function capitalise(word: string, first: boolean): string {
  const lower = word.toLowerCase();
  if (!first && MINOR.has(lower)) return lower;
  // A number with letters (221b, t2, 3a) is written in capitals, as on a door or a sign.
  if (/\d/.test(lower)) return lower.toUpperCase();
  // After an apostrophe only a name (O'Neill), never a possessive (Neill's).
  return lower.replace(/(^|[-(/]|['’](?=\p{L}{2}))(\p{L})/gu, (_m, sep: string, ch: string) => sep + ch.toUpperCase());
}

/**
 * What the passenger typed, tidied only in spacing and capitals: spaces collapsed, none before a
 * comma, postcodes in capitals with their space, and text typed all in lower (or all in upper)
 * case given capitals word by word. Mixed case is the passenger's own and kept.
 */
export function tidyTyped(text: string): string {
  let t = text.replace(SPACES, ' ').replace(SPACE_BEFORE_COMMA, ',').trim();
  const oneCase = t === t.toLowerCase() || t === t.toUpperCase();
  if (oneCase)
    t = t
      .split(' ')
      .map((w, i) => capitalise(w, i === 0))
      .join(' ');
  return t.replace(POSTCODE, (_m, outward: string, inward: string) => `${outward} ${inward}`.toUpperCase());
}

const key = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/**
 * The place as shown to people: the typed words, then in brackets the resolved place when it says
 * something they do not ("221B Baker Street, London NW1 6XE (NW1 6XE, Camden)"); just the resolved
 * place when nothing was typed or the words add nothing to it ("Manchester Piccadilly").
 */
export function placeForPeople(typed: string | null | undefined, place: { label: string }): string {
  const words = typed ? tidyTyped(typed) : '';
  if (!words) return place.label;
  const said = key(words);
  const resolved = key(place.label);
  if (resolved.includes(said)) return place.label;
  if (said.includes(resolved)) return words;
  return `${words} (${place.label})`;
}
