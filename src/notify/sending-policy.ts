import type { Config } from '../config.js';
import type { Sql } from '../db/sql.js';
import { takeFromAllowance } from '../http/pg-rate-limit-store.js';
import type { Notifier, OutboundMessage, SendResult } from './notifier.js';
import { servedMobile } from './served-numbers.js';
import * as store from './sending-policy-store.js';
import { renderOpsMessageCeilingEmail } from './templates.js';

// One sending policy for every message the service pays for, whoever asks for it to be sent: a
// Notifier in front of the real one, so no route, use case or activity can send round it. Each text
// costs money and can be made to go where a stranger chooses, so (docs/notifications.md, "Sending
// policy", and docs/security/threat-model.md say why each number):
//
//   1. Texts and WhatsApp messages go only to mobiles of the countries served (served-numbers.ts):
//      never premium-rate, personal, shared-cost, satellite or foreign numbers, for any purpose.
//   2. A job card is texted to one driver at most JOB_CARD_SMS_PER_DRIVER_PER_HOUR times an hour;
//      beyond, it comes by WhatsApp and the app (the card is withheld by SMS only).
//   3. A booking's passenger is texted and emailed only if the booking's first message to that
//      recipient is allowed, and then for the rest of its story (message_permits): within the
//      recipient's hourly and daily allowance (whoever booked: an API key too), the caller's hourly
//      allowance (its key or partner; else its address, IPv6 by /64, or signed-in passenger), and
//      the day's ceiling per channel, of which bookings from callers without a key to recipients
//      never seen before may spend only half. Returning passengers (a completed trip, a sign-in, a
//      verified mailbox) are not counted against a caller's allowance.
//   4. One-time codes and claim links were admitted by the code guard (src/auth/code-guard.ts)
//      before they were made; ops alerts and invoice reminders go to the service's own contacts.
//
// A message held back is recorded in messages_withheld with its reason, never in the outbox, so it
// is never billed; the caller is answered as if it was sent (provider 'withheld'), because a booking
// or a dispatch must never fail for a text the policy kept back. A retry of a key already sent or
// withheld is answered as the first attempt was, and counts nothing again.

export interface SendingPolicySettings {
  countries: readonly string[];
  /** Ofcom's drama mobiles are served: only where nothing leaves the outbox (NOTIFIER=outbox). */
  dramaRange: boolean;
  recipientPerHour: number;
  recipientPerDay: number;
  callerPerHour: number;
  keyPerHour: number;
  smsPerDay: number;
  emailsPerDay: number;
  jobCardSmsPerDriverPerHour: number;
  opsAlertEmail: string;
}

export function sendingPolicySettings(c: Config): SendingPolicySettings {
  return {
    countries: c.SIGN_IN_CODE_COUNTRIES,
    dramaRange: c.NOTIFIER !== 'live',
    recipientPerHour: c.BOOKING_TEXTS_PER_RECIPIENT_PER_HOUR,
    recipientPerDay: c.BOOKING_TEXTS_PER_RECIPIENT_PER_DAY,
    callerPerHour: c.BOOKING_TEXTS_PER_CALLER_PER_HOUR,
    keyPerHour: c.BOOKING_TEXTS_PER_KEY_PER_HOUR,
    smsPerDay: c.BOOKING_SMS_PER_DAY,
    emailsPerDay: c.BOOKING_EMAILS_PER_DAY,
    jobCardSmsPerDriverPerHour: c.JOB_CARD_SMS_PER_DRIVER_PER_HOUR,
    opsAlertEmail: c.OPS_ALERT_EMAIL,
  };
}

/** The provider a held-back message is answered with. */
export const WITHHELD_PROVIDER = 'withheld';

/** Why a message was held back (messages_withheld.reason). */
export type WithheldReason =
  | 'number_not_served'
  | 'driver_hourly_cap'
  | 'recipient_hourly_cap'
  | 'recipient_daily_cap'
  | 'caller_hourly_cap'
  | 'daily_ceiling'
  | 'daily_ceiling_new_recipients';

/** Purposes another gate admitted before the message was made, or that go to the service's own contacts. */
const ADMITTED_ELSEWHERE = new Set([
  'sign_in_code',
  'verification_code',
  'claim_link',
  'ops_alert',
  'invoice_reminder',
]);

/** Rule 1: texts and WhatsApp messages only to mobiles of the countries served. */
function served(msg: OutboundMessage, s: SendingPolicySettings): boolean {
  return msg.channel === 'email' || servedMobile(msg.to, s.countries, { dramaRange: s.dramaRange }).ok;
}

/**
 * Whether an allowance may count this message: a job card's SMS (rule 2), or a message about a
 * booking that may be to its passenger (rule 3). A job card by WhatsApp or the app goes to a driver,
 * and the purposes of rule 4 were admitted elsewhere.
 */
function counted(msg: OutboundMessage): boolean {
  if (msg.purpose === 'job_card') return msg.channel === 'sms';
  if (msg.purpose && ADMITTED_ELSEWHERE.has(msg.purpose)) return false;
  return Boolean(msg.bookingRef);
}

const HOUR_MS = 3600_000;
const DAY_MS = 24 * HOUR_MS;
export const MESSAGE_CEILING_ALERT_RATIO = 0.8;
/** Past this share of the day's ceiling, only keys, partners and returning recipients are texted. */
export const NEW_RECIPIENT_SHARE = 0.5;

export class PolicedNotifier implements Notifier {
  readonly #sql: Sql;
  readonly #inner: Notifier;
  readonly #settings: SendingPolicySettings;

  constructor(opts: { sql: Sql; inner: Notifier; settings: SendingPolicySettings }) {
    this.#sql = opts.sql;
    this.#inner = opts.inner;
    this.#settings = opts.settings;
  }

  async send(msg: OutboundMessage): Promise<SendResult> {
    // Nothing counted against an allowance (a driver's WhatsApp card, a code the code guard admitted,
    // an ops alert) to a number served: a retry takes nothing twice, and the sender's own key sends it
    // once, so no earlier send need be looked up (two reads fewer on each job card's way).
    if (!counted(msg) && served(msg, this.#settings)) return this.#inner.send(msg);
    const earlier = await store.earlierSend(this.#sql, msg.idempotencyKey);
    if (earlier === 'sent') return this.#inner.send(msg);
    if (earlier === 'withheld') return { provider: WITHHELD_PROVIDER, providerMessageId: null, duplicate: true };
    const reason = await this.#refusal(msg);
    if (!reason) return this.#inner.send(msg);
    const recorded = await store.recordWithheld(this.#sql, msg, reason);
    return { provider: WITHHELD_PROVIDER, providerMessageId: null, duplicate: !recorded };
  }

  /** Why this message may not go, or null when it may. */
  async #refusal(msg: OutboundMessage): Promise<WithheldReason | null> {
    const s = this.#settings;
    const phone = msg.channel !== 'email';
    if (!served(msg, s)) return 'number_not_served';
    if (!counted(msg)) return null;
    if (msg.purpose === 'job_card' && msg.channel === 'sms') {
      const { taken } = await takeFromAllowance(
        this.#sql,
        `msg:job-card-sms:${msg.to}`,
        HOUR_MS,
        s.jobCardSmsPerDriverPerHour,
      );
      return taken ? null : 'driver_hourly_cap';
    }
    if (!msg.bookingRef) return null; // (counted() says there is one)
    const booking = await store.bookingForPolicy(this.#sql, msg.bookingRef);
    // A sandbox booking's messages are recorded and never delivered (sandbox.ts), so they spend no
    // live allowance; a message naming no booking we hold is not a passenger's.
    if (!booking || booking.sandbox) return null;
    const toPassenger = phone
      ? msg.to === booking.passengerPhone
      : booking.passengerEmail !== null && msg.to.toLowerCase() === booking.passengerEmail.toLowerCase();
    if (!toPassenger) return null;

    const recipient = phone ? msg.to : msg.to.toLowerCase();
    const permit =
      (await store.findPermit(this.#sql, msg.bookingRef, recipient)) ??
      (await this.#decide(msg.bookingRef, recipient, phone ? 'phone' : 'email', booking));
    return permit.allowed ? null : (permit.reason as WithheldReason);
  }

  /** The booking's first message to this recipient: may the passenger hear from us about it? */
  async #decide(
    ref: string,
    recipient: string,
    kind: 'phone' | 'email',
    b: store.BookingForPolicy,
  ): Promise<store.Permit> {
    const s = this.#settings;
    const sql = this.#sql;
    const deny = (reason: WithheldReason) => store.storePermit(sql, ref, recipient, { allowed: false, reason });

    // Each allowance is taken from only while some is left: a message refused counts nothing, so a
    // flood of refusals never spends what is kept for others (a known passenger, the next hour).
    if (!(await takeFromAllowance(sql, `msg:recipient:${recipient}`, HOUR_MS, s.recipientPerHour)).taken)
      return deny('recipient_hourly_cap');
    if (!(await takeFromAllowance(sql, `msg:recipient-day:${recipient}`, DAY_MS, s.recipientPerDay)).taken)
      return deny('recipient_daily_cap');

    const accountable = b.principal.startsWith('key:') || b.principal.startsWith('partner:');
    const known = accountable ? false : await store.knownRecipient(sql, kind, recipient);
    const caller = accountable
      ? b.principal
      : b.principal.startsWith('account:')
        ? b.principal
        : b.address
          ? `address:${b.address}`
          : null;
    if (caller && !known) {
      const allowance = accountable ? s.keyPerHour : s.callerPerHour;
      if (!(await takeFromAllowance(sql, `msg:caller:${kind}:${caller}`, HOUR_MS, allowance)).taken)
        return deny('caller_hourly_cap');
    }

    const channel = kind === 'phone' ? 'sms' : 'email';
    const ceiling = channel === 'sms' ? s.smsPerDay : s.emailsPerDay;
    const reserved = !accountable && !known;
    const day = await takeFromAllowance(
      sql,
      messageCeilingKey(channel),
      DAY_MS,
      reserved ? Math.floor(ceiling * NEW_RECIPIENT_SHARE) : ceiling,
    );
    if (!day.taken) return deny(reserved && day.count < ceiling ? 'daily_ceiling_new_recipients' : 'daily_ceiling');
    if (day.count >= Math.ceil(ceiling * MESSAGE_CEILING_ALERT_RATIO))
      await this.#alertOps(channel, day.count, ceiling);
    return store.storePermit(sql, ref, recipient, { allowed: true, reason: null });
  }

  /** Once a UTC day per channel (the outbox key), best effort: the alert never stops a passenger's message. */
  async #alertOps(channel: 'sms' | 'email', sent: number, ceiling: number): Promise<void> {
    const day = new Date().toISOString().slice(0, 10);
    const { subject, body } = renderOpsMessageCeilingEmail({
      channel,
      sent,
      ceiling,
      alertRatio: MESSAGE_CEILING_ALERT_RATIO,
      newRecipientShare: NEW_RECIPIENT_SHARE,
    });
    await this.#inner
      .send({
        channel: 'email',
        to: this.#settings.opsAlertEmail,
        subject,
        body,
        idempotencyKey: `ops-message-ceiling:${channel}:${day}`,
        purpose: 'ops_alert',
      })
      .catch(() => undefined);
  }
}

/** The day's counter of bookings texted (or emailed) service-wide. */
export const messageCeilingKey = (channel: 'sms' | 'email') => `msg:ceiling:${channel}`;
