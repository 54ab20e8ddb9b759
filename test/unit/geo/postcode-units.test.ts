import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadGazetteerSync } from '../../../src/geo/gazetteer.js';
import { haversineMeters } from '../../../src/geo/haversine.js';
import { DEFAULT_POSTCODE_UNITS_PATH, PostcodeUnits, postcodeUnits } from '../../../src/geo/postcode-units.js';

// The bundled index (data/gazetteer/postcode_units.bin.gz, built by scripts/build-postcodes.py
// from OS Code-Point Open 2025.2.0). Expected points: the Code-Point eastings and northings
// converted to WGS84. The build's conversion gives the OS worked example (E 651409.903,
// N 313177.270) to within 1 m of its published answer, and the same WGS84 as pyproj, to 1e-5
// degree, for the OSGB points in bench/data/destinations.csv (E 530059 N 179937, E 529414 N 180598,
// E 383683 N 397930).
const units = postcodeUnits();

describe('unit postcode index', () => {
  it('holds every GB unit with a point of its own', () => {
    expect(units).not.toBeNull();
    expect(units!.unitCount).toBe(1_742_406);
    expect(units!.sectorCount).toBe(10_846);
  });

  it.each([
    // postcode, Code-Point easting, northing, WGS84 lat, lon
    ['SW1A 1AA', 529090, 179645, 51.50101, -0.14159],
    ['M14 5TQ', 385112, 395473, 53.4558, -2.22567],
    ['CF10 1EP', 318200, 175860, 51.47576, -3.17921],
    ['EH1 1YZ', 325597, 673676, 55.95033, -3.19302],
    ['G2 1DY', 259228, 665336, 55.86059, -4.25076],
    ['TR18 4AA', 147604, 30040, 50.11666, -5.53197],
    ['ZE1 0AA', 447759, 1141280, 60.15322, -1.1416],
  ] as const)('%s (E %d, N %d) is within 100 m of its Code-Point point', (postcode, _e, _n, lat, lon) => {
    const point = units!.find(postcode);
    expect(point?.postcode).toBe(postcode);
    expect(haversineMeters(point!.lat, point!.lon, lat, lon)).toBeLessThan(100);
  });

  it('agrees with the independent sector centroids (ONS postcode lookup): every unit near its sector', () => {
    const gazetteer = loadGazetteerSync();
    for (const postcode of [
      'SW1A 1AA',
      'M14 5TQ',
      'CF10 1EP',
      'EH1 1YZ',
      'G2 1DY',
      'TR18 4AA',
      'ZE1 0AA',
      'M1 1AE',
      'M14 6LS',
    ]) {
      const point = units!.find(postcode)!;
      const sector = gazetteer.sector(postcode.slice(0, -2))!;
      expect(haversineMeters(point.lat, point.lon, sector.lat, sector.lon), postcode).toBeLessThan(2_000);
    }
  });

  it('reads any spacing and case', () => {
    const expected = units!.find('M14 5TQ');
    for (const variant of ['m145tq', 'M14  5TQ', ' m14 5tq ', 'm14\t5Tq'])
      expect(units!.find(variant)).toEqual(expected);
  });

  it('knows nothing of a postcode that does not exist, is malformed, or is outside Great Britain', () => {
    for (const bogus of ['SW1A 1ZZ', 'XX1 1AA', 'M14 5CI', 'M145', 'M14 5T', 'AAAA 1AAA', '', 'BT1 5GS', 'JE2 3AB']) {
      expect(units!.find(bogus), bogus).toBeNull();
    }
    // A Code-Point unit with no coordinates (positional quality 90) is left to the sector.
    expect(units!.find('AB43 1AJ')).toBeNull();
  });

  it('refuses a file that is not an index', () => {
    expect(() => new PostcodeUnits(new TextEncoder().encode('not an index at all'))).toThrow(/PCU1/);
    expect(PostcodeUnits.fromGzip(readFileSync(DEFAULT_POSTCODE_UNITS_PATH)).unitCount).toBe(units!.unitCount);
  });
});
