// Offline geocoder over the bundled gazetteer: postcodes, airport and station codes, then names.
import { isMajorAirport } from './alias-rules.js';
import { CROWN_DEPENDENCIES } from './crown-dependencies.js';
import { getGazetteer, type Gazetteer, type PostcodeArea } from './gazetteer.js';
import type { GazetteerEntry } from './gazetteer-entry.js';
import { haversineMeters } from './haversine.js';
import { NameSearch } from './name-search.js';
import { postcodeUnits } from './postcode-units.js';
import { tooVagueForPickup } from './precision.js';
import { streetIndex } from './streets.js';
import { normaliseText, tokens } from './normalise-text.js';
import { isIntentWord, parseQueryText, type FoundPostcode, type QueryText } from './query-text.js';
import type { GeocodeResult, GeoLocation, Geocoder, PlaceSuggestion, Precision } from './types.js';

/**
 * The stated confidence line: an answer below it is not given as an answer but offered, with
 * others, as a suggestion (a 422 the client can show the passenger). Exact names and codes score
 * 0.9-1; a typo in a long name about 0.8; an answer that leaves a distinctive word of the query
 * unexplained, or lies outside a town the query names, falls well below.
 */
export const MIN_CONFIDENCE = 0.7;
const MAX_SUGGESTIONS = 5;
const STREET_CONFIDENCE = 0.9;
const UNQUALIFIED_STREET_CONFIDENCE = 0.55;
const STREET_ENDING =
  /\b(street|st|road|rd|lane|avenue|ave|row|square|sq|place|crescent|terrace|walk|way|parade|hill|gate)\b/;
/** A street this close to the town answer is in that town. */
const STREET_IN_TOWN_M = 12_000;

const ENTRY_PRECISION: Record<GazetteerEntry['kind'], Precision> = {
  station: 'point',
  airport: 'point',
  poi: 'point',
  street: 'street',
  place: 'town_centre',
};

const OUTCODE = /^[A-Z]{1,2}\d[A-Z\d]?$/;
const SECTOR = /^([A-Z]{1,2}\d[A-Z\d]?) (\d)$/;
const MAX_QUERY_LENGTH = 300;
/** Alderney (GY9) and Sark (GY10) are their own islands, not Guernsey: no point of ours is on them. */
const ISLAND_POSTCODE_CONFIDENCE = 0.75;
/** A postcode sector's middle this far from the town the address names contradicts it. */
const AREA_TOWN_AGREEMENT_M = 15_000;
const UNPLACED_POSTCODE_DISTRICTS = new Set(['GY9', 'GY10']);
const POSTCODE_AREA_COUNTRY: Partial<Record<string, string>> = {
  BT: 'Northern Ireland',
  JE: 'Jersey',
  GY: 'Guernsey',
  IM: 'Isle of Man',
};
// A trailing outward code is trusted over the town named before it unless they are this far apart.
const OUTCODE_TOWN_AGREEMENT_M = 40_000;

function fromEntry(entry: GazetteerEntry, confidence: number): GeoLocation {
  return {
    label: entry.label,
    kind: entry.kind,
    lat: entry.lat,
    lon: entry.lon,
    postcodeDistrict: entry.postcodeDistrict,
    council: entry.council,
    region: entry.region,
    country: entry.country,
    inUk: entry.inUk,
    ...(entry.iata ? { iata: entry.iata } : {}),
    ...(entry.crs ? { crs: entry.crs } : {}),
    confidence,
    precision: ENTRY_PRECISION[entry.kind],
    town: entry.town ?? entry.council,
  };
}

function fromPostcodeArea(
  area: PostcodeArea,
  label: string,
  kind: GeoLocation['kind'],
  confidence: number,
): GeoLocation {
  const where = area.council ?? area.region ?? area.country;
  return {
    label: where ? `${label}, ${where}` : label,
    kind,
    lat: area.lat,
    lon: area.lon,
    postcodeDistrict: area.district,
    council: area.council,
    region: area.region,
    country: area.country,
    inUk: true,
    // A withdrawn outcode still locates old addresses, but it is not a live district.
    confidence: area.retired ? round2(confidence * 0.9) : confidence,
    precision: kind === 'postcode_sector' ? 'postcode_sector' : 'postcode_district',
    town: area.council,
  };
}

export class EmbeddedGeocoder implements Geocoder {
  /** Uses the shared gazetteer (loaded on first use or by preloadGazetteer) unless one is given. */
  constructor(private readonly gazetteer?: Gazetteer | Promise<Gazetteer>) {}

  async resolve(query: string): Promise<GeocodeResult> {
    return resolveWith(await (this.gazetteer ?? getGazetteer()), query);
  }

  async geocode(query: string): Promise<GeoLocation | null> {
    return (await this.resolve(query)).place;
  }
}

/** The answer if it clears the confidence line, otherwise up to five suggestions. */
export function resolveWith(gazetteer: Gazetteer, query: string): GeocodeResult {
  const names = new NameSearch(gazetteer);
  const best = geocodeWith(gazetteer, query, names);
  const raw = query.slice(0, MAX_QUERY_LENGTH).trim();
  const text = raw === '' ? null : parseQueryText(raw);
  const numbered = text ? numberedStreet(text, best) : null;
  // A house number and street we can only place at the town or the postcode district is asked
  // for its postcode, never answered with the town centre ("10 Downing Street, London").
  const vague = !best || tooVagueForPickup(best.precision);
  if (best && best.confidence >= MIN_CONFIDENCE && !(numbered && vague)) return { status: 'found', place: best };
  const suggestions: PlaceSuggestion[] = [];
  const seen = new Set<string>();
  const offer = (s: PlaceSuggestion) => {
    if (suggestions.length >= MAX_SUGGESTIONS || seen.has(s.label)) return;
    // Asked for a street, the town's centre is the answer refused, not a suggestion.
    if (numbered && tooVagueForPickup(s.precision)) return;
    // In the town named, only what shares the street's name ("Deansgate" station) is worth offering.
    if (numbered?.town && !tokens(normaliseText(s.label)).some((w) => numbered.streetWords.has(w))) return;
    seen.add(s.label);
    suggestions.push(s);
  };
  if (numbered) {
    // The streets of that name we know, with the house number kept, when no town was named:
    // "10 Downing Street" -> "10 Downing Street, Cambridge". A town named is taken at its word.
    for (const street of numbered.town ? [] : numbered.namesakes) {
      offer({ label: `${numbered.number} ${street.label}`, kind: 'street', town: street.town, precision: 'street' });
    }
  }
  // A postcode outside Great Britain says which country the place is in: nothing elsewhere is offered.
  const postcodeCountry = text?.postcode ? POSTCODE_AREA_COUNTRY[text.postcode.area] : undefined;
  if (text && postcodeCountry === 'Isle of Man') {
    // An IM postcode we could not place: the island's towns we hold are the question to ask.
    for (const entry of names.suggest({ ...text, parts: ['isle of man'] }, MAX_SUGGESTIONS * 2)) {
      if (entry.country !== postcodeCountry) continue;
      const place = fromEntry(entry, 0);
      offer({ label: place.label, kind: place.kind, town: place.town, precision: place.precision });
    }
  }
  if (text && !(text.postcode && UNPLACED_POSTCODE_DISTRICTS.has(text.postcode.outcode))) {
    // The doubtful answer is among these, ranked with the rest (after places in a town the query
    // names). A numbered street's own name is looked for too ("1 Deansgate, Manchester": the station).
    const asked = numbered ? [{ ...text, parts: [numbered.typed, ...text.parts] }] : [];
    for (const entry of [...asked, text].flatMap((t) => names.suggest(t, MAX_SUGGESTIONS * 2))) {
      if (postcodeCountry && entry.country !== postcodeCountry) continue;
      const place = fromEntry(entry, 0);
      offer({ label: place.label, kind: place.kind, town: place.town, precision: place.precision });
    }
  }
  return {
    status: best ? 'uncertain' : 'not_found',
    place: null,
    suggestions,
    ...(numbered ? { ask: { street: numbered.street, town: numbered.town } } : {}),
  };
}

/** "10 downing street", "flat 2 221b baker st": an address line that starts with a house number. */
const NUMBERED_LINE = /^((?:flat \w+ )?\d+[a-z]?(?:-\d+[a-z]?)?) ([a-z][a-z' -]*)$/;
/** Room is left for a station or venue of the name ("Baker Street" station). */
const NAMESAKES = MAX_SUGGESTIONS - 1;

interface NumberedStreet {
  /** As it is written on a door: "10", "221B", "Flat 2, 10". */
  number: string;
  /** The street's name as published when we know one of that name, else as typed: "Downing Street". */
  street: string;
  /** The town the doubtful answer is in, when the query named it: "London". */
  town: string | null;
  namesakes: { label: string; town: string | null }[];
  /** The street's words as typed, normalised: "deansgate". */
  typed: string;
  /** The street's distinctive words ("oxford" of Oxford Road). */
  streetWords: Set<string>;
}

/**
 * The house number and street of a query, when it has them and we hold no street of that name in
 * the town it names (a street we do hold is answered as the street before this is asked).
 */
function numberedStreet(text: QueryText, best: GeoLocation | null): NumberedStreet | null {
  const setAside = text.addressLines ?? [];
  const line = [...setAside, text.parts[0] ?? ''].find((l) => NUMBERED_LINE.test(l));
  const match = line ? NUMBERED_LINE.exec(line) : null;
  if (!line || !match) return null;
  let streetWords = match[2] ?? '';
  // The town is named when the address line was set aside from the rest ("10 Downing Street,
  // London"), or said at the end of the same line ("1 deansgate manchester").
  const answerTown = best && best.kind !== 'street' ? best.town : null;
  const townKey = answerTown ? normaliseText(answerTown) : '';
  let town = setAside.includes(line) && text.parts.length > 0 ? answerTown : null;
  if (townKey && streetWords.endsWith(` ${townKey}`)) {
    streetWords = streetWords.slice(0, -townKey.length - 1);
    town = answerTown;
  }
  if (streetWords === '' || !/[a-z]{3}/.test(streetWords)) return null;
  const known = streetIndex()?.namesakes(streetWords, NAMESAKES);
  const flat = setAside.find((l) => /^(flat|apartment|apt|unit) \w+$/.test(l));
  const number = `${flat ? `${flat} ` : ''}${match[1] ?? ''}`
    .replace(
      /^(flat|apartment|apt|unit) (\w+) /,
      (_, word: string, no: string) => `${word[0]!.toUpperCase()}${word.slice(1)} ${no.toUpperCase()}, `,
    )
    .replace(/(\d)([a-z])/g, (_, d: string, l: string) => `${d}${l.toUpperCase()}`);
  return {
    number,
    street: known?.name ?? streetWords.replace(/\b[a-z]/g, (c) => c.toUpperCase()),
    town,
    namesakes: known?.places.map((p) => ({ label: p.label, town: p.town ?? null })) ?? [],
    typed: streetWords,
    streetWords: new Set(tokens(streetWords).filter((w) => !STREET_ENDING.test(w))),
  };
}

/** Synchronous core, exported for the benchmark. */
export function geocodeWith(
  gazetteer: Gazetteer,
  query: string,
  names = new NameSearch(gazetteer),
): GeoLocation | null {
  const raw = query.slice(0, MAX_QUERY_LENGTH).trim();
  if (raw === '') return null;
  const text = parseQueryText(raw);
  const answer = geocodeText(gazetteer, text, names);
  // A Northern Ireland or Crown dependency postcode says which country the place is in: an answer
  // found by name elsewhere ("..., Jurby IM7 3BD" matching a name in Great Britain) is a namesake.
  const required = text.postcode ? POSTCODE_AREA_COUNTRY[text.postcode.area] : undefined;
  return answer && required && answer.country !== required ? null : answer;
}

function geocodeText(gazetteer: Gazetteer, text: QueryText, names: NameSearch): GeoLocation | null {
  if (text.postcode) {
    const located = locatePostcode(gazetteer, text.postcode);
    // A Crown dependency postcode only names its island: a town the address names on that island
    // ("Ramsey, IM8 ...") is nearer the door than the island's main town.
    const island = CROWN_DEPENDENCIES.find((c) => c.postcodeArea === text.postcode?.area);
    if (island && text.parts.length > 0) {
      const named = names.search({ ...text, parts: [...text.parts, normaliseText(island.country)] });
      if (named && named.confidence >= MIN_CONFIDENCE && named.entry.country === island.country) {
        return {
          ...fromEntry(named.entry, ISLAND_POSTCODE_CONFIDENCE),
          label: `${text.postcode.postcode}, ${named.entry.label}`,
        };
      }
    }
    // A postcode we can only place at its sector or district (Northern Ireland, a retired code)
    // must still agree with the town the address names. A rural sector's middle can be 10 km from
    // its post town, and then the sector is the better guess; farther apart, one of the two is
    // wrong (a mistyped postcode) and which is not known: asked, not answered.
    if (
      located &&
      (located.precision === 'postcode_sector' || located.precision === 'postcode_district') &&
      text.parts.length > 0
    ) {
      const named = names.search(text);
      const apart = named ? haversineMeters(named.entry.lat, named.entry.lon, located.lat, located.lon) : 0;
      if (named?.entry.kind === 'place' && named.confidence >= MIN_CONFIDENCE && apart > AREA_TOWN_AGREEMENT_M) {
        return { ...located, confidence: round2(located.confidence * 0.6) };
      }
    }
    if (located) return located;
    // A postcode of an island we hold no place for (Alderney GY9, Sark GY10): refuse rather than
    // answer with another island or a namesake in Great Britain.
    if (UNPLACED_POSTCODE_DISTRICTS.has(text.postcode.outcode)) return null;
  }
  const whole = text.parts.join(' ');
  const compact = whole.toUpperCase();

  // "M1", "SW1A", "RG12 1": a bare outward code or sector.
  if (OUTCODE.test(compact)) {
    const district = gazetteer.district(compact);
    if (district) return fromPostcodeArea(district, district.code, 'postcode_district', 1);
  }
  const sectorMatch = SECTOR.exec(compact);
  if (sectorMatch) {
    const sector = gazetteer.sector(compact) ?? gazetteer.district(sectorMatch[1] ?? '');
    if (sector)
      return fromPostcodeArea(
        sector,
        sector.code,
        sector.code.includes(' ') ? 'postcode_sector' : 'postcode_district',
        1,
      );
  }

  const code = lookupCode(gazetteer, names, text);
  if (code) return code;

  // "High Street, Bracknell RG12": a trailing outward code places it better than the town does.
  const lastWords = tokens(text.parts.at(-1) ?? '');
  const last = lastWords.at(-1)?.toUpperCase() ?? '';
  if (tokens(whole).length > 1 && OUTCODE.test(last)) {
    const district = gazetteer.district(last);
    if (district) {
      const rest = [...text.parts.slice(0, -1), lastWords.slice(0, -1).join(' ')].filter((part) => part !== '');
      const town = names.search({ ...text, parts: rest });
      const agrees =
        !town ||
        haversineMeters(town.entry.lat, town.entry.lon, district.lat, district.lon) <= OUTCODE_TOWN_AGREEMENT_M;
      return fromPostcodeArea(district, district.code, 'postcode_district', agrees ? 0.9 : 0.6);
    }
  }

  const match = names.search(text);
  // A street the query names is closer to the door than a town centre, and surer than a doubtful
  // answer: "1 Deansgate, Manchester" is Deansgate, not the middle of Manchester.
  // ("Argyle St, Glasgow" is the street; "Argyle Street station" the station.)
  const streetLike = STREET_ENDING.test(text.parts[0] ?? '') && text.intent !== 'station';
  if (
    !match ||
    match.confidence < MIN_CONFIDENCE ||
    match.entry.kind === 'place' ||
    (streetLike && match.entry.kind === 'station')
  ) {
    const street = streetIndex()?.find(gazetteer, text);
    const sameTown = (e: GazetteerEntry) =>
      !!street && haversineMeters(e.lat, e.lon, street.lat, street.lon) <= STREET_IN_TOWN_M;
    // A street found in a town of the name the query gives beats a namesake town elsewhere:
    // "28 Winchester Street, Whitchurch" is Whitchurch in Hampshire, not Shropshire.
    const streetPlacesTown = !!street?.qualified && match?.entry.kind === 'place';
    if (street && (!match || match.confidence < MIN_CONFIDENCE || sameTown(match.entry) || streetPlacesTown)) {
      // Without a town named, a street name is anywhere's ("Trafalgar Square" is in Scarborough too).
      return fromEntry(street, street.qualified ? STREET_CONFIDENCE : UNQUALIFIED_STREET_CONFIDENCE);
    }
  }
  if (!match) return null;
  // "Chester Road" alone is a street in dozens of towns, even if a suburb of Birmingham is named
  // after one of them: without a town it is asked, like any street named without its town.
  const bare = text.parts.length === 1 && match.entry.kind === 'place' && STREET_ENDING.test(text.parts[0] ?? '');
  if (bare && (streetIndex()?.placesNamed(text.parts[0] ?? '') ?? 0) > 1) {
    return fromEntry(match.entry, Math.min(match.confidence, UNQUALIFIED_STREET_CONFIDENCE));
  }
  // A postcode we could not place (a typo'd district) lowers trust in the rest of the address.
  return fromEntry(match.entry, text.postcode ? round2(match.confidence * 0.8) : match.confidence);
}

function locatePostcode(gazetteer: Gazetteer, postcode: FoundPostcode): GeoLocation | null {
  const sector = gazetteer.sector(postcode.sector);
  const district = gazetteer.district(postcode.outcode);
  // The unit's own point (OS Code-Point Open): typically within 100 m of every door it serves.
  const unit = postcodeUnits()?.find(postcode.postcode);
  if (unit) {
    const area = sector ?? district;
    const where = area?.council ?? area?.region ?? area?.country;
    return {
      label: where ? `${unit.postcode}, ${where}` : unit.postcode,
      kind: 'postcode',
      lat: unit.lat,
      lon: unit.lon,
      postcodeDistrict: postcode.outcode,
      council: area?.council ?? null,
      region: area?.region ?? null,
      country: area?.country ?? null,
      inUk: true,
      confidence: 1,
      precision: 'postcode',
      town: area?.council ?? null,
    };
  }
  // Not in the data (retired, newer than the data, Northern Ireland): the sector, else the district.
  if (sector) return fromPostcodeArea(sector, postcode.postcode, 'postcode_sector', 1);
  if (district) return fromPostcodeArea(district, postcode.postcode, 'postcode_district', 0.9);
  // Crown dependency postcodes have no coordinates in the source; use the island's main town.
  if (UNPLACED_POSTCODE_DISTRICTS.has(postcode.outcode)) return null;
  const island = CROWN_DEPENDENCIES.find((c) => c.postcodeArea === postcode.area);
  // The Isle of Man's main town is no answer for a postcode elsewhere on it ("Jurby IM7").
  if (island?.townDistricts && !island.townDistricts.includes(postcode.outcode)) return null;
  if (island) {
    return {
      label: `${postcode.postcode}, ${island.town}, ${island.country}`,
      kind: 'postcode_district',
      precision: 'town_centre',
      town: island.town,
      lat: island.lat,
      lon: island.lon,
      postcodeDistrict: postcode.outcode,
      council: null,
      region: null,
      country: island.country,
      inUk: false,
      // The postcode names the island for certain; its precision says the point is only its main town.
      confidence: ISLAND_POSTCODE_CONFIDENCE,
    };
  }
  return null;
}

/**
 * Three letters are an IATA airport code or a CRS station code, four starting "EG" a UK ICAO
 * code. When both kinds exist (MAN is Manchester Airport and Manchester Piccadilly), words such
 * as "airport"/"station" decide; otherwise a major passenger airport wins, because travellers
 * know airport codes better than station codes, and any other collision goes to the station.
 * A lower-case word that is also a town ("ely", "ayr", "rye") is read as the town.
 */
function lookupCode(gazetteer: Gazetteer, names: NameSearch, text: QueryText): GeoLocation | null {
  if (text.parts.length !== 1) return null;
  const words = text.rawWords.filter((w) => !isIntentWord(w));
  const word = words[0];
  if (words.length !== 1 || word === undefined || !/^[a-z]{3,4}$/.test(word)) return null;
  if (word.length === 4) {
    const airport = word.startsWith('eg') ? gazetteer.airportByCode(word) : undefined;
    return airport ? fromEntry(airport, 1) : null;
  }
  const airport = gazetteer.airportByCode(word);
  const station = gazetteer.stationByCrs(word);
  if (!airport && !station) return null;
  if (!text.allCaps && gazetteer.hasName(word) && names.search(text)) return null;
  // Intent from the words as typed: "stn" is Stansted's code, not an abbreviation of "station".
  const intent = text.rawWords.length > 1 ? text.intent : null;
  let chosen: GazetteerEntry | undefined;
  if (intent === 'airport') chosen = airport ?? station;
  else if (intent === 'station') chosen = station ?? airport;
  else chosen = airport && isMajorAirport(word.toUpperCase()) ? airport : (station ?? airport);
  return chosen ? fromEntry(chosen, 1) : null;
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}
