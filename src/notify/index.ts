import type { Sql } from '../db/sql.js';
import { ChannelRouter } from './channel-router.js';
import { DeliveringNotifier } from './delivering-notifier.js';
import type { Notifier } from './notifier.js';
import { OutboxNotifier } from './outbox-notifier.js';
import { PolicedNotifier, type SendingPolicySettings } from './sending-policy.js';
import { SmtpTransport, type SmtpTransportOptions } from './smtp-transport.js';
import { TwilioTransport, type TwilioTransportOptions } from './twilio-transport.js';

export type { Channel, MessagePurpose, Notifier, OutboundMessage, SendResult } from './notifier.js';
export type { Transport } from './delivering-notifier.js';
export type { SmtpTransportOptions } from './smtp-transport.js';
export type { TwilioTransportOptions } from './twilio-transport.js';
export { ChannelRouter } from './channel-router.js';
export { DeliveringNotifier } from './delivering-notifier.js';
export { DeliveryError, isNonRetryable } from './delivery-error.js';
export { OutboxNotifier } from './outbox-notifier.js';
export {
  PolicedNotifier,
  sendingPolicySettings,
  WITHHELD_PROVIDER,
  type SendingPolicySettings,
} from './sending-policy.js';
export { SmtpTransport } from './smtp-transport.js';
export { TwilioTransport } from './twilio-transport.js';

export interface NotifierOptions {
  sql: Sql;
  /** 'outbox' records messages only (tests, demo); 'live' also delivers through Twilio and SMTP. */
  kind: 'outbox' | 'live';
  twilio?: TwilioTransportOptions;
  smtp?: SmtpTransportOptions;
  /** The sending policy every message passes first (sending-policy.ts); absent only in the notifier's own tests. */
  policy?: SendingPolicySettings;
}

export function createNotifier(opts: NotifierOptions): Notifier {
  const carrier = createCarrier(opts);
  return opts.policy ? new PolicedNotifier({ sql: opts.sql, inner: carrier, settings: opts.policy }) : carrier;
}

/** What carries a message the policy lets through: the outbox alone, or the providers with the outbox as their ledger. */
function createCarrier(opts: NotifierOptions): Notifier {
  if (opts.kind === 'outbox') return new OutboxNotifier({ sql: opts.sql });

  // Failing here, at start, beats a job card that can never be sent being retried for ever.
  const { twilio, smtp } = opts;
  const missing = [
    ...missingSettings('sms and whatsapp (Twilio)', twilio, ['accountSid', 'authToken', 'smsFrom', 'whatsappFrom']),
    ...missingSettings('email (SMTP)', smtp, ['host', 'port', 'from']),
  ];
  if (missing.length > 0 || !twilio || !smtp)
    throw new Error(`live notifier is missing settings: ${missing.join('; ')}`);

  const phones = new DeliveringNotifier({ sql: opts.sql, transport: new TwilioTransport(twilio) });
  const email = new DeliveringNotifier({ sql: opts.sql, transport: new SmtpTransport(smtp) });
  return new ChannelRouter({ sms: phones, whatsapp: phones, email });
}

function missingSettings<T extends object>(
  channel: string,
  settings: T | undefined,
  required: Array<keyof T & string>,
): string[] {
  if (!settings) return [`${channel} needs ${required.join(', ')}`];
  const absent = required.filter(
    (key) => settings[key] === undefined || settings[key] === null || settings[key] === '',
  );
  return absent.length > 0 ? [`${channel} needs ${absent.join(', ')}`] : [];
}
