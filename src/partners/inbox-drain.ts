import type { Sql } from '../db/sql.js';
import { INBOX_CHANNEL, leaseHeads, markApplied, sweepAppliedRows, type InboxRow } from './inbox-store.js';
import type { PartnerJobClient } from './job-client.js';

// The inbox's drain (docs/partners.md "The inbox", docs/decisions.md): in every worker process, it
// leases the oldest undone row of each job reference of its task queue (FOR UPDATE SKIP LOCKED, so
// drains in several workers share the rows), applies it in the reference's job workflow as the
// Temporal update `inbox-<row id>`, and writes the outcome back. A reference's next row is leased
// only once the one before it is done, so each reference's rows are applied in the order taken in.
// A drain that dies leaves its leases to run out; the rows are then leased again and sent again
// under the same update ids, which Temporal answers with the first application's outcome. A
// committed batch NOTIFYs the drains; a poll catches anything a notification missed.

/** How long an applied row is kept. */
const KEEP_APPLIED_DAYS = 7;

export interface InboxDrainOptions {
  sql: Sql;
  jobs: PartnerJobClient;
  taskQueue: string;
  /** Rows applied at once (each a different job reference). */
  concurrency: number;
  /** How long a leased row is left to its drain before another may take it. */
  leaseSeconds: number;
  /** How often to look without a notification. */
  pollEveryMs?: number;
  log?: (message: string, fields?: Record<string, unknown>) => void;
}

export interface InboxDrain {
  /** Stops leasing rows; waits a little for the rows being applied (a row cut short is leased again). */
  stop(): Promise<void>;
}

export async function startInboxDrain(o: InboxDrainOptions): Promise<InboxDrain> {
  const log = o.log ?? (() => {});
  const inFlight = new Map<string, Promise<void>>();
  let stopped = false;
  let wake: (() => void) | null = null;
  const kick = () => {
    const w = wake;
    wake = null;
    w?.();
  };

  const apply = async (row: InboxRow) => {
    try {
      const outcome = await o.jobs.apply(row);
      await markApplied(o.sql, row.id, outcome);
    } catch (err) {
      // Left leased: taken again when the lease runs out.
      if (!stopped) log('could not apply an inbox job; it is taken again later', { id: row.id, err: String(err) });
    }
  };

  const loop = async () => {
    while (!stopped) {
      const free = o.concurrency - inFlight.size;
      let rows: InboxRow[] = [];
      if (free > 0) {
        try {
          rows = await leaseHeads(o.sql, o.taskQueue, free, o.leaseSeconds);
        } catch (err) {
          if (!stopped) log('could not lease inbox jobs', { err: String(err) });
        }
      }
      for (const row of rows) {
        if (inFlight.has(row.id)) continue;
        const p = apply(row).finally(() => {
          inFlight.delete(row.id);
          kick();
        });
        inFlight.set(row.id, p);
      }
      if (stopped) break;
      if (rows.length === 0 || inFlight.size >= o.concurrency) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, o.pollEveryMs ?? 1_000);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
    }
  };

  const listener = await o.sql.listen(
    INBOX_CHANNEL,
    (payload) => {
      if (payload === o.taskQueue) kick();
    },
    kick,
  );
  const running = loop();
  // Applied rows are kept a week (the lookup's lastJob reads them), then forgotten.
  const sweep = setInterval(() => {
    sweepAppliedRows(o.sql, KEEP_APPLIED_DAYS).catch((err: unknown) =>
      log('could not sweep applied inbox rows', { err: String(err) }),
    );
  }, 3600_000);
  sweep.unref();

  return {
    async stop() {
      stopped = true;
      clearInterval(sweep);
      kick();
      await listener.unlisten().catch(() => {});
      await running;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.all(inFlight.values()),
        new Promise((resolve) => {
          timer = setTimeout(resolve, 5_000);
        }),
      ]);
      clearTimeout(timer);
    },
  };
}
