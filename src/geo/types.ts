// Shapes shared by every geocoder and router. A real provider (configured by key later)
// implements the same interfaces, so pricing and the HTTP layer never know which one answered.

export type PlaceKind = 'postcode' | 'postcode_sector' | 'postcode_district' | 'airport' | 'station' | 'place';

export type Country =
  | 'England'
  | 'Scotland'
  | 'Wales'
  | 'Northern Ireland'
  | 'Isle of Man'
  | 'Jersey'
  | 'Guernsey';

export interface GeoLocation {
  /** Human-readable name of what the query resolved to, e.g. "Manchester Piccadilly (MAN) station". */
  label: string;
  kind: PlaceKind;
  lat: number;
  lon: number;
  /** Outward code such as "M1" when known. */
  postcodeDistrict: string | null;
  /** Licensing council: OS Open Names district_borough, else county_unitary (e.g. "Manchester", "Glasgow City", "Hillingdon"). */
  council: string | null;
  /** OS region, e.g. "London", "North West", "Scotland". */
  region: string | null;
  country: Country | null;
  /** False for the Channel Islands and the Isle of Man (Crown dependencies, not the UK). */
  inUk: boolean;
  iata?: string;
  crs?: string;
  /** 0..1; 1 for exact code matches, lower for fuzzy name matches. */
  confidence: number;
}

export interface Geocoder {
  /** Resolves free text (address, station, postcode or airport name); null when nothing matches well enough. */
  geocode(query: string): Promise<GeoLocation | null>;
}

export interface RouteEstimate {
  distanceMeters: number;
  durationSeconds: number;
  straightLineMeters: number;
  circuityFactor: number;
  /** Names the model that produced the estimate, e.g. "estimate:circuity-v1". */
  model: string;
}

export interface Router {
  route(from: GeoLocation, to: GeoLocation): Promise<RouteEstimate>;
}
