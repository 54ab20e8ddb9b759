// The one interface every outbound message goes through, so workflows and routes never know which
// provider (or none, in the embedded default) actually carries a message.

export type Channel = 'sms' | 'whatsapp' | 'email';

export interface OutboundMessage {
  channel: Channel;
  to: string; // E.164 phone for sms/whatsapp, address for email
  subject?: string; // email only
  body: string;
  /** Unique per logical message (e.g. `jobcard:<offerId>:sms`). Sending the same key again must not deliver twice. */
  idempotencyKey: string;
  bookingRef?: string;
  /**
   * What the message is for, where that matters after it is sent: a driver's weekly SMS
   * pass-through never counts a 'sign_in_code' (anyone may ask for one to any driver's phone).
   */
  purpose?: MessagePurpose;
}

/** 'invoice_reminder': the service chasing its own invoice, never billed as SMS pass-through. */
export type MessagePurpose =
  'sign_in_code' | 'verification_code' | 'claim_link' | 'job_card' | 'ops_alert' | 'invoice_reminder';

/**
 * `duplicate` is true when the key had already been sent; `provider` and `providerMessageId` then
 * describe that earlier send.
 */
export interface SendResult {
  provider: string;
  providerMessageId: string | null;
  duplicate: boolean;
}

/** Rejects only when the message may be retried or is known to be undeliverable (see `DeliveryError`). */
export interface Notifier {
  send(msg: OutboundMessage): Promise<SendResult>;
}
