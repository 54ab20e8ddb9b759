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
    expect(await geocoder.geocode('the Hilton on Deansgate')).toMatchObject({ kind: 'poi', town: 'Manchester', postcodeDistrict: 'M3' });
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
