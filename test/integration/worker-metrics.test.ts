// The worker's metrics endpoint as production runs it: src/worker.ts as a child process with
// WORKER_METRICS_PORT set serves its own counters and, appended, the Temporal SDK's (its Prometheus
// exporter bound on loopback through Runtime.install's telemetry options).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../dev/free-port.js';
import { startApiOnly, startWorkerProcess, type ApiOnlyStack, type WorkerProcess } from '../support/processes.js';

let api: ApiOnlyStack;
let worker: WorkerProcess | undefined;
beforeAll(async () => {
  api = await startApiOnly();
});
afterAll(async () => {
  await worker?.stop();
  await api?.close();
});

describe('worker metrics', () => {
  it('serves the worker’s counters and the Temporal SDK’s on WORKER_METRICS_PORT, and nothing else', async () => {
    const port = await freePort();
    const sdkPort = await freePort();
    worker = await startWorkerProcess({
      ...api.workerEnv,
      WORKER_METRICS_PORT: String(port),
      WORKER_SDK_METRICS_PORT: String(sdkPort),
      LOG_LEVEL: 'info',
    });
    expect(worker.output()).toContain(`metrics on http://127.0.0.1:${port}/metrics`);

    const text = await (async () => {
      // The SDK's exporter reports once the worker has polled: wait for its series, with a deadline.
      const deadline = Date.now() + 30_000;
      for (;;) {
        const res = await fetch(`http://127.0.0.1:${port}/metrics`);
        expect(res.status).toBe(200);
        const body = await res.text();
        if (/^temporal_/m.test(body) || Date.now() > deadline) return body;
        await new Promise((r) => setTimeout(r, 250));
      }
    })();
    for (const name of [
      'taxi_offers_sent_total',
      'taxi_offer_outcomes_total',
      'taxi_time_to_assignment_seconds',
      'taxi_notifier_failures_total',
      'taxi_ops_unassigned_alerts_total',
    ]) {
      expect(text).toContain(`# TYPE ${name} `);
    }
    expect(text).toMatch(/^temporal_\w+/m);
    expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(404);
    // The SDK's own exporter listens on loopback only, where the worker's endpoint reads it.
    expect((await fetch(`http://127.0.0.1:${sdkPort}/metrics`)).status).toBe(200);
  }, 150_000);
});
