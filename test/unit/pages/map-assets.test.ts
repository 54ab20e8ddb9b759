import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { LEAFLET_CSS, LEAFLET_JS, tileImageSource } from '../../../src/pages/map-assets.js';

const env = { DATABASE_URL: 'postgres://localhost/x' };

describe('the map assets and tiles', () => {
  it('links Leaflet by a hash of its content, with the integrity the browser checks', () => {
    for (const asset of [LEAFLET_JS, LEAFLET_CSS]) {
      const hex = createHash('sha256').update(asset.body).digest('hex');
      expect(asset.href).toMatch(new RegExp(`^/assets/leaflet\\.(js|css)\\?v=${hex.slice(0, 12)}$`));
      expect(asset.integrity).toBe(`sha384-${createHash('sha384').update(asset.body).digest('base64')}`);
    }
    expect(LEAFLET_JS.body.toString('utf8')).toContain('Leaflet');
  });

  it('takes MAP_TILE_URL as a tile template whose origin a CSP can name, and no tiles when empty', () => {
    expect(loadConfig(env).MAP_TILE_URL).toBe('');
    expect(tileImageSource('')).toBeNull();
    for (const [url, source] of [
      ['https://tile.openstreetmap.org/{z}/{x}/{y}.png', 'https://tile.openstreetmap.org'],
      ['https://{s}.tile.example.org/{z}/{x}/{-y}.png', 'https://*.tile.example.org'],
      ['http://127.0.0.1:8080/osm/{z}/{x}/{y}.png', 'http://127.0.0.1:8080'],
    ] as const) {
      expect(
        loadConfig({ ...env, MAP_TILE_URL: url, MAP_TILE_ATTRIBUTION: 'Map data © OpenStreetMap contributors' })
          .MAP_TILE_URL,
      ).toBe(url);
      expect(tileImageSource(url)).toBe(source);
    }
    for (const bad of [
      'tile.openstreetmap.org/{z}/{x}/{y}.png',
      'https://tile.openstreetmap.org/{z}/{x}.png',
      'https://tiles.{s}.example.org/{z}/{x}/{y}.png',
      "https://x.org; script-src 'unsafe-inline'/{z}/{x}/{y}",
    ]) {
      expect(() => loadConfig({ ...env, MAP_TILE_URL: bad, MAP_TILE_ATTRIBUTION: 'Map data' }), bad).toThrow(
        /MAP_TILE_URL/,
      );
    }
  });
});
