import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { BookingClient } from '../bookings/client.js';
import type { Config } from '../config.js';
import { createGeoProviders } from '../geo/index.js';
import { PartnerJobClient } from '../partners/job-client.js';
import type { Notifier } from '../notify/notifier.js';
import { countingFailures } from '../ops/metrics.js';
import { notifierFromConfig, type Services } from '../services.js';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    /** What application functions take: routes hand this on and shape the reply. */
    services: Services;
  }
}

/** Assembles the application's services from the infrastructure plugins and the configuration. */
export const servicesPlugin = fp(
  async (
    app: FastifyInstance,
    opts: { config: Config; geo?: Services['geo']; notifier?: Notifier; now?: () => Date },
  ) => {
    app.decorate('config', opts.config);
    app.decorate('services', {
      config: opts.config,
      sql: app.sql,
      temporal: app.temporal,
      bookings: new BookingClient(app.temporal, opts.config.TEMPORAL_TASK_QUEUE),
      partnerJobs: new PartnerJobClient(app.temporal, opts.config.TEMPORAL_TASK_QUEUE),
      geo: opts.geo ?? createGeoProviders({ geocoder: opts.config.GEOCODER, router: opts.config.ROUTER }),
      // The API sends a few messages itself (sign-in and verification codes); job cards go from the
      // worker. Its failures are counted on the API's /metrics as the worker's are on its own.
      notifier: countingFailures(
        opts.notifier ?? notifierFromConfig(opts.config, app.sql),
        app.metrics.notifierFailures,
      ),
      now: opts.now ?? (() => new Date()),
    });
  },
  { name: 'services', dependencies: ['postgres', 'temporal', 'metrics'] },
);
