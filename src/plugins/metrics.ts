import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createApiMetrics, type ApiMetrics } from '../ops/metrics.js';

declare module 'fastify' {
  interface FastifyInstance {
    metrics: ApiMetrics;
  }
}

/**
 * Counts every reply by method, route template and status, with its latency. The route is the
 * template Fastify matched (`/track/:ref`), never the URL asked for, so a scanner walking random
 * paths adds no series; anything unmatched is one `unmatched` route.
 */
export const metricsPlugin = fp(
  async (app: FastifyInstance, opts: { alertMinutes: number; codeCeilings: { sms: number; email: number } }) => {
    const metrics = createApiMetrics(app.sql, opts.alertMinutes, undefined, opts.codeCeilings);
    app.decorate('metrics', metrics);
    app.addHook('onResponse', async (request, reply) => {
      const labels = {
        method: request.method,
        route: request.routeOptions.url ?? 'unmatched',
        status: String(reply.statusCode),
      };
      metrics.requests.inc(labels);
      metrics.duration.observe(labels, reply.elapsedTime / 1000);
    });
  },
  { name: 'metrics', dependencies: ['postgres'] },
);
