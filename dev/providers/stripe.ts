// Stripe's side, for the Stripe adapter (src/billing/stripe.ts): stripe-mock (Stripe's own mock,
// validating every request against Stripe's OpenAPI document, keeping no state) and localstripe (a
// stateful fake Stripe, PyPI, GPL-3.0, run in tests only, that signs and sends webhooks).
import path from 'node:path';
import { freePort } from '../free-port.js';
import { providerExecutable, spawnProviderServer, type ProviderServer } from './servers.js';

/**
 * stripe-mock on loopback: both of its listeners are given loopback addresses (left alone, HTTPS
 * binds every interface). It accepts any test-mode key (sk_test_...) and refuses a request
 * Stripe's OpenAPI document would refuse; it keeps no state.
 */
export async function startStripeMock(port?: number): Promise<ProviderServer> {
  const command = await providerExecutable('stripe-mock');
  const httpsPort = await freePort();
  return spawnProviderServer({
    name: 'stripe-mock',
    command,
    port,
    args: (p) => ['-http-addr', `127.0.0.1:${p}`, '-https-addr', `127.0.0.1:${httpsPort}`],
    ready: async (url) => (await fetch(`${url}/v1/balance`, { headers: { authorization: 'Bearer sk_test_ready' } })).ok,
  });
}

/**
 * localstripe on loopback, its store in this process's memory (dev/localstripe-serve.py).
 * `webhook` points its signed webhooks at `url` with `secret`.
 */
export async function startLocalstripe(
  port?: number,
): Promise<ProviderServer & { webhook(id: string, url: string, secret: string, events?: string[]): Promise<void> }> {
  const python = await providerExecutable('localstripe');
  const server = await spawnProviderServer({
    name: 'localstripe',
    command: python,
    port,
    args: (p) => [path.join(import.meta.dirname, 'localstripe-serve.py'), String(p)],
    ready: async (url) =>
      (await fetch(`${url}/v1/customers`, { headers: { authorization: 'Bearer sk_test_ready' } })).ok,
  });
  return {
    ...server,
    async webhook(id, url, secret, events) {
      const res = await fetch(`${server.url}/_config/webhooks/${encodeURIComponent(id)}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url, secret, ...(events ? { events } : {}) }),
      });
      if (!res.ok) throw new Error(`localstripe refused the webhook: ${res.status} ${await res.text()}`);
    },
  };
}
