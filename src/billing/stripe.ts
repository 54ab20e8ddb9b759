import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import {
  BILLING_WEBHOOK_TOLERANCE_SECONDS,
  PaymentProviderError,
  type Collection,
  type CollectionRequest,
  type PaymentProvider,
  type ProviderEvent,
  type WebhookCheck,
} from './payment-provider.js';

// Stripe behind the PaymentProvider interface, over its HTTP API with fetch (no SDK): a Checkout
// Session per invoice (its hosted page is the pay link), created with an Idempotency-Key so a
// retried request is the same session, and webhooks verified as Stripe signs them:
// `Stripe-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" under the endpoint's
// whsec_ secret>` (several v1 while a secret is rolled), refused outside a five-minute tolerance.

/** The API version this adapter was written against; pinned so Stripe never changes shapes under it. */
export const STRIPE_API_VERSION = '2024-06-20';

export interface StripeSettings {
  secretKey: string;
  /** Endpoint signing secrets (whsec_...), several while one is rolled. */
  webhookSecrets: string[];
  /** https://api.stripe.com; a test points it at a local server. */
  apiBase: string;
  fetch?: typeof fetch;
}

const CheckoutSession = z.object({
  id: z.string().min(1),
  url: z.string().url(),
  expires_at: z.number().int().nullable().optional(),
});

const StripeEvent = z.object({
  id: z.string().min(1).max(255),
  type: z.string().min(1).max(100),
  data: z.object({
    object: z.object({
      id: z.string().min(1).max(255),
      object: z.string().optional(),
      client_reference_id: z.string().max(200).nullable().optional(),
      metadata: z.record(z.string(), z.string()).nullable().optional(),
      amount_total: z.number().int().min(0).nullable().optional(),
      /** A PaymentIntent's amount (its events carry no amount_total). */
      amount: z.number().int().min(0).nullable().optional(),
      payment_status: z.string().optional(),
    }),
  }),
});

/** Stripe's form encoding: nested keys in brackets (line_items[0][price_data][currency]=gbp). */
export function formEncode(fields: Record<string, string | number>): string {
  return new URLSearchParams(Object.entries(fields).map(([k, v]): [string, string] => [k, String(v)])).toString();
}

export function stripeSignature(secret: string, timestamp: number, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`, 'utf8').digest('hex');
}

export function verifyStripeSignature(
  secrets: string[],
  header: string | undefined,
  body: string,
  nowSeconds: number,
): { ok: true } | { ok: false; reason: 'missing_headers' | 'stale_timestamp' | 'bad_signature' } {
  if (!header || header.length > 2000) return { ok: false, reason: 'missing_headers' };
  const parts = header.split(',').map((p) => p.trim().split('='));
  const t = parts.find(([k]) => k === 't')?.[1];
  const signatures = parts
    .filter(([k, v]) => k === 'v1' && v && /^[0-9a-f]{64}$/.test(v))
    .map(([, v]) => Buffer.from(v!, 'hex'));
  if (!t || !/^\d{1,12}$/.test(t) || signatures.length === 0) return { ok: false, reason: 'missing_headers' };
  if (Math.abs(nowSeconds - Number(t)) > BILLING_WEBHOOK_TOLERANCE_SECONDS)
    return { ok: false, reason: 'stale_timestamp' };
  for (const secret of secrets) {
    const expected = Buffer.from(stripeSignature(secret, Number(t), body), 'hex');
    if (signatures.some((s) => s.length === expected.length && timingSafeEqual(s, expected))) return { ok: true };
  }
  return { ok: false, reason: 'bad_signature' };
}

/**
 * Events that settle or fail a Checkout Session's payment; everything else is acknowledged and
 * ignored. A card declined on the Checkout page fails the session's PaymentIntent and nothing on
 * the session (the payer may try another card), so that failure comes as payment_intent.payment_failed,
 * carrying the invoice reference in the metadata this adapter gives the PaymentIntent. A payment's
 * success is taken from the session's events alone: Stripe also sends payment_intent.succeeded
 * for it, which, taken too, would read as a second payment of a paid invoice (a refund alert).
 */
const OUTCOMES: Record<string, ProviderEvent['outcome']> = {
  'checkout.session.completed': 'succeeded',
  'checkout.session.async_payment_succeeded': 'succeeded',
  'checkout.session.async_payment_failed': 'failed',
  'payment_intent.payment_failed': 'failed',
};

export function createStripeProvider(settings: StripeSettings): PaymentProvider {
  const doFetch = settings.fetch ?? fetch;
  const base = settings.apiBase.replace(/\/$/, '');
  return {
    name: 'stripe',

    async createCollection(r: CollectionRequest): Promise<Collection> {
      const fields: Record<string, string | number> = {
        mode: 'payment',
        client_reference_id: r.invoiceReference,
        'metadata[invoice_reference]': r.invoiceReference,
        'payment_intent_data[metadata][invoice_reference]': r.invoiceReference,
        'payment_intent_data[description]': r.description,
        success_url: r.returnUrl,
        cancel_url: r.returnUrl,
      };
      if (r.customerEmail) fields.customer_email = r.customerEmail;
      // Each charge is one line on Stripe's page. A card-fee line has no single unit price, so
      // every line is sent as one unit of its amount, its quantity told in its name.
      r.lines.forEach((line, i) => {
        fields[`line_items[${i}][quantity]`] = 1;
        fields[`line_items[${i}][price_data][currency]`] = 'gbp';
        fields[`line_items[${i}][price_data][unit_amount]`] = line.amountPence;
        fields[`line_items[${i}][price_data][product_data][name]`] = line.description.slice(0, 250);
      });
      let res: Response;
      try {
        res = await doFetch(`${base}/v1/checkout/sessions`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${settings.secretKey}`,
            'content-type': 'application/x-www-form-urlencoded',
            'idempotency-key': r.idempotencyKey,
            'stripe-version': STRIPE_API_VERSION,
          },
          body: formEncode(fields),
          signal: AbortSignal.timeout(20_000),
        });
      } catch (err) {
        throw new PaymentProviderError(`Stripe could not be reached: ${String(err)}`, true);
      }
      const text = await res.text();
      if (!res.ok) {
        let message = `HTTP ${res.status}`;
        try {
          const body = JSON.parse(text) as { error?: { message?: unknown } };
          if (typeof body.error?.message === 'string') message += `: ${body.error.message.slice(0, 300)}`;
        } catch {
          // Not JSON: the status says enough.
        }
        // 409 (an idempotent request still in flight), 429 and 5xx pass; other 4xx are this request's fault.
        throw new PaymentProviderError(
          `Stripe refused the checkout session: ${message}`,
          res.status === 409 || res.status === 429 || res.status >= 500,
        );
      }
      const session = CheckoutSession.safeParse(JSON.parse(text));
      if (!session.success)
        throw new PaymentProviderError('Stripe answered a checkout session without an id or url', true);
      return {
        provider: 'stripe',
        providerRef: session.data.id,
        payUrl: session.data.url,
        expiresAt: session.data.expires_at ? new Date(session.data.expires_at * 1000).toISOString() : null,
      };
    },

    parseWebhook(headers, rawBody, nowSeconds): WebhookCheck {
      const check = verifyStripeSignature(settings.webhookSecrets, headers['stripe-signature'], rawBody, nowSeconds);
      if (!check.ok) return check;
      let parsed: z.infer<typeof StripeEvent>;
      try {
        parsed = StripeEvent.parse(JSON.parse(rawBody));
      } catch {
        return { ok: false, reason: 'invalid_event' };
      }
      const o = parsed.data.object;
      let outcome = OUTCOMES[parsed.type] ?? 'ignored';
      // A completed session paid by a delayed method (bank debit) is not paid yet: its
      // async_payment_succeeded event follows.
      if (parsed.type === 'checkout.session.completed' && o.payment_status !== 'paid') outcome = 'ignored';
      return {
        ok: true,
        event: {
          eventId: parsed.id,
          outcome,
          invoiceReference: o.client_reference_id ?? o.metadata?.invoice_reference ?? null,
          amountPence: o.amount_total ?? o.amount ?? 0,
          providerRef: o.id,
        },
      };
    },
  };
}
