import type { Config } from '../config.js';
import type { BillingPrices } from '../model/billing.js';
import type { PaymentProvider } from './payment-provider.js';
import { createNoProvider } from './no-provider.js';
import { createStripeProvider } from './stripe.js';
import { createTestProvider } from './test-provider.js';

// What billing needs from configuration, built once per process (the worker's activities and the
// API's webhook route build the same provider from the same settings).

export interface BillingSettings {
  prices: BillingPrices;
  provider: PaymentProvider;
  publicBaseUrl: string;
  opsAlertEmail: string;
}

export function billingPrices(
  config: Pick<
    Config,
    'THIRD_PARTY_JOB_SOURCE' | 'THIRD_PARTY_JOB_FEE_PENCE' | 'CARD_FEE_BASIS_POINTS' | 'CARD_FEE_FIXED_PENCE'
  >,
): BillingPrices {
  return {
    thirdPartySource: config.THIRD_PARTY_JOB_SOURCE || null,
    thirdPartyJobFeePence: config.THIRD_PARTY_JOB_FEE_PENCE,
    cardFeeBasisPoints: config.CARD_FEE_BASIS_POINTS,
    cardFeeFixedPence: config.CARD_FEE_FIXED_PENCE,
  };
}

export function paymentProviderFromConfig(config: Config): PaymentProvider {
  if (config.BILLING_PAYMENT_PROVIDER === 'stripe') {
    return createStripeProvider({
      secretKey: config.STRIPE_SECRET_KEY ?? '',
      webhookSecrets: config.STRIPE_WEBHOOK_SECRETS.trim().split(/\s+/).filter(Boolean),
      apiBase: config.STRIPE_API_BASE,
    });
  }
  if (config.BILLING_PAYMENT_PROVIDER === 'none') return createNoProvider();
  return createTestProvider({
    webhookSecret: config.BILLING_TEST_WEBHOOK_SECRET,
    publicBaseUrl: config.PUBLIC_BASE_URL,
  });
}

export function billingSettings(
  config: Config,
  provider: PaymentProvider = paymentProviderFromConfig(config),
): BillingSettings {
  return {
    prices: billingPrices(config),
    provider,
    publicBaseUrl: config.PUBLIC_BASE_URL,
    opsAlertEmail: config.OPS_ALERT_EMAIL,
  };
}
