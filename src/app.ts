import { randomUUID } from 'node:crypto';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { Client } from '@temporalio/client';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config.js';
import type { Sql } from './db/sql.js';
import { openApiOptions } from './http/openapi.js';
import { redactUrl } from './http/redact.js';
import { ProblemError } from './http/problem.js';
import type { Notifier } from './notify/notifier.js';
import { callerPlugin } from './plugins/caller.js';
import { errorHandlerPlugin } from './plugins/error-handler.js';
import { inputGuardPlugin } from './plugins/input-guard.js';
import { metricsPlugin } from './plugins/metrics.js';
import { oauthPlugin } from './plugins/oauth.js';
import { postgresPlugin } from './plugins/postgres.js';
import { rateLimitsPlugin } from './plugins/rate-limits.js';
import { servicesPlugin } from './plugins/services.js';
import { temporalPlugin } from './plugins/temporal.js';
import { assetRoutes } from './routes/assets.js';
import { bookingRoutes } from './routes/bookings.js';
import { docsRoutes } from './routes/docs.js';
import { driverAppRoutes } from './routes/driver-app.js';
import { driverChangeRoutes } from './routes/driver-changes.js';
import { driverPageRoutes } from './routes/driver-pages.js';
import { driverRoutes } from './routes/drivers.js';
import { opsRoutes } from './routes/ops.js';
import { recordRoutes } from './routes/records.js';
import { operatorLicenceRoutes } from './routes/operator-licences.js';
import { driverExemptionRoutes } from './routes/driver-exemptions.js';
import { meterRoutes } from './routes/meter.js';
import { opsSignInRoutes } from './routes/ops-sign-in.js';
import { claimPageRoutes } from './routes/claim-pages.js';
import { opsViewRoutes } from './routes/ops-view.js';
import { paymentWebhookRoutes } from './routes/payment-webhooks.js';
import { billingRoutes, billingWebhookRoutes } from './routes/billing.js';
import { healthRoutes } from './routes/health.js';
import { homeRoutes } from './routes/home.js';
import { mcpRoutes } from './routes/mcp.js';
import { metricsRoutes } from './routes/metrics.js';
import { oauthRoutes } from './routes/oauth.js';
import { pageRoutes } from './routes/pages.js';
import { operatorDashboardRoutes } from './routes/operator-dashboard.js';
import { partnerEventRoutes } from './routes/partner-events.js';
import { partnerIntakeRoutes } from './routes/partner-intake.js';
import { passengerRoutes } from './routes/passengers.js';
import { quoteRoutes } from './routes/quotes.js';
import type { Services } from './services.js';

export interface BuildAppOptions {
  config: Config;
  /** An existing pool or client (tests, tools); otherwise the app opens its own and closes it. */
  sql?: Sql;
  temporal?: Client;
  geo?: Services['geo'];
  notifier?: Notifier;
  now?: () => Date;
  logger?: FastifyServerOptions['logger'];
  /**
   * How the OAuth server fetches Client ID Metadata Documents; tests serve a client's document from
   * a local server through it. Default: oidc-provider's, which refuses non-public addresses.
   */
  oauthFetch?: typeof fetch;
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** The HTTP API as every process and test builds it: infrastructure plugins, then the routes by area. */
export async function buildApp(opts: BuildAppOptions): Promise<FastifyInstance> {
  const { config } = opts;
  const app = Fastify({
    logger: opts.logger ?? {
      level: config.LOG_LEVEL,
      // Keys, tokens and signatures never reach the logs.
      redact: [
        'req.headers.authorization',
        'req.headers["x-api-key"]',
        'req.headers["x-network-taxi-ai-key"]',
        'req.headers.cookie',
      ],
      serializers: {
        req: (req) => ({
          method: req.method,
          url: redactUrl(req.url),
          host: req.host,
          remoteAddress: req.ip,
          remotePort: req.socket?.remotePort,
        }),
      },
    },
    bodyLimit: config.BODY_LIMIT_BYTES,
    trustProxy: config.TRUST_PROXY,
    // Longer than any real parameter (offer ids are at most 120); beyond it, and for a URL that is
    // not valid, the router's own replies are replaced by problem details (frameworkErrors below).
    routerOptions: { maxParamLength: 200 },
    frameworkErrors: (err, request, reply) => {
      const problem = new ProblemError(
        400,
        'invalid_request',
        err.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'A path parameter is too long.' : 'The URL is not valid.',
      );
      const body: unknown = problem.toProblem(request.id, (request.url.split('?')[0] ?? '').slice(0, 200));
      void (reply as FastifyReply).code(400).type('application/problem+json').send(body);
    },
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
  await app.register(
    postgresPlugin,
    opts.sql ? { sql: opts.sql } : { url: config.DATABASE_URL, max: config.DATABASE_POOL_MAX },
  );
  await app.register(metricsPlugin, {
    alertMinutes: config.OPS_UNASSIGNED_ALERT_MINUTES,
    codeCeilings: { sms: config.SIGN_IN_SMS_PER_DAY, email: config.SIGN_IN_EMAILS_PER_DAY },
  });
  await app.register(
    temporalPlugin,
    opts.temporal
      ? { client: opts.temporal }
      : { address: config.TEMPORAL_ADDRESS, namespace: config.TEMPORAL_NAMESPACE },
  );
  await app.register(servicesPlugin, {
    config,
    ...(opts.geo ? { geo: opts.geo } : {}),
    ...(opts.notifier ? { notifier: opts.notifier } : {}),
    ...(opts.now ? { now: opts.now } : {}),
  });
  await app.register(callerPlugin);
  await app.register(rateLimitsPlugin, { config });
  await app.register(inputGuardPlugin);
  await app.register(oauthPlugin, { config, ...(opts.oauthFetch ? { fetch: opts.oauthFetch } : {}) });
  await app.register(fastifySwagger, openApiOptions(config));
  await app.register(fastifySwaggerUi, { routePrefix: '/api/public/docs' });

  await app.register(healthRoutes);
  await app.register(metricsRoutes);
  await app.register(docsRoutes);
  await app.register(quoteRoutes);
  await app.register(bookingRoutes);
  await app.register(passengerRoutes);
  await app.register(driverRoutes);
  await app.register(driverAppRoutes);
  await app.register(driverChangeRoutes);
  await app.register(opsRoutes);
  await app.register(recordRoutes);
  await app.register(operatorLicenceRoutes);
  await app.register(driverExemptionRoutes);
  await app.register(meterRoutes);
  await app.register(opsSignInRoutes);
  await app.register(opsViewRoutes);
  await app.register(driverPageRoutes);
  await app.register(paymentWebhookRoutes);
  await app.register(billingRoutes);
  await app.register(billingWebhookRoutes);
  await app.register(partnerIntakeRoutes);
  await app.register(partnerEventRoutes);
  await app.register(operatorDashboardRoutes);
  await app.register(oauthRoutes);
  await app.register(mcpRoutes);
  await app.register(pageRoutes);
  await app.register(claimPageRoutes);
  await app.register(homeRoutes);
  await app.register(assetRoutes);
  return app;
}
