import { createHash } from 'node:crypto';
import { z } from 'zod';
import { signWebhook, verifyWebhook } from '../settlement/webhook-signature.js';
import type { Collection, CollectionRequest, PaymentProvider, WebhookCheck } from './payment-provider.js';

// The payment provider's test double, behind the same interface as Stripe (stripe.ts): the default
// in development and tests (BILLING_PAYMENT_PROVIDER=test). It charges nobody: its pay link is a
// placeholder, and a payment is a webhook a test (or a developer) signs with
// BILLING_TEST_WEBHOOK_SECRET, Standard Webhooks style like the passenger payment webhooks
// (src/settlement/webhook-signature.ts). Idempotent like the real one: the same key is the same
// collection, in every process, as the reference is derived from the key.

const TestEvent = z.object({
  type: z.enum(['invoice.paid', 'invoice.payment_failed', 'invoice.other']),
  data: z.object({
    invoice_reference: z.string().min(1).max(200),
    amount_pence: z.number().int().min(0).max(100_000_000),
    reference: z.string().min(1).max(200),
  }),
});
export type TestProviderEvent = z.infer<typeof TestEvent>;

export function testCollectionRef(idempotencyKey: string): string {
  return `test_cs_${createHash('sha256').update(idempotencyKey).digest('hex').slice(0, 24)}`;
}

export interface TestProvider extends PaymentProvider {
  /** Every collection asked for, in order (retries included): what a test checks was requested. */
  readonly requests: CollectionRequest[];
}

export function createTestProvider(settings: { webhookSecret: string; publicBaseUrl: string }): TestProvider {
  const requests: CollectionRequest[] = [];
  return {
    name: 'test',
    requests,
    async createCollection(r): Promise<Collection> {
      // Kept for tests to read; bounded, as a development worker runs for weeks.
      if (requests.length >= 1000) requests.shift();
      requests.push(r);
      const ref = testCollectionRef(r.idempotencyKey);
      return {
        provider: 'test',
        providerRef: ref,
        payUrl: `${settings.publicBaseUrl}/billing/test-pay/${ref}`,
        expiresAt: null,
      };
    },
    parseWebhook(headers, rawBody, nowSeconds): WebhookCheck {
      const check = verifyWebhook(
        [settings.webhookSecret],
        { id: headers['webhook-id'], timestamp: headers['webhook-timestamp'], signature: headers['webhook-signature'] },
        rawBody,
        nowSeconds,
      );
      if (!check.ok) return check;
      let e: TestProviderEvent;
      try {
        e = TestEvent.parse(JSON.parse(rawBody));
      } catch {
        return { ok: false, reason: 'invalid_event' };
      }
      const outcome =
        e.type === 'invoice.paid' ? 'succeeded' : e.type === 'invoice.payment_failed' ? 'failed' : 'ignored';
      return {
        ok: true,
        event: {
          eventId: headers['webhook-id']!,
          outcome,
          invoiceReference: e.data.invoice_reference,
          amountPence: e.data.amount_pence,
          providerRef: e.data.reference,
        },
      };
    },
  };
}

/** The headers a test double's webhook delivery carries (for tests and local development). */
export function signTestProviderEvent(
  secret: string,
  id: string,
  timestampSeconds: number,
  body: string,
): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': signWebhook(secret, id, timestampSeconds, body),
    'content-type': 'application/json',
  };
}
