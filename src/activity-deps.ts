import type { ActivityDeps } from '../activities/index.js';
import type { Config } from './config.js';
import type { Sql } from './db/sql.js';
import { createNotifier } from './notify/index.js';

/** What the worker's activities need, from configuration: one place, shared by the worker and tests. */
export function activityDeps(config: Config, sql: Sql): ActivityDeps {
  const live = config.NOTIFIER === 'live';
  const notifier = createNotifier({
    sql,
    kind: config.NOTIFIER,
    ...(live
      ? {
          twilio: {
            accountSid: config.TWILIO_ACCOUNT_SID ?? '',
            authToken: config.TWILIO_AUTH_TOKEN ?? '',
            smsFrom: config.TWILIO_SMS_FROM ?? '',
            whatsappFrom: config.TWILIO_WHATSAPP_FROM ?? '',
          },
          smtp: {
            host: config.SMTP_HOST ?? '',
            port: config.SMTP_PORT,
            secure: config.SMTP_SECURE,
            from: config.SMTP_FROM ?? '',
            ...(config.SMTP_USER ? { user: config.SMTP_USER, pass: config.SMTP_PASS ?? '' } : {}),
          },
        }
      : {}),
  });
  return {
    sql,
    notifier,
    settings: {
      publicBaseUrl: config.PUBLIC_BASE_URL,
      jobLinkSecret: config.JOB_LINK_SECRET,
      opsAlertEmail: config.OPS_ALERT_EMAIL,
    },
  };
}
