import { beforeAll, describe, expect, it } from 'vitest';
import { createGeoProviders, preloadGazetteer } from '../../../src/geo/index.js';
import { haversineMeters } from '../../../src/geo/haversine.js';
import type { GeoLocation } from '../../../src/geo/types.js';

// What a passenger typing into the pickup/drop-off box gets back. Uses the real bundled
// gazetteer, because the answers are only as good as the data and the ranking together.
const { geocoder } = createGeoProviders({ geocoder: 'embedded', router: 'estimate' });

beforeAll(async () => {
  await preloadGazetteer();
}, 30_000);

async function find(query: string): Promise<GeoLocation> {
  const result = await geocoder.geocode(query);
  if (!result) throw new Error(`no result for ${JSON.stringify(query)}`);
  return result;
}

describe('acceptance examples', () => {
  it.each([
    ['Manchester Piccadilly', { kind: 'station', crs: 'MAN', council: 'Manchester', region: 'North West' }],
    ['Manchester Airport', { kind: 'airport', iata: 'MAN', council: 'Manchester' }],
    ['SW1A 1AA', { region: 'London', postcodeDistrict: 'SW1A', country: 'England' }],
    ['Heathrow', { kind: 'airport', iata: 'LHR', council: 'Hillingdon', region: 'London' }],
    ['Glasgow Central', { kind: 'station', council: 'Glasgow City', country: 'Scotland' }],
    ['Bracknell', { kind: 'place', council: 'Bracknell Forest', region: 'South East' }],
    ['Brighton', { kind: 'place', council: 'The City of Brighton and Hove' }],
    ['Filton', { council: 'South Gloucestershire' }],
    ['Birkenhead', { council: 'Wirral' }],
    ['Birmingham New Street', { kind: 'station', council: 'Birmingham' }],
    ['Edinburgh Waverley', { kind: 'station', crs: 'EDB', council: 'City of Edinburgh', country: 'Scotland' }],
    ['Jersey Airport', { kind: 'airport', iata: 'JER', country: 'Jersey', inUk: false }],
  ] as const)('%s', async (query, expected) => {
    expect(await find(query)).toMatchObject(expected);
  });
});

describe('postcodes', () => {
  it('places a full postcode at its own unit point, however it is spaced or cased', async () => {
    for (const query of ['SW1A 2AA', 'sw1a2aa', 'Sw1A   2aA']) {
      const place = await find(query);
      expect(place).toMatchObject({
        kind: 'postcode',
        precision: 'postcode',
        label: 'SW1A 2AA, City of Westminster',
        postcodeDistrict: 'SW1A',
        council: 'City of Westminster',
        region: 'London',
        confidence: 1,
      });
      // 10 Downing Street (Code-Point Open: E 530047, N 179951).
      expect(haversineMeters(place.lat, place.lon, 51.50354, -0.1277)).toBeLessThan(100);
    }
    const m1 = await find('M1 1AE');
    expect(m1).toMatchObject({ postcodeDistrict: 'M1', council: 'Manchester', precision: 'postcode' });
    expect(m1.lat).toBeCloseTo(53.48, 1);
    expect(m1.lon).toBeCloseTo(-2.235, 1);
  });

  it('places the unit after a house and street, not the street or the sector', async () => {
    const place = await find('10 Wilmslow Road, Rusholme, Manchester M14 5TQ');
    expect(place).toMatchObject({
      kind: 'postcode',
      precision: 'postcode',
      postcodeDistrict: 'M14',
      council: 'Manchester',
    });
    // Code-Point Open: E 385112, N 395473.
    expect(haversineMeters(place.lat, place.lon, 53.4558, -2.22567)).toBeLessThan(100);
  });

  it('falls back to the sector when the unit is not in the data (retired or not yet issued)', async () => {
    // SW1A 1ZZ is not a unit; sector SW1A 1 is.
    expect(await find('SW1A 1ZZ')).toMatchObject({
      kind: 'postcode_sector',
      precision: 'postcode_sector',
      postcodeDistrict: 'SW1A',
    });
  });

  it('uses the postcode inside a full address', async () => {
    expect(await find('10 Downing Street, London SW1A 2AA')).toMatchObject({
      postcodeDistrict: 'SW1A',
      region: 'London',
    });
    expect(await find('Flat 3, 12 High St, Bracknell RG12 1AA')).toMatchObject({
      postcodeDistrict: 'RG12',
      council: 'Bracknell Forest',
    });
  });

  it('places an outward code alone at the district centre', async () => {
    expect(await find('M1')).toMatchObject({
      kind: 'postcode_district',
      postcodeDistrict: 'M1',
      council: 'Manchester',
    });
    expect(await find('SW1A')).toMatchObject({ kind: 'postcode_district', region: 'London' });
    expect(await find('High Street, Bracknell RG12')).toMatchObject({
      postcodeDistrict: 'RG12',
      council: 'Bracknell Forest',
    });
  });

  it('falls back to the district when the sector is unknown', async () => {
    // SW1A has only sectors 0-2 in the data; the district still places SW1A 9.
    expect(await find('SW1A 9ZZ')).toMatchObject({
      kind: 'postcode_district',
      postcodeDistrict: 'SW1A',
      region: 'London',
    });
  });

  it('gives Northern Ireland postcodes their country without a GB council', async () => {
    expect(await find('BT1 5GS')).toMatchObject({ country: 'Northern Ireland', inUk: true, council: null });
  });

  it('marks Channel Islands and Isle of Man postcodes as outside the UK', async () => {
    expect(await find('JE2 3AB')).toMatchObject({ country: 'Jersey', inUk: false });
    expect(await find('IM1 1AA')).toMatchObject({ country: 'Isle of Man', inUk: false });
  });

  it('still locates an old, withdrawn outward code, with less confidence', async () => {
    const wirral = await find('L41 2AB');
    expect(wirral).toMatchObject({ council: 'Wirral' });
    expect(wirral.confidence).toBeLessThan(1);
  });
});

describe('airports', () => {
  it.each([
    ['Heathrow Airport', 'LHR'],
    ['LHR', 'LHR'],
    ['EGLL', 'LHR'],
    ['Gatwick', 'LGW'],
    ['Edinburgh Airport', 'EDI'],
    ['Glasgow airport', 'GLA'],
    ['Manchester airport', 'MAN'],
    ['Bristol airport', 'BRS'],
    ['Belfast City Airport', 'BHD'],
    ['John Lennon Airport', 'LPL'],
    ['Stansted', 'STN'],
    ['City airport', 'LCY'],
  ])('%s -> %s', async (query, iata) => {
    expect(await find(query)).toMatchObject({ kind: 'airport', iata });
  });

  it('places a Heathrow terminal at the terminal, still as Heathrow airport', async () => {
    const t5 = await find('London Heathrow Terminal 5');
    expect(t5).toMatchObject({ kind: 'airport', iata: 'LHR', region: 'London' });
    expect(t5.label).toContain('Terminal 5');
    const airport = await find('Heathrow Airport');
    expect(Math.abs(t5.lon - airport.lon)).toBeGreaterThan(0.005);
  });

  it.each([
    ['Manchester Airport T2', 'Manchester Airport Terminal 2 (MAN)', 53.3671, -2.2795],
    ['manchester airport terminal 1', 'Manchester Airport Terminal 1 (MAN)', 53.3627, -2.2735],
    ['MAN T3', 'Manchester Airport Terminal 3 (MAN)', 53.3606, -2.2701],
    ['Gatwick North Terminal', 'London Gatwick Airport North Terminal (LGW)', 51.1607, -0.1794],
    ['gatwick south', 'London Gatwick Airport South Terminal (LGW)', 51.1562, -0.164],
  ])('places %s at that terminal’s entrance (NaPTAN)', async (query, label, lat, lon) => {
    const place = await find(query);
    expect(place).toMatchObject({ kind: 'airport', label, precision: 'point' });
    expect(haversineMeters(place.lat, place.lon, lat, lon)).toBeLessThan(50);
  });

  it('asks which airport for a city with several, offering them, rather than guessing', async () => {
    const london = await geocoder.resolve('London airport');
    expect(london.status).toBe('uncertain');
    const offered = london.status === 'found' ? [] : london.suggestions.map((s) => s.label).join(' | ');
    expect(offered).toMatch(/Heathrow/);
    expect(offered).toMatch(/Gatwick/);
  });

  it('never lets the closed Bristol Filton airfield win', async () => {
    expect((await find('Bristol airport')).iata).toBe('BRS');
    expect(await find('Filton')).toMatchObject({ kind: 'place', council: 'South Gloucestershire' });
  });

  it('gives Northern Ireland airports their country', async () => {
    expect(await find('Belfast airport')).toMatchObject({ iata: 'BFS', country: 'Northern Ireland', inUk: true });
  });
});

describe('rail stations', () => {
  it.each([
    ['Manchester Piccadilly station', 'MAN'],
    ['London Euston', 'EUS'],
    ['Euston station', 'EUS'],
    ['Euston', 'EUS'],
    ['Paddington', 'PAD'],
    ['Kings Cross', 'KGX'],
    ["King's Cross station", 'KGX'],
    ['St Pancras', 'STP'],
    ['Bristol Temple Meads', 'BRI'],
    ['Bristol Parkway', 'BPW'],
    ['Birmingham New St', 'BHM'],
    ['PAD', 'PAD'],
    ['Manchester Airport station', 'MIA'],
    ['Gatwick Airport station', 'GTW'],
  ])('%s -> %s', async (query, crs) => {
    expect(await find(query)).toMatchObject({ kind: 'station', crs });
  });

  it('reads a 3-letter code shared by an airport and a station as the airport unless told otherwise', async () => {
    expect(await find('MAN')).toMatchObject({ kind: 'airport', iata: 'MAN' });
    expect(await find('MAN station')).toMatchObject({ kind: 'station', crs: 'MAN' });
    expect(await find('STN')).toMatchObject({ kind: 'airport', iata: 'STN' });
    expect(await find('STN station')).toMatchObject({ kind: 'station', label: expect.stringContaining('Stonehaven') });
  });

  it('reads a town name that is also a station code as the town unless typed in capitals', async () => {
    expect(await find('Ely')).toMatchObject({ kind: 'place' });
    expect(await find('ELY')).toMatchObject({ kind: 'station', crs: 'ELY' });
  });

  it('puts Bristol Parkway in South Gloucestershire, not Bristol', async () => {
    expect((await find('Bristol Parkway')).council).toBe('South Gloucestershire');
  });
});

describe('places', () => {
  it.each([
    ['Glasgow', { council: 'Glasgow City', country: 'Scotland' }],
    ['Edinburgh', { council: 'City of Edinburgh' }],
    ['Camden Town', { council: 'Camden', region: 'London' }],
    ['Harlington', { council: 'Hillingdon', region: 'London' }],
    ['Newcastle', { council: 'Newcastle upon Tyne' }],
    ['Hull', { council: 'City of Kingston upon Hull' }],
    ['Newport', { country: 'Wales' }],
  ] as const)('%s', async (query, expected) => {
    expect(await find(query)).toMatchObject({ kind: 'place', ...expected });
  });

  it('picks the big Brighton over the Cornish hamlet of the same name', async () => {
    const brighton = await find('Brighton');
    expect(brighton.lat).toBeCloseTo(50.82, 1);
    expect(brighton.postcodeDistrict).toBe('BN1');
  });

  it('matches Welsh and Gaelic names', async () => {
    expect(await find('Abertawe')).toMatchObject({ council: 'Abertawe - Swansea' });
    expect(await find('Swansea')).toMatchObject({ council: 'Abertawe - Swansea' });
    expect(await find('Caerdydd')).toMatchObject({ label: expect.stringContaining('Cardiff') });
    expect(await find('Inbhir Nis')).toMatchObject({ council: 'Highland' });
  });

  it('ignores country suffixes and uses town qualifiers to choose', async () => {
    expect(await find('Bracknell, UK')).toMatchObject({ council: 'Bracknell Forest' });
    expect(await find('Brighton, England')).toMatchObject({ council: 'The City of Brighton and Hove' });
    expect(await find('Yate, Bristol')).toMatchObject({ council: 'South Gloucestershire' });
    expect(await find('Yate Bristol')).toMatchObject({ council: 'South Gloucestershire' });
    expect(await find('Newport, Isle of Wight')).toMatchObject({ council: 'Isle of Wight' });
    expect(await find('Newport, Wales')).toMatchObject({ country: 'Wales' });
  });

  it('lands on the street in the town named after it, or on the town when the street is not known', async () => {
    expect(await find('High Street, Bracknell')).toMatchObject({
      kind: 'street',
      precision: 'street',
      council: 'Bracknell Forest',
      postcodeDistrict: 'RG12',
    });
    expect(await find('Station Road, Filton')).toMatchObject({ kind: 'street', council: 'South Gloucestershire' });
    expect(await find('Mansfield Road Nottingham')).toMatchObject({ kind: 'street', postcodeDistrict: 'NG1' });
    // London's streets are not in the street data (docs/pricing.md, Geocoding): the town, said to be only that.
    expect(await find('Oxford Street, London')).toMatchObject({ region: 'London', precision: 'town_centre' });
  });

  it('reads the street from an address line with a house number, as people write addresses', async () => {
    expect(await find('12 Sauchiehall Street, Glasgow')).toMatchObject({
      kind: 'street',
      precision: 'street',
      postcodeDistrict: 'G2',
    });
    expect(await find('22 Station Road, Filton')).toMatchObject({ kind: 'street', council: 'South Gloucestershire' });
    expect(await find('5 Mansfield Road, Nottingham')).toMatchObject({ kind: 'street', postcodeDistrict: 'NG1' });
    // A house number on a street we do not know is not answered with the town centre: its
    // postcode is asked for, naming the street and the town as the passenger gave them.
    expect(await geocoder.resolve('7 Nowhere Road, Nottingham')).toMatchObject({
      status: 'uncertain',
      ask: { street: 'Nowhere Road', town: 'Nottingham' },
    });
  });

  it('asks for the postcode of a house on a street it cannot place, offering namesakes only when no town is named', async () => {
    for (const query of ['10 Downing Street, London', '10 downing st, london', 'Flat 2, 10 Downing Street, London']) {
      const asked = await geocoder.resolve(query);
      expect(asked, query).toMatchObject({ status: 'uncertain', ask: { street: 'Downing Street', town: 'London' } });
      // Not the centre of Westminster, nor a Downing Street in another town.
      expect(asked.status === 'found' ? [] : asked.suggestions, query).toEqual([]);
    }
    const anywhere = await geocoder.resolve('10 Downing Street');
    expect(anywhere).toMatchObject({ ask: { street: 'Downing Street', town: null } });
    const offered = anywhere.status === 'found' ? [] : anywhere.suggestions.map((s) => s.label);
    expect(offered).toContain('10 Downing Street, Cambridge');
    // Sent back as the query, a suggestion is that street, house number and all.
    expect(await find(offered[0]!)).toMatchObject({ kind: 'street', precision: 'street', town: 'Cambridge' });

    const bakerStreet = await geocoder.resolve('221b baker st');
    expect(bakerStreet).toMatchObject({ ask: { street: 'Baker Street', town: null } });
    expect(bakerStreet.status === 'found' ? [] : bakerStreet.suggestions.map((s) => s.label)[0]).toMatch(
      /^221B Baker Street, /,
    );

    const deansgate = await geocoder.resolve('1 deansgate manchester');
    expect(deansgate).toMatchObject({ status: 'uncertain', ask: { street: 'Deansgate', town: 'Manchester' } });
    // In the town named, only what shares the street's name: the station, not Deansgate in Blackpool.
    expect(deansgate.status === 'found' ? [] : deansgate.suggestions.map((s) => s.label)).toEqual([
      'Deansgate (DGT) station',
    ]);
  });

  it('still answers a numbered address with its postcode at the postcode', async () => {
    expect(await find('221B Baker Street, London NW1 6XE')).toMatchObject({
      precision: 'postcode',
      postcodeDistrict: 'NW1',
    });
    expect(await find('10 Downing Street, London SW1A 2AA')).toMatchObject({ precision: 'postcode' });
  });

  it('refuses a street named without its town rather than guess which town', async () => {
    const result = await geocoder.resolve('Gloucester Road');
    expect(result.status).not.toBe('found');
  });

  it('answers for the Crown dependencies as outside the UK', async () => {
    expect(await find('Jersey')).toMatchObject({ country: 'Jersey', inUk: false });
    expect(await find('Isle of Man')).toMatchObject({ country: 'Isle of Man', inUk: false });
  });
});

describe('spelling mistakes', () => {
  it.each([
    ['Manchster Piccadilly', { kind: 'station', crs: 'MAN' }],
    ['Heathrow Airprot', { kind: 'airport', iata: 'LHR' }],
    ['Edinbrugh', { kind: 'place', council: 'City of Edinburgh' }],
    ['Birmingam', { kind: 'place', council: 'Birmingham' }],
    ['Glasow Central', { kind: 'station', crs: 'GLC' }],
    ['Gatwik', { kind: 'airport', iata: 'LGW' }],
  ] as const)('%s still finds it, less confidently', async (query, expected) => {
    const result = await find(query);
    expect(result).toMatchObject(expected);
    expect(result.confidence).toBeLessThan(0.9);
    expect(result.confidence).toBeGreaterThan(0.5);
  });
});

describe('nothing to find', () => {
  it.each(['', '   ', 'Qwxyzzy Plonk', 'zzzzzzzzzz', '!!!'])('%j -> null', async (query) => {
    expect(await geocoder.geocode(query)).toBeNull();
  });
});

describe('confidence', () => {
  it('is 1 for exact codes and high for exact names', async () => {
    expect((await find('LHR')).confidence).toBe(1);
    expect((await find('SW1A 1AA')).confidence).toBe(1);
    expect((await find('Glasgow Central')).confidence).toBeGreaterThanOrEqual(0.9);
  });
});
