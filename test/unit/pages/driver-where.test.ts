// Where the passenger's driver is, in words (the tracking page without a map, and above one), and
// the map's tile source with the credit its provider requires.
import { beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { NEAR_STREET_M, NearestPlace } from '../../../src/geo/nearest-place.js';
import { driverWhereText, milesText } from '../../../src/pages/browser/driver-where.js';
import { creditParts } from '../../../src/pages/map-assets.js';

const env = { DATABASE_URL: 'postgres://localhost/x' };
const OSM_TILES = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';
const OSM_CREDIT = '© [OpenStreetMap](https://www.openstreetmap.org/copyright) contributors';

describe('where the driver is, in words', () => {
  it('says distances in miles as a UK sign does', () => {
    expect(milesText(0)).toBe('less than 0.1 miles');
    expect(milesText(70)).toBe('less than 0.1 miles');
    expect(milesText(161)).toBe('0.1 miles');
    expect(milesText(1290)).toBe('0.8 miles');
    expect(milesText(1609)).toBe('1 mile');
    expect(milesText(4023)).toBe('2.5 miles');
    expect(milesText(15_900)).toBe('9.9 miles');
    expect(milesText(16_100)).toBe('10 miles');
    expect(milesText(19_312)).toBe('12 miles');
  });

  it('names the street or area, the distance and the minutes; at the pickup, that the driver is there', () => {
    const coming = {
      status: 'en_route',
      driver_near: 'Oxford Road, Manchester',
      driver_distance_m: 1290,
      eta_minutes: 4,
    };
    expect(driverWhereText(coming)).toBe('Your driver is near Oxford Road, Manchester, 0.8 miles away: about 4 min.');
    expect(driverWhereText({ ...coming, status: 'assigned' })).toBe(
      'Your driver is near Oxford Road, Manchester, 0.8 miles away: about 4 min.',
    );
    // Nowhere named near them (open country): the distance and the minutes.
    expect(driverWhereText({ ...coming, driver_near: null, driver_distance_m: 19_312, eta_minutes: 33 })).toBe(
      'Your driver is 12 miles away: about 33 min.',
    );
    expect(driverWhereText({ ...coming, status: 'arrived', eta_minutes: null, driver_distance_m: 20 })).toBe(
      'Your driver is at the pickup.',
    );
    // No position to tell of: nothing (the card is hidden).
    expect(driverWhereText({ status: 'en_route', driver_near: null, driver_distance_m: null, eta_minutes: null })).toBe(
      '',
    );
  });

  describe('the bundled places', () => {
    let places: NearestPlace;
    beforeAll(async () => {
      places = await NearestPlace.load();
    }, 60_000);

    it('names the street a car is on, with its town; else the suburb or village; else the town; else nothing', () => {
      // Norwich: Prince of Wales Road, by the station (a street point within NEAR_STREET_M).
      expect(places.near(52.6285, 1.3002)).toMatch(
        /^[A-Z][A-Za-z' .-]+ (Road|Street|Hill|Plain|Lane|Quay|Row), Norwich$/,
      );
      // Rusholme, Manchester: few streets are on file there, so the suburb.
      expect(places.near(53.45, -2.22)).toBe('Rusholme, Manchester');
      // The Cairngorms: nothing named within reach.
      expect(places.near(57.0, -4.5)).toBeNull();
      expect(NEAR_STREET_M).toBeLessThanOrEqual(500);
    });
  });
});

describe("the map's tile source and its credit", () => {
  it('needs the credit the provider requires whenever tiles are configured, and refuses HTML in it', () => {
    expect(loadConfig(env)).toMatchObject({ MAP_TILE_URL: '', MAP_TILE_ATTRIBUTION: '' });
    expect(() => loadConfig({ ...env, MAP_TILE_URL: OSM_TILES })).toThrow(
      /MAP_TILE_ATTRIBUTION: is required when MAP_TILE_URL is set/,
    );
    expect(() => loadConfig({ ...env, MAP_TILE_URL: OSM_TILES, MAP_TILE_ATTRIBUTION: '   ' })).toThrow(
      /MAP_TILE_ATTRIBUTION/,
    );
    expect(loadConfig({ ...env, MAP_TILE_URL: OSM_TILES, MAP_TILE_ATTRIBUTION: ` ${OSM_CREDIT} ` })).toMatchObject({
      MAP_TILE_URL: OSM_TILES,
      MAP_TILE_ATTRIBUTION: OSM_CREDIT,
    });
    for (const bad of [
      '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors',
      '&copy; OpenStreetMap contributors',
      '[OpenStreetMap](javascript:alert(1))',
      '[OpenStreetMap](http://www.openstreetmap.org/copyright)',
      'x'.repeat(301),
    ]) {
      expect(() => loadConfig({ ...env, MAP_TILE_URL: OSM_TILES, MAP_TILE_ATTRIBUTION: bad }), bad).toThrow(
        /MAP_TILE_ATTRIBUTION/,
      );
    }
  });

  it('reads [words](https://...) as a link and everything else as words', () => {
    expect(creditParts(OSM_CREDIT)).toEqual([
      { text: '© ' },
      { text: 'OpenStreetMap', href: 'https://www.openstreetmap.org/copyright' },
      { text: ' contributors' },
    ]);
    expect(creditParts('[Tiles © Example](https://example.com/terms), data [OSM](https://osm.org/copyright)')).toEqual([
      { text: 'Tiles © Example', href: 'https://example.com/terms' },
      { text: ', data ' },
      { text: 'OSM', href: 'https://osm.org/copyright' },
    ]);
    expect(creditParts('Map data © OpenStreetMap contributors')).toEqual([
      { text: 'Map data © OpenStreetMap contributors' },
    ]);
    expect(creditParts('')).toEqual([]);
  });
});
