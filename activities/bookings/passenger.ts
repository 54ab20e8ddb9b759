import { log } from '@temporalio/activity';
import type { BookingRow } from '../../src/bookings/store.js';
import { sendBestEffort } from '../../src/notify/best-effort.js';
import type { Notifier } from '../../src/notify/notifier.js';
import { passengerHearsFromUs } from '../../src/model/bookings.js';

// Every message to a passenger leaves through here: to their phone by the deployment's passenger
// channel (SMS unless configured otherwise), and by email too when they gave one and the message has
// an email form. The outbox key makes each message once however often an activity is retried.

export type PassengerPhoneChannel = 'sms' | 'whatsapp';

export interface PassengerMessage {
  /** Unique per message and booking: the outbox's idempotency key (the email's gets ':email'). */
  key: string;
  text: string;
  email?: { subject: string; body: string } | undefined;
  /** The email's own key, when it is not `${key}:email`. */
  emailKey?: string | undefined;
}

export async function tellPassenger(
  deps: { notifier: Notifier; channel: PassengerPhoneChannel },
  b: Pick<BookingRow, 'ref' | 'source' | 'passenger_phone' | 'passenger_email'>,
  m: PassengerMessage,
): Promise<void> {
  if (!passengerHearsFromUs(b.source)) return;
  const warn = (message: string, a: Record<string, unknown>) => log.warn(message, a);
  if (b.passenger_phone) {
    await sendBestEffort(
      deps.notifier,
      { channel: deps.channel, to: b.passenger_phone, body: m.text, idempotencyKey: m.key, bookingRef: b.ref },
      warn,
    );
  }
  if (m.email && b.passenger_email) {
    await sendBestEffort(
      deps.notifier,
      {
        channel: 'email',
        to: b.passenger_email,
        subject: m.email.subject,
        body: m.email.body,
        idempotencyKey: m.emailKey ?? `${m.key}:email`,
        bookingRef: b.ref,
      },
      warn,
    );
  }
}
