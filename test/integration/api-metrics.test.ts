// The API process counts its own notifier failures (the sign-in codes it texts itself) on its
// /metrics, as the worker counts the job cards' on its own: ops see a provider refusing messages
// whichever process sent them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeliveryError } from '../../src/notify/delivery-error.js';
import { createDriver } from '../support/drivers.js';
import { startStack, type TestStack } from '../support/stack.js';

const REFUSED = '+447400987321';
let stack: TestStack;

beforeAll(async () => {
  stack = await startStack(
    { METRICS_TOKEN: 'metrics-token-for-tests-0123456789' },
    {
      // A provider that refuses one number for good, as Twilio does an invalid one.
      wrapNotifier: (real) => ({
        send: async (msg) => {
          if (msg.to === REFUSED)
            throw new DeliveryError({ provider: 'fake', message: 'invalid number', nonRetryable: true, status: 400 });
          return real.send(msg);
        },
      }),
    },
  );
  const driver = await createDriver(stack.sql, { lat: 51.5, lon: -0.1, phone: REFUSED });
  // Signing in needs no shift: offline, so no other test's cascade offers this driver a job.
  await stack.sql`update drivers set online = false where id = ${driver.id}`;
}, 60_000);
afterAll(async () => {
  await stack?.close();
});

const failures = async (): Promise<number> => {
  const res = await stack.app.inject({
    method: 'GET',
    url: '/metrics',
    headers: { authorization: 'Bearer metrics-token-for-tests-0123456789' },
  });
  expect(res.statusCode, res.body).toBe(200);
  const line = res.body
    .split('\n')
    .find((l) => l.startsWith('taxi_notifier_failures_total{channel="sms",kind="permanent"}'));
  return line ? Number(line.split(' ').pop()) : 0;
};

describe('API metrics', () => {
  it('counts a sign-in code the SMS provider refused on the API’s own /metrics', async () => {
    const before = await failures();
    const res = await stack.app.inject({
      method: 'POST',
      url: '/api/driver/sign-in',
      remoteAddress: '10.93.0.1',
      payload: { phone: REFUSED },
    });
    expect(res.statusCode, res.body).toBeGreaterThanOrEqual(400);
    expect(await failures(), res.body).toBe(before + 1);
  });
});
