// Where a point is, in words people use: the named street it is on or beside, else the suburb or
// village, else the town (the passenger's tracking page says "near Prince of Wales Road, Norwich"
// rather than showing coordinates). Built from the same bundled files as the geocoder:
// data/gazetteer/streets.csv (a point per street and postcode district, from NaPTAN stops) and the
// places of data/gazetteer/gazetteer.json, each in a SpatialGrid of its own. Loaded on first need
// (or in the background at API start), a slice of lines at a time, and kept for the process.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { parseCsvRows } from './csv.js';
import { DEFAULT_GAZETTEER_PATH } from './gazetteer.js';
import { GAZETTEER_FORMAT, PLACE_TYPES, type GazetteerFile } from './gazetteer-file.js';
import { normaliseText } from './normalise-text.js';
import { SpatialGrid } from './spatial-grid.js';
import { DEFAULT_STREETS_PATH } from './streets.js';

/**
 * A street's point is one stop on it per postcode district, so a car on that street is often a few
 * hundred metres from its point; further than this and another street is as likely.
 */
export const NEAR_STREET_M = 300;
/** A suburb's or village's centre this close: the car is in it, or at its edge. */
export const NEAR_LOCALITY_M = 1_500;
/** Out of town: the nearest town or city this close is what the car is "near". */
export const NEAR_TOWN_M = 10_000;

/** Lines parsed between yields: about 10 ms of work each. */
const SLICE_LINES = 2_000;

interface Points {
  lat: Float64Array;
  lon: Float64Array;
  label: string[];
}

export class NearestPlace {
  private readonly streetGrid: SpatialGrid;
  private readonly placeGrid: SpatialGrid;

  constructor(
    private readonly streets: Points,
    private readonly places: Points & { town: Uint8Array },
  ) {
    this.streetGrid = new SpatialGrid(streets.lat, streets.lon);
    this.placeGrid = new SpatialGrid(places.lat, places.lon);
  }

  /**
   * The street (with its town), suburb, village or town a point is near, e.g. "Prince of Wales Road,
   * Norwich", "Rusholme, Manchester", "Hexham"; null when nothing named is within NEAR_TOWN_M.
   */
  near(lat: number, lon: number): string | null {
    const street = this.streetGrid.nearest(lat, lon, undefined, NEAR_STREET_M);
    if (street >= 0) return this.streets.label[street] ?? null;
    const place = this.placeGrid.nearest(lat, lon, undefined, NEAR_LOCALITY_M);
    if (place >= 0) return this.places.label[place] ?? null;
    const town = this.placeGrid.nearest(lat, lon, (i) => this.places.town[i] === 1, NEAR_TOWN_M);
    return town >= 0 ? (this.places.label[town] ?? null) : null;
  }

  static async load(
    streetsPath: URL = DEFAULT_STREETS_PATH,
    gazetteerPath: URL = DEFAULT_GAZETTEER_PATH,
  ): Promise<NearestPlace> {
    const streets = existsSync(streetsPath)
      ? await streetPoints(await readFile(streetsPath, 'utf8'))
      : { lat: new Float64Array(), lon: new Float64Array(), label: [] };
    const text = await readFile(gazetteerPath, 'utf8');
    await yieldToEventLoop();
    const file = JSON.parse(text) as GazetteerFile;
    if (file.format !== GAZETTEER_FORMAT) throw new Error(`unsupported gazetteer format ${String(file.format)}`);
    await yieldToEventLoop();
    return new NearestPlace(streets, placePoints(file));
  }
}

/** "Street, Town" as people say it; a street named after its town ("Norwich Road" in Norwich) keeps both. */
function streetLabel(name: string, town: string): string {
  return town && normaliseText(name) !== normaliseText(town) ? `${name}, ${town}` : name;
}

async function streetPoints(text: string): Promise<Points> {
  // Street names hold no line breaks, so every line is one row.
  const lines = text.split('\n');
  const header = parseCsvRows(lines[0] ?? '')[0] ?? [];
  const [n, la, lo, t] = ['name', 'lat', 'lon', 'town'].map((c) => header.indexOf(c)) as [
    number,
    number,
    number,
    number,
  ];
  const lat: number[] = [];
  const lon: number[] = [];
  const label: string[] = [];
  for (let i = 1; i < lines.length; i += SLICE_LINES) {
    for (const r of parseCsvRows(lines.slice(i, i + SLICE_LINES).join('\n'))) {
      const name = (r[n] ?? '').trim();
      const y = Number(r[la]);
      const x = Number(r[lo]);
      if (!name || !Number.isFinite(y) || !Number.isFinite(x)) continue;
      lat.push(y);
      lon.push(x);
      label.push(streetLabel(name, (r[t] ?? '').trim()));
    }
    await yieldToEventLoop();
  }
  return { lat: Float64Array.from(lat), lon: Float64Array.from(lon), label };
}

function placePoints(file: GazetteerFile): Points & { town: Uint8Array } {
  const p = file.places;
  const label = p.name.map((name, i) => {
    // As the gazetteer labels a place: with its council, unless the council is named after it.
    const council = (p.council[i] ?? -1) >= 0 ? (file.strings[p.council[i] ?? -1] ?? '') : '';
    return council && !normaliseText(council).includes(normaliseText(name)) ? `${name}, ${council}` : name;
  });
  const town = Uint8Array.from(p.type, (t) => (PLACE_TYPES[t] === 'City' || PLACE_TYPES[t] === 'Town' ? 1 : 0));
  return { lat: Float64Array.from(p.lat), lon: Float64Array.from(p.lon), label, town };
}

let loading: Promise<NearestPlace> | undefined;

/** The shared index, loading it on first use; concurrent callers share one load, a failed one is retried. */
export function nearestPlace(): Promise<NearestPlace> {
  loading ??= NearestPlace.load().catch((err: unknown) => {
    loading = undefined;
    throw err;
  });
  return loading;
}
