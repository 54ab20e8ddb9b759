import type { Sql } from '../db/sql.js';
import type { Notifier, OutboundMessage, SendResult } from './notifier.js';
import { withheldForSandbox } from './sandbox.js';

// The embedded default: the outbox row is the delivery. Tests and the demo read what would have
// been sent from the table; the unique key makes a retried activity a no-op.

export class OutboxNotifier implements Notifier {
  readonly #sql: Sql;

  constructor(opts: { sql: Sql }) {
    this.#sql = opts.sql;
  }

  async send(msg: OutboundMessage): Promise<SendResult> {
    const withheld = await withheldForSandbox(this.#sql, msg);
    if (withheld) return withheld;
    const inserted = await this.#sql`
      insert into outbox (idempotency_key, channel, recipient, subject, body, booking_ref, provider, sent_at, purpose)
      values (${msg.idempotencyKey}, ${msg.channel}, ${msg.to}, ${msg.subject ?? null}, ${msg.body},
              ${msg.bookingRef ?? null}, 'outbox', now(), ${msg.purpose ?? null})
      on conflict (idempotency_key) do nothing
      returning id`;
    if (inserted.length > 0) return { provider: 'outbox', providerMessageId: null, duplicate: false };

    // The first send's row wins, whatever this attempt's content; report what it recorded.
    const [existing] = await this.#sql<{ provider: string; provider_message_id: string | null }[]>`
      select provider, provider_message_id from outbox where idempotency_key = ${msg.idempotencyKey}`;
    return {
      provider: existing?.provider ?? 'outbox',
      providerMessageId: existing?.provider_message_id ?? null,
      duplicate: true,
    };
  }
}
