import type { Sql } from '../db/sql.js';
import { DeliveryError } from './delivery-error.js';
import type { Channel, Notifier, OutboundMessage, SendResult } from './notifier.js';
import { withheldForSandbox } from './sandbox.js';

// Makes any real transport idempotent with the outbox as its ledger: a key whose row has sent_at
// set is never delivered again, however often the activity retries.

/** A provider that actually carries messages. Failures throw (a `DeliveryError` when it can say whether a retry may help). */
export interface Transport {
  readonly name: string;
  channels: Channel[];
  deliver(msg: OutboundMessage): Promise<{ providerMessageId: string | null }>;
}

export class DeliveringNotifier implements Notifier {
  readonly #sql: Sql;
  readonly #transport: Transport;

  constructor(opts: { sql: Sql; transport: Transport }) {
    this.#sql = opts.sql;
    this.#transport = opts.transport;
  }

  async send(msg: OutboundMessage): Promise<SendResult> {
    const provider = this.#transport.name;
    if (!this.#transport.channels.includes(msg.channel)) {
      throw new DeliveryError({
        provider,
        nonRetryable: true,
        message: `${provider} does not carry ${msg.channel} messages`,
      });
    }
    // A text about a sandbox booking is recorded, never delivered (sandbox.ts).
    const withheld = await withheldForSandbox(this.#sql, msg);
    if (withheld) return withheld;

    // The claim commits on its own so an attempt that fails leaves its unsent row behind, visible
    // to anyone reading the outbox, rather than vanishing with a rolled-back transaction.
    await this.#sql`
      insert into outbox (idempotency_key, channel, recipient, subject, body, booking_ref, provider, purpose)
      values (${msg.idempotencyKey}, ${msg.channel}, ${msg.to}, ${msg.subject ?? null}, ${msg.body},
              ${msg.bookingRef ?? null}, ${provider}, ${msg.purpose ?? null})
      on conflict (idempotency_key) do nothing`;

    try {
      return await this.#deliverOnce(msg, provider);
    } catch (err) {
      // The delivery's transaction rolled back with it; what the provider said is kept beside the
      // unsent row, for support and ops (docs/notifications.md), before the error goes on to the
      // activity, which retries it or not.
      await this.#recordFailure(msg.idempotencyKey, err);
      throw err;
    }
  }

  async #deliverOnce(msg: OutboundMessage, provider: string): Promise<SendResult> {
    return this.#sql.begin(async (tx) => {
      // Holding the row lock across the provider call makes concurrent attempts for one key (an
      // activity timed out but still running, say) queue here and then see sent_at, instead of both
      // delivering. The transports' own request timeouts bound how long the lock is held.
      await tx`set local lock_timeout = '60s'`;
      const [row] = await tx<
        { id: string; provider: string; provider_message_id: string | null; sent_at: Date | null }[]
      >`
        select id, provider, provider_message_id, sent_at from outbox
        where idempotency_key = ${msg.idempotencyKey}
        for update`;
      if (!row) throw new Error(`outbox row for ${msg.idempotencyKey} disappeared after it was claimed`);
      if (row.sent_at) return { provider: row.provider, providerMessageId: row.provider_message_id, duplicate: true };

      // An unsent row is either this attempt's fresh claim or one an earlier attempt left: it
      // failed, or it crashed after the provider accepted the message but before the commit below.
      // That crash window is the one way a message reaches the provider twice: delivery is
      // at-least-once to the provider and exactly-once only in the ledger. Nothing can close it
      // without provider-side idempotency, which Twilio's Messages API and SMTP do not offer.
      const { providerMessageId } = await this.#transport.deliver(msg);
      // A retry may have re-rendered the message; the ledger keeps what was actually delivered.
      await tx`
        update outbox
        set sent_at = now(), provider = ${provider}, provider_message_id = ${providerMessageId},
            recipient = ${msg.to}, subject = ${msg.subject ?? null}, body = ${msg.body},
            attempts = attempts + 1
        where id = ${row.id}`;
      return { provider, providerMessageId, duplicate: false };
    });
  }

  async #recordFailure(idempotencyKey: string, err: unknown): Promise<void> {
    const e = err instanceof DeliveryError ? err : null;
    const message = (err instanceof Error ? err.message : String(err)).slice(0, 500);
    await this.#sql`
      update outbox
         set attempts = attempts + ${e ? 1 : 0}, last_error_at = now(), last_error_status = ${e?.status ?? null},
             last_error_code = ${e?.providerCode ?? null}, last_error = ${message},
             refused_at = case when ${e?.nonRetryable ?? false} then coalesce(refused_at, now()) else refused_at end
       where idempotency_key = ${idempotencyKey} and sent_at is null`
      // Not being able to write this down must not hide the provider's error the caller acts on.
      .catch(() => undefined);
  }
}
