import type { InvoiceLine } from '../model/billing.js';

// How the service collects its own invoices (the drivers' and partners' weekly subscription): the
// one interface a payment provider sits behind. The real adapter speaks Stripe's HTTP API
// (stripe.ts); the test double (test-provider.ts) stands in for it in development and tests (never
// in production: loadConfig refuses it there); no-provider.ts is a deployment that collects nothing
// yet. Which one runs is configuration (BILLING_PAYMENT_PROVIDER, docs/configuration.md).
// Passengers' fares never pass through here: they pay their driver directly.

export interface CollectionRequest {
  /** Sent as the provider's idempotency key: a retried request is the same collection. */
  idempotencyKey: string;
  /** The invoice's reference (invoice:<kind>:<id>:<Monday>), echoed back in the provider's events. */
  invoiceReference: string;
  amountPence: number;
  /** One line per charge, as the payer will see them on the provider's page. */
  lines: InvoiceLine[];
  description: string;
  customerEmail: string | null;
  /** Where the payer lands after paying. */
  returnUrl: string;
}

export interface Collection {
  provider: string;
  /** The provider's id of the pay page (a Stripe Checkout Session id). */
  providerRef: string;
  payUrl: string;
  /** When the pay link stops working (Stripe: 24 hours), or null if never. */
  expiresAt: string | null;
}

/** A verified event: a payment of an invoice succeeded or failed, or something this service ignores. */
export interface ProviderEvent {
  eventId: string;
  outcome: 'succeeded' | 'failed' | 'ignored';
  invoiceReference: string | null;
  amountPence: number;
  providerRef: string;
}

export type WebhookCheck =
  | { ok: true; event: ProviderEvent }
  | { ok: false; reason: 'missing_headers' | 'stale_timestamp' | 'bad_signature' | 'invalid_event' | 'not_collecting' };

/** Retried by the caller (activity) unless `retryable` is false (the request itself is wrong). */
export class PaymentProviderError extends Error {
  override name = 'PaymentProviderError';
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
  }
}

export interface PaymentProvider {
  readonly name: string;
  /** False for BILLING_PAYMENT_PROVIDER=none (no-provider.ts): invoices are kept, never collected. */
  readonly collects?: boolean;
  /** Opens a pay page for the invoice. Idempotent by request.idempotencyKey. */
  createCollection(request: CollectionRequest): Promise<Collection>;
  /**
   * Verifies a webhook delivery (signature in constant time, timestamp within tolerance) and reads
   * its event. `headers` are lower-case names; `rawBody` the exact bytes received.
   */
  parseWebhook(headers: Record<string, string | undefined>, rawBody: string, nowSeconds: number): WebhookCheck;
}

/** Webhook timestamps older or newer than this are refused (Stripe's own default tolerance). */
export const BILLING_WEBHOOK_TOLERANCE_SECONDS = 5 * 60;
