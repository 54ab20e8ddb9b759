// Named streets with a point per postcode district (data/gazetteer/streets.csv, see its licence in
// data/gazetteer/LICENCES.md), so "1 Deansgate, Manchester" lands on Deansgate rather than the
// city centre. Kept out of gazetteer.json and loaded on first need (or in the background after
// the gazetteer at API start): most quotes name stations, airports and postcodes.
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { parseCsvRows } from './csv.js';
import type { Gazetteer } from './gazetteer.js';
import type { GazetteerEntry } from './gazetteer-entry.js';
import { haversineMeters } from './haversine.js';
import { normaliseText, tokens } from './normalise-text.js';
import type { QueryText } from './query-text.js';

export const DEFAULT_STREETS_PATH = new URL('../../data/gazetteer/streets.csv', import.meta.url);

interface StreetRow {
  name: string;
  district: string;
  lat: number;
  lon: number;
  town: string;
  townKey: string;
}

/** How far a street may lie from a named suburb or village ("Rusholme") and still be in it. */
const NEAR_LOCALITY_M = 4_000;
/** ... from a named town's centre (Tetbury, Holmfirth), and from a city's (Manchester to Didsbury is 7 km). */
const NEAR_TOWN_M = 6_000;
const NEAR_CITY_M = 10_000;
function reachOf(type: string | undefined): number {
  return type === 'City' ? NEAR_CITY_M : type === 'Town' ? NEAR_TOWN_M : NEAR_LOCALITY_M;
}
/** "off Thurcaston Road", "junction of Bold Street": a street the address says it is beside. */
const CROSS_STREET = /^(off|near|by|opposite|junction of|corner of) (.+)$/;
const CROSS_STREET_M = 1_500;
/** A place this much less prominent than another of its name is not what the name means on its own. */
const NAMESAKE_MARGIN = 15;
/** Rows of one road are at most this far from the next row along it (one per postcode district). */
const ROAD_LINK_M = 4_500;
const OUTCODE = /^[A-Z]{1,2}\d[A-Z\d]?$/;
/** Two rows of one street name closer than this are one street (a long road over two districts). */
const SAME_STREET_M = 2_000;
const STREET_ABBREVIATIONS: Record<string, string> = {
  st: 'street',
  rd: 'road',
  ave: 'avenue',
  ln: 'lane',
  sq: 'square',
  cres: 'crescent',
  pl: 'place',
  dr: 'drive',
  tce: 'terrace',
};
const HOUSE_NUMBER = /^(flat \d+[a-z]? )?\d+[a-z]?(-\d+[a-z]?)? /;

/** Lines parsed between yields when loading in the background: about 10 ms of work each. */
const SLICE_LINES = 2_000;

function addRows(byName: Map<string, StreetRow[]>, header: string[], rows: string[][]): void {
  const col = (name: string) => header.indexOf(name);
  const [n, d, la, lo, t] = [col('name'), col('district'), col('lat'), col('lon'), col('town')];
  for (const r of rows) {
    const name = r[n] ?? '';
    const key = normaliseText(name);
    if (key === '') continue;
    const town = r[t] ?? '';
    const row = {
      name,
      district: r[d] ?? '',
      lat: Number(r[la]),
      lon: Number(r[lo]),
      town,
      townKey: normaliseText(town),
    };
    const list = byName.get(key);
    if (list) list.push(row);
    else byName.set(key, [row]);
  }
}

export class StreetIndex {
  private constructor(private readonly byName: Map<string, StreetRow[]>) {}

  static fromCsv(text: string): StreetIndex {
    const rows = parseCsvRows(text);
    const byName = new Map<string, StreetRow[]>();
    addRows(byName, rows.shift() ?? [], rows);
    return new StreetIndex(byName);
  }

  /** The same index built a slice of lines at a time, so the API's event loop is never held long. */
  static async fromCsvInSlices(text: string): Promise<StreetIndex> {
    // Street names hold no line breaks, so every line is one row.
    const lines = text.split('\n');
    const header = parseCsvRows(lines[0] ?? '')[0] ?? [];
    const byName = new Map<string, StreetRow[]>();
    for (let i = 1; i < lines.length; i += SLICE_LINES) {
      addRows(byName, header, parseCsvRows(lines.slice(i, i + SLICE_LINES).join('\n')));
      await yieldToEventLoop();
    }
    return new StreetIndex(byName);
  }

  get size(): number {
    return this.byName.size;
  }

  /** How many places have a street of this name ("Chester Road": many). */
  placesNamed(name: string): number {
    return new Set((this.rowsFor(tokens(name)) ?? []).map((row) => row.townKey || row.district)).size;
  }

  /**
   * The street a query names, in the town it names: "1 Deansgate, Manchester", "Princes Street
   * Edinburgh", "Bold Street, L1". Without a town, only a street name that exists once (or in one
   * place) answers; "High Street" alone is every town's.
   */
  find(gazetteer: Gazetteer, text: QueryText): (GazetteerEntry & { qualified: boolean }) | null {
    // "1 Deansgate, Manchester": the address line set aside for its house number holds the street,
    // and everything after it says where.
    for (const line of text.addressLines ?? []) {
      const words = tokens(line.replace(HOUSE_NUMBER, ''));
      if (words.length === 0 || /^\d/.test(words[0] ?? '')) continue;
      const rows = this.rowsFor(words);
      const chosen = rows ? this.choose(gazetteer, rows, text.parts) : null;
      if (chosen) return chosen;
    }
    const parts = text.parts;
    const first = (parts[0] ?? '').replace(HOUSE_NUMBER, '');
    const words = tokens(first);
    // The street is the leading words; a town may follow in the same part or the next ones.
    for (let k = words.length; k >= 1; k--) {
      const rows = this.rowsFor(words.slice(0, k));
      if (!rows) continue;
      const qualifiers = [words.slice(k).join(' '), ...parts.slice(1)].filter((q) => q !== '');
      const chosen = this.choose(gazetteer, rows, qualifiers);
      if (chosen) return chosen;
    }
    return null;
  }

  /**
   * Streets of the name an address begins with, one per town, for a passenger to choose from when
   * the town they named (or none) does not settle it: "downing st london" -> Downing Street in
   * Cambridge, London, .... The street's name as published, and the rows found.
   */
  namesakes(line: string, limit: number): { name: string; places: (GazetteerEntry & { kind: 'street' })[] } | null {
    const words = tokens(line.replace(HOUSE_NUMBER, ''));
    for (let k = words.length; k >= 1; k--) {
      const rows = this.rowsFor(words.slice(0, k));
      if (!rows || rows.length === 0) continue;
      const seen = new Set<string>();
      const places: (GazetteerEntry & { kind: 'street' })[] = [];
      for (const row of rows) {
        const where = row.townKey || row.district;
        if (seen.has(where) || places.length >= limit) continue;
        seen.add(where);
        places.push({
          kind: 'street',
          // Without the district: sent back as a query, "Downing Street, Cambridge" is the street,
          // where a trailing "CB2" would be answered as the whole district.
          label: `${row.name}, ${row.town || row.district}`,
          lat: row.lat,
          lon: row.lon,
          postcodeDistrict: row.district || null,
          council: null,
          region: null,
          country: null,
          inUk: true,
          town: row.town || null,
          context: row.townKey,
        });
      }
      return { name: rows[0]!.name, places };
    }
    return null;
  }

  /** "West St" is West Street: abbreviations people type for the street's last word. */
  private rowsFor(words: string[]): StreetRow[] | undefined {
    const exact = this.byName.get(words.join(' '));
    if (exact) return exact;
    const full = STREET_ABBREVIATIONS[words.at(-1) ?? ''];
    return full ? this.byName.get([...words.slice(0, -1), full].join(' ')) : undefined;
  }

  private choose(
    gazetteer: Gazetteer,
    rows: StreetRow[],
    qualifiers: string[],
  ): (GazetteerEntry & { qualified: boolean }) | null {
    let candidates = rows;
    if (qualifiers.length > 0) {
      // Every place the passenger names constrains the street ("Wilmslow Road, Rusholme,
      // Manchester" is not the Wilmslow Road in Wilmslow, 12 km from Rusholme and 16 from
      // Manchester); words that name no place ("Greater Manchester", "flat 2") neither help nor hurt.
      candidates = rows.filter((row) => {
        const verdicts = qualifiers.map((q) => this.inPlace(gazetteer, row, q));
        return verdicts.includes('yes') && !verdicts.includes('no');
      });
      if (candidates.length === 0) return null;
    }
    if (candidates.length === 0) return null;
    // Several rows of one name: one street if they are all close together. Spread out, they are
    // a long road through the town the query names ("Mansfield Road, Nottingham" runs through
    // NG1 to NG5): its part nearest that town's centre. With no town named they are ambiguous.
    // Rows labelled with the very town named are that town's street ("Station Road, Filton" is
    // the one in Filton, not Bristol's 5 km away).
    const labelled = candidates.filter((c) => c.townKey !== '' && qualifiers.includes(c.townKey));
    if (labelled.length > 0) candidates = labelled;
    const spread = candidates.some(
      (c) => haversineMeters(c.lat, c.lon, candidates[0]!.lat, candidates[0]!.lon) > SAME_STREET_M,
    );
    if (spread) {
      const centre = qualifiers.map((q) => this.townCentre(gazetteer, q)).find((c) => c !== null);
      if (!centre) return null;
      const nearest = candidates.reduce((a, b) =>
        haversineMeters(a.lat, a.lon, centre.lat, centre.lon) <= haversineMeters(b.lat, b.lon, centre.lat, centre.lon)
          ? a
          : b,
      );
      // One road is a chain of rows each near the next; rows of that name the chain does not
      // reach are other streets ("Church Road, Leicester" is several): which one is meant is
      // unknown, so no street answers (the town does, at its precision).
      const road = [nearest];
      for (let grown = true; grown;) {
        grown = false;
        for (const c of candidates) {
          if (road.includes(c) || !road.some((r) => haversineMeters(c.lat, c.lon, r.lat, r.lon) <= ROAD_LINK_M))
            continue;
          road.push(c);
          grown = true;
        }
      }
      if (road.length < candidates.length) return null;
      candidates = candidates.filter((c) => haversineMeters(c.lat, c.lon, nearest.lat, nearest.lon) <= SAME_STREET_M);
    }
    const first = candidates[0];
    if (!first) return null;
    const lat = candidates.reduce((s, c) => s + c.lat, 0) / candidates.length;
    const lon = candidates.reduce((s, c) => s + c.lon, 0) / candidates.length;
    const district = gazetteer.district(first.district);
    const town = first.town || district?.council || null;
    return {
      kind: 'street',
      label: [first.name, town, first.district].filter(Boolean).join(', '),
      lat,
      lon,
      postcodeDistrict: first.district || null,
      council: district?.council ?? null,
      region: district?.region ?? null,
      country: district?.country ?? null,
      inUk: true,
      town,
      context: [first.townKey, normaliseText(district?.council ?? ''), normaliseText(district?.region ?? '')]
        .filter(Boolean)
        .join(' '),
      qualified: qualifiers.length > 0,
    };
  }

  private townCentre(gazetteer: Gazetteer, qualifier: string): { lat: number; lon: number } | null {
    if (!gazetteer.isTownName(qualifier)) return null;
    let best: { lat: number; lon: number } | null = null;
    let score = -Infinity;
    for (const ref of gazetteer.exact(qualifier)) {
      if (ref.entry.kind === 'place' && ref.score > score) {
        score = ref.score;
        best = ref.entry;
      }
    }
    return best;
  }

  /**
   * Whether a qualifier puts the street in a place: its district ("M3"), its town, a town it lies
   * within reach of, or a locality (suburb, village) it passes close to. 'no' when the qualifier
   * names a place the street is not in; 'unknown' when it names no place we know.
   */
  private inPlace(gazetteer: Gazetteer, row: StreetRow, qualifier: string): 'yes' | 'no' | 'unknown' {
    if (qualifier.toUpperCase() === row.district) return 'yes';
    // "Church Road, off Thurcaston Road": another street named beside it must be near it.
    const beside = CROSS_STREET.exec(qualifier);
    const crossRows = beside?.[2] ? this.rowsFor(tokens(beside[2])) : undefined;
    if (crossRows)
      return crossRows.some((c) => haversineMeters(c.lat, c.lon, row.lat, row.lon) <= CROSS_STREET_M) ? 'yes' : 'no';
    if (OUTCODE.test(qualifier.toUpperCase())) return gazetteer.district(qualifier) ? 'no' : 'unknown';
    // A named place: the street must lie within its reach, however the row is labelled ("Malmesbury
    // Road" in Malmesbury is not the one in Tetbury, 8 km away; Coleshill Street in Sutton
    // Coldfield is not the one in central Birmingham).
    // Only places of that name about as prominent as the most prominent one are what the name can
    // mean: "Manchester Road, Bradford" is not in the suburb of Manchester called Bradford, but
    // "Winchester Street, Whitchurch" may be in either of the two towns called Whitchurch.
    const places = gazetteer.exact(qualifier).filter((ref) => ref.entry.kind === 'place');
    if (places.length > 0) {
      const top = Math.max(...places.map((ref) => ref.score));
      const near = places.some(
        (ref) =>
          ref.score >= top - NAMESAKE_MARGIN &&
          haversineMeters(ref.entry.lat, ref.entry.lon, row.lat, row.lon) <= reachOf(ref.entry.placeType),
      );
      return near ? 'yes' : 'no';
    }
    // Otherwise a council ("Trafford") or the town the row is labelled with.
    if (row.townKey !== '' && row.townKey === qualifier) return 'yes';
    const district = gazetteer.district(row.district);
    if (district?.council && normaliseText(district.council).split(' ').includes(qualifier)) return 'yes';
    return 'unknown';
  }
}

let index: StreetIndex | null | undefined;
let loading: Promise<StreetIndex | null> | undefined;

/** The street index, read synchronously on first use if the background load has not finished. */
export function streetIndex(path: URL = DEFAULT_STREETS_PATH): StreetIndex | null {
  if (index === undefined) index = existsSync(path) ? StreetIndex.fromCsv(readFileSync(path, 'utf8')) : null;
  return index;
}

/** Loads the street index off the request path (API start), so the first street query does not wait. */
export function preloadStreets(path: URL = DEFAULT_STREETS_PATH): Promise<StreetIndex | null> {
  loading ??= (async () => {
    if (!existsSync(path)) return (index = null);
    const built = await StreetIndex.fromCsvInSlices(await readFile(path, 'utf8'));
    // A query that could not wait may have read the file synchronously meanwhile: keep that one.
    index ??= built;
    return index;
  })();
  return loading;
}
