import type { FastifyInstance } from 'fastify';

export async function docsRoutes(app: FastifyInstance): Promise<void> {
  // The same generated document at both published locations (spec 4.14).
  for (const url of ['/api/public/openapi.json', '/api/public/v1/openapi.json']) {
    app.get(url, { schema: { hide: true } }, async () => app.swagger());
  }
}
