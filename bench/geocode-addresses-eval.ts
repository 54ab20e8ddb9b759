// The address benchmark's rules, shared by bench/geocode-addresses.ts (prints the figures) and
// test/unit/geo/addresses-benchmark.test.ts (asserts them in CI). The data and its sources:
// bench/data/addresses.csv, bench/data/ADDRESSES-SOURCES.md.
import { readFileSync } from 'node:fs';
import { parseCsv } from '../src/geo/csv.js';
import { haversineMeters } from '../src/geo/haversine.js';
import { normaliseText } from '../src/geo/normalise-text.js';
import type { GeocodeResult, GeoLocation, Precision } from '../src/geo/types.js';

export const ADDRESSES_PATH = new URL('data/addresses.csv', import.meta.url);

export interface AddressCase {
  id: string;
  region: string;
  kind: 'street_address' | 'full_postcode';
  query: string;
  /** The town the address names (its last line). */
  town: string;
  postcode: string;
  country: string;
  lat: number;
  lon: number;
  streetNamedAfterTown: boolean;
  source: string;
}

export function loadAddressCases(path: URL = ADDRESSES_PATH): AddressCase[] {
  return parseCsv(readFileSync(path, 'utf8')).map((r) => ({
    id: r.id ?? '',
    region: r.region ?? '',
    kind: r.kind === 'full_postcode' ? 'full_postcode' : 'street_address',
    query: r.query ?? '',
    town: r.town ?? '',
    postcode: r.postcode ?? '',
    country: r.country ?? '',
    lat: Number(r.lat),
    lon: Number(r.lon),
    streetNamedAfterTown: r.street_named_after_town === '1',
    source: r.source ?? '',
  }));
}

/**
 * How far an answer may lie from the true position and still be in the right town. An answer that
 * claims to be near the door (a point, a unit postcode, a street) must be within 5 km; a postcode
 * sector or district, or a town centre, within 10 km, the distance between neighbouring towns (a
 * rural sector is as wide). Two answers name a whole area, so its extent is allowed: the centre of
 * the very town the address names ("..., London" answered with London's centre: 25 km, a city's
 * reach), and a Jersey or Guernsey postcode answered at the island's main town (15 km, the
 * islands' size). Any answer in another country (Jersey, Northern Ireland...) is the wrong town.
 */
export const WRONG_TOWN_KM: Record<Precision, number> = {
  point: 5,
  postcode: 5,
  street: 5,
  postcode_sector: 10,
  postcode_district: 10,
  town_centre: 10,
};
export const NAMED_TOWN_CENTRE_KM = 25;
export const ISLAND_KM = 15;
export const POSTCODE_NEAR_M = 150;

export interface AddressOutcome {
  case: AddressCase;
  status: GeocodeResult['status'];
  place: GeoLocation | null;
  distanceM: number | null;
  wrongTown: boolean;
  /** Why it counts as the wrong town, for the report. */
  why: string | null;
}

function sameTown(place: GeoLocation, town: string): boolean {
  const t = normaliseText(town);
  return (
    normaliseText(place.town ?? '') === t ||
    normaliseText(place.label).startsWith(`${t}`) ||
    normaliseText(place.label).includes(` ${t} `)
  );
}

export function judge(c: AddressCase, result: GeocodeResult): AddressOutcome {
  if (result.status !== 'found') {
    return { case: c, status: result.status, place: null, distanceM: null, wrongTown: false, why: null };
  }
  const place = result.place;
  const d = haversineMeters(place.lat, place.lon, c.lat, c.lon);
  let allowedKm = WRONG_TOWN_KM[place.precision];
  if (place.precision === 'town_centre' && sameTown(place, c.town)) allowedKm = NAMED_TOWN_CENTRE_KM;
  if (
    place.precision === 'town_centre' &&
    place.kind === 'postcode_district' &&
    (c.country === 'Jersey' || c.country === 'Guernsey')
  )
    allowedKm = ISLAND_KM;
  let why: string | null = null;
  if (place.country !== null && place.country !== c.country) why = `in ${place.country}, not ${c.country}`;
  else if (d > allowedKm * 1000)
    why = `${(d / 1000).toFixed(1)} km away (allowed ${allowedKm} km at ${place.precision})`;
  return { case: c, status: 'found', place, distanceM: d, wrongTown: why !== null, why };
}

export interface AddressFigures {
  total: number;
  found: number;
  refused: number;
  wrongTown: AddressOutcome[];
  missingPrecision: number;
  byRegion: Record<string, { total: number; found: number; wrong: number }>;
  byPrecision: Record<string, number>;
  fullPostcodes: number;
  /** Full postcodes answered within 150 m of the place's published position. */
  fullPostcodesNear: number;
  /** Great Britain full postcodes (the ones OS Code-Point covers) and how many were within 150 m. */
  gbFullPostcodes: number;
  gbFullPostcodesNear: number;
  streetsNamedAfterTowns: number;
  streetsNamedAfterTownsWrong: number;
  medianStreetAddressKm: number | null;
}

const GB = new Set(['England', 'Scotland', 'Wales']);

export function summarise(outcomes: AddressOutcome[]): AddressFigures {
  const byRegion: AddressFigures['byRegion'] = {};
  const byPrecision: Record<string, number> = {};
  let found = 0;
  let missingPrecision = 0;
  let fullPostcodes = 0;
  let fullPostcodesNear = 0;
  let gbFullPostcodes = 0;
  let gbFullPostcodesNear = 0;
  let named = 0;
  let namedWrong = 0;
  const streetKm: number[] = [];
  for (const o of outcomes) {
    const region = (byRegion[o.case.region] ??= { total: 0, found: 0, wrong: 0 });
    region.total++;
    if (o.case.streetNamedAfterTown) {
      named++;
      if (o.wrongTown) namedWrong++;
    }
    const near = o.distanceM !== null && o.distanceM <= POSTCODE_NEAR_M;
    if (o.case.kind === 'full_postcode') {
      fullPostcodes++;
      if (near) fullPostcodesNear++;
      if (GB.has(o.case.country)) {
        gbFullPostcodes++;
        if (near) gbFullPostcodesNear++;
      }
    }
    if (o.status !== 'found' || !o.place) {
      byPrecision.refused = (byPrecision.refused ?? 0) + 1;
      continue;
    }
    found++;
    region.found++;
    if (o.wrongTown) region.wrong++;
    if (!o.place.precision) missingPrecision++;
    byPrecision[o.place.precision] = (byPrecision[o.place.precision] ?? 0) + 1;
    if (o.case.kind === 'street_address' && o.distanceM !== null) streetKm.push(o.distanceM / 1000);
  }
  streetKm.sort((a, b) => a - b);
  return {
    total: outcomes.length,
    found,
    refused: outcomes.length - found,
    wrongTown: outcomes.filter((o) => o.wrongTown),
    missingPrecision,
    byRegion,
    byPrecision,
    fullPostcodes,
    fullPostcodesNear,
    gbFullPostcodes,
    gbFullPostcodesNear,
    streetsNamedAfterTowns: named,
    streetsNamedAfterTownsWrong: namedWrong,
    medianStreetAddressKm: streetKm.length > 0 ? (streetKm[Math.floor(streetKm.length / 2)] ?? null) : null,
  };
}

export function runCases(cases: AddressCase[], resolve: (query: string) => GeocodeResult): AddressOutcome[] {
  return cases.map((c) => judge(c, resolve(c.query)));
}
