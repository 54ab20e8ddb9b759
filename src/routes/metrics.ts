import type { FastifyInstance, FastifyRequest } from 'fastify';
import { bearerToken, hashSecret, sameDigest } from '../auth/secrets.js';
import { ProblemError } from '../http/problem.js';

// GET /metrics for Prometheus. With METRICS_TOKEN set, a scraper sends it as a Bearer token
// (compared in constant time); without one, only a caller on this machine is answered, judged by
// the socket itself (never X-Forwarded-For, which a client can write) and refused if a proxy on
// this machine forwarded it, so a reverse proxy in front never opens it to the internet.

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

function allowed(request: FastifyRequest, token: string | undefined): boolean {
  if (token) {
    const given = bearerToken(request.headers.authorization);
    return given !== null && sameDigest(hashSecret(given), hashSecret(token));
  }
  const forwarded = request.headers['x-forwarded-for'] !== undefined || request.headers.forwarded !== undefined;
  return LOOPBACK.has(request.socket.remoteAddress ?? '') && !forwarded;
}

export async function metricsRoutes(app: FastifyInstance): Promise<void> {
  app.get('/metrics', { schema: { hide: true }, logLevel: 'warn' }, async (request, reply) => {
    const token = app.config.METRICS_TOKEN;
    if (!allowed(request, token)) {
      if (token)
        throw new ProblemError(401, 'metrics_token_required', 'A valid metrics token is required.', {
          headers: { 'www-authenticate': 'Bearer' },
        });
      throw new ProblemError(
        403,
        'metrics_local_only',
        'Metrics are served only to this machine (set METRICS_TOKEN to scrape from elsewhere).',
      );
    }
    const body = await app.metrics.registry.metrics();
    return reply
      .header('content-type', app.metrics.registry.contentType)
      .header('cache-control', 'no-store')
      .send(body);
  });
}
