import { z } from 'zod';
import {
  DEV_BILLING_TEST_WEBHOOK_SECRET,
  DEV_JOB_LINK_SECRET,
  DEV_OAUTH_SECRET,
  DEV_PARTNER_SECRETS_KEY,
  productionProblems,
} from './production-config.js';

// Every setting comes from the environment and is validated once at start, so a typo stops the
// process with the variable's name instead of failing on the first request.

const port = z.coerce.number().int().min(1).max(65535);
const positiveInt = z.coerce.number().int().positive();
const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

const ConfigSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().min(1).default('0.0.0.0'),
  PORT: port.default(3000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATABASE_URL: z
    .string({ error: 'is required (npm start provides an embedded Postgres when it is unset)' })
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL'),
  DATABASE_POOL_MAX: positiveInt.default(10),
  TEMPORAL_ADDRESS: z
    .string()
    .regex(/^[^:\s]+:\d+$/, 'must be host:port')
    .default('localhost:7233'),
  TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
  TEMPORAL_TASK_QUEUE: z.string().min(1).default('taxi'),
  /** Public address of this service, used in booking URLs and as the first OpenAPI server. */
  PUBLIC_BASE_URL: z.url().optional(),
  /** Further connected domains (comma-separated URLs) listed as OpenAPI servers. */
  PUBLIC_DOMAINS: z
    .string()
    .default('')
    .transform((s) =>
      s
        .split(',')
        .map((d) => d.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.url())),
  QUOTE_TTL_SECONDS: positiveInt.default(24 * 60 * 60),
  /**
   * Per-caller (API key, else IP) allowances are sized for many people behind one address (a hotel
   * desk, an office, a mobile carrier's CGNAT): docs/security/threat-model.md, "Shared addresses".
   * Spam is held by the per-phone and per-email allowances, which an address cannot share out.
   */
  /** API quotes (both quote paths) per caller per hour: 30 as spec 4.4/8 publish; a key may have its own (api_keys.quotes_per_hour). */
  QUOTE_RATE_LIMIT_PER_HOUR: positiveInt.default(30),
  /** Quotes from the home page's form (POST /) per address per hour: its own allowance, for many people behind one NAT. */
  QUOTE_FORM_RATE_LIMIT_PER_HOUR: positiveInt.default(600),
  /** Requests by API-key holders to limited routes per address per minute, whichever keys they hold (spec 5: per key and per IP). */
  KEYED_RATE_LIMIT_PER_IP_PER_MINUTE: positiveInt.default(1200),
  /** New bookings per caller per hour; a retry under an Idempotency-Key whose reply is stored or being made is not counted. */
  BOOKING_RATE_LIMIT_PER_HOUR: positiveInt.default(300),
  /** New bookings per hour for one passenger phone, and for one mailbox, from callers without an API key (each ride texts and emails them). */
  RECIPIENT_BOOKINGS_PER_HOUR: positiveInt.default(6),
  /** Booking lookups, cancels, tracking, booking and claim pages (the public's) per caller per minute. */
  LOOKUP_RATE_LIMIT_PER_MINUTE: positiveInt.default(1200),
  /** The driver app and pages, job-card answers and trip reports per caller per minute. */
  DRIVER_RATE_LIMIT_PER_MINUTE: positiveInt.default(600),
  /** Staff consoles (/ops, /api/ops, the operator dashboard) per staff member or API key per minute. */
  STAFF_RATE_LIMIT_PER_MINUTE: positiveInt.default(600),
  PARTNER_RATE_LIMIT_PER_MINUTE: positiveInt.default(120),
  /** v1 bookings (each a price check) per hour from an email not yet verified (spec section 8). */
  UNVERIFIED_EMAIL_BOOKINGS_PER_HOUR: positiveInt.default(8),
  VERIFIED_EMAIL_BOOKINGS_PER_HOUR: positiveInt.default(30),
  BODY_LIMIT_BYTES: positiveInt.default(32 * 1024),
  /**
   * How long a job intake request waits, once its jobs are written to the inbox, for their outcomes
   * (docs/partners.md, "The inbox"): a job not applied by then is answered `processing` with its
   * booking reference, and applied all the same. 0 (the default) answers as soon as the jobs are written.
   */
  INTAKE_REPLY_BUDGET_MS: z.coerce.number().int().min(0).max(60_000).default(0),
  /** Inbox rows each worker's drain applies at once, each a different job reference (src/partners/inbox-drain.ts). */
  PARTNER_INBOX_CONCURRENCY: positiveInt.default(32),
  /** How long an inbox row leased by a drain is left to it before another drain takes it (a drain that died). */
  PARTNER_INBOX_LEASE_SECONDS: positiveInt.default(30),
  /**
   * Driver applications (docs/security/onboarding.md). Attempts per hour per caller, counted before
   * the body is read: a ceiling on what one address can make the API read, never reached by people.
   */
  APPLICATION_RATE_LIMIT_PER_HOUR: positiveInt.default(60),
  /** Applications per hour from one address, counting only attempts within their applicant's own allowance. */
  APPLICATIONS_PER_ADDRESS_PER_HOUR: positiveInt.default(20),
  /** Applications per hour for one phone number (one applicant), from anywhere. */
  APPLICATIONS_PER_PHONE_PER_HOUR: positiveInt.default(3),
  /** Application uploads being read or stored at once in one API process (503 with Retry-After beyond). */
  APPLICATION_UPLOADS_IN_FLIGHT: positiveInt.default(2),
  /** An application's body must be in within this time, or the connection is closed. */
  APPLICATION_UPLOAD_TIMEOUT_SECONDS: positiveInt.default(120),
  /**
   * An upload's longest silence (seconds, fractions allowed): before its first byte (it holds no
   * slot until then), and between bytes once in a slot; 408 and the connection closed beyond.
   */
  APPLICATION_UPLOAD_IDLE_SECONDS: z.coerce.number().positive().max(600).default(5),
  /** The slowest an upload may arrive in its slot, on average, once APPLICATION_UPLOAD_IDLE_SECONDS have passed (408 below). */
  APPLICATION_UPLOAD_MIN_BYTES_PER_SECOND: positiveInt.default(32 * 1024),
  /** How long an upload whose bytes have come waits for a slot before the 503 (0: refused at once). */
  APPLICATION_UPLOAD_WAIT_SECONDS: z.coerce.number().min(0).max(600).default(15),
  GEOCODER: z.enum(['embedded']).default('embedded'),
  /**
   * Road distance and time (docs/routing.md): 'estimate' (straight line × a distance-dependent
   * factor, no network) or 'osrm' (an OSRM server at OSRM_URL, with the estimate as its fallback).
   */
  ROUTER: z.enum(['estimate', 'osrm']).default('estimate'),
  /** An OSRM server's base URL (e.g. http://osrm:5000), required when ROUTER is osrm. */
  OSRM_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL, e.g. http://localhost:5000' }).optional(),
  /** How long one OSRM route request may take before the quote uses the estimate instead. */
  OSRM_TIMEOUT_MS: z.coerce.number().int().min(50).max(30_000).default(1500),
  /**
   * Where a driver's own map-service key is used (docs/routing.md, "A driver's own map-service
   * key"): Mapbox's API. Only tests and local stand-ins change it.
   */
  DRIVER_MAP_SERVICE_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL, e.g. https://api.mapbox.com' })
    .default('https://api.mapbox.com'),
  /** How long one route on a driver's key may take before that ETA is the service's estimate. */
  DRIVER_MAP_SERVICE_TIMEOUT_MS: z.coerce.number().int().min(50).max(30_000).default(1500),
  /**
   * How much further away a driver who accepts none of their job cards is ranked than one who
   * accepts them all (docs/dispatch.md, "Ranking"); 0 ranks on distance alone.
   */
  DISPATCH_ANSWER_HANDICAP_METERS: z.coerce.number().int().min(0).max(50_000).default(2000),
  TRUST_PROXY: bool.default(false),
  /** Signs job-card links; must stay the same across restarts or links already sent stop working. */
  JOB_LINK_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  /** Seals partners' HMAC signing secrets at rest (src/auth/secret-box.ts); must stay the same. */
  PARTNER_SECRETS_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
  /**
   * Signs the OAuth authorization server's cookies and seals its signing key at rest (src/mcp/oauth/);
   * every API process must share it, and it must stay the same or sign-ins in progress and issued
   * tokens stop working.
   */
  OAUTH_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  /** Lifetime of an access token for /mcp: short, as refresh tokens (rotated on use) renew it. */
  MCP_ACCESS_TOKEN_TTL_SECONDS: positiveInt.default(10 * 60),
  MCP_REFRESH_TOKEN_TTL_SECONDS: positiveInt.default(14 * 24 * 60 * 60),
  /** Browser origins (besides this service's own) allowed to call /mcp, comma-separated. */
  MCP_ALLOWED_ORIGINS: z
    .string()
    .default('')
    .transform((s) =>
      s
        .split(',')
        .map((d) => d.trim().replace(/\/$/, ''))
        .filter(Boolean),
    )
    .pipe(z.array(z.url())),
  /** Requests to /mcp per minute per IP, and per signed-in passenger. */
  MCP_RATE_LIMIT_PER_MINUTE: positiveInt.default(120),
  /** Requests to the OAuth endpoints and sign-in pages per minute per IP. */
  OAUTH_RATE_LIMIT_PER_MINUTE: positiveInt.default(60),
  /**
   * One-time codes (sign-in, email verification): src/auth/code-guard.ts and
   * docs/security/threat-model.md. Countries whose mobiles get codes by SMS, ISO 3166 alpha-2,
   * comma-separated: by default the mobiles of the UK numbering plan (+44 7), which libphonenumber
   * files under GB, Guernsey, the Isle of Man and Jersey.
   */
  SIGN_IN_CODE_COUNTRIES: z
    .string()
    .default('GB,GG,IM,JE')
    .transform((s) =>
      s
        .split(',')
        .map((c) => c.trim().toUpperCase())
        .filter(Boolean),
    )
    .pipe(z.array(z.string().regex(/^[A-Z]{2}$/, 'must be ISO 3166 alpha-2 country codes, e.g. GB,IE'))),
  /** Codes sent to one phone or mailbox per hour, and per day, asked for from one address (a stranger's address spends its own share). */
  SIGN_IN_CODES_PER_HOUR: positiveInt.default(3),
  SIGN_IN_CODES_PER_DAY: positiveInt.default(10),
  /** Codes sent to one phone or mailbox in a UTC day from all addresses together; past it, only addresses it has signed in from. */
  SIGN_IN_CODES_PER_RECIPIENT_PER_DAY: positiveInt.default(30),
  /** Codes asked for from one address (IP; IPv6 by /64) per hour, to numbers never signed in before. */
  SIGN_IN_CODES_PER_ADDRESS_PER_HOUR: positiveInt.default(10),
  /** The same, to passengers who have signed in before (a hotel's or an office's returning guests). */
  SIGN_IN_CODES_PER_ADDRESS_RETURNING_PER_HOUR: positiveInt.default(60),
  /** Codes per passenger sign-in (one OAuth interaction). */
  SIGN_IN_CODES_PER_INTERACTION: positiveInt.default(3),
  /**
   * Codes sent in a UTC day, by channel. Codes to recipients who never signed in (and claim links,
   * verification codes, new driver phones) stop at half of it; approved drivers and returning
   * passengers get theirs up to the ceiling. Ops are emailed when the new share is spent, and at 80 %.
   */
  SIGN_IN_SMS_PER_DAY: positiveInt.default(2000),
  SIGN_IN_EMAILS_PER_DAY: positiveInt.default(5000),
  /**
   * Wrong codes from one address that lock an identifier for that address only; the first lock's
   * length, doubled for each lock in a row up to the longest.
   */
  SIGN_IN_FAILURES_PER_LOCK: positiveInt.default(5),
  SIGN_IN_LOCK_MINUTES: positiveInt.default(15),
  SIGN_IN_LOCK_MAX_MINUTES: positiveInt.default(30),
  /** Wrong codes from one address per hour before its guesses at codes it did not ask for itself are refused unread. */
  SIGN_IN_FAILURES_PER_ADDRESS_PER_HOUR: positiveInt.default(50),
  /**
   * The sending policy for every other message the service pays for (src/notify/sending-policy.ts,
   * docs/notifications.md "Sending policy"). Texts go only to mobiles of SIGN_IN_CODE_COUNTRIES.
   * A booking's passenger is texted (and emailed) only while these allow it, decided at the
   * booking's first message and kept for the rest of its story; the booking stands either way.
   * Bookings texted to one phone (or emailed to one mailbox) per hour and per day, whoever booked:
   */
  BOOKING_TEXTS_PER_RECIPIENT_PER_HOUR: positiveInt.default(6),
  BOOKING_TEXTS_PER_RECIPIENT_PER_DAY: positiveInt.default(20),
  /** Bookings texted per hour for one caller without an API key: an address (IPv6 by /64), or a signed-in passenger. Recipients who have travelled or signed in before are not counted. */
  BOOKING_TEXTS_PER_CALLER_PER_HOUR: positiveInt.default(30),
  /** Bookings texted per hour for one API key or partner (its booking allowance is BOOKING_RATE_LIMIT_PER_HOUR). */
  BOOKING_TEXTS_PER_KEY_PER_HOUR: positiveInt.default(300),
  /**
   * Bookings texted (and emailed) in a UTC day, service-wide, by channel. Past half of it, bookings
   * from callers without a key to recipients never seen before are no longer texted, so the rest is
   * kept for partners, keys and returning passengers; ops are emailed at 80 %.
   */
  BOOKING_SMS_PER_DAY: positiveInt.default(10_000),
  BOOKING_EMAILS_PER_DAY: positiveInt.default(20_000),
  /** Job cards texted to one driver per hour; beyond it, cards come by WhatsApp and the app only. */
  JOB_CARD_SMS_PER_DRIVER_PER_HOUR: positiveInt.default(20),
  DISPATCH_LEAD_SECONDS: positiveInt.default(15 * 60),
  /**
   * Advance allocation (src/dispatch/advance.ts): airport runs and trips of at least
   * ADVANCE_LONG_TRIP_KM start looking for a driver this many hours before pickup (0: off), and a
   * pickup before EARLY_PICKUP_BEFORE_HOUR (London; 0: off) from EARLY_PICKUP_DISPATCH_FROM_HOUR the
   * evening before.
   */
  ADVANCE_DISPATCH_HOURS: z.coerce.number().min(0).max(48).default(3),
  ADVANCE_LONG_TRIP_KM: z.coerce.number().positive().max(1000).default(30),
  EARLY_PICKUP_BEFORE_HOUR: z.coerce.number().int().min(0).max(12).default(7),
  EARLY_PICKUP_DISPATCH_FROM_HOUR: z.coerce.number().int().min(12).max(23).default(20),
  /** The upcoming-jobs board in the driver app lists pre-booked jobs picking up within this many hours (src/drivers/upcoming.ts). */
  UPCOMING_JOBS_HORIZON_HOURS: z.coerce.number().positive().max(168).default(36),
  OFFER_TIMEOUT_SECONDS: positiveInt.default(60),
  /**
   * The offer policy (docs/dispatch.md "Offer policy"): a job card its driver has not opened within
   * OFFER_UNSEEN_SECONDS is withdrawn and the next driver asked (0: off, every card gets the full
   * OFFER_TIMEOUT_SECONDS); OFFER_GROUP_SIZE drivers hold the card at once, the first to accept
   * winning (1: one at a time). Taken into each booking's policy when it starts.
   */
  OFFER_UNSEEN_SECONDS: z.coerce.number().int().min(0).max(3600).default(15),
  OFFER_GROUP_SIZE: z.coerce.number().int().min(1).max(10).default(3),
  DISPATCH_RETRY_BASE_SECONDS: positiveInt.default(60),
  DISPATCH_RETRY_MAX_SECONDS: positiveInt.default(15 * 60),
  NO_SHOW_GRACE_SECONDS: positiveInt.default(10 * 60),
  /** A driver who accepts after pickup + the grace (or just before) has this long to report moving before a no-show (issue 25). */
  NO_SHOW_LATE_ACCEPT_SECONDS: positiveInt.max(3600).default(10 * 60),
  /**
   * A booking request sent again byte for byte from the same address within this window is the same
   * caller's retry: it gets the booking's reference and status (issue 37). A "now" trip is one ride
   * for as long as it is open, whatever this says.
   */
  BOOKING_DEDUPE_WINDOW_SECONDS: positiveInt.default(600),
  /**
   * Map tiles behind the tracking page's map, e.g. https://tile.example.com/{z}/{x}/{y}.png
   * (docs/configuration.md, "The tracking map"). Empty: no map; the page says in words where the
   * driver is, and nothing is fetched from elsewhere. Only the leftmost host label may be a
   * placeholder ({s}), as a CSP source can only wildcard that.
   */
  MAP_TILE_URL: z
    .string()
    .default('')
    .refine(
      (u) =>
        u === '' ||
        (/^https?:\/\/(\{s\}\.)?[A-Za-z0-9.-]+(:\d+)?\//.test(u) &&
          /\{z\}/.test(u) &&
          /\{x\}/.test(u) &&
          /\{-?y\}/.test(u)),
      {
        message:
          'must be an http(s) tile URL template with {z}, {x} and {y}, e.g. https://tile.openstreetmap.org/{z}/{x}/{y}.png',
      },
    ),
  /**
   * The credit the tile provider requires, shown under the map: plain text, with links written
   * [words](https://...), e.g. "© [OpenStreetMap](https://www.openstreetmap.org/copyright)
   * contributors". Required when MAP_TILE_URL is set (loadConfig); never HTML.
   */
  MAP_TILE_ATTRIBUTION: z
    .string()
    .default('')
    .transform((s) => s.trim())
    .pipe(
      z
        .string()
        .max(300, 'must be at most 300 characters')
        .refine((s) => !/[<>]|&#?[A-Za-z0-9]+;/.test(s) && !/\p{Cc}/u.test(s), {
          message:
            'must be plain text (links as [words](https://...)), not HTML: e.g. © [OpenStreetMap](https://www.openstreetmap.org/copyright) contributors',
        })
        .refine((s) => [...s.matchAll(/\]\(([^)]*)\)/g)].every((m) => /^https:\/\/[^\s()]+$/.test(m[1] ?? '')), {
          message: 'links must be [words](https://...) with an https address',
        }),
    ),
  /**
   * Secrets of payment providers' signed webhooks (Standard Webhooks: whsec_<base64>), space
   * separated so a rotated secret overlaps the old one. Empty: the webhook refuses everything.
   */
  PAYMENT_WEBHOOK_SECRETS: z
    .string()
    .default('')
    .refine(
      (v) =>
        v.trim() === '' ||
        v
          .trim()
          .split(/\s+/)
          .every((x) => /^whsec_[A-Za-z0-9+/]{16,}={0,2}$/.test(x)),
      {
        message: 'must be whsec_<base64> secrets separated by spaces',
      },
    ),
  /**
   * The drivers' and partners' weekly subscription (docs/billing.md). The one named third-party job
   * source (spec 8) is a partner id; jobs from it that a driver completes cost
   * THIRD_PARTY_JOB_FEE_PENCE each. Empty: no source is named.
   */
  THIRD_PARTY_JOB_SOURCE: z
    .string()
    .default('')
    .refine((v) => v === '' || /^[a-z0-9][a-z0-9-]{1,39}$/.test(v), {
      message: 'must be a partner id (a-z, 0-9, -) or empty',
    }),
  THIRD_PARTY_JOB_FEE_PENCE: z.coerce.number().int().min(0).max(10_000).default(50),
  /** The card rail's processor fee, passed on per card payment: basis points of the payment plus a fixed amount. */
  CARD_FEE_BASIS_POINTS: z.coerce.number().int().min(0).max(1_000).default(150),
  CARD_FEE_FIXED_PENCE: z.coerce.number().int().min(0).max(1_000).default(20),
  /**
   * Who collects the invoices: 'stripe' (live); 'none', invoices billed and kept but not collected
   * (a production deployment not collecting yet, docs/billing.md); or 'test', a double that charges
   * nobody (development, tests), refused in production like every published secret
   * (src/production-config.ts).
   */
  BILLING_PAYMENT_PROVIDER: z.enum(['test', 'stripe', 'none']).default('test'),
  STRIPE_SECRET_KEY: z
    .string()
    .regex(
      /^(sk|rk)_(test|live)_[A-Za-z0-9]{10,}$/,
      'must be a Stripe secret or restricted key (sk_live_..., rk_live_...)',
    )
    .optional(),
  /** The webhook endpoint's signing secrets (whsec_...), space separated while one is rolled. */
  STRIPE_WEBHOOK_SECRETS: z
    .string()
    .default('')
    .refine(
      (v) =>
        v.trim() === '' ||
        v
          .trim()
          .split(/\s+/)
          .every((x) => /^whsec_[A-Za-z0-9]{16,}$/.test(x)),
      { message: 'must be whsec_ secrets separated by spaces' },
    ),
  STRIPE_API_BASE: z.url().default('https://api.stripe.com'),
  /** Signs the test double's webhooks (Standard Webhooks, whsec_<base64>); development only (its default is public). */
  BILLING_TEST_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_[A-Za-z0-9+/]{16,}={0,2}$/, 'must be whsec_<base64>')
    .default(DEV_BILLING_TEST_WEBHOOK_SECRET),
  OPS_ALERT_EMAIL: z.email().default('ops@localhost'),
  /** Ops are emailed once when a booking still has no driver this many minutes before pickup. */
  OPS_UNASSIGNED_ALERT_MINUTES: positiveInt.max(24 * 60).default(15),
  /** Whether this worker starts the ops watcher (workflows/ops/) if it is not running; tests' workers do not. */
  OPS_WATCH: bool.default(true),
  /**
   * How many months a booking record is kept where its licensing authority has no period of its own
   * (set per authority by PUT /api/ops/records/retention/{authority}; docs/records.md): London's and
   * most councils' 12.
   */
  BOOKING_RECORD_RETENTION_MONTHS: positiveInt.max(120).default(12),
  /**
   * The Temporal Web UI the ops page links each booking's workflow history to; unset:
   * http://TEMPORAL_UI_HOST:TEMPORAL_UI_PORT, the UI `npm start` and `start:cluster` run.
   */
  TEMPORAL_UI_URL: z.url().optional(),
  TEMPORAL_UI_HOST: z
    .string()
    .regex(/^[^\s/?#@]+$/, 'must be a host name or address')
    .default('localhost'),
  TEMPORAL_UI_PORT: port.default(8233),
  /**
   * Bearer token for the API's GET /metrics. Unset: /metrics answers only callers on this machine
   * (a loopback socket with no forwarding header), so a scraper must run beside the API.
   */
  METRICS_TOKEN: z
    .string()
    .regex(/^[A-Za-z0-9_-]{32,200}$/, 'must be 32-200 characters of A-Z a-z 0-9 _ -')
    .optional(),
  /** The worker's metrics port (its own and the Temporal SDK's); unset: the worker serves none. */
  WORKER_METRICS_PORT: port.optional(),
  WORKER_METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  /** Where the Temporal SDK's own Prometheus exporter listens (loopback only); default WORKER_METRICS_PORT + 1. */
  WORKER_SDK_METRICS_PORT: port.optional(),
  NOTIFIER: z.enum(['outbox', 'live']).default('outbox'),
  /**
   * How a passenger's phone hears about their booking. SMS reaches every mobile (WhatsApp users'
   * too) at any hour; a business-initiated WhatsApp message needs a template the provider has
   * approved for each message, so 'whatsapp' is for deployments that have them (docs/notifications.md).
   */
  PASSENGER_PHONE_CHANNEL: z.enum(['sms', 'whatsapp']).default('sms'),
  TWILIO_ACCOUNT_SID: z.string().optional(),
  TWILIO_AUTH_TOKEN: z.string().optional(),
  TWILIO_SMS_FROM: z.string().optional(),
  TWILIO_WHATSAPP_FROM: z.string().optional(),
  /** Where the Twilio adapter sends its requests; `PROVIDERS=local npm start` points it at a validating mock. */
  TWILIO_API_BASE: z.url().default('https://api.twilio.com'),
  SMTP_HOST: z.string().optional(),
  SMTP_PORT: port.default(587),
  SMTP_SECURE: bool.default(false),
  SMTP_USER: z.string().optional(),
  SMTP_PASS: z.string().optional(),
  SMTP_FROM: z.string().optional(),
});

// The development secrets (DEV_*, src/production-config.ts) are only for local runs and tests:
// production must set its own, and refuses every published value (checked in loadConfig).

export type Config = z.infer<typeof ConfigSchema> & {
  PUBLIC_BASE_URL: string;
  TEMPORAL_UI_URL: string;
  JOB_LINK_SECRET: string;
  PARTNER_SECRETS_KEY: string;
  OAUTH_SECRET: string;
};

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = ConfigSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.') || '(env)'}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const c = parsed.data;
  const problems = c.NODE_ENV === 'production' ? productionProblems(env, c) : [];
  if (c.BILLING_PAYMENT_PROVIDER === 'stripe' && (!c.STRIPE_SECRET_KEY || c.STRIPE_WEBHOOK_SECRETS.trim() === '')) {
    problems.push('STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRETS: are required when BILLING_PAYMENT_PROVIDER is stripe');
  }
  if (c.ROUTER === 'osrm' && !c.OSRM_URL) {
    problems.push('OSRM_URL: is required when ROUTER is osrm: the OSRM server to ask, e.g. http://localhost:5000');
  }
  if (c.MAP_TILE_URL !== '' && c.MAP_TILE_ATTRIBUTION === '') {
    problems.push(
      "MAP_TILE_ATTRIBUTION: is required when MAP_TILE_URL is set: the credit the tile provider's terms require, e.g. © [OpenStreetMap](https://www.openstreetmap.org/copyright) contributors (docs/configuration.md)",
    );
  }
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n${problems.map((p) => `  ${p}`).join('\n')}`);
  return {
    ...c,
    PUBLIC_BASE_URL: (c.PUBLIC_BASE_URL ?? `http://localhost:${c.PORT}`).replace(/\/$/, ''),
    TEMPORAL_UI_URL: temporalUiUrl(c),
    JOB_LINK_SECRET: c.JOB_LINK_SECRET ?? DEV_JOB_LINK_SECRET,
    PARTNER_SECRETS_KEY: c.PARTNER_SECRETS_KEY ?? DEV_PARTNER_SECRETS_KEY,
    OAUTH_SECRET: c.OAUTH_SECRET ?? DEV_OAUTH_SECRET,
  };
}

/** TEMPORAL_UI_URL, else the UI at TEMPORAL_UI_HOST:TEMPORAL_UI_PORT (an IPv6 address in brackets); no trailing slash. */
export function temporalUiUrl(c: {
  TEMPORAL_UI_URL?: string | undefined;
  TEMPORAL_UI_HOST: string;
  TEMPORAL_UI_PORT: number;
}): string {
  const host =
    c.TEMPORAL_UI_HOST.includes(':') && !c.TEMPORAL_UI_HOST.startsWith('[')
      ? `[${c.TEMPORAL_UI_HOST}]`
      : c.TEMPORAL_UI_HOST;
  return (c.TEMPORAL_UI_URL ?? `http://${host}:${c.TEMPORAL_UI_PORT}`).replace(/\/$/, '');
}
