import type { FastifyInstance } from 'fastify';
import { STATIC_ASSETS } from '../pages/map-assets.js';
import { pageScriptAssets } from '../pages/page-scripts.js';

// The few files pages load besides themselves: Leaflet for the tracking map, and each page's own
// script (src/pages/page-scripts.ts), bundled before the first request so a broken bundle stops
// the start, not a page. Pages link them with a content hash in the query, so a year's caching
// never serves a stale copy.

export async function assetRoutes(app: FastifyInstance): Promise<void> {
  for (const asset of [...STATIC_ASSETS, ...pageScriptAssets().values()]) {
    const path = asset.href.split('?')[0]!;
    app.get(path, { schema: { hide: true }, logLevel: 'warn' }, async (_request, reply) =>
      reply
        .headers({
          'content-type': asset.contentType,
          'cache-control': 'public, max-age=31536000, immutable',
          'x-content-type-options': 'nosniff',
          // Loaded by our own pages only; nothing else needs to read them.
          'cross-origin-resource-policy': 'same-origin',
        })
        .send(asset.body),
    );
  }
}
