import { beforeAll, describe, expect, it } from 'vitest';
import { wordsAlign } from '../../../src/geo/edit-distance.js';
import { haversineMeters } from '../../../src/geo/haversine.js';
import { createGeoProviders, preloadGazetteer } from '../../../src/geo/index.js';

// Never a confident wrong town: each of these once resolved, with confidence, to a place in
// another town (York Minster to Worminster in Somerset, The Shard to The Wharf in Staffordshire).
// The geocoder must now either find the place itself or refuse with suggestions.
const { geocoder } = createGeoProviders({ geocoder: 'embedded', router: 'estimate' });
beforeAll(async () => preloadGazetteer(), 30_000);

const TRUE_PLACES: Array<[string, { lat: number; lon: number }]> = [
  ['York Minster', { lat: 53.9621, lon: -1.0819 }],
  ['The Shard', { lat: 51.5045, lon: -0.0865 }],
  ['Piccadilly Circus', { lat: 51.5099, lon: -0.1342 }],
  ['Alton Towers', { lat: 52.9874, lon: -1.8865 }],
  ['St Thomas Hospital London', { lat: 51.4989, lon: -0.1187 }],
  ['Buckingham Palace', { lat: 51.5014, lon: -0.1419 }],
];

describe('never a confident wrong town', () => {
  it.each(TRUE_PLACES)('%s is found where it is, or refused with suggestions', async (query, truth) => {
    const result = await geocoder.resolve(query);
    if (result.status === 'found') {
      expect(haversineMeters(result.place.lat, result.place.lon, truth.lat, truth.lon)).toBeLessThan(1000);
    } else {
      expect(['uncertain', 'not_found']).toContain(result.status);
      expect(result.suggestions.length).toBeLessThanOrEqual(5);
    }
  });

  it('answers in the town a query names, or not at all', async () => {
    const result = await geocoder.resolve('St Thomas Hospital London');
    if (result.status === 'found') expect(result.place.region).toBe('London');
    else expect(result.suggestions[0]?.town).not.toBe('Exeter');
  });

  it('keeps typos inside words, never turning one word into part of another name', () => {
    expect(wordsAlign('manchster piccadilly', 'manchester piccadilly')).toBe(true);
    expect(wordsAlign('edinbrugh', 'edinburgh')).toBe(true);
    expect(wordsAlign('kingscross', 'kings cross')).toBe(true);
    expect(wordsAlign('york minster', 'worminster')).toBe(false);
    expect(wordsAlign('the shard', 'the wharf')).toBe(false);
    expect(wordsAlign('alton towers', 'aston rogers')).toBe(false);
  });

  it('finds a hotel by its brand and street, as people name it', async () => {
    // Not the villages called Hilton in Highland, Aberdeen or Derbyshire.
    expect(await geocoder.geocode('the Hilton on Deansgate')).toMatchObject({
      kind: 'poi',
      town: 'Manchester',
      postcodeDistrict: 'M3',
    });
    expect(await geocoder.geocode('YOTEL Deansgate')).toMatchObject({ kind: 'poi', town: 'Manchester' });
  });

  it('says how precise every answer is', async () => {
    expect((await geocoder.geocode('Manchester Piccadilly'))?.precision).toBe('point');
    expect((await geocoder.geocode('SW1A 1AA'))?.precision).toBe('postcode');
    expect((await geocoder.geocode('SW1A 1'))?.precision).toBe('postcode_sector');
    expect((await geocoder.geocode('M1'))?.precision).toBe('postcode_district');
    expect((await geocoder.geocode('Leeds'))?.precision).toBe('town_centre');
  });
});

// Issue 23: streets named after towns, the Crown dependencies and Northern Ireland.
describe('never a street in the wrong town', () => {
  const near = (place: { lat: number; lon: number }, lat: number, lon: number, km: number) =>
    expect(haversineMeters(place.lat, place.lon, lat, lon)).toBeLessThan(km * 1000);

  it('reads "Wilmslow Road" as a street, and the locality and town named constrain it', async () => {
    // Not Wilmslow Road in Wilmslow (SK9), 12 km south: our street data has no Manchester streets,
    // so the honest answer is Rusholme, said to be a town centre; with a house number, a question.
    const place = await geocoder.geocode('Wilmslow Road, Rusholme, Manchester');
    expect(place).toMatchObject({ town: 'Rusholme', precision: 'town_centre' });
    near(place!, 53.4519, -2.2078, 1);
    expect(await geocoder.resolve('25 Wilmslow Road, Rusholme, Manchester')).toMatchObject({
      status: 'uncertain',
      ask: { street: 'Wilmslow Road', town: 'Rusholme' },
    });
    for (const query of [
      'Wilmslow Road, Manchester',
      'Oxford Road, Manchester',
      'Chester Road, Stretford',
      'Leeds Road, Bradford',
      'Manchester Road, Huddersfield',
      'Manchester Road Huddersfield',
    ]) {
      const town = query
        .split(/,| Road /)
        .at(-1)!
        .trim();
      const answer = await geocoder.geocode(query);
      expect(answer?.label, query).toContain(town);
    }
    expect((await geocoder.geocode('London Road, Sheffield'))?.town).toBe('Sheffield');
    expect((await geocoder.geocode('Bristol Road, Birmingham'))?.town).toBe('Birmingham');
  });

  it('asks which town for a bare street name, even one a suburb is named after', async () => {
    // "Chester Road" is a suburb of Birmingham in OS Open Names, and a street in dozens of towns.
    for (const query of ['Chester Road', 'London Road', 'Mill Hill'])
      expect((await geocoder.resolve(query)).status, query).not.toBe('found');
    expect((await geocoder.geocode('Chester Road, Birmingham'))?.town).toBe('Birmingham');
  });

  it('never answers a bare street named after a town with the town', async () => {
    const result = await geocoder.resolve('Wilmslow Road');
    expect(result.status).not.toBe('found');
    if (result.status !== 'found')
      expect(result.suggestions.map((s) => s.label)).not.toContain('Wilmslow, Cheshire East');
  });

  it('finds Crown dependency and Northern Ireland places there, never a namesake in Great Britain', async () => {
    const cases: Array<[string, string, number, number]> = [
      ['St Helier, Jersey', 'Jersey', 49.188, -2.105],
      ['Douglas, Isle of Man', 'Isle of Man', 54.15, -4.483],
      ['St Peter Port, Guernsey', 'Guernsey', 49.46, -2.535],
      ['Belfast', 'Northern Ireland', 54.583, -5.933],
      ['Derry/Londonderry', 'Northern Ireland', 54.998, -7.309],
      ['Londonderry', 'Northern Ireland', 54.998, -7.309],
      ['Newry', 'Northern Ireland', 54.178, -6.337],
      ['Lisburn', 'Northern Ireland', 54.523, -6.035],
      ['Ramsey, Isle of Man', 'Isle of Man', 54.323, -4.385],
    ];
    for (const [query, country, lat, lon] of cases) {
      const place = await geocoder.geocode(query);
      expect(place?.country, query).toBe(country);
      near(place!, lat, lon, 2);
    }
    expect((await geocoder.geocode('St Helier, Jersey'))?.inUk).toBe(false);
  });

  it('places an island postcode at a town the address names on that island, and refuses islands it has no place for', async () => {
    expect(await geocoder.geocode('Parliament Street, Ramsey IM8 1AA')).toMatchObject({
      town: 'Ramsey',
      country: 'Isle of Man',
      precision: 'town_centre',
    });
    const alderney = await geocoder.resolve('Victoria Street, Alderney GY9 3TA');
    expect(alderney.status).toBe('not_found');
    if (alderney.status !== 'found') expect(alderney.suggestions).toEqual([]);
  });

  it('asks rather than guesses between namesakes across the sea', async () => {
    for (const [query, where] of [
      ['St Helier', ['Jersey', 'Sutton']],
      ['Bangor', ['Northern Ireland', 'Gwynedd']],
    ] as const) {
      const result = await geocoder.resolve(query);
      expect(result.status, query).toBe('uncertain');
      if (result.status !== 'found')
        for (const w of where)
          expect(
            result.suggestions.some((s) => s.label.includes(w)),
            `${query}: ${w}`,
          ).toBe(true);
    }
    expect((await geocoder.geocode('Bangor, Gwynedd'))?.country).toBe('Wales');
    expect((await geocoder.geocode('Newcastle'))?.label).toBe('Newcastle upon Tyne');
  });

  it('keeps an answer in the country its postcode names', async () => {
    // IM7 is not Douglas, and Wilmslow is not on the Isle of Man: refused, not answered in Cheshire.
    const result = await geocoder.resolve('Main Street, Wilmslow IM7 3BD');
    expect(result.status).not.toBe('found');
    if (result.status !== 'found') for (const s of result.suggestions) expect(s.label).toContain('Isle of Man');
  });

  it('offers suggestions only in the town a query names', async () => {
    const result = await geocoder.resolve('Headingley Stadium, Leeds');
    if (result.status !== 'found') {
      expect(result.suggestions.length).toBeGreaterThan(0);
      for (const s of result.suggestions) expect(s.label).not.toContain('Maidstone');
    }
  });
});
