import type { Sql } from '../db/sql.js';
import type { OutboundMessage, SendResult } from './notifier.js';

// Sandbox bookings (docs/partners.md, "Sandbox keys"): no text or WhatsApp about one ever leaves the
// service, whoever it is to (the passenger, a test driver's job card, a driver told of a cancel), and
// no email either but those to the booking's own passenger email (the v1 booking's confirmation link
// is how a sandbox booking from an unverified email is confirmed; ops are not alerted about tests).
// Each withheld message is still recorded in the outbox, as provider 'sandbox' and sent, so the
// booking's story shows what would have gone and a retry is a no-op.

/** The provider recorded for a message withheld because its booking is a sandbox booking. */
export const SANDBOX_PROVIDER = 'sandbox';

/**
 * Records the message as withheld when it is about a sandbox booking (and not an email to its own
 * passenger), and says what was recorded; null when it is to be delivered as usual.
 */
export async function withheldForSandbox(sql: Sql, msg: OutboundMessage): Promise<SendResult | null> {
  if (!msg.bookingRef) return null;
  const [booking] = await sql<{ sandbox: boolean; passenger_email: string | null }[]>`
    select sandbox, passenger_email from bookings where ref = ${msg.bookingRef}`;
  if (!booking?.sandbox) return null;
  if (
    msg.channel === 'email' &&
    booking.passenger_email !== null &&
    msg.to.toLowerCase() === booking.passenger_email.toLowerCase()
  )
    return null;
  const inserted = await sql`
    insert into outbox (idempotency_key, channel, recipient, subject, body, booking_ref, provider, sent_at, purpose)
    values (${msg.idempotencyKey}, ${msg.channel}, ${msg.to}, ${msg.subject ?? null}, ${msg.body},
            ${msg.bookingRef}, ${SANDBOX_PROVIDER}, now(), ${msg.purpose ?? null})
    on conflict (idempotency_key) do nothing
    returning id`;
  return { provider: SANDBOX_PROVIDER, providerMessageId: null, duplicate: inserted.length === 0 };
}
