// Shapes shared by every geocoder and router. A real provider (configured by key later)
// implements the same interfaces, so pricing and the HTTP layer never know which one answered.

export type PlaceKind =
  'postcode' | 'postcode_sector' | 'postcode_district' | 'airport' | 'station' | 'place' | 'poi' | 'street';

/**
 * How close to the door an answer is, so nobody sends a driver to a town centre believing it is
 * the pickup: a named point (a station, airport, hospital, venue), a full unit postcode's point
 * (typically within 100 m of its doors), a street, a postcode sector or district centroid, or a
 * town or village centre.
 */
export type Precision = 'point' | 'postcode' | 'street' | 'postcode_sector' | 'postcode_district' | 'town_centre';
export const PRECISIONS: readonly Precision[] = [
  'point',
  'postcode',
  'street',
  'postcode_sector',
  'postcode_district',
  'town_centre',
];

export type Country = 'England' | 'Scotland' | 'Wales' | 'Northern Ireland' | 'Isle of Man' | 'Jersey' | 'Guernsey';

/** Where a named place is, and what it belongs to: shared by gazetteer entries and geocoded answers. */
export interface PlaceFacts {
  /** Human-readable name, e.g. "Manchester Piccadilly (MAN) station". */
  label: string;
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
}

export interface GeoLocation extends PlaceFacts {
  kind: PlaceKind;
  /** 0..1; 1 for exact code matches, lower for fuzzy name matches. */
  confidence: number;
  precision: Precision;
  /** The town or city it is in, as a passenger would say it (for choosing between suggestions). */
  town: string | null;
}

/** Something the passenger may have meant, offered when no answer is confident enough. */
export interface PlaceSuggestion {
  label: string;
  kind: PlaceKind;
  town: string | null;
  precision: Precision;
}

/**
 * A query's answer: a place when one is confident enough (at least MIN_CONFIDENCE), otherwise up
 * to five suggestions: 'uncertain' when there was a candidate below the line, 'not_found' when
 * nothing matched at all.
 */
export type GeocodeResult =
  | { status: 'found'; place: GeoLocation }
  | { status: 'uncertain' | 'not_found'; place: null; suggestions: PlaceSuggestion[]; ask?: StreetQuestion };

/**
 * A house number and street we have no street data for ("10 Downing Street", "1 Deansgate,
 * Manchester" without it): never answered with the town centre, but asked for its postcode.
 */
export interface StreetQuestion {
  /** The street as typed, tidied: "Downing Street". */
  street: string;
  /** The town the query named and we found, if any. */
  town: string | null;
}

export interface Geocoder {
  /** Resolves free text (address, station, postcode, landmark or airport name), or says why not. */
  resolve(query: string): Promise<GeocodeResult>;
  /** The confident answer only; null when `resolve` would not find one. */
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
