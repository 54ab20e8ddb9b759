import { DeliveryError } from './delivery-error.js';
import type { Transport } from './delivering-notifier.js';
import type { Channel, OutboundMessage } from './notifier.js';

// SMS and WhatsApp through Twilio's Messages API with plain fetch: one POST per message, so the
// SDK's weight buys nothing here. A 201 means Twilio accepted the message for delivery; handset
// delivery is reported later through status callbacks, not here.

export interface TwilioTransportOptions {
  accountSid: string;
  authToken: string;
  /** E.164 number (or alphanumeric sender ID) SMS is sent from. */
  smsFrom: string;
  /** E.164 number of the WhatsApp sender, with or without the `whatsapp:` prefix. */
  whatsappFrom: string;
  /** Default https://api.twilio.com; tests point it at a local fake. */
  baseUrl?: string;
  /** Per-request timeout; it also bounds how long the outbox row lock is held. Default 15 s. */
  timeoutMs?: number;
}

// Statuses where the same request can succeed later: rate limiting, timeouts, conflicts, and
// credential or account problems (401/403), which an operator fixes without the message changing.
const RETRYABLE_STATUSES = new Set([401, 403, 408, 409, 425, 429]);
// Twilio error codes that arrive as a 400 but describe a transient state.
const RETRYABLE_TWILIO_CODES = new Set([
  '21611', // the From number has too many messages queued
]);

export class TwilioTransport implements Transport {
  readonly name = 'twilio';
  readonly channels: Channel[] = ['sms', 'whatsapp'];
  readonly #url: string;
  readonly #authorization: string;
  readonly #smsFrom: string;
  readonly #whatsappFrom: string;
  readonly #timeoutMs: number;

  constructor(opts: TwilioTransportOptions) {
    const baseUrl = (opts.baseUrl ?? 'https://api.twilio.com').replace(/\/+$/, '');
    this.#url = `${baseUrl}/2010-04-01/Accounts/${encodeURIComponent(opts.accountSid)}/Messages.json`;
    this.#authorization = `Basic ${Buffer.from(`${opts.accountSid}:${opts.authToken}`).toString('base64')}`;
    this.#smsFrom = opts.smsFrom;
    this.#whatsappFrom = withWhatsAppPrefix(opts.whatsappFrom);
    this.#timeoutMs = opts.timeoutMs ?? 15_000;
  }

  async deliver(msg: OutboundMessage): Promise<{ providerMessageId: string | null }> {
    if (msg.channel === 'email') {
      throw new DeliveryError({
        provider: this.name,
        nonRetryable: true,
        message: 'Twilio transport does not send email',
      });
    }
    const whatsapp = msg.channel === 'whatsapp';
    const form = new URLSearchParams({
      To: whatsapp ? withWhatsAppPrefix(msg.to) : msg.to,
      From: whatsapp ? this.#whatsappFrom : this.#smsFrom,
      Body: msg.body,
    });

    let res: Response;
    try {
      res = await fetch(this.#url, {
        method: 'POST',
        headers: {
          authorization: this.#authorization,
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
        },
        body: form,
        signal: AbortSignal.timeout(this.#timeoutMs),
      });
    } catch (err) {
      // Network failure or timeout: Twilio may or may not have accepted it; a retry is the only move.
      throw new DeliveryError({
        provider: this.name,
        nonRetryable: false,
        message: `Twilio request failed: ${errorMessage(err)}`,
        cause: err,
      });
    }

    const payload = await readJson(res);
    if (res.ok) {
      const sid = typeof payload?.sid === 'string' ? payload.sid : null;
      return { providerMessageId: sid };
    }

    const code = typeof payload?.code === 'number' || typeof payload?.code === 'string' ? String(payload.code) : null;
    const detail = typeof payload?.message === 'string' ? payload.message : res.statusText;
    const nonRetryable =
      res.status >= 400 &&
      res.status < 500 &&
      !RETRYABLE_STATUSES.has(res.status) &&
      !(code && RETRYABLE_TWILIO_CODES.has(code));
    throw new DeliveryError({
      provider: this.name,
      nonRetryable,
      status: res.status,
      providerCode: code,
      message: `Twilio rejected the ${msg.channel} message: HTTP ${res.status}${code ? ` error ${code}` : ''}: ${detail}`,
    });
  }
}

function withWhatsAppPrefix(address: string): string {
  return address.startsWith('whatsapp:') ? address : `whatsapp:${address}`;
}

interface TwilioPayload {
  sid?: unknown;
  code?: unknown;
  message?: unknown;
}

async function readJson(res: Response): Promise<TwilioPayload | null> {
  try {
    const parsed: unknown = await res.json();
    return typeof parsed === 'object' && parsed !== null ? parsed : null;
  } catch {
    return null;
  }
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
