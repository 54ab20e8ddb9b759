import { isNonRetryable } from './delivery-error.js';
import type { Notifier, OutboundMessage } from './notifier.js';

/**
 * For messages that are not job cards: they must never fail a booking. A permanent delivery
 * failure (a bad passenger number) is logged and left in the outbox unsent; a transient one is
 * thrown so the calling activity is retried.
 */
export async function sendBestEffort(
  notifier: Notifier,
  msg: OutboundMessage,
  warn: (message: string, attrs: Record<string, unknown>) => void,
): Promise<void> {
  try {
    await notifier.send(msg);
  } catch (err) {
    if (!isNonRetryable(err)) throw err;
    warn('message undeliverable; booking continues', {
      key: msg.idempotencyKey,
      channel: msg.channel,
      error: String(err),
    });
  }
}
