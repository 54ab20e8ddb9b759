// Issue 33, item 2: production refuses to start with the payment provider's test double or with any
// secret whose value is public (src/production-config.ts), and says which setting. Development and
// tests start as before.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import {
  DEV_BILLING_TEST_WEBHOOK_SECRET,
  DEV_JOB_LINK_SECRET,
  DEV_OAUTH_SECRET,
  DEV_PARTNER_SECRETS_KEY,
  isPublishedSecret,
  isTypedWebhookSecret,
} from '../../src/production-config.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const random = () => randomBytes(36).toString('base64');
const whsec = () => `whsec_${randomBytes(32).toString('base64')}`;
const stripeWhsec = () => `whsec_${randomBytes(24).toString('hex')}`;

/** What production ran with before issue 33: the three required secrets and nothing else. */
const production = () => ({
  NODE_ENV: 'production',
  DATABASE_URL: 'postgres://taxi@localhost/taxi',
  JOB_LINK_SECRET: random(),
  PARTNER_SECRETS_KEY: random(),
  OAUTH_SECRET: random(),
});

function refusal(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error('loadConfig started production');
}

describe('production configuration', () => {
  it('refuses the test payment provider, by default or by name: its webhooks are signed with a secret anyone can read', () => {
    expect(refusal(production())).toMatch(
      /^ {2}BILLING_PAYMENT_PROVIDER: unset \(its default, test\) is the development double/m,
    );
    expect(refusal({ ...production(), BILLING_PAYMENT_PROVIDER: 'test' })).toMatch(
      /^ {2}BILLING_PAYMENT_PROVIDER: test is the development double.*stripe \(collect invoices\) or none/m,
    );
    // Its secret set to something private does not make it a provider: anyone running the double can pay.
    expect(
      refusal({ ...production(), BILLING_PAYMENT_PROVIDER: 'test', BILLING_TEST_WEBHOOK_SECRET: whsec() }),
    ).toContain('BILLING_PAYMENT_PROVIDER:');
  });

  it("starts with none (invoices kept, not collected) or stripe with a live key; refuses Stripe's test mode", () => {
    expect(loadConfig({ ...production(), BILLING_PAYMENT_PROVIDER: 'none' })).toMatchObject({
      NODE_ENV: 'production',
      BILLING_PAYMENT_PROVIDER: 'none',
    });
    const stripe = { ...production(), BILLING_PAYMENT_PROVIDER: 'stripe', STRIPE_WEBHOOK_SECRETS: stripeWhsec() };
    expect(loadConfig({ ...stripe, STRIPE_SECRET_KEY: `sk_live_${randomBytes(12).toString('hex')}` })).toMatchObject({
      BILLING_PAYMENT_PROVIDER: 'stripe',
    });
    expect(loadConfig({ ...stripe, STRIPE_SECRET_KEY: `rk_live_${randomBytes(12).toString('hex')}` })).toMatchObject({
      BILLING_PAYMENT_PROVIDER: 'stripe',
    });
    expect(refusal({ ...stripe, STRIPE_SECRET_KEY: `sk_test_${randomBytes(12).toString('hex')}` })).toMatch(
      /^ {2}STRIPE_SECRET_KEY: is a test-mode key/m,
    );
    expect(refusal({ ...production(), BILLING_PAYMENT_PROVIDER: 'stripe' })).toContain(
      'STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRETS: are required when BILLING_PAYMENT_PROVIDER is stripe',
    );
  });

  it("refuses a provider's address left at a local mock (PROVIDERS=local): every text and pay page would go nowhere", () => {
    const live = { ...production(), BILLING_PAYMENT_PROVIDER: 'none' };
    const message = refusal({
      ...live,
      STRIPE_API_BASE: 'http://127.0.0.1:12111',
      TWILIO_API_BASE: 'http://127.0.0.1:4010',
    });
    expect(message).toMatch(/^ {2}STRIPE_API_BASE: http:\/\/127\.0\.0\.1:12111 is not an https address/m);
    expect(message).toMatch(/^ {2}TWILIO_API_BASE: http:\/\/127\.0\.0\.1:4010 is not an https address/m);
    expect(loadConfig(live)).toMatchObject({
      STRIPE_API_BASE: 'https://api.stripe.com',
      TWILIO_API_BASE: 'https://api.twilio.com',
    });
  });

  it('refuses every published secret, naming the setting, and lists every problem at once', () => {
    const ok = { ...production(), BILLING_PAYMENT_PROVIDER: 'none' };
    const cases: Array<[string, string]> = [
      ['JOB_LINK_SECRET', DEV_JOB_LINK_SECRET],
      ['PARTNER_SECRETS_KEY', DEV_PARTNER_SECRETS_KEY],
      ['OAUTH_SECRET', DEV_OAUTH_SECRET],
      ['JOB_LINK_SECRET', 'replace-me-with-a-long-random-secret-of-48-chars'],
      ['PAYMENT_WEBHOOK_SECRETS', DEV_BILLING_TEST_WEBHOOK_SECRET],
      ['PAYMENT_WEBHOOK_SECRETS', `${whsec()} ${DEV_BILLING_TEST_WEBHOOK_SECRET}`], // one of two while rotating
      ['METRICS_TOKEN', 'metrics-token-for-tests-0123456789'],
    ];
    for (const [name, value] of cases)
      expect(refusal({ ...ok, [name]: value }), `${name}=${value}`).toMatch(new RegExp(`^  ${name}: .*published`, 'm'));
    expect(
      refusal({
        ...ok,
        BILLING_PAYMENT_PROVIDER: 'stripe',
        STRIPE_SECRET_KEY: `sk_live_${randomBytes(12).toString('hex')}`,
        STRIPE_WEBHOOK_SECRETS: 'whsec_testSigningSecret0123456789',
      }),
    ).toMatch(/^ {2}STRIPE_WEBHOOK_SECRETS: holds a published secret/m);
    // A Standard Webhooks secret whose key is readable text was typed, not issued.
    const typed = `whsec_${Buffer.from('our-payment-provider-webhook-secret').toString('base64')}`;
    expect(refusal({ ...ok, PAYMENT_WEBHOOK_SECRETS: typed })).toMatch(
      /^ {2}PAYMENT_WEBHOOK_SECRETS: holds a secret whose key is readable text/m,
    );
    expect(loadConfig({ ...ok, PAYMENT_WEBHOOK_SECRETS: `${whsec()} ${whsec()}` }).PAYMENT_WEBHOOK_SECRETS).toMatch(
      /^whsec_/,
    );

    const all = refusal({
      NODE_ENV: 'production',
      DATABASE_URL: ok.DATABASE_URL,
      JOB_LINK_SECRET: DEV_JOB_LINK_SECRET,
    });
    for (const line of [
      'BILLING_PAYMENT_PROVIDER:',
      'JOB_LINK_SECRET: is a published value',
      'PARTNER_SECRETS_KEY: is required in production',
      'OAUTH_SECRET: is required in production',
    ])
      expect(all).toContain(line);
  });

  it('leaves development and tests as they were: the test double, the development secrets', () => {
    for (const NODE_ENV of [undefined, 'development', 'test']) {
      const config = loadConfig({ DATABASE_URL: 'postgres://taxi@localhost/taxi', ...(NODE_ENV ? { NODE_ENV } : {}) });
      expect(config).toMatchObject({
        BILLING_PAYMENT_PROVIDER: 'test',
        BILLING_TEST_WEBHOOK_SECRET: DEV_BILLING_TEST_WEBHOOK_SECRET,
        JOB_LINK_SECRET: DEV_JOB_LINK_SECRET,
      });
    }
  });

  it('knows every secret written in this repository: a literal the list misses fails here', () => {
    const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
      cwd: root,
      encoding: 'utf8',
    })
      .split('\n')
      .filter(
        (f) =>
          f &&
          !f.startsWith('test/histories/') &&
          !f.endsWith('package-lock.json') &&
          /\.(ts|js|md|ya?ml|json|sh|sql|go|env|txt)$|Dockerfile$/.test(f),
      );
    const settings =
      'JOB_LINK_SECRET|PARTNER_SECRETS_KEY|OAUTH_SECRET|PAYMENT_WEBHOOK_SECRETS|STRIPE_SECRET_KEY|STRIPE_WEBHOOK_SECRETS|BILLING_TEST_WEBHOOK_SECRET|METRICS_TOKEN|TWILIO_AUTH_TOKEN|SMTP_PASS';
    const patterns = [
      /\bwhsec_[A-Za-z0-9+/]{16,}={0,2}/g, // a webhook secret
      /\b(?:sk|rk)_live_[A-Za-z0-9]{10,}/g, // a live Stripe key (test-mode keys are refused as such)
      new RegExp(`\\$\\{(?:${settings}):-([^}]+)\\}`, 'g'), // a compose fallback
      new RegExp(`\\b(?:${settings})['"]?\\s*[:=]\\s*['"\`]([^'"\`$<>{}\\s]{8,})['"\`]`, 'g'), // a setting given a literal
    ];
    const found = new Map<string, string>();
    for (const file of files) {
      const full = path.join(root, file);
      if (!fs.existsSync(full) || fs.statSync(full).size > 2_000_000) continue;
      const text = fs.readFileSync(full, 'utf8');
      for (const pattern of patterns) for (const m of text.matchAll(pattern)) found.set(m[1] ?? m[0], file);
    }
    expect(found.size).toBeGreaterThan(5); // the scan sees the repository
    const missed = [...found].filter(([value]) => !isPublishedSecret(value) && !isTypedWebhookSecret(value));
    expect(missed).toEqual([]);
  });
});
