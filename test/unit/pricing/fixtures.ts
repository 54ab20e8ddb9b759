import type { Country, GeoLocation, RouteEstimate } from '../../../src/geo/types.js';
import type { AppliedRule, PriceRequest, PriceResult } from '../../../src/pricing/types.js';

// Hand-built locations so these tests never depend on the geocoder's data or matching.

export function place(
  label: string,
  council: string | null,
  region: string | null,
  country: Country | null,
  extra: Partial<GeoLocation> = {},
): GeoLocation {
  return {
    label,
    kind: 'postcode',
    lat: 0,
    lon: 0,
    postcodeDistrict: null,
    council,
    region,
    country,
    inUk: country !== 'Jersey' && country !== 'Guernsey' && country !== 'Isle of Man',
    confidence: 1,
    precision: 'postcode_sector',
    town: council,
    ...extra,
  };
}

export const MANCHESTER_CENTRE = place('M1 1AE', 'Manchester', 'North West', 'England', { postcodeDistrict: 'M1' });
export const DIDSBURY = place('M20 2RN', 'Manchester', 'North West', 'England', { postcodeDistrict: 'M20' });
export const MANCHESTER_AIRPORT = place('Manchester Airport (MAN)', 'Manchester', 'North West', 'England', {
  kind: 'airport',
  iata: 'MAN',
});
export const WESTMINSTER = place('SW1A 1AA', 'Westminster', 'London', 'England', { postcodeDistrict: 'SW1A' });
export const CAMDEN = place('NW1 2DB', 'Camden', 'London', 'England', { postcodeDistrict: 'NW1' });
export const HEATHROW = place('London Heathrow (LHR)', 'Hillingdon', 'London', 'England', {
  kind: 'airport',
  iata: 'LHR',
});
export const LONDON_CITY_AIRPORT = place('London City (LCY)', 'Newham', 'London', 'England', {
  kind: 'airport',
  iata: 'LCY',
});
export const GLASGOW_CENTRE = place('G1 1XQ', 'Glasgow City', 'Scotland', 'Scotland', { postcodeDistrict: 'G1' });
export const GLASGOW_WEST_END = place('G12 8QQ', 'Glasgow City', 'Scotland', 'Scotland', { postcodeDistrict: 'G12' });
export const EDINBURGH_CENTRE = place('EH1 1YZ', 'City of Edinburgh', 'Scotland', 'Scotland', {
  postcodeDistrict: 'EH1',
});
export const EDINBURGH_AIRPORT = place('Edinburgh Airport (EDI)', 'City of Edinburgh', 'Scotland', 'Scotland', {
  kind: 'airport',
  iata: 'EDI',
});
export const ABERDEEN = place('AB10 1XG', 'Aberdeen City', 'Scotland', 'Scotland', { postcodeDistrict: 'AB10' });
export const LEEDS = place('LS1 4DY', 'Leeds', 'Yorkshire and the Humber', 'England', { postcodeDistrict: 'LS1' });
export const BRADFORD = place('BD1 1HY', 'Bradford', 'Yorkshire and the Humber', 'England', {
  postcodeDistrict: 'BD1',
});
export const FILTON = place('BS34 7QS', 'South Gloucestershire', 'South West', 'England', { postcodeDistrict: 'BS34' });
export const BRISTOL_PARKWAY = place('Bristol Parkway (BPW)', 'South Gloucestershire', 'South West', 'England', {
  kind: 'station',
  crs: 'BPW',
});
export const BRACKNELL = place('RG12 1AQ', 'Bracknell Forest', 'South East', 'England', { postcodeDistrict: 'RG12' });
export const BRIGHTON = place('BN1 1AA', 'The City of Brighton and Hove', 'South East', 'England', {
  postcodeDistrict: 'BN1',
});
export const HOVE = place('BN3 3BQ', 'The City of Brighton and Hove', 'South East', 'England', {
  postcodeDistrict: 'BN3',
});
export const BIRKENHEAD = place('CH41 5DR', 'Wirral', 'North West', 'England', { postcodeDistrict: 'CH41' });
export const BIRMINGHAM_CENTRE = place('B1 1BB', 'Birmingham', 'West Midlands', 'England', { postcodeDistrict: 'B1' });
// Council names as the gazetteer (OS Open Names) spells them.
export const SHEFFIELD_CENTRE = place('S1 2HH', 'Sheffield', 'Yorkshire and the Humber', 'England', {
  postcodeDistrict: 'S1',
});
export const NOTTINGHAM_CENTRE = place('NG1 5FS', 'City of Nottingham', 'East Midlands', 'England', {
  postcodeDistrict: 'NG1',
});
export const CAMBRIDGE_CENTRE = place('CB2 3QJ', 'Cambridge', 'Eastern', 'England', { postcodeDistrict: 'CB2' });
export const NEWPORT_WALES = place('NP20 1DW', 'Casnewydd - Newport', 'Wales', 'Wales', { postcodeDistrict: 'NP20' });
export const NEWPORT_ISLE_OF_WIGHT = place('Newport', 'Isle of Wight', 'South East', 'England', {
  kind: 'place',
  postcodeDistrict: 'PO30',
});
export const NEWPORT_SHROPSHIRE = place('Newport', 'Telford and Wrekin', 'West Midlands', 'England', {
  kind: 'place',
  postcodeDistrict: 'TF10',
});
export const NEWPORT_PEMBROKESHIRE = place('Trefdraeth / Newport', 'Sir Benfro - Pembrokeshire', 'Wales', 'Wales', {
  kind: 'place',
  postcodeDistrict: 'SA42',
});
export const LEYLAND = place('PR25 1DH', 'South Ribble', 'North West', 'England', { postcodeDistrict: 'PR25' });
export const PRESTON = place('PR1 2RL', 'Preston', 'North West', 'England', { postcodeDistrict: 'PR1' });
export const ABERDEENSHIRE_STONEHAVEN = place('AB39 2AA', 'Aberdeenshire', 'Scotland', 'Scotland', {
  postcodeDistrict: 'AB39',
});
export const WALSALL = place('WS1 1TP', 'Walsall', 'West Midlands', 'England', { postcodeDistrict: 'WS1' });
export const BRADFORD_CITY = place('BD1 1HY', 'Bradford', 'Yorkshire and the Humber', 'England', {
  postcodeDistrict: 'BD1',
});
export const DUMFRIES = place('DG1 1JA', 'Dumfries and Galloway', 'Scotland', 'Scotland', { postcodeDistrict: 'DG1' });
export const TOTNES = place('TQ9 5NE', 'South Hams', 'South West', 'England', { postcodeDistrict: 'TQ9' });
export const PLYMOUTH = place('PL1 2AA', 'City of Plymouth', 'South West', 'England', { postcodeDistrict: 'PL1' });
export const BLACKPOOL = place('FY1 1AP', 'Blackpool', 'North West', 'England', { postcodeDistrict: 'FY1' });
export const FLEETWOOD = place('FY7 6AA', 'Wyre', 'North West', 'England', { postcodeDistrict: 'FY7' });
// Places no council table held covers, for the national default's tests.
export const INVERNESS = place('IV1 1AA', 'Highland', 'Scotland', 'Scotland', { postcodeDistrict: 'IV1' });
export const YORK = place('YO1 7HH', 'York', 'Yorkshire and the Humber', 'England', { postcodeDistrict: 'YO1' });
export const SOUTHAMPTON = place('SO14 7DU', 'City of Southampton', 'South East', 'England', {
  postcodeDistrict: 'SO14',
});
export const HARROGATE = place('HG1 1AA', 'Harrogate', 'Yorkshire and the Humber', 'England', {
  postcodeDistrict: 'HG1',
});
export const ST_HELIER = place('JE2 3QA', null, null, 'Jersey', { postcodeDistrict: 'JE2' });
export const JERSEY_AIRPORT = place('Jersey Airport (JER)', null, null, 'Jersey', { kind: 'airport', iata: 'JER' });

export const MILE = 1609.344;
/** tariffs-more.md's worked examples: 5 miles (8,800 yd) at a steady 20 mph, i.e. 15 minutes. */
export const FIVE_MILES = 5 * MILE;
export const AT_20_MPH = 900;

/** A fixed estimate: the tests choose distance and time so they know which clock governs. */
export function route(distanceMeters: number, durationSeconds: number): RouteEstimate {
  return {
    distanceMeters,
    durationSeconds,
    straightLineMeters: distanceMeters / 1.4,
    circuityFactor: 1.4,
    model: 'test:fixed',
  };
}

export function request(
  overrides: Partial<PriceRequest> & Pick<PriceRequest, 'pickup' | 'route' | 'departAt'>,
): PriceRequest {
  return {
    dropoff: overrides.pickup,
    vehicleType: 'saloon',
    passengers: 1,
    meetAndGreet: false,
    worldwide: false,
    override: null,
    ...overrides,
  };
}

export function rule(result: PriceResult, code: string): AppliedRule | undefined {
  return result.rules.find((r) => r.code === code);
}

export function codes(result: PriceResult): string[] {
  return result.rules.map((r) => r.code);
}
