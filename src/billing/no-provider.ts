import { PaymentProviderError, type PaymentProvider } from './payment-provider.js';

// BILLING_PAYMENT_PROVIDER=none: a deployment that bills but does not collect yet (docs/billing.md,
// "Not collecting yet"). Invoices are written, itemised and shown as ever; no pay page is opened
// (the collection workflow ends at once, leaving the invoice `not_collected`), and the billing
// webhook verifies nothing, so no event can mark an invoice paid.

export const NO_PROVIDER = 'none';

export function createNoProvider(): PaymentProvider {
  return {
    name: NO_PROVIDER,
    collects: false,
    async createCollection() {
      throw new PaymentProviderError('BILLING_PAYMENT_PROVIDER is none: invoices are not collected', false);
    },
    parseWebhook: () => ({ ok: false, reason: 'not_collecting' }),
  };
}
