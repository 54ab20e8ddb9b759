import type { FastifyInstance } from 'fastify';

const withTimeout = <T>(p: Promise<T>, ms: number): Promise<T> =>
  Promise.race([p, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms))]);

export async function healthRoutes(app: FastifyInstance): Promise<void> {
  // Liveness: the process answers. Never touches dependencies, so a database blip does not get
  // the process restarted.
  app.get('/healthz', { schema: { hide: true }, logLevel: 'warn' }, async () => ({ status: 'ok' }));

  // Readiness: only when both Postgres and Temporal answer, so a load balancer holds traffic back.
  app.get('/readyz', { schema: { hide: true }, logLevel: 'warn' }, async (_request, reply) => {
    const checks = await Promise.allSettled([
      withTimeout(app.sql`select 1`, 2000),
      withTimeout(app.temporal.workflowService.getSystemInfo({}), 2000),
    ]);
    const [pg, temporal] = checks.map((c) => (c.status === 'fulfilled' ? 'ok' : 'unavailable'));
    const ready = pg === 'ok' && temporal === 'ok';
    return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not_ready', postgres: pg, temporal });
  });
}
