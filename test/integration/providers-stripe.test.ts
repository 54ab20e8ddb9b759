// Issue 39, item 1: the Stripe adapter against servers Stripe's side wrote, not a stub of ours.
// stripe-mock (Stripe's own mock) validates every request against Stripe's published OpenAPI
// document: each shape of Checkout Session the adapter asks for is one Stripe accepts, and a wrong
// parameter is refused as Stripe would refuse it. localstripe (a stateful fake Stripe) signs and
// sends webhooks as Stripe does: the service's real endpoint verifies them, records a declined
// card, and refuses them under another secret. Then an invoice's whole collection on the real stack
// (Postgres, the collection workflow on a time-skipping Temporal server) with its provider pointed
// at stripe-mock: pay link, reminders, overdue, and paid late by Stripe's own session object.
import { randomBytes, randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBillingActivities } from '../../activities/billing.js';
import { openCollection } from '../../src/billing/collection-store.js';
import { PaymentProviderError, type CollectionRequest } from '../../src/billing/payment-provider.js';
import { createStripeProvider, STRIPE_API_VERSION, stripeSignature } from '../../src/billing/stripe.js';
import { invoiceReference, type InvoiceKey, type InvoiceLine } from '../../src/model/billing.js';
import { activityDeps } from '../../src/services.js';
import { invoiceCollectionWorkflow } from '../../workflows/billing/collection.js';
import { invoiceCollectionWorkflowId } from '../../workflows/billing/definitions.js';
import type { ProviderServer } from '../../dev/providers/servers.js';
import { startLocalstripe, startStripeMock } from '../../dev/providers/stripe.js';
import { createDriver } from '../support/drivers.js';
import { startRecordingProxy, type RecordingProxy } from '../support/providers/recording-proxy.js';
import { eventually, STACK_WAIT_MS } from '../support/stack.js';
import { startTimeSkippingStack, type TimeSkippingStack } from '../support/time-skipping-stack.js';

const WHSEC = `whsec_${randomBytes(24).toString('hex')}`;
const SECRET_KEY = `sk_test_${randomBytes(12).toString('hex')}`;
const DAY = 86_400_000;

let stripeMock: ProviderServer;
let localstripe: Awaited<ReturnType<typeof startLocalstripe>>;
/** Between the stack's Stripe adapter and stripe-mock: what the service asked Stripe for. */
let toStripe: RecordingProxy;
let skipping: TimeSkippingStack;

beforeAll(async () => {
  // The first run on a machine builds stripe-mock with Go (minutes); later runs find it built.
  [stripeMock, localstripe] = await Promise.all([startStripeMock(), startLocalstripe()]);
  toStripe = await startRecordingProxy(stripeMock.url);
  skipping = await startTimeSkippingStack({
    BILLING_PAYMENT_PROVIDER: 'stripe',
    STRIPE_SECRET_KEY: SECRET_KEY,
    STRIPE_WEBHOOK_SECRETS: WHSEC,
    STRIPE_API_BASE: toStripe.url,
  });
}, 25 * 60_000);
afterAll(async () => {
  await skipping?.close();
  await toStripe?.close();
  await Promise.all([stripeMock?.stop(), localstripe?.stop()]);
});

const fee: InvoiceLine = {
  kind: 'weekly_fee',
  quantity: 1,
  unitPence: 2000,
  amountPence: 2000,
  description: 'Weekly subscription: earnings £620.00, above £500.00',
};
const request = (over: Partial<CollectionRequest> = {}): CollectionRequest => ({
  idempotencyKey: `invoice:driver:${randomUUID()}:2026-10-19:open`,
  invoiceReference: `invoice:driver:${randomUUID()}:2026-10-19`,
  amountPence: 2000,
  lines: [fee],
  description: 'Direct Taxi subscription, week of 19 Oct 2026',
  customerEmail: 'zoe.bronte@example.co.uk',
  returnUrl: 'https://taxi.example.co.uk/driver',
  ...over,
});

/** The adapter talking to stripe-mock, keeping each request it sent. */
function adapter(rewrite: (body: string) => string = (b) => b) {
  const sent: Array<{ url: string; headers: Record<string, string>; body: string }> = [];
  const provider = createStripeProvider({
    secretKey: SECRET_KEY,
    webhookSecrets: [WHSEC],
    apiBase: stripeMock.url,
    fetch: (url, init) => {
      // The adapter sends a form-encoded string to a string URL.
      const body = rewrite(typeof init?.body === 'string' ? init.body : '');
      sent.push({ url: url as string, headers: init?.headers as Record<string, string>, body });
      return fetch(url, { ...init, body });
    },
  });
  return { provider, sent };
}

describe("stripe-mock: every request the adapter sends is one Stripe's API accepts", () => {
  it.each([
    ['one line, with the payer’s email', request()],
    [
      'the four kinds of line, card processing with its quantity in its name',
      request({
        amountPence: 2391,
        lines: [
          fee,
          { kind: 'sms', quantity: 3, unitPence: 2, amountPence: 6, description: 'SMS pass-through: 3 texts at 2p' },
          {
            kind: 'third_party_jobs',
            quantity: 1,
            unitPence: 50,
            amountPence: 50,
            description: 'Jobs from Cab Hub: 1 at £0.50',
          },
          {
            kind: 'card_processing',
            quantity: 1,
            unitPence: null,
            amountPence: 335,
            description: 'Card processing: 1.50% + £0.20 on each of 1 card payment (£210.00)',
          },
        ],
      }),
    ],
    [
      'a partner with no email on file, a reminder’s key',
      request({ customerEmail: null, idempotencyKey: 'k:reminder-2' }),
    ],
    ['a line name past Stripe’s length, cut', request({ lines: [{ ...fee, description: `Zoë ${'é'.repeat(400)}` }] })],
  ])('opens a Checkout Session for %s', async (_what, r) => {
    const { provider, sent } = adapter();
    const opened = await provider.createCollection(r);
    expect(opened.provider).toBe('stripe');
    expect(opened.providerRef).toMatch(/^cs_test_/);
    expect(opened.payUrl).toMatch(/^https:\/\/checkout\.stripe\.com\//);
    // stripe-mock's fixture session expired long ago; what matters is that the adapter read it.
    expect(opened.expiresAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.url).toBe(`${stripeMock.url}/v1/checkout/sessions`);
    expect(sent[0]!.headers).toMatchObject({
      'idempotency-key': r.idempotencyKey,
      'stripe-version': STRIPE_API_VERSION,
      authorization: `Bearer ${SECRET_KEY}`,
    });
    const form = new URLSearchParams(sent[0]!.body);
    expect(form.get('client_reference_id')).toBe(r.invoiceReference);
    expect(form.getAll('line_items[0][price_data][currency]')).toEqual(['gbp']);
    const sum = r.lines.reduce((s, _l, i) => s + Number(form.get(`line_items[${i}][price_data][unit_amount]`)), 0);
    expect(sum).toBe(r.amountPence);
  });

  it('is refused, not taken, when a parameter is one Stripe does not know: a permanent error with Stripe’s reason', async () => {
    // What a wrong parameter name in the adapter would look like to Stripe.
    const { provider } = adapter((b) => b.replace('client_reference_id=', 'client_reference='));
    const refused = await provider.createCollection(request()).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(PaymentProviderError);
    expect((refused as PaymentProviderError).retryable).toBe(false);
    expect((refused as PaymentProviderError).message).toMatch(/^Stripe refused the checkout session: HTTP 400: .+/);
  });

  it('is refused without a key Stripe would take', async () => {
    const provider = createStripeProvider({ secretKey: 'not-a-key', webhookSecrets: [WHSEC], apiBase: stripeMock.url });
    const refused = await provider.createCollection(request()).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(PaymentProviderError);
    expect((refused as PaymentProviderError).message).toContain('HTTP 401');
  });
});

describe('localstripe: webhooks signed and sent as Stripe sends them, to the service’s own endpoint', () => {
  it('records a declined card against its invoice, takes no success but the session’s, and refuses another secret', async () => {
    const { stack } = skipping;
    const app = stack.app;
    await app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    // Two endpoints at localstripe, each delivery passing through a front that keeps the service's answer.
    const right = await startRecordingProxy(base);
    const wrong = await startRecordingProxy(base);
    try {
      await localstripe.webhook('service', `${right.url}/api/webhooks/billing`, WHSEC, [
        'payment_intent.succeeded',
        'payment_intent.payment_failed',
      ]);
      await localstripe.webhook(
        'stale-secret',
        `${wrong.url}/api/webhooks/billing`,
        `whsec_${randomBytes(24).toString('hex')}`,
        ['payment_intent.payment_failed'],
      );
      const key: InvoiceKey = {
        account: 'driver',
        accountId: `test-${randomUUID().slice(0, 8)}`,
        weekStart: '2026-10-18T23:00:00.000Z',
      };
      await openCollection(stack.sql, key, 2391, 'stripe');

      // The payer's card is declined (Stripe's test card 4000 0000 0000 0341 is declined when charged).
      const declined = await payAtLocalstripe(invoiceReference(key), 2391, '4000000000000341');
      expect(declined.error?.code).toBe('card_declined');
      const failed = await eventually(
        async () => right.exchanges.find((x) => x.body.includes('payment_intent.payment_failed')),
        STACK_WAIT_MS,
        'localstripe delivered payment_intent.payment_failed',
      );
      expect(failed.status, failed.reply).toBe(200);
      expect(JSON.parse(failed.reply)).toEqual({ received: true, duplicate: false });
      const event = JSON.parse(failed.body) as { id: string };
      expect(await collectionRow(key)).toMatchObject({ status: 'unpaid', last_failure: event.id });
      const stale = await eventually(async () => wrong.exchanges[0], STACK_WAIT_MS, 'the stale-secret delivery');
      expect(stale.status).toBe(400);
      expect(JSON.parse(stale.reply)).toMatchObject({ code: 'invalid_signature' });

      // Another card pays: Stripe's PaymentIntent event is acknowledged and taken as nothing (a
      // Checkout payment is taken from the session's own event, test below).
      const paid = await payAtLocalstripe(invoiceReference(key), 2391, '4242424242424242');
      expect(paid.status).toBe('succeeded');
      const succeeded = await eventually(
        async () => right.exchanges.find((x) => x.body.includes('payment_intent.succeeded')),
        STACK_WAIT_MS,
        'localstripe delivered payment_intent.succeeded',
      );
      expect(succeeded.status).toBe(200);
      expect(await collectionRow(key)).toMatchObject({ status: 'unpaid', paid_event_id: null });
    } finally {
      await right.close();
      await wrong.close();
    }
  });
});

describe('an invoice collected through Stripe’s mock, on the real stack with days skipped', () => {
  it('opens a pay link, reminds with a new session each time, goes overdue, and is paid late by Stripe’s own session object', async () => {
    const { stack, temporal } = skipping;
    const d = await createDriver(stack.sql, { lat: 53.48, lon: -2.24, name: 'Zoë Brontë' });
    const week = { weekStart: '2026-10-26T00:00:00.000Z', weekEnd: '2026-11-02T00:00:00.000Z' };
    const place = stack.sql.json({ label: 'Manchester', kind: 'place', lat: 53.48, lon: -2.24 });
    for (let i = 0; i < 18; i++) {
      const at = `2026-10-2${7 + (i % 3)}T1${i % 10}:00:00Z`;
      await stack.sql`
        insert into bookings (ref, status, source, passenger_name, passenger_phone, payment_method, pickup_query, dropoff_query,
                              pickup, dropoff, pickup_area, pickup_at, passengers, vehicle_type, fare_pence, fare_source,
                              distance_m, duration_s, driver_id, completed_at)
        values (${`TXT${randomUUID().slice(0, 8).toUpperCase()}`}, 'completed', 'agent_instant', 'Ada', '+447400123456', 'cash', 'a', 'b',
                ${place}, ${place}, 'manchester', ${at}, 1, 'saloon', 3000, 'tariff', 5000, 900, ${d.id}, ${at})`;
    }
    const invoice = await createBillingActivities(activityDeps(stack.config, stack.sql)).billDriverWeek({
      driverId: d.id,
      ...week,
    });
    expect(invoice.totalPence).toBe(2000); // 540 GBP earned: the 20 GBP week
    const key: InvoiceKey = { account: 'driver', accountId: d.id, weekStart: week.weekStart };
    const reference = invoiceReference(key);
    const handle = await stack.client.workflow.start(invoiceCollectionWorkflow, {
      workflowId: invoiceCollectionWorkflowId(key),
      taskQueue: stack.taskQueue,
      args: [{ ...key, totalPence: invoice.totalPence }],
    });

    const notice = await outboxBody(`invoice-notice:${reference}`);
    const opened = await eventually(async () => {
      const row = await collectionRow(key);
      return row?.pay_url ? { ...row, pay_url: row.pay_url } : undefined;
    });
    expect(opened).toMatchObject({ status: 'unpaid', provider_ref: expect.stringMatching(/^cs_test_/) });
    expect(notice).toContain(opened.pay_url);
    expect(notice).toContain('£20.00');

    // Three reminders, 3, 6 and 9 days on, each asking Stripe for a session of its own (the last
    // has expired: a Checkout page lasts a day), then overdue at 14 days with ops emailed.
    for (const n of [1, 2, 3]) {
      await temporal.sleep(3 * DAY);
      expect(await outboxBody(`invoice-reminder:${reference}:${n}`)).toMatch(/https:\/\/checkout\.stripe\.com\//);
    }
    await temporal.sleep(5 * DAY);
    const overdueMail = await eventually(
      async () =>
        (
          await stack.sql<{ subject: string; body: string }[]>`
            select subject, body from outbox where idempotency_key = ${`ops:invoice-overdue:${reference}`}`
        )[0],
    );
    expect(overdueMail.body).toContain('Zoë Brontë');
    expect(await collectionRow(key)).toMatchObject({ status: 'overdue', reminders_sent: 3 });
    const keys = toStripe.exchanges
      .filter((x) => x.path === '/v1/checkout/sessions' && x.body.includes(encodeURIComponent(reference)))
      .map((x) => [x.headers['idempotency-key'], x.status]);
    expect(keys).toEqual([
      [`${reference}:open`, 200],
      [`${reference}:reminder-1`, 200],
      [`${reference}:reminder-2`, 200],
      [`${reference}:reminder-3`, 200],
    ]);

    // Paid on day 16: the event Stripe would send, built on stripe-mock's own Checkout Session object.
    const session = (await (
      await fetch(`${stripeMock.url}/v1/checkout/sessions/${(await collectionRow(key))!.provider_ref}`, {
        headers: { authorization: `Bearer ${SECRET_KEY}` },
      })
    ).json()) as Record<string, unknown>;
    const object = {
      ...session,
      client_reference_id: reference,
      metadata: { invoice_reference: reference },
      amount_total: 2000,
      payment_status: 'paid',
      status: 'complete',
    };
    const event = JSON.stringify({
      id: `evt_${randomUUID().replaceAll('-', '')}`,
      object: 'event',
      api_version: STRIPE_API_VERSION,
      type: 'checkout.session.completed',
      data: { object },
    });
    await temporal.sleep(2 * DAY);
    const t = Math.floor(Date.now() / 1000);
    const res = await stack.app.inject({
      method: 'POST',
      url: '/api/webhooks/billing',
      headers: {
        'content-type': 'application/json',
        'stripe-signature': `t=${t},v1=${stripeSignature(WHSEC, t, event)}`,
      },
      payload: event,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await handle.result()).toMatchObject({ status: 'paid', remindersSent: 3 });
    expect(await collectionRow(key)).toMatchObject({
      status: 'paid',
      paid_amount_pence: 2000,
      overdue_at: expect.any(Date),
    });
  });
});

/** A payment at localstripe for the invoice, as Checkout's PaymentIntent carries it (its metadata). */
async function payAtLocalstripe(
  reference: string,
  amountPence: number,
  cardNumber: string,
): Promise<{ status?: string; error?: { code?: string } }> {
  const post = async (path: string, fields: Record<string, string>) =>
    (await (
      await fetch(`${localstripe.url}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${SECRET_KEY}` },
        body: new URLSearchParams(fields),
      })
    ).json()) as { id: string; status?: string; error?: { code?: string } };
  const method = await post('/v1/payment_methods', {
    type: 'card',
    'card[number]': cardNumber,
    'card[exp_month]': '12',
    'card[exp_year]': '2030',
    'card[cvc]': '123',
  });
  const intent = await post('/v1/payment_intents', {
    amount: String(amountPence),
    currency: 'gbp',
    'metadata[invoice_reference]': reference,
    payment_method: method.id,
  });
  return post(`/v1/payment_intents/${intent.id}/confirm`, {});
}

async function collectionRow(key: InvoiceKey) {
  const [row] = await skipping.stack.sql<
    {
      status: string;
      pay_url: string | null;
      provider_ref: string | null;
      last_failure: string | null;
      paid_event_id: string | null;
      paid_amount_pence: number | null;
      reminders_sent: number;
      overdue_at: Date | null;
    }[]
  >`select status, pay_url, provider_ref, last_failure, paid_event_id, paid_amount_pence, reminders_sent, overdue_at
      from invoice_collections where account_kind = ${key.account} and account_id = ${key.accountId} and week_start = ${key.weekStart}`;
  return row;
}

async function outboxBody(idempotencyKey: string): Promise<string> {
  return eventually(
    async () =>
      (
        await skipping.stack.sql<{ body: string }[]>`select body from outbox where idempotency_key = ${idempotencyKey}`
      )[0]?.body,
    STACK_WAIT_MS,
    `the text ${idempotencyKey}`,
  );
}
