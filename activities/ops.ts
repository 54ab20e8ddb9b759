import { log } from '@temporalio/activity';
import { loadBooking } from '../src/bookings/store.js';
import type { Sql } from '../src/db/sql.js';
import { sendBestEffort } from '../src/notify/best-effort.js';
import type { Notifier } from '../src/notify/notifier.js';
import { renderOpsNearPickupEmail } from '../src/notify/templates.js';
import { alertsToSend, claimUnassignedNearPickup } from '../src/ops/alerts-store.js';
import type { WorkerMetrics } from '../src/ops/metrics.js';
import type { NotificationSettings } from './bookings/notifications.js';

export const nearPickupOutboxKey = (ref: string) => `ops:unassigned-near-pickup:${ref}`;

/** The ops watcher's one step: claim each due alert once in Postgres, then email it through the outbox. */
export function createOpsActivities({
  sql,
  notifier,
  settings,
  metrics,
}: {
  sql: Sql;
  notifier: Notifier;
  settings: NotificationSettings;
  metrics: WorkerMetrics;
}) {
  const warn = (m: string, a: Record<string, unknown>) => log.warn(m, a);
  return {
    async alertUnassignedNearPickup(): Promise<{ alerted: string[] }> {
      const claimed = await claimUnassignedNearPickup(sql, settings.opsUnassignedAlertMinutes);
      // Counted at the claim, which happens once per booking; the send below may be a retry.
      metrics.opsAlerts.inc(claimed.length);
      for (const ref of await alertsToSend(sql, nearPickupOutboxKey)) {
        const b = await loadBooking(sql, ref);
        const { subject, body } = renderOpsNearPickupEmail(
          b,
          settings.publicBaseUrl,
          settings.temporalUiBookingUrl(ref),
        );
        await sendBestEffort(
          notifier,
          {
            channel: 'email',
            to: settings.opsAlertEmail,
            subject,
            body,
            idempotencyKey: nearPickupOutboxKey(ref),
            bookingRef: ref,
          },
          warn,
        );
      }
      return { alerted: claimed };
    },
  };
}
