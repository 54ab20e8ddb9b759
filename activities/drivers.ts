import { log } from '@temporalio/activity';
import type { Sql } from '../src/db/sql.js';
import { bookingsOfDriver, loadDriver } from '../src/drivers/store.js';
import { sendBestEffort } from '../src/notify/best-effort.js';
import type { Notifier } from '../src/notify/notifier.js';
import { renderDriverLicenceReminderText } from '../src/notify/templates.js';

/** Messages about the driver themselves (not a job), keyed per driver and date: never sent twice; and the bookings a suspension reaches. */
export function createDriverActivities({ sql, notifier }: { sql: Sql; notifier: Notifier }) {
  return {
    /** The bookings a just-suspended driver has a job card or a job in (read after the suspension was written). */
    async findDriverBookings({ driverId }: { driverId: string }): Promise<{ refs: string[] }> {
      return { refs: await bookingsOfDriver(sql, driverId) };
    },

    async sendLicenceReminder({ driverId, expires }: { driverId: string; expires: string }): Promise<void> {
      const d = await loadDriver(sql, driverId);
      await sendBestEffort(
        notifier,
        {
          channel: 'sms',
          to: d.phone,
          body: renderDriverLicenceReminderText(expires),
          idempotencyKey: `licence-reminder:${driverId}:${expires}`,
        },
        (m, a) => log.warn(m, a),
      );
    },
  };
}
