// Shape of data/gazetteer/gazetteer.json, written by scripts/build-gazetteer.ts. Columnar arrays
// parse several times faster than one object per row, and admin names are interned in `strings`
// (an index of -1 means "unknown").

export const GAZETTEER_FORMAT = 'gazetteer-v2';

export const PLACE_TYPES = ['City', 'Town', 'Suburban Area', 'Village', 'Hamlet', 'Other Settlement'] as const;
export type PlaceType = (typeof PLACE_TYPES)[number];

export const SOURCE_FILES = [
  'gb_places.csv',
  'postcode_districts.csv',
  'postcode_sectors.csv',
  'uk_airports.csv',
  'uk_railway_stations.csv',
  'pois.csv',
  'geonames_places.csv',
] as const;

/** Admin columns shared by every table; values index `strings`. */
export interface AdminColumns {
  /** Index into `districts`, -1 when unknown. */
  district: number[];
  council: number[];
  region: number[];
  country: number[];
}

export interface GazetteerFile {
  format: typeof GAZETTEER_FORMAT;
  /** sha256 of each source CSV, so a stale build can be detected. */
  sources: Record<string, string>;
  strings: string[];
  districts: {
    code: string[];
    lat: number[];
    lon: number[];
    retired: number[];
    council: number[];
    region: number[];
    country: number[];
  };
  sectors: AdminColumns & { code: string[]; lat: number[]; lon: number[]; retired: number[] };
  places: AdminColumns & {
    name: string[];
    alt: string[];
    /** Index into PLACE_TYPES. */
    type: number[];
    lat: number[];
    lon: number[];
    /** county_unitary when the council is a district inside it (e.g. "Surrey"), else -1. */
    county: number[];
    /** Live postcodes within 2 km: a population proxy that separates a city from a same-named hamlet. */
    postcodesNearby: number[];
  };
  stations: AdminColumns & { name: string[]; crs: string[]; iata: string[]; lat: number[]; lon: number[] };
  airports: AdminColumns & {
    iata: string[];
    icao: string[];
    name: string[];
    city: string[];
    lat: number[];
    lon: number[];
    /** 1 for airports in the UK, 0 for the Channel Islands and the Isle of Man. */
    inUk: number[];
  };
  /** Places people take taxis to: hospitals, universities, venues, landmarks, ports, hotels... */
  pois: AdminColumns & {
    name: string[];
    /** Other names and abbreviations, '|'-separated. */
    aliases: string[];
    /** Index into `strings`: hospital, stadium, hotel... */
    category: number[];
    /** Index into `strings`: the town or city it is in. */
    town: number[];
    lat: number[];
    lon: number[];
  };
}
