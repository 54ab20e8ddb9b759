// `PROVIDERS=local npm start` (issue 39, item 4): the service talks to the providers' own test
// servers instead of keeping every message in the outbox, so a newcomer watches real provider
// traffic on their machine: emails in Mailpit's web page, texts as Twilio's published API receives
// them (checked by Prism, one JSON line each in <DATA_DIR>/twilio-requests.jsonl), pay links opened
// at stripe-mock. docs/providers.md says what each shows and what it cannot.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { startMailpit } from './mailpit.js';
import { startStripeMock } from './stripe.js';
import { startTwilioMock } from './twilio.js';

export interface LocalProviders {
  /** The settings the API and the worker run with (docs/configuration.md). */
  env: Record<string, string>;
  /** For the start banner: where to look. */
  lines: string[];
  /** What the state file records of them, for scripts and tests. */
  state: { mailpitUrl: string; smtpPort: number; twilioUrl: string; twilioRequestLog: string; stripeUrl: string };
  stops: Array<[name: string, stop: () => Promise<void>]>;
}

export async function startLocalProviders(stackDir: string): Promise<LocalProviders> {
  const twilioRequestLog = path.join(stackDir, 'twilio-requests.jsonl');
  const [mailpit, twilio, stripe] = await Promise.all([
    startMailpit(),
    startTwilioMock({ requestLog: twilioRequestLog }),
    startStripeMock(),
  ]);
  return {
    env: {
      NOTIFIER: 'live',
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: String(mailpit.smtpPort),
      SMTP_SECURE: 'false',
      SMTP_FROM: '"Direct Taxi" <bookings@direct-taxi.localhost>',
      // Shaped as Twilio's are (Prism checks the account sid's pattern); valid nowhere else.
      TWILIO_ACCOUNT_SID: `AC${randomBytes(16).toString('hex')}`,
      TWILIO_AUTH_TOKEN: randomBytes(16).toString('hex'),
      TWILIO_SMS_FROM: '+447700900000',
      TWILIO_WHATSAPP_FROM: '+447700900001',
      TWILIO_API_BASE: twilio.url,
      BILLING_PAYMENT_PROVIDER: 'stripe',
      STRIPE_SECRET_KEY: `sk_test_${randomBytes(12).toString('hex')}`,
      STRIPE_WEBHOOK_SECRETS: `whsec_${randomBytes(24).toString('hex')}`,
      STRIPE_API_BASE: stripe.url,
    },
    lines: [
      `  Emails         ${mailpit.apiUrl} (Mailpit: every email the service sent)`,
      `  Texts          ${twilioRequestLog} (as Twilio's API received them, via ${twilio.url})`,
      `  Stripe         ${stripe.url} (stripe-mock: invoices' pay links)`,
    ],
    state: {
      mailpitUrl: mailpit.apiUrl,
      smtpPort: mailpit.smtpPort,
      twilioUrl: twilio.url,
      twilioRequestLog,
      stripeUrl: stripe.url,
    },
    stops: [
      ['mailpit', () => mailpit.stop()],
      ['twilio mock', () => twilio.stop()],
      ['stripe-mock', () => stripe.stop()],
    ],
  };
}
