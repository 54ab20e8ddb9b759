import nodemailer, { type Transporter } from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import { DeliveryError } from './delivery-error.js';
import type { Transport } from './delivering-notifier.js';
import type { Channel, OutboundMessage } from './notifier.js';

// Email through any SMTP relay. Plain text only: passenger emails carry a link and facts, and
// text cannot smuggle markup from a booking's free-text fields.

export interface SmtpTransportOptions {
  host: string;
  port: number;
  /** true for implicit TLS (usually port 465); false upgrades with STARTTLS when the server offers it. */
  secure: boolean;
  user?: string;
  pass?: string;
  /** Sender, e.g. `"Direct Taxi" <bookings@example.com>`. */
  from: string;
}

// nodemailer's defaults (2 min to connect, 10 min of socket silence) would hold the outbox row
// lock and the activity far longer than any healthy relay needs.
const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

// RFC 4954's refusals of our own login, whatever the message: authentication required (530, to
// MAIL FROM without AUTH), mechanism too weak (534), credentials invalid (535), encryption
// required for it (538).
const AUTH_REPLIES = new Set([530, 534, 535, 538]);

export class SmtpTransport implements Transport {
  readonly name = 'smtp';
  readonly channels: Channel[] = ['email'];
  readonly #mailer: Transporter<SMTPTransport.SentMessageInfo>;
  readonly #from: string;

  constructor(opts: SmtpTransportOptions) {
    this.#mailer = nodemailer.createTransport(smtpOptions(opts));
    this.#from = opts.from;
  }

  async deliver(msg: OutboundMessage): Promise<{ providerMessageId: string | null }> {
    if (msg.channel !== 'email') {
      throw new DeliveryError({
        provider: this.name,
        nonRetryable: true,
        message: `SMTP transport does not send ${msg.channel}`,
      });
    }
    if (!msg.subject) {
      throw new DeliveryError({ provider: this.name, nonRetryable: true, message: 'an email needs a subject' });
    }
    try {
      const info = await this.#mailer.sendMail({
        from: this.#from,
        to: msg.to,
        subject: msg.subject,
        text: msg.body,
        // RFC 3834: out-of-office and other auto-responders do not answer it (no reply loops, no
        // replies to an address nobody reads).
        headers: { 'Auto-Submitted': 'auto-generated' },
      });
      return { providerMessageId: info.messageId || null };
    } catch (err) {
      const code = smtpReplyCode(err);
      // SMTP says it itself: 5xx replies are permanent (no such mailbox, relaying denied), 4xx are
      // transient. No reply at all (connection refused, timeout) is worth another try, and so is a
      // refusal of our own login (AUTH_REPLIES): as with Twilio's 401, an operator fixes the
      // credentials and the same message then goes, where a permanent failure would drop it for good.
      throw new DeliveryError({
        provider: this.name,
        nonRetryable: code !== null && code >= 500 && code < 600 && !AUTH_REPLIES.has(code),
        status: code,
        message: `SMTP send failed${code ? ` (${code})` : ''}: ${err instanceof Error ? err.message : String(err)}`,
        cause: err,
      });
    }
  }

  /** Closes pooled connections; the transport is unusable afterwards. */
  close(): void {
    this.#mailer.close();
  }
}

/** The nodemailer settings a transport is built with; exported so tests can check the wiring. */
export function smtpOptions(opts: SmtpTransportOptions): SMTPTransport.Options {
  return {
    host: opts.host,
    port: opts.port,
    secure: opts.secure,
    ...(opts.user ? { auth: { user: opts.user, pass: opts.pass ?? '' } } : {}),
    ...TIMEOUTS,
  };
}

function smtpReplyCode(err: unknown): number | null {
  if (typeof err === 'object' && err !== null && 'responseCode' in err && typeof err.responseCode === 'number')
    return err.responseCode;
  return null;
}
