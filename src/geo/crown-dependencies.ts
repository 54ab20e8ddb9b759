import type { Country } from './types.js';

/**
 * Jersey, Guernsey and the Isle of Man are Crown dependencies, not the UK, and the source data
 * has neither their postcodes' coordinates (JE, GY, IM) nor their towns. Each is placed at its
 * main town (approximate town-centre coordinates entered by hand, not taken from any dataset),
 * which is enough to route to and to say "outside the UK".
 */
export const CROWN_DEPENDENCIES: ReadonlyArray<{
  postcodeArea: string;
  country: Country;
  town: string;
  lat: number;
  lon: number;
  names: string[];
  /**
   * The postcode districts of the main town, when the island is too big for its main town to
   * answer for all of it: the Isle of Man is 50 km long, and only IM1 and IM2 are Douglas. Jersey
   * and Guernsey are 10-15 km across, so their main town answers for the island.
   */
  townDistricts?: string[];
}> = [
  {
    postcodeArea: 'JE',
    country: 'Jersey',
    town: 'St Helier',
    lat: 49.1858,
    lon: -2.1101,
    names: ['jersey', 'st helier jersey'],
  },
  {
    postcodeArea: 'GY',
    country: 'Guernsey',
    town: 'St Peter Port',
    lat: 49.4556,
    lon: -2.5367,
    names: ['guernsey', 'st peter port'],
  },
  {
    postcodeArea: 'IM',
    country: 'Isle of Man',
    town: 'Douglas',
    lat: 54.1523,
    lon: -4.4862,
    names: ['isle of man', 'douglas isle of man'],
    townDistricts: ['IM1', 'IM2'],
  },
];
