import type { Sql } from '../src/db/sql.js';
import type { Notifier } from '../src/notify/notifier.js';
import type { WorkerMetrics } from '../src/ops/metrics.js';
import type { BillingSettings } from '../src/billing/settings.js';
import type { DriverMapService } from '../src/drivers/map-service.js';
import { createBookingRecordActivities } from './bookings/records.js';
import { createDispatchActivities } from './bookings/dispatch.js';
import { createDriverActivities } from './drivers.js';
import { createNotificationActivities, type NotificationSettings } from './bookings/notifications.js';
import { createOpsActivities } from './ops.js';
import { createRecordActivities } from './records.js';
import { createPartnerEventActivities, type PartnerDeliverySettings } from './partners/delivery.js';
import { createPartnerJobActivities } from './partners/jobs.js';
import { createQuoteActivities } from './quotes.js';
import { createBillingActivities } from './billing.js';
import { createExchangeActivities } from './bookings/exchange.js';

export interface ActivityDeps {
  sql: Sql;
  notifier: Notifier;
  settings: NotificationSettings;
  partnerDelivery: PartnerDeliverySettings;
  /** The worker's own counters (src/ops/metrics.ts), incremented where decisions are recorded. */
  metrics: WorkerMetrics;
  /** Subscription prices and the payment provider that collects invoices (src/billing/settings.ts). */
  billing: BillingSettings;
  /** Drivers' own map-service keys: the "driver assigned" text's ETA is routed on the driver's key. */
  driverMaps?: DriverMapService;
  /** The ranking's handicap for drivers who leave cards unanswered (DISPATCH_ANSWER_HANDICAP_METERS). */
  answerHandicapMeters?: number;
  /** Months a booking record is kept where its authority sets none (BOOKING_RECORD_RETENTION_MONTHS). */
  recordRetentionMonths?: number;
}

/**
 * Every activity the worker registers, built from its dependencies (no module-level state), so
 * tests pass real or fake dependencies without module mocking. Grouped by concern: quote records,
 * booking records, dispatch, notifications.
 */
export function createActivities(deps: ActivityDeps) {
  const notifications = createNotificationActivities(deps);
  return {
    ...createQuoteActivities(deps),
    ...createBookingRecordActivities(deps),
    ...createDispatchActivities({
      ...deps,
      publicBaseUrl: deps.settings.publicBaseUrl,
      jobLinkSecret: deps.settings.jobLinkSecret,
      passengerPhoneChannel: deps.settings.passengerPhoneChannel,
      tellPassengerNews: (t) => notifications.tellPassenger(t),
    }),
    ...notifications,
    ...createDriverActivities(deps),
    ...createBillingActivities(deps),
    ...createPartnerJobActivities(deps),
    ...createPartnerEventActivities(deps),
    ...createOpsActivities(deps),
    ...createRecordActivities(deps),
    ...createExchangeActivities({
      sql: deps.sql,
      secretsKey: deps.partnerDelivery.secretsKey,
      tellPassengerNews: (t) => notifications.tellPassenger(t),
    }),
  };
}

/** The activities as workflows see them (workflows import this type only). */
export type Activities = ReturnType<typeof createActivities>;
