import type { PlaceFacts } from './types.js';
import type { PlaceType } from './gazetteer-file.js';

export type EntryKind = 'place' | 'station' | 'airport' | 'poi' | 'street';

/** One thing a passenger can name: a populated place, a rail station or an airport (terminal). */
export interface GazetteerEntry extends PlaceFacts {
  kind: EntryKind;
  icao?: string;
  placeType?: PlaceType;
  /** The town or city it is in, as a passenger would name it. */
  town?: string | null;
  /** Points of interest: hospital, stadium, hotel... */
  category?: string;
  /** Normalised admin and qualifier words (council, county, region, country, city) that a
   *  trailing ", Bristol" or ", Wales" in a query is checked against. */
  context: string;
}

/** How strongly one normalised name points at an entry; higher wins. */
export interface AliasRef {
  entry: GazetteerEntry;
  score: number;
  /** Produced by a rule (dropped "London ", "Airport", "upon Tyne") rather than the source name. */
  derived: boolean;
}
