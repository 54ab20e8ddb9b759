// Builds data/gazetteer/gazetteer.json from the CSVs beside it: joins admin areas (council,
// region, country) onto stations, airports and postcodes, and counts nearby postcodes per place,
// so the API only parses one compact file at boot. Re-run after replacing any CSV:
//   npx tsx scripts/build-gazetteer.ts
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseCsv, type CsvRecord } from '../src/geo/csv.js';
import {
  GAZETTEER_FORMAT,
  PLACE_TYPES,
  SOURCE_FILES,
  type AdminColumns,
  type GazetteerFile,
  type PlaceType,
} from '../src/geo/gazetteer-file.js';
import { SpatialGrid } from '../src/geo/spatial-grid.js';

const DATA_DIR = fileURLToPath(new URL('../data/gazetteer/', import.meta.url));
const OUTPUT = `${DATA_DIR}gazetteer.json`;

// A point inside a large site (an airport) can be nearer a village across the boundary than any
// place in the right council: the nearest-place rule put Heathrow in Spelthorne and Manchester
// Airport in Cheshire East. These name the council each airport is in (its planning authority);
// each must be spelt as in gb_places.csv, which the build checks.
const AIRPORT_COUNCIL_OVERRIDES = new Map([
  ['LHR', 'Hillingdon'],
  ['LGW', 'Crawley'],
  ['MAN', 'Manchester'],
  ['LTN', 'Luton'],
]);

// OpenFlights places an airport at its airfield reference point, often 1-2 km from the terminal a
// taxi goes to. Where a railway station is built into the terminal, its point is the pickup: these
// stations (by CRS code) are in or at the terminal building. Parkway stations are not (a shuttle
// ride away), nor are Heathrow's, which become terminal entries of their own.
const TERMINAL_STATIONS = new Map([
  ['LGW', 'GTW'],
  ['MAN', 'MIA'],
  ['STN', 'SSD'],
  ['SEN', 'SIA'],
]);

const CROWN_DEPENDENCIES = new Set(['Jersey', 'Guernsey', 'Isle of Man']);
const NO_PLACE_NEARBY_RADIUS_M = 200_000;
const NORTHERN_IRELAND = 'Northern Ireland';
const SAME_DISTRICT_RADIUS_M = 8_000;
const ANY_PLACE_RADIUS_M = 30_000;
const NEAREST_SECTOR_RADIUS_M = 15_000;
const PROMINENCE_RADIUS_M = 2_000;

function read(file: string): { text: string; sha256: string } {
  const text = readFileSync(`${DATA_DIR}${file}`, 'utf8');
  return { text, sha256: createHash('sha256').update(text).digest('hex') };
}

function num(record: CsvRecord, column: string): number {
  const value = Number(record[column]);
  if (!Number.isFinite(value)) throw new Error(`bad ${column}: ${JSON.stringify(record)}`);
  return value;
}

function round5(value: number): number {
  return Math.round(value * 1e5) / 1e5;
}

class StringTable {
  readonly values: string[] = [];
  private readonly index = new Map<string, number>();
  id(value: string | null | undefined): number {
    if (value === null || value === undefined || value === '') return -1;
    let id = this.index.get(value);
    if (id === undefined) {
      id = this.values.length;
      this.values.push(value);
      this.index.set(value, id);
    }
    return id;
  }
}

interface Admin {
  district: number;
  council: number;
  region: number;
  country: number;
}

function emptyAdmin(): AdminColumns {
  return { district: [], council: [], region: [], country: [] };
}

function pushAdmin(columns: AdminColumns, admin: Admin): void {
  columns.district.push(admin.district);
  columns.council.push(admin.council);
  columns.region.push(admin.region);
  columns.country.push(admin.country);
}

function main(): void {
  const sources: Record<string, string> = {};
  const csv: Record<string, CsvRecord[]> = {};
  for (const file of SOURCE_FILES) {
    const { text, sha256 } = read(file);
    sources[file] = sha256;
    csv[file] = parseCsv(text);
  }
  const districtRows = csv['postcode_districts.csv'] ?? [];
  const sectorRows = csv['postcode_sectors.csv'] ?? [];
  const airportRows = csv['uk_airports.csv'] ?? [];
  const stationRows = csv['uk_railway_stations.csv'] ?? [];
  const poiRows = csv['pois.csv'] ?? [];

  const sectorLat = sectorRows.map((r) => num(r, 'latitude'));
  const sectorLon = sectorRows.map((r) => num(r, 'longitude'));
  const sectorGrid = new SpatialGrid(sectorLat, sectorLon);
  const liveSector = (i: number): boolean => sectorRows[i]?.likely_retired !== '1';

  // Northern Ireland and the Crown dependencies (GeoNames) after GB's own places, in the same
  // columns: a Northern Ireland town takes the outward code of its nearest BT sector.
  const placeRows = [
    ...(csv['gb_places.csv'] ?? []),
    ...(csv['geonames_places.csv'] ?? []).map((row): CsvRecord => {
      const near = sectorGrid.nearest(num(row, 'latitude'), num(row, 'longitude'), liveSector, NEAREST_SECTOR_RADIUS_M);
      const outcode = row.country === NORTHERN_IRELAND && near >= 0 ? (sectorRows[near]?.outcode ?? '') : '';
      return {
        name: row.name ?? '',
        name_alt: row.name_alt ?? '',
        local_type: row.local_type ?? '',
        latitude: row.latitude ?? '',
        longitude: row.longitude ?? '',
        postcode_district: outcode.startsWith('BT') ? outcode : '',
        district_borough: row.council ?? '',
        county_unitary: '',
        region: row.country ?? '',
        country: row.country ?? '',
      };
    }),
  ];

  const strings = new StringTable();
  const districtIndex = new Map<string, number>();
  districtRows.forEach((row, i) => districtIndex.set(row.outcode ?? '', i));
  const districtOf = (code: string | undefined): number => districtIndex.get(code ?? '') ?? -1;
  const isNorthernIreland = (district: number): boolean =>
    district >= 0 && districtRows[district]?.postcode_area === 'BT';

  const placeLat = placeRows.map((r) => num(r, 'latitude'));
  const placeLon = placeRows.map((r) => num(r, 'longitude'));
  const placeDistrict = placeRows.map((r) => districtOf(r.postcode_district));
  const placeGrid = new SpatialGrid(placeLat, placeLon);
  const councilOf = (row: CsvRecord): string => row.district_borough || row.county_unitary || '';

  const placeAdmin = (i: number, district: number): Admin => {
    const row = placeRows[i];
    return {
      district,
      council: strings.id(row ? councilOf(row) : null),
      region: strings.id(row?.region),
      country: strings.id(row?.country),
    };
  };

  // The nearest place inside the same postcode district, else the nearest place at all. A
  // district centroid is the median of its postcodes, so it sits where people live, and the
  // nearest place there names the council better than a count of (mostly rural) places would.
  const adminNear = (lat: number, lon: number, district: number): Admin => {
    if (isNorthernIreland(district)) {
      return { district, council: -1, region: strings.id(NORTHERN_IRELAND), country: strings.id(NORTHERN_IRELAND) };
    }
    let place =
      district >= 0 ? placeGrid.nearest(lat, lon, (i) => placeDistrict[i] === district, SAME_DISTRICT_RADIUS_M) : -1;
    if (place < 0) place = placeGrid.nearest(lat, lon, () => true, ANY_PLACE_RADIUS_M);
    if (place >= 0) return placeAdmin(place, district);
    // Remote islands (Fair Isle): too far from any place to name a council, not a country.
    const far = placeGrid.nearest(lat, lon, () => true, NO_PLACE_NEARBY_RADIUS_M);
    const admin = far >= 0 ? placeAdmin(far, district) : { district, council: -1, region: -1, country: -1 };
    return { ...admin, council: -1 };
  };

  const adminAtPoint = (lat: number, lon: number): Admin => {
    const sector = sectorGrid.nearest(lat, lon, liveSector, NEAREST_SECTOR_RADIUS_M);
    const district = sector >= 0 ? districtOf(sectorRows[sector]?.outcode) : -1;
    return adminNear(lat, lon, district);
  };

  const withCouncilOverride = (admin: Admin, council: string | undefined): Admin => {
    if (council === undefined) return admin;
    const place = placeRows.findIndex((row) => councilOf(row) === council);
    if (place < 0) throw new Error(`override council ${council} not found in gb_places.csv`);
    return { ...placeAdmin(place, admin.district) };
  };

  const file: GazetteerFile = {
    format: GAZETTEER_FORMAT,
    sources,
    strings: strings.values,
    districts: { code: [], lat: [], lon: [], retired: [], council: [], region: [], country: [] },
    sectors: { ...emptyAdmin(), code: [], lat: [], lon: [], retired: [] },
    places: {
      ...emptyAdmin(),
      name: [],
      alt: [],
      type: [],
      lat: [],
      lon: [],
      county: [],
      postcodesNearby: [],
    },
    stations: { ...emptyAdmin(), name: [], crs: [], iata: [], lat: [], lon: [] },
    airports: { ...emptyAdmin(), iata: [], icao: [], name: [], city: [], lat: [], lon: [], inUk: [] },
    pois: { ...emptyAdmin(), name: [], aliases: [], category: [], town: [], lat: [], lon: [] },
  };

  districtRows.forEach((row, i) => {
    const lat = num(row, 'latitude');
    const lon = num(row, 'longitude');
    const admin = adminNear(lat, lon, i);
    file.districts.code.push(row.outcode ?? '');
    file.districts.lat.push(round5(lat));
    file.districts.lon.push(round5(lon));
    file.districts.retired.push(row.likely_retired === '1' ? 1 : 0);
    file.districts.council.push(admin.council);
    file.districts.region.push(admin.region);
    file.districts.country.push(admin.country);
  });

  sectorRows.forEach((row, i) => {
    const lat = sectorLat[i] ?? 0;
    const lon = sectorLon[i] ?? 0;
    pushAdmin(file.sectors, adminNear(lat, lon, districtOf(row.outcode)));
    file.sectors.code.push(row.sector ?? '');
    file.sectors.lat.push(round5(lat));
    file.sectors.lon.push(round5(lon));
    file.sectors.retired.push(row.likely_retired === '1' ? 1 : 0);
  });

  placeRows.forEach((row, i) => {
    const type = PLACE_TYPES.indexOf((row.local_type ?? '') as PlaceType);
    if (type < 0) throw new Error(`unknown local_type ${row.local_type}`);
    const lat = placeLat[i] ?? 0;
    const lon = placeLon[i] ?? 0;
    let postcodes = 0;
    sectorGrid.within(lat, lon, PROMINENCE_RADIUS_M, (sector) => {
      if (liveSector(sector)) postcodes += Number(sectorRows[sector]?.postcode_count ?? 0);
    });
    pushAdmin(file.places, placeAdmin(i, placeDistrict[i] ?? -1));
    file.places.name.push(row.name ?? '');
    file.places.alt.push(row.name_alt ?? '');
    file.places.type.push(type);
    file.places.lat.push(round5(lat));
    file.places.lon.push(round5(lon));
    file.places.county.push(row.district_borough ? strings.id(row.county_unitary) : -1);
    file.places.postcodesNearby.push(postcodes);
  });

  const airportAdmin = new Map<string, Admin>();
  for (const row of airportRows) {
    const terminalCrs = TERMINAL_STATIONS.get(row.iata ?? '');
    const terminal = terminalCrs ? stationRows.find((s) => s.crsCode === terminalCrs) : undefined;
    if (terminalCrs && !terminal)
      throw new Error(`terminal station ${terminalCrs} not found in uk_railway_stations.csv`);
    const lat = terminal ? num(terminal, 'lat') : num(row, 'latitude');
    const lon = terminal ? num(terminal, 'long') : num(row, 'longitude');
    const country = row.country ?? '';
    const crown = CROWN_DEPENDENCIES.has(country);
    const admin = crown
      ? { district: -1, council: -1, region: -1, country: strings.id(country) }
      : withCouncilOverride(adminAtPoint(lat, lon), AIRPORT_COUNCIL_OVERRIDES.get(row.iata ?? ''));
    if (row.iata) airportAdmin.set(row.iata, admin);
    pushAdmin(file.airports, admin);
    file.airports.iata.push(row.iata ?? '');
    file.airports.icao.push(row.icao ?? '');
    file.airports.name.push(row.name ?? '');
    file.airports.city.push(row.city ?? '');
    file.airports.lat.push(round5(lat));
    file.airports.lon.push(round5(lon));
    file.airports.inUk.push(crown ? 0 : 1);
  }

  for (const row of stationRows) {
    const lat = num(row, 'lat');
    const lon = num(row, 'long');
    const iata = row.iataAirportCode ?? '';
    // Stations inside an overridden airport (Heathrow's terminals) share the airport's council.
    const admin = AIRPORT_COUNCIL_OVERRIDES.has(iata) ? airportAdmin.get(iata) : undefined;
    pushAdmin(file.stations, admin ?? adminAtPoint(lat, lon));
    file.stations.name.push(row.stationName ?? '');
    file.stations.crs.push(row.crsCode ?? '');
    file.stations.iata.push(iata);
    file.stations.lat.push(round5(lat));
    file.stations.lon.push(round5(lon));
  }

  for (const row of poiRows) {
    const lat = num(row, 'lat');
    const lon = num(row, 'lon');
    pushAdmin(file.pois, adminAtPoint(lat, lon));
    file.pois.name.push(row.name ?? '');
    file.pois.aliases.push(row.aliases ?? '');
    file.pois.category.push(strings.id(row.category));
    file.pois.town.push(strings.id(row.town));
    file.pois.lat.push(round5(lat));
    file.pois.lon.push(round5(lon));
  }

  file.strings = strings.values;
  writeFileSync(OUTPUT, JSON.stringify(file));
  console.log(
    `wrote ${OUTPUT}: ${placeRows.length} places, ${stationRows.length} stations, ${airportRows.length} airports, ` +
      `${districtRows.length} districts, ${sectorRows.length} sectors, ${poiRows.length} points of interest`,
  );
}

main();
