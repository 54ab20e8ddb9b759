// Which names point at which entry, and how strongly. Scores only matter relative to each other:
// an exact name that several entries share is resolved by these numbers (plus bonuses for
// 'airport'/'station' words and ", Town" qualifiers added by the search).

import type { PlaceType } from './gazetteer-file.js';
import { containsWords, normaliseText } from './normalise-text.js';

// OS Open Names types, biggest first. "Other Settlement" mixes Highland crofts with Brighton,
// Paddington and Camden Town, so it starts low and relies on the prominence and council bonuses.
const PLACE_TYPE_SCORE: Record<PlaceType, number> = {
  City: 85,
  Town: 70,
  'Suburban Area': 45,
  Village: 35,
  Hamlet: 20,
  'Other Settlement': 20,
};

/** 0..15 from the live postcodes within 2 km: 100 → 0, 1,000 → 5, 10,000 → 10, 100,000 → 15. */
export function prominenceScore(postcodesNearby: number): number {
  return Math.max(0, Math.min(15, 5 * (Math.log10(1 + postcodesNearby) - 2)));
}

// A place that gives its council its name ("Brighton" in "The City of Brighton and Hove",
// "Bracknell" in "Bracknell Forest") is that council's main settlement, whatever its OS type.
const COUNCIL_NAME_BONUS = 30;

/** `nameKey` and `councilKey` are normalised (normaliseText). */
export function placeScore(nameKey: string, type: PlaceType, postcodesNearby: number, councilKey: string): number {
  const bonus = containsWords(councilKey, nameKey) ? COUNCIL_NAME_BONUS : 0;
  return PLACE_TYPE_SCORE[type] + prominenceScore(postcodesNearby) + bonus;
}

// "Newcastle upon Tyne" is "Newcastle" to most people, "Stoke-on-Trent" is "Stoke". Only for
// cities and towns: villages such as "Stoke-on-Tern" would otherwise claim a bare "Stoke".
const RIVER_SUFFIX = /^(.+?) (?:upon|on|under) [a-z]+$/;
const DERIVED_NAME_PENALTY = 15;
// "Kingston" on its own usually means Kingston upon Thames, not Hull; "Hull" is what people say.
const EXTRA_PLACE_ALIASES = new Map([['kingston upon hull', ['hull']]]);
const SKIPPED_PLACE_ALIASES = new Set(['kingston']);

export type AddAlias = (key: string, score: number, derived: boolean) => void;

/** `keys` are the place's normalised names (English and Welsh/Gaelic). */
export function placeAliases(keys: string[], type: PlaceType, score: number, add: AddAlias): void {
  for (const key of keys) {
    if (key === '') continue;
    add(key, score, false);
    for (const extra of EXTRA_PLACE_ALIASES.get(key) ?? []) add(extra, score - DERIVED_NAME_PENALTY, true);
    if (type !== 'City' && type !== 'Town') continue;
    const river = RIVER_SUFFIX.exec(key);
    if (river?.[1] && !SKIPPED_PLACE_ALIASES.has(river[1])) add(river[1], score - DERIVED_NAME_PENALTY, true);
  }
}

// Below a town, so "Brighton" is the town and "Adlington" the Lancashire town, but above
// villages and hamlets (a station usually sits in the village it is named after anyway).
const STATION_SCORE = 50;
// London termini are what most people mean by "Euston", "Paddington" or "Victoria".
const LONDON_TERMINUS_SCORE = 65;
const NOT_LONDON_TERMINI = /^(bridge|fields|road\b)/;
const EXTRA_STATION_ALIASES = new Map([
  ['STP', ['st pancras', 'kings cross st pancras']],
  ['EDB', ['waverley', 'edinburgh waverley']],
]);

export function stationAliases(
  stationName: string,
  crs: string,
): Array<{ key: string; score: number; derived: boolean }> {
  const key = normaliseText(stationName);
  const out = [{ key, score: STATION_SCORE, derived: false }];
  // "Lincoln station" is Lincoln Central; "Newcastle Central" is Newcastle: a town's main station
  // goes by the town's name and by "<town> Central" (below the town itself, which an explicit
  // "station" in the query outranks).
  const central = /^(.+) central$/.exec(key);
  if (central?.[1]) out.push({ key: central[1], score: STATION_SCORE - 15, derived: true });
  else if (!/\b(central|parkway|international|airport|terminal)\b/.test(key) && !key.includes(' ')) {
    out.push({ key: `${key} central`, score: STATION_SCORE - 5, derived: true });
  }
  // "Adlington (Cheshire)": the bracket is a qualifier, not part of what people type.
  const bare = normaliseText(stationName.replace(/\(.*?\)/g, ' '));
  if (bare !== key) out.push({ key: bare, score: STATION_SCORE - 5, derived: true });
  // "Heathrow Terminal 5 Rail" is the upstream way of naming Heathrow's stations.
  if (key.endsWith(' rail')) out.push({ key: key.slice(0, -5), score: STATION_SCORE, derived: true });
  if (key.startsWith('london ') && !NOT_LONDON_TERMINI.test(key.slice(7))) {
    out.push({ key: key.slice(7), score: LONDON_TERMINUS_SCORE, derived: true });
  }
  for (const extra of EXTRA_STATION_ALIASES.get(crs) ?? [])
    out.push({ key: extra, score: LONDON_TERMINUS_SCORE, derived: true });
  return out;
}

// Approximate order by annual terminal passengers (CAA airport statistics, pre-2020). Used only
// to break ties such as "London airport" or "Glasgow airport", and to let a live airport's IATA
// code beat a same-letter rail station code.
export const MAJOR_AIRPORTS = [
  'LHR',
  'LGW',
  'MAN',
  'STN',
  'LTN',
  'EDI',
  'BHX',
  'BRS',
  'GLA',
  'BFS',
  'NCL',
  'LCY',
  'LPL',
  'EMA',
  'LBA',
  'ABZ',
  'BHD',
  'SEN',
  'JER',
  'CWL',
  'SOU',
  'EXT',
  'INV',
  'GCI',
  'BOH',
  'IOM',
  'PIK',
  'NWI',
  'NQY',
  'LSI',
  'KOI',
  'LDY',
  'HUY',
  'SYY',
  'MME',
  'DND',
] as const;

// Still listed by OpenFlights (last updated 2019) but closed to passengers, or military fields a
// taxi cannot drive onto. They stay findable by exact name or code, just never ahead of a live one.
const CLOSED_AIRPORTS = new Set(['FZO', 'PLH', 'DSA', 'MSE', 'LYE', 'SQZ']);
const MILITARY_NAME = /^(raf|rnas|mod|dcae|royal marines)\b/;

const AIRPORT_WORDS = /\b(international|airport|aerodrome|airfield|airstrip|air park)\b/g;
// A bare alias this short is a generic word ("city" from "London City Airport").
const MIN_BARE_ALIAS_LENGTH = 5;
const BARE_ALIAS_PENALTY = 10;
const CITY_ALIAS_PENALTY = 5;

export function isMajorAirport(iata: string): boolean {
  return (MAJOR_AIRPORTS as readonly string[]).includes(iata);
}

export function airportScore(iata: string, name: string): number {
  const normalised = normaliseText(name);
  if (CLOSED_AIRPORTS.has(iata) || MILITARY_NAME.test(normalised)) return 25;
  const rank = (MAJOR_AIRPORTS as readonly string[]).indexOf(iata);
  if (rank >= 0) return 70 + Math.max(0, 15 - rank / 2);
  return iata ? 50 : 35;
}

/**
 * Aliases for an airport. `isTownName` guards the bare forms: "Exeter" or "Luton" must stay the
 * town even though stripping "International Airport" from the airport name leaves the same word.
 */
export function airportAliases(
  name: string,
  city: string,
  score: number,
  isTownName: (key: string) => boolean,
): Array<{ key: string; score: number; derived: boolean }> {
  const full = normaliseText(name);
  const out = [{ key: full, score, derived: false }];
  const stripped = normaliseText(full.replace(AIRPORT_WORDS, ' '));
  const cityKey = normaliseText(city);
  const cores = new Set([stripped]);
  if (stripped.startsWith('london ')) cores.add(stripped.slice(7));
  // "Liverpool John Lennon" → "John Lennon"; "George Best Belfast City" → "Belfast City";
  // "Glasgow Prestwick" → "Prestwick": the name with or without its city.
  const words = stripped.split(' ');
  const cityAt = cityKey === '' ? -1 : words.indexOf(cityKey.split(' ')[0] ?? '');
  if (cityAt === 0 && words.length > 1) cores.add(words.slice(1).join(' '));
  if (cityAt > 0) cores.add(words.slice(cityAt).join(' '));
  for (const core of cores) {
    if (core === '') continue;
    out.push({ key: `${core} airport`, score, derived: true });
    if (core !== cityKey && core.length >= MIN_BARE_ALIAS_LENGTH && !isTownName(core)) {
      out.push({ key: core, score: score - BARE_ALIAS_PENALTY, derived: true });
    }
  }
  if (cityKey !== '') out.push({ key: `${cityKey} airport`, score: score - CITY_ALIAS_PENALTY, derived: true });
  return out;
}

/** Heathrow's rail stations sit at its terminals, so "Heathrow Terminal 5" can be placed exactly. */
export function terminalAliases(airportShort: string, iata: string, terminals: string[]): string[] {
  const keys: string[] = [];
  const prefixes = [
    airportShort,
    `${airportShort} airport`,
    `london ${airportShort}`,
    `london ${airportShort} airport`,
    iata.toLowerCase(),
  ];
  for (const t of terminals) {
    for (const prefix of prefixes) {
      keys.push(`${prefix} terminal ${t}`, `${prefix} t${t}`);
    }
    keys.push(`terminal ${t} ${airportShort}`, `terminal ${t} ${airportShort} airport`);
  }
  if (terminals.length > 1) keys.push(`${airportShort} terminals ${terminals.join(' and ')}`);
  return keys;
}

/** Gatwick's terminals have names: "Gatwick North Terminal", "Gatwick North", "LGW South Terminal". */
export function namedTerminalAliases(airportShort: string, iata: string, name: string): string[] {
  const prefixes = [
    airportShort,
    `${airportShort} airport`,
    `london ${airportShort}`,
    `london ${airportShort} airport`,
  ];
  const keys = [...prefixes, iata.toLowerCase()].flatMap((p) => [`${p} ${name} terminal`, `${p} terminal ${name}`]);
  keys.push(`${airportShort} ${name}`, `${name} terminal ${airportShort}`);
  return keys;
}

// Street-type abbreviations people type for station names ("Birmingham New St", "Oxford Rd").
const ABBREVIATIONS: Array<[RegExp, string]> = [
  [/\bstreet\b/g, 'st'],
  [/\broad\b/g, 'rd'],
  // "Kings X", "Charing X": how people and timetables write Cross.
  [/\bcross\b/g, 'x'],
];

export function withAbbreviations(key: string): string[] {
  const out = [key];
  for (const [pattern, short] of ABBREVIATIONS) {
    const current = out.slice();
    for (const k of current) {
      const replaced = k.replace(pattern, short);
      if (replaced !== k) out.push(replaced);
    }
  }
  return out;
}

// Council names people also type as places ("Westminster", "Wirral", "Bracknell Forest"); they
// point at the council's most prominent place, below any real place of that name.
export const COUNCIL_ALIAS_SCORE = 40;

const POI_SHORTENINGS: Array<[RegExp, string]> = [
  [/ university hospitals?\b/, ' hospital'],
  [/ teaching hospital\b/, ' hospital'],
  [/ general hospital\b/, ' hospital'],
  [/\buniversity\b/, 'uni'],
  [/\bmetropolitan university\b/, 'met uni'],
  [/^university of (.+)$/, '$1 university'],
  [/ (nhs )?(foundation )?trust\b.*$/, ''],
];

// A named place people go to: above a town (70), so "Wembley Stadium" or "Bluewater" is the venue,
// below a city with its prominence (85+), so a hotel named after a city never takes its name.
const POI_SCORE = 75;

/** The names a point of interest goes by: its own, each alias, and each without a leading "The". */
export function poiAliases(
  name: string,
  aliases: string,
  town = '',
  isTownName: (key: string) => boolean = () => false,
): Array<{ key: string; score: number; derived: boolean }> {
  const townKey = normaliseText(town);
  const out = new Map<string, { key: string; score: number; derived: boolean }>();
  const add = (key: string, score: number, derived: boolean) => {
    if (key !== '' && !out.has(key)) out.set(key, { key, score, derived });
  };
  for (const [i, raw] of [name, ...aliases.split('|')].entries()) {
    const key = normaliseText(raw);
    add(key, POI_SCORE - (i === 0 ? 0 : 2), i !== 0);
    const bare = key.startsWith('the ') ? key.slice(4) : key;
    if (bare !== key) add(bare, POI_SCORE - 3, true);
    // "Royal Stoke University Hospital" is "Royal Stoke Hospital" to most; "Manchester
    // Metropolitan University" is "Manchester Metropolitan Uni".
    for (const [pattern, short] of POI_SHORTENINGS) {
      const shorter = bare.replace(pattern, short).trim();
      if (shorter !== bare && shorter.split(' ').length >= 2) add(shorter, POI_SCORE - 4, true);
    }
    // "Manchester Royal Infirmary" is also "the Royal Infirmary, Manchester".
    if (townKey !== '' && bare.startsWith(`${townKey} `) && bare.split(' ').length >= townKey.split(' ').length + 2) {
      add(`${bare.slice(townKey.length + 1)} ${townKey}`, POI_SCORE - 4, true);
    }
    // "Hilton Manchester Deansgate" is "the Hilton on Deansgate": a brand named by its street. Not
    // when that street is also a town's name: "Holiday Inn Express Stratford" may be Stratford-upon-Avon.
    const at = townKey === '' ? -1 : ` ${bare} `.indexOf(` ${townKey} `);
    if (at > 0 && at + townKey.length + 1 < bare.length) {
      const brand = bare.slice(0, at - 1);
      const street = bare.slice(at + townKey.length + 1);
      if (brand.split(' ').length <= 3 && !isTownName(street)) {
        add(`${brand} ${street}`, POI_SCORE - 4, true);
        add(`${brand} on ${street}`, POI_SCORE - 4, true);
      }
    }
    // "Queen Elizabeth Hospital" is "QE Hospital": initials of the words before what it is.
    const kind = /^(.+?) (hospital|university|college|infirmary)\b(.*)$/.exec(bare);
    const named = kind?.[1]?.split(' ').filter((w) => w !== 'the') ?? [];
    if (kind && named.length >= 2 && named.length <= 4)
      add(`${named.map((w) => w[0]).join('')} ${kind[2]}${kind[3]}`, POI_SCORE - 6, true);
  }
  return [...out.values()];
}
const COUNCIL_NOISE = /^(the )?(city and county of the city of |city of |county of )?/;

/** Normalised names a council goes by: "Caerdydd - Cardiff" → caerdydd, cardiff; "Glasgow City" → glasgow city, glasgow. */
export function councilAliasKeys(council: string): string[] {
  const keys = new Set<string>();
  for (const piece of council.split(' - ')) {
    const key = normaliseText(piece).replace(COUNCIL_NOISE, '');
    if (key === '') continue;
    keys.add(key);
    if (key.endsWith(' city')) keys.add(key.slice(0, -5));
  }
  return [...keys];
}
