// Loads data/gazetteer/gazetteer.json (built by scripts/build-gazetteer.ts) and indexes it for
// exact names, codes, postcodes and fuzzy names. Loaded once per process and shared.
//
// Entries are materialised from the file's columns only when a query returns them: building
// 45k objects up front doubled the boot-time load for rows most processes never touch.
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import {
  COUNCIL_ALIAS_SCORE,
  airportAliases,
  councilAliasKeys,
  airportScore,
  placeAliases,
  placeScore,
  poiAliases,
  stationAliases,
  namedTerminalAliases,
  terminalAliases,
  withAbbreviations,
} from './alias-rules.js';
import { AliasTable } from './alias-table.js';
import { AIRPORT_TERMINALS, terminalWords } from './airport-terminals.js';
import { CROWN_DEPENDENCIES } from './crown-dependencies.js';
import { osaDistance } from './edit-distance.js';
import { GAZETTEER_FORMAT, PLACE_TYPES, type GazetteerFile, type PlaceType } from './gazetteer-file.js';
import type { AliasRef, GazetteerEntry } from './gazetteer-entry.js';
import { normaliseText } from './normalise-text.js';
import { TrigramIndex, trigramKeys } from './trigram-index.js';
import type { Country } from './types.js';

export const DEFAULT_GAZETTEER_PATH = new URL('../../data/gazetteer/gazetteer.json', import.meta.url);

const COUNTRIES: readonly Country[] = [
  'England',
  'Scotland',
  'Wales',
  'Northern Ireland',
  'Isle of Man',
  'Jersey',
  'Guernsey',
];

const GREAT_BRITAIN: ReadonlySet<Country> = new Set(['England', 'Scotland', 'Wales']);

/** Jersey, Guernsey and the Isle of Man: not the UK. */
export function isCrownDependency(country: Country | null): boolean {
  return country === 'Jersey' || country === 'Guernsey' || country === 'Isle of Man';
}

function asCountry(value: string | null): Country | null {
  return value !== null && (COUNTRIES as readonly string[]).includes(value) ? (value as Country) : null;
}

/** A postcode district or sector centroid with the admin areas found for it at build time. */
export interface PostcodeArea {
  code: string;
  district: string;
  lat: number;
  lon: number;
  retired: boolean;
  council: string | null;
  region: string | null;
  country: Country | null;
}

export interface FuzzyHit {
  ref: AliasRef;
  key: string;
  distance: number;
}

// Candidates ranked by edit distance after the trigram prefilter. Generous enough that a typo
// in a very common name ("Newport", "Stoke") still finds the big one among its namesakes.
const FUZZY_CANDIDATES = 60;
const FUZZY_MIN_DICE = 0.3;
// As strong as a city: an island's own name must beat any same-named GB hamlet.
const CROWN_DEPENDENCY_SCORE = 85;
// Rows indexed between pauses of the async loader (~10-20 ms of work each).
const INDEX_CHUNK = 4000;

export class Gazetteer {
  private readonly aliases = new AliasTable();
  private trigrams: TrigramIndex | undefined;
  /** Every word of every name, to tell a typo from a word that is simply in another name. */
  private readonly words = new Set<string>();
  private readonly entries: Array<GazetteerEntry | undefined> = [];
  private readonly airportsByIata = new Map<string, number>();
  private readonly airportsByIcao = new Map<string, number>();
  private readonly stationsByCrs = new Map<string, number>();
  private readonly districtIndex = new Map<string, number>();
  private readonly sectorIndex = new Map<string, number>();
  /** Names of cities, towns and suburbs: an airport's bare name must not shadow them. */
  private readonly townKeys = new Set<string>();
  private readonly normalisedStrings: string[];
  private readonly stationBase: number;
  private readonly airportBase: number;
  private readonly poiBase: number;
  private readonly syntheticBase: number;
  /** Entries with no row of their own: Heathrow terminals and the Crown dependencies. */
  private readonly synthetic: GazetteerEntry[] = [];

  private constructor(private readonly file: GazetteerFile) {
    this.normalisedStrings = file.strings.map(normaliseText);
    file.districts.code.forEach((code, i) => this.districtIndex.set(code, i));
    file.sectors.code.forEach((code, i) => this.sectorIndex.set(code, i));

    const p = file.places;
    const s = file.stations;
    const a = file.airports;
    this.stationBase = p.name.length;
    this.airportBase = this.stationBase + s.name.length;
    this.poiBase = this.airportBase + a.name.length;
    this.syntheticBase = this.poiBase + (file.pois?.name.length ?? 0);
  }

  /**
   * Builds the name indexes, pausing (yield) every few thousand rows so the async loader can let
   * the event loop serve requests while the API boots.
   */
  private *index(): Generator<void> {
    const file = this.file;
    const p = file.places;
    const s = file.stations;
    const a = file.airports;
    const councilSeat = new Map<number, { id: number; score: number }>();
    for (let i = 0; i < p.name.length; i++) {
      const nameKey = normaliseText(p.name[i] ?? '');
      const altKey = p.alt[i] ? normaliseText(p.alt[i] ?? '') : '';
      const type = this.placeType(i);
      if (type === 'City' || type === 'Town' || type === 'Suburban Area') {
        this.townKeys.add(nameKey);
        if (altKey) this.townKeys.add(altKey);
      }
      const score = placeScore(nameKey, type, p.postcodesNearby[i] ?? 0, this.key(p.council[i]));
      const add = (k: string, sc: number, derived: boolean): void => this.aliases.add(k, i, sc, derived);
      placeAliases(altKey ? [nameKey, altKey] : [nameKey], type, score, add);
      const council = p.council[i] ?? -1;
      const seat = councilSeat.get(council);
      if (council >= 0 && (!seat || score > seat.score)) councilSeat.set(council, { id: i, score });
      if (i % INDEX_CHUNK === INDEX_CHUNK - 1) yield;
    }
    for (const [council, seat] of councilSeat) {
      for (const k of councilAliasKeys(file.strings[council] ?? ''))
        this.aliases.add(k, seat.id, COUNCIL_ALIAS_SCORE, true);
    }

    for (let i = 0; i < s.name.length; i++) {
      const id = this.stationBase + i;
      const crs = s.crs[i] ?? '';
      if (crs) this.stationsByCrs.set(crs, id);
      for (const alias of stationAliases(s.name[i] ?? '', crs)) {
        for (const k of withAbbreviations(alias.key))
          this.aliases.add(k, id, alias.score, alias.derived || k !== alias.key);
      }
    }

    const isTownName = (k: string): boolean => this.townKeys.has(k);
    for (let i = 0; i < a.name.length; i++) {
      const id = this.airportBase + i;
      const iata = a.iata[i] ?? '';
      const name = a.name[i] ?? '';
      if (iata) this.airportsByIata.set(iata, id);
      if (a.icao[i]) this.airportsByIcao.set(a.icao[i] ?? '', id);
      const score = airportScore(iata, name);
      for (const alias of airportAliases(name, a.city[i] ?? '', score, isTownName))
        this.aliases.add(alias.key, id, alias.score, alias.derived);
    }

    const o = file.pois;
    for (let i = 0; i < (o?.name.length ?? 0); i++) {
      for (const alias of poiAliases(o?.name[i] ?? '', o?.aliases[i] ?? '', this.str(o?.town[i]) ?? '', isTownName)) {
        this.aliases.add(alias.key, this.poiBase + i, alias.score, alias.derived);
      }
      if (i % INDEX_CHUNK === INDEX_CHUNK - 1) yield;
    }

    // Heathrow's terminal stations become airport entries placed at the terminal itself.
    for (let i = 0; i < s.name.length; i++) {
      const iata = s.iata[i] ?? '';
      const airportId = this.airportsByIata.get(iata);
      const match = /^(\w+) Terminals? ([\d &]+?)(?: Rail)?$/.exec(s.name[i] ?? '');
      if (airportId === undefined || !match?.[1] || !match[2]) continue;
      const airport = this.entry(airportId);
      const numbers = match[2].split(/\s*&\s*/).filter(Boolean);
      const airportName = a.name[airportId - this.airportBase] ?? '';
      const terminal: GazetteerEntry = {
        ...airport,
        label: `${airportName} Terminal${numbers.length > 1 ? 's' : ''} ${numbers.join(' & ')} (${iata})`,
        lat: s.lat[i] ?? airport.lat,
        lon: s.lon[i] ?? airport.lon,
      };
      this.addSynthetic(
        terminal,
        terminalAliases(normaliseText(match[1]), iata, numbers),
        airportScore(iata, airportName),
      );
    }

    // Other airports' terminals, at their entrances (airport-terminals.ts): "Manchester Airport T2".
    for (const t of AIRPORT_TERMINALS) {
      const airportId = this.airportsByIata.get(t.iata);
      if (airportId === undefined) continue;
      const airport = this.entry(airportId);
      const airportName = a.name[airportId - this.airportBase] ?? '';
      const numbered = /^\d+$/.test(t.terminal);
      this.addSynthetic(
        { ...airport, label: `${airportName} ${terminalWords(t.terminal)} (${t.iata})`, lat: t.lat, lon: t.lon },
        numbered ? terminalAliases(t.short, t.iata, [t.terminal]) : namedTerminalAliases(t.short, t.iata, t.terminal),
        airportScore(t.iata, airportName),
      );
    }

    // The islands themselves, so "Jersey" or "Isle of Man" is not a same-named hamlet in GB.
    for (const island of CROWN_DEPENDENCIES) {
      const entry: GazetteerEntry = {
        kind: 'place',
        label: `${island.town}, ${island.country}`,
        lat: island.lat,
        lon: island.lon,
        postcodeDistrict: null,
        council: null,
        region: null,
        country: island.country,
        inUk: false,
        placeType: 'Town',
        context: normaliseText(island.country),
      };
      this.addSynthetic(entry, island.names, CROWN_DEPENDENCY_SCORE);
      // "St Helier, Jersey": the island qualifies like a town, and an answer outside it is wrong.
      for (const name of island.names) if (!name.includes(' ')) this.townKeys.add(name);
      this.townKeys.add(normaliseText(island.country));
    }
    this.townKeys.add('northern ireland');
  }

  private addSynthetic(entry: GazetteerEntry, keys: string[], score: number): void {
    const id = this.syntheticBase + this.synthetic.length;
    this.synthetic.push(entry);
    for (const k of keys) this.aliases.add(k, id, score, false);
  }

  static fromFile(file: GazetteerFile): Gazetteer {
    const gazetteer = Gazetteer.create(file);
    const steps = gazetteer.index();
    while (!steps.next().done);
    gazetteer.buildFuzzyIndex();
    return gazetteer;
  }

  static async fromFileAsync(file: GazetteerFile): Promise<Gazetteer> {
    const gazetteer = Gazetteer.create(file);
    for (const steps = gazetteer.index(); !steps.next().done;) await yieldToEventLoop();
    await yieldToEventLoop();
    gazetteer.buildFuzzyIndex();
    return gazetteer;
  }

  private static create(file: GazetteerFile): Gazetteer {
    if (file.format !== GAZETTEER_FORMAT) throw new Error(`unsupported gazetteer format ${String(file.format)}`);
    return new Gazetteer(file);
  }

  get entryCount(): number {
    return this.syntheticBase + this.synthetic.length;
  }

  /** Builds the fuzzy index; separate so a caller can yield to the event loop before it. */
  buildFuzzyIndex(): void {
    if (this.trigrams) return;
    this.trigrams = new TrigramIndex(this.aliases.keys);
    for (const key of this.aliases.keys) for (const word of key.split(' ')) this.words.add(word);
  }

  /** True when some name in the gazetteer has this word: a word typed right, not a typo. */
  isKnownWord(word: string): boolean {
    this.buildFuzzyIndex();
    return this.words.has(word);
  }

  exact(key: string): AliasRef[] {
    return this.aliases
      .hits(key)
      .map((hit) => ({ entry: this.entry(hit.entryId), score: hit.score, derived: hit.derived }));
  }

  /** True when `key` names a city, town or suburb ("london", "leeds"). */
  isTownName(key: string): boolean {
    return this.townKeys.has(key);
  }

  hasName(key: string): boolean {
    return this.aliases.has(key);
  }

  /** Aliases within `maxDistance` edits of `key`, nearest first. */
  fuzzy(key: string, maxDistance: number): FuzzyHit[] {
    this.buildFuzzyIndex();
    const hits: FuzzyHit[] = [];
    // Each edit changes at most four of a string's trigrams (a transposition), so a string within
    // maxDistance edits shares at least this many with the key.
    const minShared = Math.max(1, trigramKeys(key).length - 4 * maxDistance);
    for (const candidate of this.trigrams?.search(key, FUZZY_MIN_DICE, FUZZY_CANDIDATES, minShared) ?? []) {
      const aliasKey = this.aliases.keys[candidate.id];
      if (aliasKey === undefined) continue;
      const distance = osaDistance(key, aliasKey, maxDistance);
      if (distance > maxDistance) continue;
      for (const hit of this.aliases.hitsById(candidate.id)) {
        hits.push({
          ref: { entry: this.entry(hit.entryId), score: hit.score, derived: hit.derived },
          key: aliasKey,
          distance,
        });
      }
    }
    return hits.sort((x, y) => x.distance - y.distance);
  }

  airportByCode(code: string): GazetteerEntry | undefined {
    const upper = code.toUpperCase();
    const id = upper.length === 4 ? this.airportsByIcao.get(upper) : this.airportsByIata.get(upper);
    return id === undefined ? undefined : this.entry(id);
  }

  stationByCrs(code: string): GazetteerEntry | undefined {
    const id = this.stationsByCrs.get(code.toUpperCase());
    return id === undefined ? undefined : this.entry(id);
  }

  /** Outward code such as "SW1A". */
  district(outcode: string): PostcodeArea | undefined {
    const i = this.districtIndex.get(outcode.toUpperCase());
    if (i === undefined) return undefined;
    const d = this.file.districts;
    const code = d.code[i] ?? outcode;
    return {
      code,
      district: code,
      lat: d.lat[i] ?? 0,
      lon: d.lon[i] ?? 0,
      retired: d.retired[i] === 1,
      council: this.str(d.council[i]),
      region: this.str(d.region[i]),
      country: asCountry(this.str(d.country[i])),
    };
  }

  /** Sector such as "SW1A 2". */
  sector(sector: string): PostcodeArea | undefined {
    const i = this.sectorIndex.get(sector.toUpperCase());
    if (i === undefined) return undefined;
    const t = this.file.sectors;
    const code = t.code[i] ?? sector;
    return {
      code,
      district: this.districtCode(t.district[i]) ?? code.split(' ')[0] ?? code,
      lat: t.lat[i] ?? 0,
      lon: t.lon[i] ?? 0,
      retired: t.retired[i] === 1,
      council: this.str(t.council[i]),
      region: this.str(t.region[i]),
      country: asCountry(this.str(t.country[i])),
    };
  }

  private str(i: number | undefined): string | null {
    return i === undefined || i < 0 ? null : (this.file.strings[i] ?? null);
  }

  private key(i: number | undefined): string {
    return i === undefined || i < 0 ? '' : (this.normalisedStrings[i] ?? '');
  }

  private districtCode(i: number | undefined): string | null {
    return i === undefined || i < 0 ? null : (this.file.districts.code[i] ?? null);
  }

  private placeType(i: number): PlaceType {
    return PLACE_TYPES[this.file.places.type[i] ?? 5] ?? 'Other Settlement';
  }

  private context(...keys: string[]): string {
    return keys.filter((k) => k !== '').join(' ');
  }

  private entry(id: number): GazetteerEntry {
    if (id >= this.syntheticBase) {
      const terminal = this.synthetic[id - this.syntheticBase];
      if (!terminal) throw new RangeError(`no gazetteer entry ${id}`);
      return terminal;
    }
    let entry = this.entries[id];
    if (!entry) {
      entry =
        id >= this.poiBase
          ? this.poi(id - this.poiBase)
          : id >= this.airportBase
            ? this.airport(id - this.airportBase)
            : id >= this.stationBase
              ? this.station(id - this.stationBase)
              : this.place(id);
      this.entries[id] = entry;
    }
    return entry;
  }

  private place(i: number): GazetteerEntry {
    const p = this.file.places;
    const name = p.name[i] ?? '';
    const alt = p.alt[i] ?? '';
    const council = this.str(p.council[i]);
    const country = asCountry(this.str(p.country[i]));
    // GeoNames spells "Saint Peter Port" where the island writes "St Peter Port": one name shown.
    const display = alt && normaliseText(alt) !== normaliseText(name) ? `${name} (${alt})` : name;
    const showCouncil = council !== null && !this.key(p.council[i]).includes(normaliseText(name));
    // Outside Great Britain the country is part of the name people need: "Newcastle, Down, Northern Ireland".
    const outsideGb = country !== null && !GREAT_BRITAIN.has(country);
    const label = [display, showCouncil ? council : null, outsideGb ? country : null]
      .filter((x) => x !== null)
      .join(', ');
    return {
      kind: 'place',
      label,
      town: name,
      lat: p.lat[i] ?? 0,
      lon: p.lon[i] ?? 0,
      postcodeDistrict: this.districtCode(p.district[i]),
      council,
      region: this.str(p.region[i]),
      country,
      inUk: !isCrownDependency(country),
      placeType: this.placeType(i),
      context: this.context(
        this.key(p.council[i]),
        this.key(p.county[i]),
        this.key(p.region[i]),
        this.key(p.country[i]),
      ),
    };
  }

  private station(i: number): GazetteerEntry {
    const s = this.file.stations;
    const name = s.name[i] ?? '';
    const crs = s.crs[i] ?? '';
    // Upstream links Shoreham-by-Sea (a town station) to Shoreham airport; only stations that
    // serve an airport by name ("Manchester Airport", "Heathrow Terminal 5") carry its code.
    const iata = /Airport|Terminal/.test(name) ? (s.iata[i] ?? '') : '';
    const bracket = /\((.*?)\)/.exec(name)?.[1] ?? '';
    return {
      kind: 'station',
      label: `${name.replace(/ Rail$/, '')} (${crs}) station`,
      town: this.str(s.council[i]),
      lat: s.lat[i] ?? 0,
      lon: s.lon[i] ?? 0,
      postcodeDistrict: this.districtCode(s.district[i]),
      council: this.str(s.council[i]),
      region: this.str(s.region[i]),
      country: asCountry(this.str(s.country[i])),
      inUk: true,
      crs,
      ...(iata ? { iata } : {}),
      context: this.context(
        this.key(s.council[i]),
        this.key(s.region[i]),
        this.key(s.country[i]),
        normaliseText(bracket),
      ),
    };
  }

  private poi(i: number): GazetteerEntry {
    const o = this.file.pois;
    const name = o.name[i] ?? '';
    const town = this.str(o.town[i]);
    const showTown = town !== null && !normaliseText(name).includes(normaliseText(town));
    return {
      kind: 'poi',
      label: showTown ? `${name}, ${town}` : name,
      lat: o.lat[i] ?? 0,
      lon: o.lon[i] ?? 0,
      postcodeDistrict: this.districtCode(o.district[i]),
      council: this.str(o.council[i]),
      region: this.str(o.region[i]),
      country: asCountry(this.str(o.country[i])),
      inUk: true,
      town,
      category: this.str(o.category[i]) ?? 'place',
      context: this.context(this.key(o.council[i]), this.key(o.region[i]), this.key(o.country[i]), this.key(o.town[i])),
    };
  }

  private airport(i: number): GazetteerEntry {
    const a = this.file.airports;
    const iata = a.iata[i] ?? '';
    const icao = a.icao[i] ?? '';
    return {
      kind: 'airport',
      label: `${a.name[i] ?? ''} (${iata || icao})`,
      town: a.city[i] || this.str(a.council[i]),
      lat: a.lat[i] ?? 0,
      lon: a.lon[i] ?? 0,
      postcodeDistrict: this.districtCode(a.district[i]),
      council: this.str(a.council[i]),
      region: this.str(a.region[i]),
      country: asCountry(this.str(a.country[i])),
      inUk: a.inUk[i] === 1,
      ...(iata ? { iata } : {}),
      ...(icao ? { icao } : {}),
      context: this.context(
        this.key(a.council[i]),
        this.key(a.region[i]),
        this.key(a.country[i]),
        normaliseText(a.city[i] ?? ''),
      ),
    };
  }
}

let loading: Promise<Gazetteer> | undefined;

/** The shared gazetteer, loading it on first use. Concurrent callers share one load. */
export function getGazetteer(): Promise<Gazetteer> {
  loading ??= loadGazetteer(DEFAULT_GAZETTEER_PATH).catch((err: unknown) => {
    loading = undefined; // let a later request retry rather than fail forever
    throw err;
  });
  return loading;
}

/** Loads a gazetteer file, yielding to the event loop between the heavy steps. */
export async function loadGazetteer(path: URL | string = DEFAULT_GAZETTEER_PATH): Promise<Gazetteer> {
  const text = await readFile(path, 'utf8');
  await yieldToEventLoop();
  const file = JSON.parse(text) as GazetteerFile;
  await yieldToEventLoop();
  return Gazetteer.fromFileAsync(file);
}

/** Blocking variant for scripts and benchmarks. */
export function loadGazetteerSync(path: URL | string = DEFAULT_GAZETTEER_PATH): Gazetteer {
  return Gazetteer.fromFile(JSON.parse(readFileSync(path, 'utf8')) as GazetteerFile);
}
