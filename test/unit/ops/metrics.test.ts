// The worker's metric helpers: the notifier's failures counted by channel and kind without changing
// what it sends or throws, and the worker's endpoint still answering its own counters when the
// Temporal SDK's exporter is not there.
import { describe, expect, it } from 'vitest';
import { freePort } from '../../../dev/free-port.js';
import { DeliveryError } from '../../../src/notify/delivery-error.js';
import type { Notifier, OutboundMessage } from '../../../src/notify/notifier.js';
import { countingFailures, createWorkerMetrics } from '../../../src/ops/metrics.js';
import { startMetricsServer } from '../../../src/ops/metrics-server.js';

const msg = (channel: OutboundMessage['channel'], idempotencyKey: string): OutboundMessage => ({
  channel,
  to: '+447400123456',
  body: 'hello',
  idempotencyKey,
});

async function failures(m: ReturnType<typeof createWorkerMetrics>) {
  const values = (await m.notifierFailures.get()).values;
  return Object.fromEntries(values.map((v) => [`${v.labels.channel}/${v.labels.kind}`, v.value]));
}

describe('worker metrics', () => {
  it('counts notifier failures by channel and kind, passing results and errors through', async () => {
    const m = createWorkerMetrics();
    const inner: Notifier = {
      async send(x) {
        if (x.idempotencyKey === 'bad-number')
          throw new DeliveryError({ provider: 'twilio', message: 'invalid number', nonRetryable: true });
        if (x.idempotencyKey === 'outage') throw new Error('ECONNRESET');
        return { provider: 'outbox', providerMessageId: null, duplicate: false };
      },
    };
    const notifier = countingFailures(inner, m.notifierFailures);
    expect(await notifier.send(msg('sms', 'ok'))).toEqual({
      provider: 'outbox',
      providerMessageId: null,
      duplicate: false,
    });
    await expect(notifier.send(msg('sms', 'bad-number'))).rejects.toBeInstanceOf(DeliveryError);
    await expect(notifier.send(msg('whatsapp', 'outage'))).rejects.toThrow('ECONNRESET');
    await expect(notifier.send(msg('whatsapp', 'outage'))).rejects.toThrow('ECONNRESET');
    expect(await failures(m)).toEqual({ 'sms/permanent': 1, 'whatsapp/retryable': 2 });
  });

  it('serves its own counters when the SDK exporter is down, and only /metrics', async () => {
    const m = createWorkerMetrics();
    m.offersSent.inc({ tier: 'local' });
    const warnings: string[] = [];
    const server = await startMetricsServer({
      registry: m.registry,
      host: '127.0.0.1',
      port: 0,
      sdkMetricsAddress: `127.0.0.1:${await freePort()}`,
      warn: (w) => warnings.push(w),
    });
    try {
      const res = await fetch(`http://127.0.0.1:${server.port}/metrics`);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('taxi_offers_sent_total{tier="local"} 1');
      expect(warnings.join('\n')).toContain('Temporal SDK metrics unavailable');
      expect((await fetch(`http://127.0.0.1:${server.port}/metrics/../secret`)).status).toBe(404);
      expect((await fetch(`http://127.0.0.1:${server.port}/metrics`, { method: 'POST' })).status).toBe(404);
    } finally {
      await server.close();
    }
  });
});
