import type { Client } from '@temporalio/client';
import type { ActivityDeps } from '../activities/index.js';
import type { InvoiceCollectionClient } from './billing/collection-client.js';
import type { SubscriptionClient } from './billing/subscription-client.js';
import type { BookingClient } from './bookings/client.js';
import type { LicenceWatchClient } from './drivers/licence-client.js';
import type { SuspensionClient } from './drivers/suspension-client.js';
import type { PartnerDeliveryClient } from './partners/delivery-client.js';
import type { PartnerJobClient } from './partners/job-client.js';
import type { QuoteClient } from './quotes/client.js';
import { billingSettings } from './billing/settings.js';
import type { Config } from './config.js';
import type { Sql } from './db/sql.js';
import type { Geocoder, Router } from './geo/types.js';
import { DriverMapService } from './drivers/map-service.js';
import { createNotifier, sendingPolicySettings } from './notify/index.js';
import type { Notifier } from './notify/notifier.js';
import { temporalUiBookingUrl } from './ops/links.js';
import { countingFailures, createWorkerMetrics, type WorkerMetrics } from './ops/metrics.js';

/**
 * What the application functions (src/<area>/) need, whoever calls them: HTTP routes today,
 * partner intake and MCP tools tomorrow. Built once per process; the HTTP app assembles it from
 * its plugins (src/plugins/services.ts).
 */
export interface Services {
  config: Config;
  sql: Sql;
  temporal: Client;
  /** The booking workflow's client: every start, signal, update and query of a booking goes through it. */
  bookings: BookingClient;
  /** The partner job workflow's client: partner intake hands each job to its reference's workflow through it. */
  partnerJobs: PartnerJobClient;
  /** Each other workflow's one client (docs/refusals.md, "Temporal failures"). */
  quotes: QuoteClient;
  subscriptions: SubscriptionClient;
  invoiceCollections: InvoiceCollectionClient;
  licences: LicenceWatchClient;
  suspensions: SuspensionClient;
  partnerDeliveries: PartnerDeliveryClient;
  geo: { geocoder: Geocoder; router: Router };
  /** Drivers' own map-service keys and the pickup ETAs made on them (src/drivers/map-service.ts). */
  driverMaps: DriverMapService;
  notifier: Notifier;
  now: () => Date;
}

/** The notifier the configuration asks for: the outbox only, or the outbox plus Twilio and SMTP. */
export function notifierFromConfig(config: Config, sql: Sql): Notifier {
  const policy = sendingPolicySettings(config);
  if (config.NOTIFIER !== 'live') return createNotifier({ sql, kind: 'outbox', policy });
  return createNotifier({
    sql,
    kind: 'live',
    policy,
    twilio: {
      accountSid: config.TWILIO_ACCOUNT_SID ?? '',
      authToken: config.TWILIO_AUTH_TOKEN ?? '',
      smsFrom: config.TWILIO_SMS_FROM ?? '',
      whatsappFrom: config.TWILIO_WHATSAPP_FROM ?? '',
      baseUrl: config.TWILIO_API_BASE,
    },
    smtp: {
      host: config.SMTP_HOST ?? '',
      port: config.SMTP_PORT,
      secure: config.SMTP_SECURE,
      from: config.SMTP_FROM ?? '',
      ...(config.SMTP_USER ? { user: config.SMTP_USER, pass: config.SMTP_PASS ?? '' } : {}),
    },
  });
}

/** What the worker's activities need, from configuration: shared by the worker and tests. */
export function activityDeps(
  config: Config,
  sql: Sql,
  notifier: Notifier = notifierFromConfig(config, sql),
  metrics: WorkerMetrics = createWorkerMetrics(),
): ActivityDeps {
  return {
    sql,
    notifier: countingFailures(notifier, metrics.notifierFailures),
    metrics,
    settings: {
      publicBaseUrl: config.PUBLIC_BASE_URL,
      jobLinkSecret: config.JOB_LINK_SECRET,
      opsAlertEmail: config.OPS_ALERT_EMAIL,
      opsUnassignedAlertMinutes: config.OPS_UNASSIGNED_ALERT_MINUTES,
      passengerPhoneChannel: config.PASSENGER_PHONE_CHANNEL,
      temporalUiBookingUrl: (ref) => temporalUiBookingUrl(config, ref),
    },
    partnerDelivery: { secretsKey: config.PARTNER_SECRETS_KEY, env: config.NODE_ENV },
    billing: billingSettings(config),
    driverMaps: driverMapsFromConfig(config, sql),
    answerHandicapMeters: config.DISPATCH_ANSWER_HANDICAP_METERS,
    recordRetentionMonths: config.BOOKING_RECORD_RETENTION_MONTHS,
  };
}

/** Drivers' own map-service keys, from configuration: the API and the worker build the same. */
export function driverMapsFromConfig(
  config: Config,
  sql: Sql,
  log?: { warn(fields: Record<string, unknown>, message: string): void },
): DriverMapService {
  return new DriverMapService(sql, {
    url: config.DRIVER_MAP_SERVICE_URL,
    timeoutMs: config.DRIVER_MAP_SERVICE_TIMEOUT_MS,
    secretsKey: config.PARTNER_SECRETS_KEY,
    ...(log ? { log } : {}),
  });
}
