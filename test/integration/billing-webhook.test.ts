// Issue 33, item 2: payments that cannot be forged, and a provider's event acted on once. Through
// HTTP on the real stack (Postgres, Temporal, the collection workflow on this file's worker):
// production refuses the test double's published secret whatever it signs; one event id (per
// provider) is stored and acted on exactly once, however often and however concurrently it comes;
// and what a flood of distinct signed events stores is bounded by the invoices being collected.
import { randomBytes, randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { openCollection } from '../../src/billing/collection-store.js';
import { WEBHOOK_EVENTS_PER_INVOICE } from '../../src/billing/invoices.js';
import { stripeSignature } from '../../src/billing/stripe.js';
import { signTestProviderEvent } from '../../src/billing/test-provider.js';
import { ConfigError, loadConfig } from '../../src/config.js';
import { migrate } from '../../src/db/migrate.js';
import { createSql, type Sql } from '../../src/db/sql.js';
import { DEV_BILLING_TEST_WEBHOOK_SECRET } from '../../src/production-config.js';
import {
  invoiceCollectionStateQuery,
  invoiceCollectionWorkflowId,
  type InvoiceCollectionState,
} from '../../workflows/billing/definitions.js';
import { invoiceReference, type InvoiceKey } from '../../src/model/billing.js';
import { createDriver } from '../support/drivers.js';
import { eventually, STACK_WAIT_MS, startStack, type TestStack } from '../support/stack.js';
import { createTestDatabase, testDatabaseUrl, testNamespace, testTemporalAddress } from '../support/shared-servers.js';

let stack: TestStack;
const started: string[] = [];
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  for (const id of started)
    await stack.client.workflow
      .getHandle(id)
      .terminate('test over')
      .catch(() => undefined);
  await stack?.close();
});

// Mondays (London) of billing weeks; each test's invoices are its own drivers', so weeks may repeat.
const WEEK = '2026-10-18T23:00:00.000Z';
const now = () => Math.floor(Date.now() / 1000);
let n = 0;
const ip = () => `10.133.${Math.floor(n / 250) % 250}.${n++ % 250}`;

const paidBody = (key: InvoiceKey, amountPence: number, type = 'invoice.paid') =>
  JSON.stringify({
    type,
    data: {
      invoice_reference: invoiceReference(key),
      amount_pence: amountPence,
      reference: `test_cs_${randomUUID().slice(0, 8)}`,
    },
  });

/** A delivery of the test double's webhook, signed with `secret` (this stack's, by default). */
function deliver(app: FastifyInstance, id: string, body: string, secret = stack.config.BILLING_TEST_WEBHOOK_SECRET) {
  return app.inject({
    method: 'POST',
    url: '/api/webhooks/billing',
    remoteAddress: ip(),
    headers: signTestProviderEvent(secret, id, now(), body),
    payload: body,
  });
}

const kept = async (sql: Sql, key: InvoiceKey) =>
  sql<
    { provider: string; id: string; outcome: string }[]
  >`select provider, id, outcome from billing_webhook_events where invoice_key = ${invoiceReference(key)} order by received_at`;
const collection = async (sql: Sql, key: InvoiceKey) =>
  (
    await sql<{ status: string; paid_event_id: string | null; paid_at: Date | null; last_failure: string | null }[]>`
    select status, paid_event_id, paid_at, last_failure from invoice_collections where account_kind = ${key.account} and account_id = ${key.accountId} and week_start = ${key.weekStart}`
  )[0];

/** A driver's invoice being collected by its workflow on this file's worker, its pay page open. */
async function collecting(totalPence: number): Promise<InvoiceKey> {
  const d = await createDriver(stack.sql, { lat: 53.48, lon: -2.24 });
  const key: InvoiceKey = { account: 'driver', accountId: d.id, weekStart: WEEK };
  await stack.client.workflow.start('invoiceCollectionWorkflow', {
    taskQueue: stack.taskQueue,
    workflowId: invoiceCollectionWorkflowId(key),
    args: [{ ...key, totalPence }],
  });
  started.push(invoiceCollectionWorkflowId(key));
  await eventually(
    async () =>
      (await stack.sql`select 1 from invoice_collections where account_id = ${d.id} and pay_url is not null`).length > 0
        ? true
        : undefined,
    STACK_WAIT_MS,
    'the pay page opened',
  );
  return key;
}

/** A driver's invoice whose collection workflow has closed (a payment after the 60 days it listens): the webhook marks it directly. */
async function closedCollection(sql: Sql, totalPence: number): Promise<InvoiceKey> {
  const key: InvoiceKey = { account: 'driver', accountId: `test-${randomUUID().slice(0, 8)}`, weekStart: WEEK };
  await openCollection(sql, key, totalPence, 'test');
  return key;
}

const signals = async (key: InvoiceKey) =>
  ((await stack.client.workflow.getHandle(invoiceCollectionWorkflowId(key)).fetchHistory()).events ?? []).filter(
    (e) => e.workflowExecutionSignaledEventAttributes,
  );

describe('a production-shaped deployment', () => {
  const productionEnv = () => ({
    NODE_ENV: 'production',
    DATABASE_URL: testDatabaseUrl(),
    TEMPORAL_ADDRESS: testTemporalAddress(),
    TEMPORAL_NAMESPACE: testNamespace(),
    LOG_LEVEL: 'silent',
    JOB_LINK_SECRET: randomBytes(32).toString('base64'),
    PARTNER_SECRETS_KEY: randomBytes(32).toString('base64'),
    OAUTH_SECRET: randomBytes(32).toString('base64'),
  });

  it('refuses to start as production ran before issue 33 (the test double, by default), naming the setting', () => {
    let refused: unknown;
    try {
      loadConfig(productionEnv());
    } catch (err) {
      refused = err;
    }
    expect(refused).toBeInstanceOf(ConfigError);
    expect((refused as Error).message).toMatch(
      /^Invalid configuration:\n {2}BILLING_PAYMENT_PROVIDER: unset \(its default, test\) is the development double/,
    );
  });

  it('cannot be made to mark an invoice paid with an invoice.paid signed with the published test secret: neither with none nor with stripe', async () => {
    // A database of its own: production secrets seal what the app writes (its OAuth signing keys)
    // under keys the other files' stacks do not have.
    const database = `taxi_forged_${randomBytes(4).toString('hex')}`;
    const url = new URL(await createTestDatabase(database));
    const sql = createSql(url.toString(), 3);
    try {
      await migrate(sql);
      const secrets = productionEnv(); // one deployment's secrets: the first app seals its OAuth key under them
      for (const provider of [
        { BILLING_PAYMENT_PROVIDER: 'none' },
        {
          BILLING_PAYMENT_PROVIDER: 'stripe',
          STRIPE_SECRET_KEY: `sk_live_${randomBytes(12).toString('hex')}`,
          STRIPE_WEBHOOK_SECRETS: `whsec_${randomBytes(24).toString('hex')}`,
        },
      ]) {
        const config = loadConfig({ ...secrets, DATABASE_URL: url.toString(), ...provider });
        expect(config.NODE_ENV).toBe('production');
        const app = await buildApp({ config, sql, temporal: stack.client, logger: false });
        try {
          // A driver's £15.00 invoice, unpaid (the collection left by an earlier provider, say).
          const key = await closedCollection(sql, 1500);
          const body = paidBody(key, 1500);
          for (const id of ['evt_forged_1', `evt_${randomUUID()}`]) {
            const res = await deliver(app, id, body, DEV_BILLING_TEST_WEBHOOK_SECRET);
            expect(res.statusCode, `${provider.BILLING_PAYMENT_PROVIDER}: ${res.body}`).toBe(400);
            expect(res.json()).toMatchObject({ code: 'invalid_signature' });
          }
          expect(await collection(sql, key)).toMatchObject({ status: 'unpaid', paid_event_id: null, paid_at: null });
          expect(await kept(sql, key)).toEqual([]);
        } finally {
          await app.close();
        }
      }
    } finally {
      await sql.end({ timeout: 5 });
    }
  });

  it('keeps invoices but collects none with BILLING_PAYMENT_PROVIDER=none: no pay page, no text, nothing can pay it', async () => {
    const none = await startStack({ BILLING_PAYMENT_PROVIDER: 'none' });
    try {
      const d = await createDriver(none.sql, { lat: 53.48, lon: -2.24 });
      const key: InvoiceKey = { account: 'driver', accountId: d.id, weekStart: WEEK };
      const handle = await none.client.workflow.start('invoiceCollectionWorkflow', {
        taskQueue: none.taskQueue,
        workflowId: invoiceCollectionWorkflowId(key),
        args: [{ ...key, totalPence: 2391 }],
      });
      try {
        // Its first step, opening the collection, is done, and opened nothing.
        await eventually(
          async () =>
            ((await handle.fetchHistory()).events ?? []).some((e) => e.activityTaskCompletedEventAttributes) ||
            undefined,
          STACK_WAIT_MS,
          'the collection step done',
        );
      } finally {
        await handle.terminate('test over');
      }
      expect(await collection(none.sql, key)).toBeUndefined();
      expect(
        await none.sql`select 1 from outbox where idempotency_key = ${`invoice-notice:${invoiceReference(key)}`}`,
      ).toEqual([]);
      // Nothing can pay it either: the webhook verifies nothing.
      const res = await none.app.inject({
        method: 'POST',
        url: '/api/webhooks/billing',
        remoteAddress: ip(),
        headers: signTestProviderEvent(DEV_BILLING_TEST_WEBHOOK_SECRET, 'evt_none', now(), paidBody(key, 2391)),
        payload: paidBody(key, 2391),
      });
      expect(res.statusCode).toBe(400);
    } finally {
      await none.close();
    }
  });
});

describe('the billing webhook acts on a provider event once', () => {
  it('the same event id delivered twice, and five times at once, pays the invoice once and keeps one row', async () => {
    const key = await collecting(1500);
    const id = `evt_${randomUUID()}`;
    const body = paidBody(key, 1500);
    const first = await deliver(stack.app, id, body);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ received: true, duplicate: false });
    const again = await deliver(stack.app, id, body); // the provider's retry, signed afresh
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ received: true, duplicate: true });
    const paid = await eventually(
      async () => {
        const c = await collection(stack.sql, key);
        return c?.status === 'paid' ? c : undefined;
      },
      STACK_WAIT_MS,
      'the invoice paid',
    );
    expect(paid).toMatchObject({ paid_event_id: id });
    expect(await kept(stack.sql, key)).toEqual([{ provider: 'test', id, outcome: 'paid' }]);
    expect(await signals(key)).toHaveLength(1);
    const state = await stack.client.workflow
      .getHandle(invoiceCollectionWorkflowId(key))
      .query<InvoiceCollectionState>(invoiceCollectionStateQuery);
    expect(state).toMatchObject({ status: 'paid', paidBy: id });

    // A second invoice: one event delivered five times at once (the provider retrying a slow first
    // delivery): one of them acts, the others wait for it and are told it was applied.
    const other = await collecting(1500);
    const racing = `evt_${randomUUID()}`;
    const otherBody = paidBody(other, 1500);
    const replies = await Promise.all([...Array(5)].map(() => deliver(stack.app, racing, otherBody)));
    expect(replies.map((r) => r.statusCode)).toEqual(Array(5).fill(200));
    expect(replies.map((r) => r.json<{ duplicate: boolean }>().duplicate).sort()).toEqual([
      false,
      true,
      true,
      true,
      true,
    ]);
    await eventually(
      async () => ((await collection(stack.sql, other))?.status === 'paid' ? true : undefined),
      STACK_WAIT_MS,
      'the second invoice paid',
    );
    expect(await kept(stack.sql, other)).toEqual([{ provider: 'test', id: racing, outcome: 'paid' }]);
    expect(await signals(other)).toHaveLength(1);

    // The provider's next event for the same payment (another id) acts on nothing and is kept nowhere.
    expect((await deliver(stack.app, `evt_${randomUUID()}`, body)).json()).toEqual({
      received: true,
      duplicate: false,
    });
    expect(await kept(stack.sql, key)).toHaveLength(1);
    expect(await signals(key)).toHaveLength(1);
    expect(await collection(stack.sql, key)).toEqual(paid);
  });

  it('marks an invoice whose workflow has closed once, a replay answered 200 without acting', async () => {
    const key = await closedCollection(stack.sql, 1500);
    const id = `evt_${randomUUID()}`;
    const body = paidBody(key, 1500);
    const replies = await Promise.all([...Array(4)].map(() => deliver(stack.app, id, body)));
    expect(replies.map((r) => r.json<{ duplicate: boolean }>().duplicate).sort()).toEqual([false, true, true, true]);
    const paid = await collection(stack.sql, key);
    expect(paid).toMatchObject({ status: 'paid', paid_event_id: id });
    expect((await deliver(stack.app, id, body)).json()).toEqual({ received: true, duplicate: true });
    expect(await collection(stack.sql, key)).toEqual(paid); // paid_at unchanged: not marked again
    expect(await kept(stack.sql, key)).toEqual([{ provider: 'test', id, outcome: 'paid' }]);
  });

  it("keys events by provider: a Stripe event is not a replay of the test double's event with the same id", async () => {
    const secret = `whsec_${randomBytes(24).toString('hex')}`;
    const stripeApp = await buildApp({
      config: {
        ...stack.config,
        BILLING_PAYMENT_PROVIDER: 'stripe',
        STRIPE_SECRET_KEY: `sk_test_${randomBytes(12).toString('hex')}`,
        STRIPE_WEBHOOK_SECRETS: secret,
      },
      sql: stack.sql,
      temporal: stack.client,
      logger: false,
    });
    try {
      const shared = `evt_${randomUUID()}`;
      const byTest = await closedCollection(stack.sql, 1500);
      expect((await deliver(stack.app, shared, paidBody(byTest, 1500))).json()).toEqual({
        received: true,
        duplicate: false,
      });
      const byStripe = await closedCollection(stack.sql, 2000);
      const event = JSON.stringify({
        id: shared,
        type: 'checkout.session.completed',
        data: {
          object: {
            id: 'cs_live_1',
            object: 'checkout.session',
            client_reference_id: invoiceReference(byStripe),
            amount_total: 2000,
            payment_status: 'paid',
          },
        },
      });
      const stripe = () => {
        const t = now();
        return stripeApp.inject({
          method: 'POST',
          url: '/api/webhooks/billing',
          remoteAddress: ip(),
          headers: {
            'content-type': 'application/json',
            'stripe-signature': `t=${t},v1=${stripeSignature(secret, t, event)}`,
          },
          payload: event,
        });
      };
      expect((await stripe()).json()).toEqual({ received: true, duplicate: false });
      expect((await stripe()).json()).toEqual({ received: true, duplicate: true });
      expect(await collection(stack.sql, byTest)).toMatchObject({ status: 'paid', paid_event_id: shared });
      expect(await collection(stack.sql, byStripe)).toMatchObject({ status: 'paid', paid_event_id: shared });
      expect(
        await stack.sql`select provider, invoice_key from billing_webhook_events where id = ${shared} order by provider`,
      ).toEqual([
        { provider: 'stripe', invoice_key: invoiceReference(byStripe) },
        { provider: 'test', invoice_key: invoiceReference(byTest) },
      ]);
    } finally {
      await stripeApp.close();
    }
  });

  it('stores at most one paying event and a bounded number of others per invoice, and nothing else, however many signed events come', async () => {
    const [before] = await stack.sql<{ n: number }[]>`select count(*)::integer as n from billing_webhook_events`;
    const unpaid = await closedCollection(stack.sql, 1500);
    const paidAlready = await closedCollection(stack.sql, 1500);
    expect((await deliver(stack.app, `evt_${randomUUID()}`, paidBody(paidAlready, 1500))).statusCode).toBe(200);
    const notCollected: InvoiceKey = {
      account: 'driver',
      accountId: `test-${randomUUID().slice(0, 8)}`,
      weekStart: WEEK,
    };
    const floods: Array<[string, string]> = [
      ['failed payments of an unpaid invoice', paidBody(unpaid, 1500, 'invoice.payment_failed')],
      ['payments short of its total', paidBody(unpaid, 100)],
      ['payments of an invoice already paid', paidBody(paidAlready, 1500)],
      ['payments of an invoice not being collected', paidBody(notCollected, 1500)],
      ['events of a type billing ignores', paidBody(unpaid, 1500, 'invoice.other')],
    ];
    const started = Date.now();
    for (const [what, body] of floods) {
      for (let batch = 0; batch < 4; batch++) {
        const replies = await Promise.all([...Array(25)].map(() => deliver(stack.app, `evt_${randomUUID()}`, body)));
        expect(
          replies.map((r) => r.statusCode),
          what,
        ).toEqual(Array(25).fill(200));
      }
    }
    const elapsed = Date.now() - started;
    // 500 distinct signed events: the unpaid invoice keeps its bounded few, recorded for ops; the rest, nothing.
    const unpaidKept = await kept(stack.sql, unpaid);
    expect(unpaidKept).toHaveLength(WEBHOOK_EVENTS_PER_INVOICE);
    expect(new Set(unpaidKept.map((e) => e.outcome))).toEqual(new Set(['failed']));
    expect(await kept(stack.sql, paidAlready)).toHaveLength(1);
    expect(await kept(stack.sql, notCollected)).toEqual([]);
    expect(await collection(stack.sql, unpaid)).toMatchObject({
      status: 'unpaid',
      last_failure: unpaidKept.at(-1)!.id,
    });
    const [after] = await stack.sql<{ n: number }[]>`select count(*)::integer as n from billing_webhook_events`;
    expect(after!.n - before!.n).toBe(WEBHOOK_EVENTS_PER_INVOICE + 1);
    // Still paid by its one payment, within the bound: the full payment that comes after the flood is taken.
    const pay = `evt_${randomUUID()}`;
    expect((await deliver(stack.app, pay, paidBody(unpaid, 1500))).json()).toEqual({
      received: true,
      duplicate: false,
    });
    expect(await collection(stack.sql, unpaid)).toMatchObject({ status: 'paid', paid_event_id: pay });
    expect(await kept(stack.sql, unpaid)).toHaveLength(WEBHOOK_EVENTS_PER_INVOICE + 1);
    console.log(
      `billing webhook flood: 500 distinct signed events in ${(elapsed / 1000).toFixed(1)} s, ${after!.n - before!.n} rows kept`,
    );
  });
});
