import type { Sql } from '../db/sql.js';
import type { PartnerDeliveryClient } from './delivery-client.js';
import { bookingsWithDueEvents } from './event-store.js';

// Starts the delivery workflows (through their client, delivery-client.ts). The bookings trigger records each event and, on commit, NOTIFYs
// partner_events with "<partner>:<ref>"; the pump (in every worker process) listens and signals
// that booking's delivery workflow, starting it if it is not running. Notifications are not
// durable (a pump that is down or reconnecting misses them), so a sweep also looks for bookings
// whose events have been waiting a while: one being worked on (an attempt within the longest
// backoff) is only started if it is not running, which adds nothing to a running workflow's
// history; any other is signalled, which wakes an idle workflow or starts one. The events are the
// durable record; the pump only ever says "look now".

export interface EventPumpOptions {
  sql: Sql;
  /** The delivery workflow's client, with the policy the deliveries it starts are given. */
  deliveries: PartnerDeliveryClient;
  /** How often to sweep for waiting events. */
  sweepEveryMs?: number;
  /** Events younger than this are left to their notification (starting one twice is harmless, just wasted). */
  sweepAfterSeconds?: number;
  log?: (message: string, fields?: Record<string, unknown>) => void;
}

export interface EventPump {
  /** One sweep now (of events waiting at least olderThanSeconds); resolves with the number of bookings it signalled or started delivery for. */
  sweep(olderThanSeconds?: number): Promise<number>;
  stop(): Promise<void>;
}

const NOTIFY_CHANNEL = 'partner_events';
const SWEEP_BATCH = 200;

export async function startEventPump(o: EventPumpOptions): Promise<EventPump> {
  const log = o.log ?? (() => {});
  const sweepAfterSeconds = o.sweepAfterSeconds ?? 5;
  let stopped = false;
  let sweeping: Promise<number> | null = null;

  const onNotify = (payload: string) => {
    const i = payload.indexOf(':');
    if (i <= 0 || stopped) return;
    const target = { partnerId: payload.slice(0, i), bookingRef: payload.slice(i + 1) };
    o.deliveries
      .signal(target)
      .catch((err: unknown) =>
        log('could not signal a delivery; the sweep will start it', { ...target, err: String(err) }),
      );
  };

  const busySeconds = o.deliveries.policy.maxRetrySeconds + 60;
  const sweepOnce = async (olderThanSeconds: number): Promise<number> => {
    const due = await bookingsWithDueEvents(o.sql, { olderThanSeconds, busySeconds, limit: SWEEP_BATCH });
    let kicked = 0;
    for (const { busy, ...target } of due) {
      if (stopped) break;
      try {
        await (busy ? o.deliveries.ensure(target) : o.deliveries.signal(target));
        kicked += 1;
      } catch (err) {
        log('could not start a delivery', { ...target, err: String(err) });
      }
    }
    return kicked;
  };
  // One sweep at a time: a slow one is not stacked on by the timer.
  const sweep = (olderThanSeconds = sweepAfterSeconds): Promise<number> => {
    sweeping ??= sweepOnce(olderThanSeconds).finally(() => {
      sweeping = null;
    });
    return sweeping;
  };
  const sweepQuietly = (olderThanSeconds?: number) => {
    sweep(olderThanSeconds).catch((err: unknown) => log('event sweep failed', { err: String(err) }));
  };

  // Called on every (re)connection. Any notification sent while this process was not listening is
  // lost, however recent, so this sweep takes every waiting event, not just the old ones.
  const listener = await o.sql.listen(NOTIFY_CHANNEL, onNotify, () => sweepQuietly(0));
  const timer = setInterval(() => sweepQuietly(), o.sweepEveryMs ?? 60_000);
  timer.unref();

  return {
    sweep,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await listener.unlisten().catch(() => {});
      await sweeping?.catch(() => 0);
    },
  };
}
