import type { Channel, Notifier, OutboundMessage, SendResult } from './notifier.js';

// Lets each channel go through its own provider while callers hold one Notifier.

export class ChannelRouter implements Notifier {
  readonly #routes: Record<Channel, Notifier>;

  constructor(routes: Record<Channel, Notifier>) {
    this.#routes = routes;
  }

  send(msg: OutboundMessage): Promise<SendResult> {
    return this.#routes[msg.channel].send(msg);
  }
}
