import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Sql } from '../db/sql.js';
import type { Notifier } from '../notify/notifier.js';
import { isNonRetryable } from '../notify/delivery-error.js';
import { WITHOUT_DRIVER } from './alerts-store.js';
import { countActiveLockouts, codesToday } from '../auth/code-guard-store.js';
import { withheldSince } from '../notify/sending-policy-store.js';
import type { CodeChannel } from '../auth/code-guard-store.js';

// The service's own metrics, in Prometheus format. Each process has its own registry (the API's
// and the worker's are scraped separately), built here so tests can make as many as they like
// without names colliding in prom-client's global one.

/** What the worker's activities count: where dispatch decisions and messages are recorded. */
export interface WorkerMetrics {
  registry: Registry;
  offersSent: Counter<'tier'>;
  offerOutcomes: Counter<'outcome'>;
  timeToAssignment: Histogram;
  notifierFailures: Counter<'channel' | 'kind'>;
  opsAlerts: Counter;
}

export function createWorkerMetrics(registry = new Registry()): WorkerMetrics {
  return {
    registry,
    offersSent: new Counter({
      name: 'taxi_offers_sent_total',
      help: 'Job cards offered to a driver (claimed), by tier',
      labelNames: ['tier'],
      registers: [registry],
    }),
    offerOutcomes: new Counter({
      name: 'taxi_offer_outcomes_total',
      help: 'Job cards closed, by outcome: accepted, declined, timed_out, withdrawn',
      labelNames: ['outcome'],
      registers: [registry],
    }),
    timeToAssignment: new Histogram({
      name: 'taxi_time_to_assignment_seconds',
      help: 'From the start of a booking’s dispatch (its first decision) to a driver accepting',
      buckets: [5, 15, 30, 60, 120, 300, 600, 1200, 1800, 3600],
      registers: [registry],
    }),
    notifierFailures: notifierFailuresCounter(registry),
    opsAlerts: new Counter({
      name: 'taxi_ops_unassigned_alerts_total',
      help: 'Ops alerted that a booking is still unassigned close to pickup (once per booking)',
      registers: [registry],
    }),
  };
}

/** Both processes send messages (the API its sign-in and verification codes), so both count failures. */
function notifierFailuresCounter(registry: Registry): Counter<'channel' | 'kind'> {
  return new Counter({
    name: 'taxi_notifier_failures_total',
    help: 'Messages the notifier failed to send, by channel and kind (retryable or permanent)',
    labelNames: ['channel', 'kind'],
    registers: [registry],
  });
}

/** The notifier, counting its failures by channel; what it sends and returns is unchanged. */
export function countingFailures(notifier: Notifier, failures: Counter<'channel' | 'kind'>): Notifier {
  return {
    async send(msg) {
      try {
        return await notifier.send(msg);
      } catch (err) {
        failures.inc({ channel: msg.channel, kind: isNonRetryable(err) ? 'permanent' : 'retryable' });
        throw err;
      }
    },
  };
}

/** What the API counts per request, and what it reads from Postgres when scraped. */
export interface ApiMetrics {
  registry: Registry;
  requests: Counter<'method' | 'route' | 'status'>;
  duration: Histogram<'method' | 'route' | 'status'>;
  notifierFailures: Counter<'channel' | 'kind'>;
}

export function createApiMetrics(
  sql: Sql,
  alertMinutes: number,
  registry = new Registry(),
  codeCeilings: Record<CodeChannel, number> = { sms: 0, email: 0 },
): ApiMetrics {
  new Gauge({
    name: 'taxi_sign_in_codes_today',
    help: 'One-time codes (sign-in, verification) sent this UTC day against its ceiling, by channel (a refused request counts nothing)',
    labelNames: ['channel'],
    registers: [registry],
    async collect() {
      for (const channel of ['sms', 'email'] as const) this.set({ channel }, await codesToday(sql, channel));
    },
  });
  new Gauge({
    name: 'taxi_sign_in_code_ceiling',
    help: 'The daily ceiling of one-time codes, by channel (SIGN_IN_SMS_PER_DAY, SIGN_IN_EMAILS_PER_DAY)',
    labelNames: ['channel'],
    registers: [registry],
    collect() {
      for (const channel of ['sms', 'email'] as const) this.set({ channel }, codeCeilings[channel]);
    },
  });
  new Gauge({
    name: 'taxi_sign_in_lockouts_active',
    help: 'Phones and mailboxes whose sign-in is locked now by wrong codes, one per identifier and guessing address (GET /api/ops/sign-in-lockouts lists them)',
    registers: [registry],
    async collect() {
      this.set(await countActiveLockouts(sql));
    },
  });
  new Gauge({
    name: 'taxi_messages_withheld_today',
    help: 'Messages the sending policy held back this UTC day, by reason (docs/notifications.md, "Sending policy"); alert on daily_ceiling and on a sudden rise',
    labelNames: ['reason'],
    registers: [registry],
    async collect() {
      this.reset();
      const day = new Date(Math.floor(Date.now() / 86_400_000) * 86_400_000);
      for (const { reason, n } of await withheldSince(sql, day)) this.set({ reason }, n);
    },
  });
  new Gauge({
    name: 'taxi_bookings_unassigned',
    help: 'Bookings with no driver after every tier was tried (status unassigned), read from Postgres when scraped',
    registers: [registry],
    async collect() {
      const [row] = await sql<{ n: number }[]>`select count(*)::int as n from bookings where status = 'unassigned'`;
      this.set(row?.n ?? 0);
    },
  });
  new Gauge({
    name: 'taxi_bookings_unassigned_near_pickup',
    help: 'Bookings without a driver whose pickup is within OPS_UNASSIGNED_ALERT_MINUTES (or passed in the last hour)',
    registers: [registry],
    async collect() {
      const [row] = await sql<{ n: number }[]>`
        select count(*)::int as n from bookings
         where driver_id is null and status in ${sql(WITHOUT_DRIVER as unknown as string[])}
           and pickup_at between now() - interval '1 hour' and now() + make_interval(mins => ${alertMinutes})`;
      this.set(row?.n ?? 0);
    },
  });
  return {
    registry,
    requests: new Counter({
      name: 'taxi_http_requests_total',
      help: 'HTTP requests by method, route template and status',
      labelNames: ['method', 'route', 'status'],
      registers: [registry],
    }),
    duration: new Histogram({
      name: 'taxi_http_request_duration_seconds',
      help: 'HTTP request latency by method, route template and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    notifierFailures: notifierFailuresCounter(registry),
  };
}
