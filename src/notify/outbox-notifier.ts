import type { Sql } from '../db/sql.js';
import type { Notifier, OutboundMessage, SendResult } from './notifier.js';
import { SANDBOX_PROVIDER } from './sandbox.js';

// The embedded default: the outbox row is the delivery. Tests and the demo read what would have
// been sent from the table; the unique key makes a retried activity a no-op.

export class OutboxNotifier implements Notifier {
  readonly #sql: Sql;

  constructor(opts: { sql: Sql }) {
    this.#sql = opts.sql;
  }

  async send(msg: OutboundMessage): Promise<SendResult> {
    // One statement, sandbox rule included (src/notify/sandbox.ts): a message about a sandbox booking is
    // recorded as withheld (provider 'sandbox'), but an email to that booking's own passenger.
    const ref = msg.bookingRef ?? null;
    const inserted = await this.#sql<{ provider: string }[]>`
      with b as (select sandbox, passenger_email from bookings where ref = ${ref})
      insert into outbox (idempotency_key, channel, recipient, subject, body, booking_ref, provider, sent_at, purpose)
      values (${msg.idempotencyKey}, ${msg.channel}, ${msg.to}, ${msg.subject ?? null}, ${msg.body}, ${ref},
              case when coalesce((select sandbox from b), false)
                        and not (${msg.channel} = 'email'
                                 and lower(${msg.to}) = lower(coalesce((select passenger_email from b), '')))
                   then ${SANDBOX_PROVIDER} else 'outbox' end,
              now(), ${msg.purpose ?? null})
      on conflict (idempotency_key) do nothing
      returning provider`;
    if (inserted[0]) return { provider: inserted[0].provider, providerMessageId: null, duplicate: false };

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
