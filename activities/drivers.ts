import { log } from '@temporalio/activity';
import type { Sql } from '../src/db/sql.js';
import { bookingsOfDriver, loadDriver } from '../src/drivers/store.js';
import { sendBestEffort } from '../src/notify/best-effort.js';
import type { Notifier } from '../src/notify/notifier.js';
import { DEFAULT_CASCADE_POLICY } from '../src/dispatch/policy.js';
import { claimQuietDrivers } from '../src/drivers/location-watch-store.js';
import {
  renderDriverLicenceReminderText,
  renderDriverLicenceWarningText,
  renderDriverLocationWarningText,
} from '../src/notify/templates.js';

/** Messages about the driver themselves (not a job), keyed per driver and date: never sent twice; and the bookings a suspension reaches. */
export function createDriverActivities({
  sql,
  notifier,
  settings,
}: {
  sql: Sql;
  notifier: Notifier;
  settings?: { publicBaseUrl: string };
}) {
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

    /** The last warning before a licence lapses (0.4.0); the driver app says the same from the dates (src/drivers/app.ts). */
    async sendLicenceLapseWarning({
      driverId,
      expires,
      daysLeft,
    }: {
      driverId: string;
      expires: string;
      daysLeft: number;
    }): Promise<void> {
      const d = await loadDriver(sql, driverId);
      await sendBestEffort(
        notifier,
        {
          channel: 'sms',
          to: d.phone,
          body: renderDriverLicenceWarningText(expires, daysLeft, settings?.publicBaseUrl ?? ''),
          idempotencyKey: `licence-warning:${driverId}:${expires}:${daysLeft}`,
        },
        (m, a) => log.warn(m, a),
      );
    },

    /**
     * Online drivers whose app has gone quiet are texted, once per silence, while dispatch still
     * offers them jobs: the text names when the service last had their position and when offers stop.
     */
    async warnDriversLosingLocation(): Promise<{ warned: string[] }> {
      const quiet = await claimQuietDrivers(sql, LOCATION_WARNING_AFTER_MS);
      for (const d of quiet) {
        const stopsAt = new Date(d.location_at.getTime() + DEFAULT_CASCADE_POLICY.freshLocationMs);
        await sendBestEffort(
          notifier,
          {
            channel: 'sms',
            to: d.phone,
            body: renderDriverLocationWarningText(d.location_at, stopsAt),
            idempotencyKey: `location-quiet:${d.id}:${d.location_at.getTime()}`,
          },
          (m, a) => log.warn(m, a),
        );
      }
      return { warned: quiet.map((d) => d.id) };
    },
  };
}

/** Told this long after the last position: five minutes before dispatch passes the driver over. */
export const LOCATION_WARNING_AFTER_MS = DEFAULT_CASCADE_POLICY.freshLocationMs - 5 * 60_000;
