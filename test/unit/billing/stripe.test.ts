// The Stripe adapter against a local HTTP server standing in for api.stripe.com (the real one
// cannot be reached from here): what it sends (path, auth, Idempotency-Key, API version, the form
// fields of a Checkout Session), what it makes of Stripe's answers and refusals, and how it
// verifies Stripe-Signature webhooks.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PaymentProviderError } from '../../../src/billing/payment-provider.js';
import {
  STRIPE_API_VERSION,
  createStripeProvider,
  stripeSignature,
  verifyStripeSignature,
} from '../../../src/billing/stripe.js';
import type { InvoiceLine } from '../../../src/model/billing.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  form: URLSearchParams;
}

const seen: Seen[] = [];
let answer: (s: Seen) => { status: number; body: unknown } = () => ({ status: 200, body: {} });
let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
    req.on('end', () => {
      const s = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, form: new URLSearchParams(raw) };
      seen.push(s);
      const { status, body } = answer(s);
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => new Promise<void>((r) => server.close(() => r())));

const SECRET_KEY = 'sk_test_51AbCdEfGhIjKlMnOp';
const WHSEC = 'whsec_testSigningSecret0123456789';
const stripe = () => createStripeProvider({ secretKey: SECRET_KEY, webhookSecrets: [WHSEC], apiBase: base });
const lines: InvoiceLine[] = [
  {
    kind: 'weekly_fee',
    quantity: 1,
    unitPence: 2000,
    amountPence: 2000,
    description: 'Weekly subscription: earnings £620.00, above £500.00',
  },
  {
    kind: 'card_processing',
    quantity: 3,
    unitPence: null,
    amountPence: 178,
    description: 'Card processing: 1.50% + £0.20 on each of 3 card payments (£78.34)',
  },
];
const request = {
  idempotencyKey: 'invoice:driver:drv-1:2026-10-19:open',
  invoiceReference: 'invoice:driver:drv-1:2026-10-19',
  amountPence: 2178,
  lines,
  description: 'Direct Taxi subscription, week of 19 Oct 2026',
  customerEmail: 'driver@example.com',
  returnUrl: 'https://taxi.example/driver',
};

describe('Stripe adapter: Checkout Sessions', () => {
  it('creates a Checkout Session with the key, the idempotency key, the pinned version and one line per charge', async () => {
    seen.length = 0;
    answer = () => ({
      status: 200,
      body: {
        id: 'cs_test_a1',
        object: 'checkout.session',
        url: 'https://checkout.stripe.com/c/pay/cs_test_a1',
        expires_at: 1_792_000_000,
      },
    });
    const c = await stripe().createCollection(request);
    expect(c).toEqual({
      provider: 'stripe',
      providerRef: 'cs_test_a1',
      payUrl: 'https://checkout.stripe.com/c/pay/cs_test_a1',
      expiresAt: new Date(1_792_000_000_000).toISOString(),
    });
    expect(seen).toHaveLength(1);
    const s = seen[0]!;
    expect(s.method).toBe('POST');
    expect(s.url).toBe('/v1/checkout/sessions');
    expect(s.headers.authorization).toBe(`Bearer ${SECRET_KEY}`);
    expect(s.headers['idempotency-key']).toBe('invoice:driver:drv-1:2026-10-19:open');
    expect(s.headers['stripe-version']).toBe(STRIPE_API_VERSION);
    expect(s.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(s.form)).toEqual({
      mode: 'payment',
      client_reference_id: 'invoice:driver:drv-1:2026-10-19',
      'metadata[invoice_reference]': 'invoice:driver:drv-1:2026-10-19',
      'payment_intent_data[metadata][invoice_reference]': 'invoice:driver:drv-1:2026-10-19',
      'payment_intent_data[description]': 'Direct Taxi subscription, week of 19 Oct 2026',
      success_url: 'https://taxi.example/driver',
      cancel_url: 'https://taxi.example/driver',
      customer_email: 'driver@example.com',
      'line_items[0][quantity]': '1',
      'line_items[0][price_data][currency]': 'gbp',
      'line_items[0][price_data][unit_amount]': '2000',
      'line_items[0][price_data][product_data][name]': 'Weekly subscription: earnings £620.00, above £500.00',
      'line_items[1][quantity]': '1',
      'line_items[1][price_data][currency]': 'gbp',
      'line_items[1][price_data][unit_amount]': '178',
      'line_items[1][price_data][product_data][name]':
        'Card processing: 1.50% + £0.20 on each of 3 card payments (£78.34)',
    });
    // The lines add up to what is collected.
    expect(
      Number(s.form.get('line_items[0][price_data][unit_amount]')) +
        Number(s.form.get('line_items[1][price_data][unit_amount]')),
    ).toBe(request.amountPence);
  });

  it("tells a refusal to retry (429, 5xx, an idempotent request in flight) from one that never will (a bad request), with Stripe's message and never the key", async () => {
    for (const [status, retryable] of [
      [400, false],
      [401, false],
      [409, true],
      [429, true],
      [500, true],
      [503, true],
    ] as const) {
      answer = () => ({
        status,
        body: { error: { type: 'invalid_request_error', message: `refused with ${status}` } },
      });
      const err = await stripe()
        .createCollection(request)
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(PaymentProviderError);
      expect((err as PaymentProviderError).retryable).toBe(retryable);
      expect((err as Error).message).toContain(`refused with ${status}`);
      expect((err as Error).message).not.toContain(SECRET_KEY);
    }
    answer = () => ({ status: 200, body: { id: 'cs_1' } }); // no url
    expect(
      await stripe()
        .createCollection(request)
        .catch((e: unknown) => (e as PaymentProviderError).retryable),
    ).toBe(true);
    const down = createStripeProvider({
      secretKey: SECRET_KEY,
      webhookSecrets: [WHSEC],
      apiBase: 'http://127.0.0.1:1',
    });
    expect(await down.createCollection(request).catch((e: unknown) => (e as PaymentProviderError).retryable)).toBe(
      true,
    );
  });
});

describe('Stripe adapter: signed webhooks', () => {
  const now = 1_790_000_000;
  const event = (type: string, object: Record<string, unknown>) =>
    JSON.stringify({
      id: 'evt_1',
      object: 'event',
      type,
      data: {
        object: {
          id: 'cs_test_a1',
          object: 'checkout.session',
          client_reference_id: 'invoice:driver:drv-1:2026-10-19',
          amount_total: 2178,
          ...object,
        },
      },
    });
  const header = (body: string, t = now, secret = WHSEC) => `t=${t},v1=${stripeSignature(secret, t, body)}`;

  it('reads a paid Checkout Session as a success for its invoice, signed as Stripe signs', () => {
    const body = event('checkout.session.completed', { payment_status: 'paid' });
    expect(stripe().parseWebhook({ 'stripe-signature': header(body) }, body, now + 10)).toEqual({
      ok: true,
      event: {
        eventId: 'evt_1',
        outcome: 'succeeded',
        invoiceReference: 'invoice:driver:drv-1:2026-10-19',
        amountPence: 2178,
        providerRef: 'cs_test_a1',
      },
    });
    // Stripe's scheme, checked against openssl: HMAC-SHA256 of "<t>.<body>" keyed by the whole whsec_ string, hex.
    // printf '1700000000.{"id":"evt_1"}' | openssl dgst -sha256 -hmac whsec_x
    expect(stripeSignature('whsec_x', 1_700_000_000, '{"id":"evt_1"}')).toBe(
      '366e40c480fe3a9e6a03609dca079cea86d77ae82d5a56b5348208247317a8d1',
    );
  });

  it('waits for a delayed payment, and reads its failure and other events as such', () => {
    const unpaid = event('checkout.session.completed', { payment_status: 'unpaid' });
    expect(stripe().parseWebhook({ 'stripe-signature': header(unpaid) }, unpaid, now)).toMatchObject({
      ok: true,
      event: { outcome: 'ignored' },
    });
    const later = event('checkout.session.async_payment_succeeded', { payment_status: 'paid' });
    expect(stripe().parseWebhook({ 'stripe-signature': header(later) }, later, now)).toMatchObject({
      ok: true,
      event: { outcome: 'succeeded' },
    });
    const failed = event('checkout.session.async_payment_failed', {});
    expect(stripe().parseWebhook({ 'stripe-signature': header(failed) }, failed, now)).toMatchObject({
      ok: true,
      event: { outcome: 'failed' },
    });
    const other = event('customer.created', {});
    expect(stripe().parseWebhook({ 'stripe-signature': header(other) }, other, now)).toMatchObject({
      ok: true,
      event: { outcome: 'ignored' },
    });
  });

  it('refuses a missing, mis-signed, tampered or stale signature, and accepts any of several v1 while a secret is rolled', () => {
    const body = event('checkout.session.completed', { payment_status: 'paid' });
    const p = stripe();
    expect(p.parseWebhook({}, body, now)).toEqual({ ok: false, reason: 'missing_headers' });
    expect(p.parseWebhook({ 'stripe-signature': `t=${now}` }, body, now)).toEqual({
      ok: false,
      reason: 'missing_headers',
    });
    expect(
      p.parseWebhook({ 'stripe-signature': header(body, now, 'whsec_someoneElsesSecret0000') }, body, now),
    ).toEqual({ ok: false, reason: 'bad_signature' });
    expect(p.parseWebhook({ 'stripe-signature': header(body) }, body.replace('2178', '1'), now)).toEqual({
      ok: false,
      reason: 'bad_signature',
    });
    // Five minutes either way, and no more.
    expect(p.parseWebhook({ 'stripe-signature': header(body, now - 300) }, body, now)).toMatchObject({ ok: true });
    expect(p.parseWebhook({ 'stripe-signature': header(body, now - 301) }, body, now)).toEqual({
      ok: false,
      reason: 'stale_timestamp',
    });
    expect(p.parseWebhook({ 'stripe-signature': header(body, now + 301) }, body, now)).toEqual({
      ok: false,
      reason: 'stale_timestamp',
    });
    const both = `t=${now},v1=${stripeSignature('whsec_oldSecret0000000000000', now, body)},v1=${stripeSignature(WHSEC, now, body)}`;
    expect(p.parseWebhook({ 'stripe-signature': both }, body, now)).toMatchObject({ ok: true });
    expect(verifyStripeSignature([WHSEC], `t=${now},v0=${stripeSignature(WHSEC, now, body)}`, body, now)).toEqual({
      ok: false,
      reason: 'missing_headers',
    });
    // Signed but not an event.
    expect(p.parseWebhook({ 'stripe-signature': header('{"nope":1}') }, '{"nope":1}', now)).toEqual({
      ok: false,
      reason: 'invalid_event',
    });
  });
});
