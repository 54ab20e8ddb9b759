// What production (NODE_ENV=production) refuses to start with, checked by loadConfig (src/config.ts):
// the payment provider's test double, and any secret whose value is public. This repository is
// public, so every secret written in it (a development default, a docker-compose placeholder, a
// test's fixture, a documented example) is known to anyone: a webhook signed with one of them is a
// forged payment, a job link signed with one a forged driver. Each is listed here, and
// test/unit/production-config.test.ts fails when the repository holds a secret this list misses.

// The development defaults: what `npm start` and the tests run with when a secret is unset.
export const DEV_JOB_LINK_SECRET = 'development-only-job-link-secret-not-for-production';
export const DEV_PARTNER_SECRETS_KEY = 'development-only-partner-secrets-key-not-for-production';
export const DEV_OAUTH_SECRET = 'development-only-oauth-secret-not-for-production';
export const DEV_BILLING_TEST_WEBHOOK_SECRET = 'whsec_ZGV2ZWxvcG1lbnQtb25seS1iaWxsaW5nLXdlYmhvb2s=';

const standardWebhooksSecret = (text: string) => `whsec_${Buffer.from(text).toString('base64')}`;

/** Every secret value committed to this repository, wherever it appears. */
const PUBLISHED_SECRETS: ReadonlySet<string> = new Set([
  DEV_JOB_LINK_SECRET,
  DEV_PARTNER_SECRETS_KEY,
  DEV_OAUTH_SECRET,
  DEV_BILLING_TEST_WEBHOOK_SECRET,
  // docker-compose.yml's placeholders (before issue 33 it fell back to them when unset).
  'replace-me-with-a-long-random-secret-of-48-chars',
  'replace-me-with-another-long-random-secret-48ch',
  'replace-me-with-a-third-long-random-secret-of-48ch',
  // Tests' fixtures.
  'whsec_d3JvbmctYnV0LXdlbGwtZm9ybWVkLXNlY3JldA==',
  'whsec_cmVjb3JkZWQtZmxlZXQtd2ViaG9vay1zZWNyZXQ=',
  'whsec_testSigningSecret0123456789',
  'whsec_someoneElsesSecret0000',
  'whsec_oldSecret0000000000000',
  standardWebhooksSecret('old-secret-old-secret-old-secret'),
  standardWebhooksSecret('new-secret-new-secret-new-secret'),
  standardWebhooksSecret('not-the-secret-at-all-no'),
  standardWebhooksSecret('x'.repeat(32)),
  'metrics-token-for-tests-0123456789',
  'sk_test_51AbCdEfGhIjKlMnOp',
]);

export function isPublishedSecret(value: string): boolean {
  return PUBLISHED_SECRETS.has(value.trim());
}

/**
 * A Standard Webhooks secret (whsec_<base64>) whose key is readable text was typed by a person, not
 * generated (a provider issues 24 or more random bytes, which are all printable ASCII about once in
 * 10^10): the kind of value that ends up in a README or a test. Refused in production.
 */
export function isTypedWebhookSecret(value: string): boolean {
  const m = /^whsec_([A-Za-z0-9+/]+={0,2})$/.exec(value.trim());
  if (!m) return false;
  const key = Buffer.from(m[1]!, 'base64');
  return key.length > 0 && key.every((b) => b >= 0x20 && b < 0x7f);
}

/** What the production check reads (a structural slice of Config, so this module needs no import of it). */
export interface ProductionSettings {
  BILLING_PAYMENT_PROVIDER: string;
  JOB_LINK_SECRET?: string | undefined;
  PARTNER_SECRETS_KEY?: string | undefined;
  OAUTH_SECRET?: string | undefined;
  PAYMENT_WEBHOOK_SECRETS: string;
  STRIPE_SECRET_KEY?: string | undefined;
  STRIPE_WEBHOOK_SECRETS: string;
  STRIPE_API_BASE: string;
  TWILIO_API_BASE: string;
  METRICS_TOKEN?: string | undefined;
  TWILIO_AUTH_TOKEN?: string | undefined;
  SMTP_PASS?: string | undefined;
}

const words = (v: string) => v.trim().split(/\s+/).filter(Boolean);

/** Every reason this configuration may not run in production, as `SETTING: why` lines (none: it may). */
export function productionProblems(env: NodeJS.ProcessEnv, c: ProductionSettings): string[] {
  const problems: string[] = [];
  for (const required of ['JOB_LINK_SECRET', 'PARTNER_SECRETS_KEY', 'OAUTH_SECRET'] as const) {
    if (!c[required]) problems.push(`${required}: is required in production`);
  }

  // The test double marks an invoice paid on a webhook signed with BILLING_TEST_WEBHOOK_SECRET,
  // whose default is in this repository: anyone could pay anyone's invoice. Production says which
  // provider collects, or that none does yet (docs/billing.md, "Not collecting yet").
  if (!env.BILLING_PAYMENT_PROVIDER || c.BILLING_PAYMENT_PROVIDER === 'test') {
    problems.push(
      `BILLING_PAYMENT_PROVIDER: ${env.BILLING_PAYMENT_PROVIDER ? 'test' : 'unset (its default, test)'} is the development double, whose payments anyone can sign; ` +
        'production sets stripe (collect invoices) or none (bill and keep invoices, collect none)',
    );
  }
  // A Stripe test-mode key opens test-mode pay pages, which Stripe's published test cards pay.
  if (c.BILLING_PAYMENT_PROVIDER === 'stripe' && c.STRIPE_SECRET_KEY && !/^(sk|rk)_live_/.test(c.STRIPE_SECRET_KEY)) {
    problems.push(
      "STRIPE_SECRET_KEY: is a test-mode key (sk_test_/rk_test_), whose pay pages accept Stripe's test cards; production needs a live key (sk_live_/rk_live_)",
    );
  }

  // A provider's address left at a local mock (PROVIDERS=local, docs/providers.md) would take every
  // text and payment page and deliver none; production talks to the providers over TLS.
  for (const [name, value] of [
    ['STRIPE_API_BASE', c.STRIPE_API_BASE],
    ['TWILIO_API_BASE', c.TWILIO_API_BASE],
  ] as const) {
    if (!value.startsWith('https://'))
      problems.push(`${name}: ${value} is not an https address; production sends to the provider itself`);
  }

  const single = {
    JOB_LINK_SECRET: c.JOB_LINK_SECRET,
    PARTNER_SECRETS_KEY: c.PARTNER_SECRETS_KEY,
    OAUTH_SECRET: c.OAUTH_SECRET,
    STRIPE_SECRET_KEY: c.STRIPE_SECRET_KEY,
    METRICS_TOKEN: c.METRICS_TOKEN,
    TWILIO_AUTH_TOKEN: c.TWILIO_AUTH_TOKEN,
    SMTP_PASS: c.SMTP_PASS,
  };
  for (const [name, value] of Object.entries(single)) {
    if (value && isPublishedSecret(value))
      problems.push(
        `${name}: is a published value (a default, placeholder or example in the public repository); set your own`,
      );
  }
  for (const [name, value] of [
    ['PAYMENT_WEBHOOK_SECRETS', c.PAYMENT_WEBHOOK_SECRETS],
    ['STRIPE_WEBHOOK_SECRETS', c.STRIPE_WEBHOOK_SECRETS],
  ] as const) {
    const secrets = words(value);
    if (secrets.some(isPublishedSecret))
      problems.push(
        `${name}: holds a published secret (a default or example in the public repository); use the one your provider issued`,
      );
    else if (name === 'PAYMENT_WEBHOOK_SECRETS' && secrets.some(isTypedWebhookSecret)) {
      problems.push(
        `${name}: holds a secret whose key is readable text, typed rather than generated; use the one your provider issued (random bytes)`,
      );
    }
  }
  return problems;
}
