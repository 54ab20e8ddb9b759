// Splits what a passenger typed into the pieces the geocoder acts on: a postcode if there is one,
// the name being asked for, qualifiers (", Bristol", ", Wales") and what kind of place they want.
import { parse as parsePostcode } from 'postcode';
import { osaDistance } from './edit-distance.js';
import { normaliseText, tokens } from './normalise-text.js';

export type Intent = 'airport' | 'station' | null;

export interface FoundPostcode {
  /** Normalised, e.g. "SW1A 2AA". */
  postcode: string;
  outcode: string;
  sector: string;
  area: string;
}

export interface QueryText {
  postcode: FoundPostcode | null;
  /** Comma-separated parts, normalised, most specific first; postcode and house numbers removed. */
  parts: string[];
  intent: Intent;
  /** A misspelt intent word was corrected ("Airprot"), so exact matches are a little less sure. */
  intentCorrected: boolean;
  /** The whole query was typed in capitals ("LHR", "PAD"), which reads as a code. */
  allCaps: boolean;
  /** Lower-cased words as typed, before synonyms: "STN" must stay a code, not become "station". */
  rawWords: string[];
  /** Parts set aside as address lines ("1 deansgate", "flat 2"): where a street name may be. */
  addressLines?: string[];
}

// Word boundaries matter: without them "XSW1A2AAX" would yield a postcode.
const POSTCODE_IN_TEXT = /(^|[^A-Z0-9])([A-Z]{1,2}[0-9][A-Z0-9]?)\s*([0-9][A-Z]{2})(?![A-Z0-9])/g;

const AIRPORT_WORDS = new Set(['airport', 'airfield', 'aerodrome']);
const NON_AIRPORT_TERMINAL_WORDS = new Set(['ferry', 'cruise', 'bus', 'coach', 'port', 'container']);
const STATION_WORDS = new Set(['station', 'railway', 'rail', 'train', 'tube', 'underground']);
const STREET_WORDS = new Set([
  'road',
  'rd',
  'street',
  'st',
  'approach',
  'lane',
  'avenue',
  'way',
  'close',
  'drive',
  'terrace',
  'hill',
  'parade',
  'square',
  'yard',
  'gardens',
]);
const CORRECTABLE_INTENT_WORDS = ['airport', 'station', 'railway'];
const DROPPED_PARTS = new Set(['uk', 'united kingdom', 'gb', 'great britain', 'britain']);
const ADDRESS_PART = /^(\d|flat\b|apartment\b|apt\b|unit\b|suite\b|room\b|floor\b)/;

export function findPostcode(raw: string): { found: FoundPostcode; start: number; end: number } | null {
  const upper = raw.toUpperCase();
  let last: { found: FoundPostcode; start: number; end: number } | null = null;
  for (const match of upper.matchAll(POSTCODE_IN_TEXT)) {
    const parsed = parsePostcode(`${match[2] ?? ''} ${match[3] ?? ''}`);
    if (!parsed.valid) continue;
    last = {
      found: { postcode: parsed.postcode, outcode: parsed.outcode, sector: parsed.sector, area: parsed.area },
      start: (match.index ?? 0) + (match[1]?.length ?? 0),
      end: (match.index ?? 0) + match[0].length,
    };
  }
  return last;
}

function correctIntentWord(token: string): string | null {
  if (token.length < 6) return null;
  for (const word of CORRECTABLE_INTENT_WORDS) {
    if (token !== word && osaDistance(token, word, 1) <= 1) return word;
  }
  return null;
}

export function parseQueryText(raw: string): QueryText {
  const trimmed = raw.trim();
  const postcodeMatch = findPostcode(trimmed);
  const withoutPostcode = postcodeMatch
    ? `${trimmed.slice(0, postcodeMatch.start)} ${trimmed.slice(postcodeMatch.end)}`
    : trimmed;

  let intent: Intent = null;
  let intentCorrected = false;
  let parts = withoutPostcode
    .split(/[,;\n]+/)
    .map((part) => {
      const words = tokens(normaliseText(part)).map((token, i) => {
        const corrected = i > 0 ? correctIntentWord(token) : null;
        if (corrected) intentCorrected = true;
        return corrected ?? token;
      });
      words.forEach((word, i) => {
        // "Station Road" and "Airport Way" are streets, not requests for a station or airport.
        if (STREET_WORDS.has(words[i + 1] ?? '')) return;
        // The last such word wins: "Gatwick Airport station" is the station.
        if (AIRPORT_WORDS.has(word)) intent = 'airport';
        // "Gatwick North Terminal" is the airport; a ferry, cruise or bus terminal is not.
        else if (word === 'terminal' && !words.some((w) => NON_AIRPORT_TERMINAL_WORDS.has(w))) intent = 'airport';
        else if (STATION_WORDS.has(word)) intent = 'station';
      });
      return words.join(' ');
    })
    .filter((part) => part !== '' && !DROPPED_PARTS.has(part));
  // A trailing "UK" without a comma ("Bracknell UK") is noise too.
  parts = parts.map((part) => part.replace(/ (uk|gb)$/, ''));
  let addressLines: string[] = [];
  if (parts.length > 1) {
    const named = parts.filter((part) => !ADDRESS_PART.test(part));
    if (named.length > 0) {
      addressLines = parts.filter((part) => ADDRESS_PART.test(part));
      parts = named;
    }
  }
  return {
    postcode: postcodeMatch?.found ?? null,
    parts,
    intent,
    intentCorrected,
    allCaps: /[A-Z]/.test(trimmed) && trimmed === trimmed.toUpperCase(),
    rawWords: trimmed
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter((word) => word !== ''),
    addressLines,
  };
}

/**
 * The name as typed, then without trailing kind words one at a time, then without any:
 * "manchester airport station" → "manchester airport" (the station's name) → "manchester".
 */
export function nameVariants(part: string): string[] {
  const words = tokens(part);
  const variants = [part];
  while (words.length > 1 && isIntentWord(words.at(-1) ?? '')) {
    words.pop();
    variants.push(words.join(' '));
  }
  const bare = withoutIntentWords(part);
  if (bare !== '' && !variants.includes(bare)) variants.push(bare);
  // "the Royal Infirmary", "the Christie": people put "the" before names that are known without it.
  for (const v of [...variants]) if (v.startsWith('the ') && v.length > 6) variants.push(v.slice(4));
  return variants;
}

/** "road", "street", "lane"...: after a town's name ("Wilmslow Road") it makes the words a street. */
export function isStreetWord(word: string): boolean {
  return (
    STREET_WORDS.has(word) ||
    word === 'rd' ||
    word === 'avenue' ||
    word === 'ave' ||
    word === 'crescent' ||
    word === 'row' ||
    word === 'walk'
  );
}

export function isIntentWord(word: string): boolean {
  return AIRPORT_WORDS.has(word) || STATION_WORDS.has(word);
}

/** The name without words that only say what kind of place it is ("station", "airport"). */
export function withoutIntentWords(part: string): string {
  const words = tokens(part);
  return words.filter((word, i) => !isIntentWord(word) || STREET_WORDS.has(words[i + 1] ?? '')).join(' ');
}
