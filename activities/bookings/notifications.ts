import { log } from '@temporalio/activity';
import { confirmUrl } from '../../src/bookings/confirm-link.js';
import { loadBooking, markDriverAskedToConfirm, type BookingRow } from '../../src/bookings/store.js';
import type { Sql } from '../../src/db/sql.js';
import { sendBestEffort } from '../../src/notify/best-effort.js';
import type { Notifier } from '../../src/notify/notifier.js';
import { loadDriver } from '../../src/drivers/store.js';
import { textedManageToken } from '../../src/bookings/manage-tokens.js';
import { findQuote } from '../../src/quotes/store.js';
import { quoteProvenance } from '../../src/quotes/fare-provenance.js';
import { effectivePayments } from '../../src/settlement/payments-store.js';
import type { PassengerNews } from '../../src/model/bookings.js';
import {
  renderBookingConfirmationEmail,
  renderDriverConfirmJobText,
  renderPassengerBookedText,
  renderPassengerDriverChangedText,
  renderPassengerNoDriverFoundText,
  renderPassengerNoDriverYetText,
  renderPassengerReceiptEmail,
  renderPassengerReceiptText,
  type Receipt,
  renderDriverTripEndedText,
  renderOpsSuspendedOnBoardEmail,
  renderOpsUnassignedEmail,
  renderPassengerTripEndedText,
  renderPassengerProvidedByText,
} from '../../src/notify/templates.js';
import { providingOperator } from '../../src/operator-licences/store.js';
import { deliverJobCard, tellCardTaken, type JobCard } from './job-card.js';
import { tellPassenger, type PassengerMessage, type PassengerPhoneChannel } from './passenger.js';

export interface NotificationSettings {
  publicBaseUrl: string;
  jobLinkSecret: string;
  opsAlertEmail: string;
  /** Ops hear of a booking still without a driver this many minutes before pickup. */
  opsUnassignedAlertMinutes: number;
  /** The booking's workflow in the Temporal Web UI, for links in ops emails. */
  temporalUiBookingUrl: (ref: string) => string;
  /** How a passenger's phone hears about their booking (config PASSENGER_PHONE_CHANNEL). */
  passengerPhoneChannel: PassengerPhoneChannel;
}

/**
 * Messages the booking workflow sends. Every message has an outbox key derived from the booking,
 * offer or round, so a retried activity never sends one twice.
 */
export function createNotificationActivities({
  sql,
  notifier,
  settings,
}: {
  sql: Sql;
  notifier: Notifier;
  settings: NotificationSettings;
}) {
  const warn = (m: string, a: Record<string, unknown>) => log.warn(m, a);
  const jobCards = { sql, notifier, publicBaseUrl: settings.publicBaseUrl, jobLinkSecret: settings.jobLinkSecret };

  const trackUrl = (ref: string) => `${settings.publicBaseUrl}/track/${ref}`;

  /** The words of each piece of news, and its outbox key: once per booking, or per dropped driver. */
  async function passengerMessage(b: BookingRow, news: PassengerNews): Promise<PassengerMessage> {
    switch (news.kind) {
      case 'booked': {
        const link = confirmUrl(settings.publicBaseUrl, settings.jobLinkSecret, b);
        // The email keeps the key it has always had, so a booking of an older release is not emailed twice.
        const email = renderBookingConfirmationEmail(b, trackUrl(b.ref), link);
        // The text's link carries the right to cancel, like the page the booker was shown.
        const manage = await textedManageToken(sql, settings.jobLinkSecret, b.ref);
        const text = renderPassengerBookedText(b, `${trackUrl(b.ref)}#t=${manage}`);
        return { key: `booked:${b.ref}`, text, email, emailKey: `confirmation:${b.ref}` };
      }
      case 'driver_replaced':
        return {
          key: `driver-changed:${b.ref}:${news.driverId}`,
          text: renderPassengerDriverChangedText(b, trackUrl(b.ref)),
        };
      case 'no_driver_yet':
        return {
          key: `no-driver-yet:${b.ref}`,
          text: renderPassengerNoDriverYetText(b, trackUrl(b.ref), news.searchUntil),
        };
      case 'no_driver_found':
        return {
          key: `no-driver-found:${b.ref}`,
          text: renderPassengerNoDriverFoundText(b),
          email: { subject: `No driver for taxi ${b.ref}`, body: renderPassengerNoDriverFoundText(b) },
        };
      case 'provided_by': {
        const operator = (await providingOperator(sql, 'exchange_fleet', news.fleetId)) ?? {
          name: 'another licensed operator',
          licence: null,
        };
        return {
          key: `provided-by:${b.ref}:${news.fleetId}`,
          text: renderPassengerProvidedByText(b, operator, trackUrl(b.ref)),
        };
      }
      case 'receipt': {
        const receipt = await receiptOf(b);
        return {
          key: `receipt:${b.ref}`,
          text: renderPassengerReceiptText(b, receipt),
          email: renderPassengerReceiptEmail(b, receipt),
        };
      }
    }
  }

  /** The rules the fare was priced under (the quote's, when it came from one) and the payment in force. */
  async function receiptOf(b: BookingRow): Promise<Receipt> {
    // How the fare was reached, as the booking keeps it; older bookings have only their quote's.
    const quote = !b.fare_provenance && b.quote_id ? await findQuote(sql, b.quote_id) : null;
    const provenance = b.fare_provenance ?? (quote ? quoteProvenance(quote) : null);
    const payments = await effectivePayments(sql, b.ref);
    const last = payments.at(-1);
    const basis = provenance
      ? `${provenance.tariff.authority} table from ${provenance.tariff.effectiveFrom}, ${provenance.tariff.period}${provenance.tariff.provisional ? ' (provisional figures)' : ''}`
      : b.fare_source === 'partner'
        ? 'the fare agreed when it was booked'
        : `the council tariff for where the trip started`;
    // The quote's rules add up to the quoted fare; a driver's own approved rate took it lower (never higher).
    const quoted = b.quoted_fare_pence ?? b.fare_pence;
    const ownRate =
      quoted === b.fare_pence
        ? []
        : [
            {
              description: `Your driver's own approved rate (quoted £${(quoted / 100).toFixed(2)})`,
              amountPence: b.fare_pence - quoted,
            },
          ];
    return {
      basis,
      ...(provenance
        ? { measured: { meters: provenance.distanceM, seconds: provenance.durationS, route: provenance.route ?? null } }
        : {}),
      rules: [...(provenance?.rules ?? []), ...ownRate],
      payment: last
        ? { id: last.id, amountPence: last.amountPence, method: last.method, recordedAt: new Date(last.recordedAt) }
        : null,
    };
  }

  return {
    /**
     * On the day, a driver who accepted the job well ahead is asked to confirm it (the app shows the
     * button from then on); once per driver and booking.
     */
    async askDriverToConfirm({
      ref,
      driverId,
      deadline,
    }: {
      ref: string;
      driverId: string;
      deadline: string;
    }): Promise<void> {
      await markDriverAskedToConfirm(sql, ref, driverId);
      const [b, d] = await Promise.all([loadBooking(sql, ref), loadDriver(sql, driverId)]);
      await sendBestEffort(
        notifier,
        {
          channel: 'sms',
          to: d.phone,
          body: renderDriverConfirmJobText(b, new Date(deadline)),
          idempotencyKey: `confirm-job:${ref}:${driverId}`,
          bookingRef: ref,
        },
        warn,
      );
    },

    /**
     * The passenger hears what happened to their booking, by the channel they gave (their phone,
     * and email when given), once per piece of news: the workflow calls this at each turn.
     */
    async tellPassenger({ ref, news }: { ref: string; news: PassengerNews }): Promise<void> {
      const b = await loadBooking(sql, ref);
      await tellPassenger({ notifier, channel: settings.passengerPhoneChannel }, b, await passengerMessage(b, news));
    },

    async sendBookingConfirmation({
      ref,
      awaitingConfirmation,
    }: {
      ref: string;
      awaitingConfirmation: boolean;
    }): Promise<void> {
      const b = await loadBooking(sql, ref);
      if (!b.passenger_email) return;
      const link = awaitingConfirmation ? confirmUrl(settings.publicBaseUrl, settings.jobLinkSecret, b) : null;
      const { subject, body } = renderBookingConfirmationEmail(
        b,
        `${settings.publicBaseUrl}/track/${ref}`,
        link,
        awaitingConfirmation,
      );
      await sendBestEffort(
        notifier,
        {
          channel: 'email',
          to: b.passenger_email,
          subject,
          body,
          idempotencyKey: `confirmation:${ref}`,
          bookingRef: ref,
        },
        warn,
      );
    },

    async sendJobCard(card: JobCard): Promise<void> {
      await deliverJobCard(jobCards, card);
    },

    async tellJobCardTaken(card: { offerId: string; ref: string; driverId: string }): Promise<void> {
      await tellCardTaken(jobCards, card, warn);
    },

    async alertOps({ ref, round }: { ref: string; round: number }): Promise<void> {
      const b = await loadBooking(sql, ref);
      const { subject, body } = renderOpsUnassignedEmail(b, round, settings.publicBaseUrl);
      await sendBestEffort(
        notifier,
        {
          channel: 'email',
          to: settings.opsAlertEmail,
          subject,
          body,
          idempotencyKey: `ops:unassigned:${ref}:${round}`,
          bookingRef: ref,
        },
        warn,
      );
    },

    /** A driver staff suspended has this booking's passenger on board: ops must end the trip. */
    async alertOpsSuspendedOnBoard({ ref, driverId }: { ref: string; driverId: string }): Promise<void> {
      const [b, d] = await Promise.all([loadBooking(sql, ref), loadDriver(sql, driverId)]);
      const { subject, body } = renderOpsSuspendedOnBoardEmail(b, d, settings.publicBaseUrl);
      await sendBestEffort(
        notifier,
        {
          channel: 'email',
          to: settings.opsAlertEmail,
          subject,
          body,
          idempotencyKey: `ops:suspended-on-board:${ref}:${driverId}`,
          bookingRef: ref,
        },
        warn,
      );
    },

    /** Ops ended the trip: the passenger and the driver are told how it was settled. */
    async sendTripEndedByOps({ ref, driverId }: { ref: string; driverId: string | null }): Promise<void> {
      const b = await loadBooking(sql, ref);
      await sendBestEffort(
        notifier,
        {
          channel: 'sms',
          to: b.passenger_phone,
          body: renderPassengerTripEndedText(b, `${settings.publicBaseUrl}/track/${ref}`),
          idempotencyKey: `trip-ended:${ref}:passenger`,
          bookingRef: ref,
        },
        warn,
      );
      if (!driverId) return;
      const d = await loadDriver(sql, driverId);
      await sendBestEffort(
        notifier,
        {
          channel: 'sms',
          to: d.phone,
          body: renderDriverTripEndedText(b),
          idempotencyKey: `trip-ended:${ref}:driver`,
          bookingRef: ref,
        },
        warn,
      );
    },
  };
}
