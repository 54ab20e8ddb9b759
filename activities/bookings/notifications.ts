import { log } from '@temporalio/activity';
import { confirmUrl } from '../../src/bookings/confirm-link.js';
import { loadBooking } from '../../src/bookings/store.js';
import type { Sql } from '../../src/db/sql.js';
import { sendBestEffort } from '../../src/notify/best-effort.js';
import type { Notifier } from '../../src/notify/notifier.js';
import { loadDriver } from '../../src/drivers/store.js';
import {
  renderBookingConfirmationEmail,
  renderDriverTripEndedText,
  renderOpsSuspendedOnBoardEmail,
  renderOpsUnassignedEmail,
  renderPassengerTripEndedText,
} from '../../src/notify/templates.js';
import { deliverJobCard } from './job-card.js';

export interface NotificationSettings {
  publicBaseUrl: string;
  jobLinkSecret: string;
  opsAlertEmail: string;
  /** Ops hear of a booking still without a driver this many minutes before pickup. */
  opsUnassignedAlertMinutes: number;
  /** The booking's workflow in the Temporal Web UI, for links in ops emails. */
  temporalUiBookingUrl: (ref: string) => string;
}

/**
 * Messages the booking workflow sends. Every message has an outbox key derived from the booking,
 * offer or round, so a retried activity never sends one twice.
 */
export function createNotificationActivities({ sql, notifier, settings }: { sql: Sql; notifier: Notifier; settings: NotificationSettings }) {
  const warn = (m: string, a: Record<string, unknown>) => log.warn(m, a);
  const jobCards = { sql, notifier, publicBaseUrl: settings.publicBaseUrl, jobLinkSecret: settings.jobLinkSecret };

  return {
    async sendBookingConfirmation({ ref, awaitingConfirmation }: { ref: string; awaitingConfirmation: boolean }): Promise<void> {
      const b = await loadBooking(sql, ref);
      if (!b.passenger_email) return;
      const link = awaitingConfirmation ? confirmUrl(settings.publicBaseUrl, settings.jobLinkSecret, ref) : null;
      const { subject, body } = renderBookingConfirmationEmail(b, `${settings.publicBaseUrl}/track/${ref}`, link);
      await sendBestEffort(notifier, { channel: 'email', to: b.passenger_email, subject, body, idempotencyKey: `confirmation:${ref}`, bookingRef: ref }, warn);
    },

    async sendJobCard(card: { offerId: string; ref: string; driverId: string }): Promise<void> {
      await deliverJobCard(jobCards, card);
    },

    async alertOps({ ref, round }: { ref: string; round: number }): Promise<void> {
      const b = await loadBooking(sql, ref);
      const { subject, body } = renderOpsUnassignedEmail(b, round, settings.publicBaseUrl);
      await sendBestEffort(
        notifier,
        { channel: 'email', to: settings.opsAlertEmail, subject, body, idempotencyKey: `ops:unassigned:${ref}:${round}`, bookingRef: ref },
        warn,
      );
    },

    /** A driver staff suspended has this booking's passenger on board: ops must end the trip. */
    async alertOpsSuspendedOnBoard({ ref, driverId }: { ref: string; driverId: string }): Promise<void> {
      const [b, d] = await Promise.all([loadBooking(sql, ref), loadDriver(sql, driverId)]);
      const { subject, body } = renderOpsSuspendedOnBoardEmail(b, d, settings.publicBaseUrl);
      await sendBestEffort(
        notifier,
        { channel: 'email', to: settings.opsAlertEmail, subject, body, idempotencyKey: `ops:suspended-on-board:${ref}:${driverId}`, bookingRef: ref },
        warn,
      );
    },

    /** Ops ended the trip: the passenger and the driver are told how it was settled. */
    async sendTripEndedByOps({ ref, driverId }: { ref: string; driverId: string | null }): Promise<void> {
      const b = await loadBooking(sql, ref);
      await sendBestEffort(
        notifier,
        { channel: 'sms', to: b.passenger_phone, body: renderPassengerTripEndedText(b), idempotencyKey: `trip-ended:${ref}:passenger`, bookingRef: ref },
        warn,
      );
      if (!driverId) return;
      const d = await loadDriver(sql, driverId);
      await sendBestEffort(
        notifier,
        { channel: 'sms', to: d.phone, body: renderDriverTripEndedText(b), idempotencyKey: `trip-ended:${ref}:driver`, bookingRef: ref },
        warn,
      );
    },
  };
}
