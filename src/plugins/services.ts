import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { InvoiceCollectionClient } from '../billing/collection-client.js';
import { SubscriptionClient } from '../billing/subscription-client.js';
import { BookingClient } from '../bookings/client.js';
import type { Config } from '../config.js';
import { createGeoProviders } from '../geo/index.js';
import { LicenceWatchClient } from '../drivers/licence-client.js';
import { SuspensionClient } from '../drivers/suspension-client.js';
import { PartnerDeliveryClient } from '../partners/delivery-client.js';
import { PartnerJobClient } from '../partners/job-client.js';
import { QuoteClient } from '../quotes/client.js';
import type { Notifier } from '../notify/notifier.js';
import { countingFailures } from '../ops/metrics.js';
import { driverMapsFromConfig, notifierFromConfig, type Services } from '../services.js';

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
    const taskQueue = opts.config.TEMPORAL_TASK_QUEUE;
    app.decorate('services', {
      config: opts.config,
      sql: app.sql,
      temporal: app.temporal,
      bookings: new BookingClient(app.temporal, taskQueue),
      partnerJobs: new PartnerJobClient(app.temporal, taskQueue),
      quotes: new QuoteClient(app.temporal, taskQueue),
      subscriptions: new SubscriptionClient(app.temporal, taskQueue),
      invoiceCollections: new InvoiceCollectionClient(app.temporal),
      licences: new LicenceWatchClient(app.temporal, taskQueue),
      suspensions: new SuspensionClient(app.temporal, taskQueue),
      partnerDeliveries: new PartnerDeliveryClient(app.temporal, taskQueue),
      geo:
        opts.geo ??
        createGeoProviders({
          geocoder: opts.config.GEOCODER,
          router: opts.config.ROUTER,
          osrmUrl: opts.config.OSRM_URL,
          osrmTimeoutMs: opts.config.OSRM_TIMEOUT_MS,
          log: app.log,
        }),
      driverMaps: driverMapsFromConfig(opts.config, app.sql, app.log),
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
