import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

// Leaflet, served by this service from its own copy in node_modules: the tracking page's CSP then
// needs only 'self' for it, and no passenger's browser tells a CDN which booking it is watching.
// Read once when the process starts; the URLs carry the content's hash, so browsers may keep the
// files for a year and still get a new Leaflet the moment it is upgraded.

export interface StaticAsset {
  /** Path on this service, with the content's hash as a cache buster. */
  href: string;
  /** Subresource Integrity: the browser refuses the file if it is not exactly this. */
  integrity: string;
  contentType: string;
  body: Buffer;
}

const require = createRequire(import.meta.url);

/** A file served under `path`, its URL versioned by its content (also the page scripts, page-scripts.ts). */
export function hashedAsset(path: string, body: Buffer, contentType: string): StaticAsset {
  const version = createHash('sha256').update(body).digest('hex').slice(0, 12);
  return {
    href: `${path}?v=${version}`,
    integrity: `sha384-${createHash('sha384').update(body).digest('base64')}`,
    contentType,
    body,
  };
}

function asset(path: string, file: string, contentType: string): StaticAsset {
  return hashedAsset(path, readFileSync(require.resolve(file)), contentType);
}

export const LEAFLET_JS = asset('/assets/leaflet.js', 'leaflet/dist/leaflet.js', 'text/javascript; charset=utf-8');
export const LEAFLET_CSS = asset('/assets/leaflet.css', 'leaflet/dist/leaflet.css', 'text/css; charset=utf-8');

/** Served under their path (without the query). */
export const STATIC_ASSETS: readonly StaticAsset[] = [LEAFLET_JS, LEAFLET_CSS];

/**
 * The CSP source the tiles of a MAP_TILE_URL template load from: its origin, with an `{s}`
 * subdomain placeholder as the wildcard CSP allows in that one place. Empty for no tiles.
 */
export function tileImageSource(tileUrl: string): string | null {
  const m = /^(https?:\/\/)(\{s\}\.)?([A-Za-z0-9.-]+(?::\d+)?)\//.exec(tileUrl);
  if (!m) return null;
  return `${m[1]}${m[2] ? '*.' : ''}${m[3]}`;
}

/** A piece of the tile provider's credit: words, or words linking to its terms. */
export type CreditPart = { text: string; href?: string };

const CREDIT_LINK = /\[([^\]]+)\]\((https:\/\/[^\s()]+)\)/g;

/**
 * MAP_TILE_ATTRIBUTION as text and links: "[words](https://...)" is a link, everything else
 * words (the page escapes both; config.ts refuses HTML and any other kind of address).
 */
export function creditParts(attribution: string): CreditPart[] {
  const parts: CreditPart[] = [];
  let from = 0;
  for (const m of attribution.matchAll(CREDIT_LINK)) {
    if (m.index > from) parts.push({ text: attribution.slice(from, m.index) });
    parts.push({ text: m[1] ?? '', href: m[2] ?? '' });
    from = m.index + m[0].length;
  }
  if (from < attribution.length) parts.push({ text: attribution.slice(from) });
  return parts;
}
