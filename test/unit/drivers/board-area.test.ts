// What the upcoming-jobs board shows of a pickup or drop-off before the job is taken: where, never
// the door (src/drivers/upcoming.ts, areaOf).
import { describe, expect, it } from 'vitest';
import { areaOf } from '../../../src/drivers/upcoming.js';

const place = (over: Partial<Parameters<typeof areaOf>[0]>) => ({
  label: '1 Deansgate, Manchester M3 4LQ',
  kind: 'street',
  lat: 53.48,
  lon: -2.25,
  postcodeDistrict: 'M3',
  council: 'Manchester',
  ...over,
});

describe('areaOf', () => {
  it('gives a street address as its postcode district and town, never the house, street or full postcode', () => {
    expect(areaOf(place({}))).toBe('M3, Manchester');
    expect(areaOf(place({ kind: 'postcode', label: 'M3 4LQ, Manchester' }))).toBe('M3, Manchester');
  });

  it('names an airport or a station, public places a driver plans for', () => {
    expect(areaOf(place({ kind: 'airport', label: 'Manchester Airport (MAN)', postcodeDistrict: 'M90' }))).toBe(
      'Manchester Airport (MAN)',
    );
    expect(areaOf(place({ kind: 'station', label: 'Manchester Piccadilly station' }))).toBe(
      'Manchester Piccadilly station',
    );
  });

  it('falls back to the town alone, then the last part of the label, and never shows a label with no town', () => {
    expect(areaOf(place({ postcodeDistrict: null }))).toBe('Manchester');
    expect(areaOf(place({ council: null }))).toBe('M3');
    expect(areaOf(place({ postcodeDistrict: null, council: null, label: '14 Wilmslow Road, Rusholme' }))).toBe(
      'Rusholme',
    );
    expect(areaOf(place({ postcodeDistrict: null, council: null }))).toBe('Manchester M3');
    expect(areaOf(place({ postcodeDistrict: null, council: null, label: '14 Wilmslow Road' }))).toBe(
      'See the job once you take it',
    );
  });
});
