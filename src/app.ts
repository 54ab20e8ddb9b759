import { randomUUID } from 'node:crypto';
import fastifyRateLimit, { type RateLimitOptions } from '@fastify/rate-limit';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { Client } from '@temporalio/client';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import {
  jsonSchemaTransform,
  jsonSchemaTransformObject,
  serializerCompiler,
  validatorCompiler,
} from 'fastify-type-provider-zod';
import type { Config } from './config.js';
import type { Sql } from './db/sql.js';
import type { Geocoder, Router } from './geo/types.js';
import type { Notifier } from './notify/notifier.js';
import { ProblemError } from './http/problem.js';
import { createPgRateLimitStore } from './http/pg-rate-limit-store.js';
import { callerPlugin } from './plugins/caller.js';
import { errorHandlerPlugin } from './plugins/error-handler.js';
import { bookingRoutes } from './routes/bookings.js';
import { docsRoutes } from './routes/docs.js';
import { driverRoutes } from './routes/driver.js';
import { healthRoutes } from './routes/health.js';
import { pageRoutes } from './routes/pages.js';
import { quoteRoutes } from './routes/quotes.js';
import { v1BookingRoutes } from './routes/v1-bookings.js';

export interface AppDeps {
  config: Config;
  sql: Sql;
  temporal: Client;
  geo: { geocoder: Geocoder; router: Router };
  /** Sends passenger emails from the API (verification codes); job cards go out from the worker. */
  notifier: Notifier;
  now?: () => Date;
  /** Filled in by buildApp: the shared hourly quote allowance, applied by both quote routes. */
  quoteRateLimit?: RateLimitOptions;
  /** Filled in by buildApp: the hourly allowance of routes that price and book in one call. */
  bookingRateLimit?: RateLimitOptions;
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

export async function buildApp(deps: AppDeps, opts: { logger?: FastifyServerOptions['logger'] } = {}): Promise<FastifyInstance> {
  const { config } = deps;
  const app = Fastify({
    logger: opts.logger ?? {
      level: config.LOG_LEVEL,
      // Keys and signatures never reach the logs.
      redact: ['req.headers.authorization', 'req.headers["x-api-key"]', 'req.headers["x-network-taxi-ai-key"]'],
    },
    bodyLimit: config.BODY_LIMIT_BYTES,
    trustProxy: config.TRUST_PROXY,
    requestIdHeader: false,
    // A caller's own x-request-id is kept (if sane) so their logs and ours line up.
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook('onRequest', async (request, reply) => {
    void reply.header('x-request-id', request.id);
  });

  await app.register(errorHandlerPlugin);
  await app.register(callerPlugin, { sql: deps.sql });
  await app.register(fastifyRateLimit, {
    global: false,
    store: createPgRateLimitStore(deps.sql),
    // Counted before validation: malformed requests cost the same as good ones.
    hook: 'preValidation',
    errorResponseBuilder: (_req, ctx) =>
      new ProblemError(429, 'rate_limited', `Rate limit of ${ctx.max} requests exceeded; retry after ${ctx.after}.`),
  });
  const quoteRateLimit: RateLimitOptions = {
    max: config.QUOTE_RATE_LIMIT_PER_HOUR,
    timeWindow: 60 * 60 * 1000,
    keyGenerator: (req) => `quote:${req.caller.rateKey}`,
    allowList: (req) => req.caller.kind === 'key' && req.caller.key.rateLimitExempt,
  };

  const bookingRateLimit: RateLimitOptions = {
    ...quoteRateLimit,
    max: config.BOOKING_RATE_LIMIT_PER_HOUR,
    keyGenerator: (req) => `booking:${req.caller.rateKey}`,
  };

  const servers = [config.PUBLIC_BASE_URL, ...config.PUBLIC_DOMAINS.filter((d) => d !== config.PUBLIC_BASE_URL)];
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Direct Taxi public API',
        version: '1.0.0',
        description:
          'Regulated UK taxi fares, bookings and dispatch, passenger to driver with no commission. Errors are RFC 9457 problem details (application/problem+json) with a stable `code`.',
      },
      servers: servers.map((url) => ({ url })),
      components: {
        securitySchemes: {
          networkTaxiKey: { type: 'apiKey', in: 'header', name: 'X-Network-Taxi-AI-Key' },
          apiKeyHeader: { type: 'apiKey', in: 'header', name: 'x-api-key' },
          bearer: { type: 'http', scheme: 'bearer' },
        },
      },
      // Keys are optional on the public quote endpoints (anonymous callers are limited by IP).
      security: [{ networkTaxiKey: [] }, { apiKeyHeader: [] }, { bearer: [] }, {}],
    },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/public/docs' });

  const routeDeps: AppDeps = { ...deps, quoteRateLimit, bookingRateLimit };
  await app.register(async (scope) => healthRoutes(scope, routeDeps));
  await app.register(async (scope) => docsRoutes(scope));
  await app.register(async (scope) => quoteRoutes(scope, routeDeps));
  await app.register(async (scope) => bookingRoutes(scope, routeDeps));
  await app.register(async (scope) => driverRoutes(scope, routeDeps));
  await app.register(async (scope) => v1BookingRoutes(scope, routeDeps));
  await app.register(async (scope) => pageRoutes(scope, routeDeps));
  return app;
}
