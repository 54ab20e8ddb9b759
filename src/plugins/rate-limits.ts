import fastifyRateLimit, { type RateLimitOptions } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.js';
import { verifiedDriverOf, verifiedStaffOf } from './auth.js';
import { admitUnderKey, idempotentRequest, readIdempotencyKey, type IdempotentRequest } from '../http/idempotency.js';
import { addressKey } from '../http/address.js';
import { createPgRateLimitStore, hitCounter } from '../http/pg-rate-limit-store.js';
import { ProblemError } from '../http/problem.js';

/** Route groups that share one allowance per caller. */
export type RateLimitGroup =
  'quote' | 'quoteForm' | 'booking' | 'application' | 'lookup' | 'driver' | 'staff' | 'partner' | 'oauth' | 'mcp';

declare module 'fastify' {
  interface FastifyInstance {
    /** Per-route options for `config: { rateLimit }`, by group (docs/decisions.md, Rate limits). */
    rateLimits: Record<RateLimitGroup, RateLimitOptions>;
  }
  interface FastifyContextConfig {
    /**
     * The Idempotency-Key group a booking route stores its replies under (src/routes/bookings.ts):
     * a retry whose reply is already stored is answered from it and not counted (booking group).
     */
    idempotencyGroup?: string;
  }
  interface FastifyRequest {
    /** The request as the booking allowance read it, before validation (src/http/idempotency.ts idempotentRequest). */
    idempotentRequest?: IdempotentRequest;
  }
}

const HOUR_MS = 3600_000;
const MINUTE_MS = 60_000;

/**
 * Every route that costs something (a Temporal workflow, a message, a database search a stranger
 * could repeat) is limited per caller: per API key when one is presented, else per client IP
 * (IPv6 by its /64: src/http/address.ts).
 * Counted in Postgres, so a limit holds across every API process, and before validation, so
 * malformed requests cost the same as good ones.
 */
export const rateLimitsPlugin = fp(
  async (app: FastifyInstance, opts: { config: Config }) => {
    const { config } = opts;
    await app.register(fastifyRateLimit, {
      global: false,
      store: createPgRateLimitStore(app.sql),
      hook: 'preValidation',
      errorResponseBuilder: (_req, ctx) =>
        new ProblemError(429, 'rate_limited', `Rate limit of ${ctx.max} requests exceeded; retry after ${ctx.after}.`),
    });
    /**
     * Spec 5: limits per key AND per IP. A key's own allowance is per key wherever it calls from;
     * on top, every key holder's requests to a limited route from one address share a per-minute
     * ceiling (KEYED_RATE_LIMIT_PER_IP_PER_MINUTE, 1200), so one address cannot multiply its
     * allowance with many keys, yet a desk of staff behind one NAT each with their own key stays
     * far below it. Anonymous callers are already counted per address by each group; staff
     * routes are left to the staff group's own per-member buckets.
     */
    app.addHook('preValidation', async (req) => {
      if (req.caller.kind !== 'key' || req.caller.key.rateLimitExempt) return;
      if (!req.routeOptions.config.rateLimit) return;
      // Staff consoles are counted per staff member or operator key and never per address: one
      // office NAT carries a whole desk (the staff group below; ops-limits.test.ts holds it).
      if (req.routeOptions.config.rateLimit === app.rateLimits.staff) return;
      const { current, ttl } = await hitCounter(app.sql, `keyip:${addressKey(req.ip)}`, MINUTE_MS);
      const max = config.KEYED_RATE_LIMIT_PER_IP_PER_MINUTE;
      if (current > max) {
        const after = Math.ceil(ttl / 1000);
        throw new ProblemError(
          429,
          'rate_limited',
          `Rate limit of ${max} requests a minute from this address exceeded; retry after ${after} seconds.`,
          { headers: { 'retry-after': String(after) } },
        );
      }
    });
    const exempt = (req: FastifyRequest) => req.caller.kind === 'key' && req.caller.key.rateLimitExempt;
    const group = (name: RateLimitGroup, max: number, timeWindow: number): RateLimitOptions => ({
      max,
      timeWindow,
      keyGenerator: (req) => `${name}:${req.caller.rateKey}`,
      allowList: exempt,
    });
    /**
     * A retry of a booking already made or being made: the same Idempotency-Key, the same caller
     * (the key's scope is the API key, or for anonymous callers the identical body) and a reply
     * stored or an attempt running (issue 37: a burst of one request at once). It is answered with
     * that attempt's answer (its refusal too, this allowance's own 429 included) and makes nothing,
     * so it costs no allowance. The first request under a key, and a retry after its attempt failed
     * or died, take a new attempt and are counted like any request: a fresh key per request never
     * gets a new booking for free (src/http/idempotency.ts admitUnderKey).
     */
    const storedRetry = async (req: FastifyRequest): Promise<boolean> => {
      const group = req.routeOptions.config.idempotencyGroup;
      if (!group) return false;
      let key: string | null;
      try {
        key = readIdempotencyKey(req.headers['idempotency-key']);
      } catch {
        return false; // a malformed key is the route's 400, counted like any request
      }
      if (!key) return false;
      const r = idempotentRequest(group, req.caller, req.body, key);
      req.idempotentRequest = r;
      const admitted = await admitUnderKey(app.sql, r);
      r.attempt = admitted.attempt;
      return !admitted.counted;
    };
    /**
     * Staff consoles are counted per staff member (their key, checked here once and remembered for
     * the route: src/plugins/auth.ts), or per API key (operators' dashboards); only a request with no
     * valid credential falls back to its IP, in the staff group's own buckets, apart from the public's.
     */
    const staffKey = async (req: FastifyRequest): Promise<string> => {
      if (req.caller.kind === 'key') return `staff:${req.caller.rateKey}`;
      const staff = await verifiedStaffOf(app.sql, req);
      return staff ? `staff:member:${staff.id}` : `staff:${req.caller.rateKey}`;
    };
    /**
     * The driver's side likewise per signed-in driver (their session, checked once for the route),
     * or per API key: drivers on one carrier's NAT share an IPv4 address, and each app polls four
     * routes every 5 s. Only a request without a valid session (the pages, job cards, signing in)
     * counts against its address, so made-up `drs_` tokens buy no fresh allowance.
     */
    const driverKey = async (req: FastifyRequest): Promise<string> => {
      if (req.caller.kind === 'key') return `driver:${req.caller.rateKey}`;
      const driver = await verifiedDriverOf(app.sql, req);
      return driver ? `driver:session:${driver.driverId}` : `driver:${req.caller.rateKey}`;
    };
    app.decorate('rateLimits', {
      // Both quote paths (and email verification, which sends mail) share one allowance: one pricing path.
      // 30 an hour (spec 4.4), or the key's own allowance (api_keys.quotes_per_hour, migration 00045).
      quote: {
        ...group('quote', config.QUOTE_RATE_LIMIT_PER_HOUR, HOUR_MS),
        max: (req) =>
          (req.caller.kind === 'key' ? req.caller.key.quotesPerHour : null) ?? config.QUOTE_RATE_LIMIT_PER_HOUR,
      },
      // The home page's own form, per address: a family, an office or a carrier's NAT pricing rides
      // by hand, apart from the API's 30 (docs/decisions.md, "Quote allowances").
      quoteForm: group('quoteForm', config.QUOTE_FORM_RATE_LIMIT_PER_HOUR, HOUR_MS),
      // Every route that creates a ride: each one dispatches and texts drivers.
      // A retry answered from its stored reply is free (above).
      booking: {
        ...group('booking', config.BOOKING_RATE_LIMIT_PER_HOUR, HOUR_MS),
        allowList: async (req) => exempt(req) || (await storedRetry(req)),
      },
      // Driver applications, apart from bookings (applying never costs an office its bookings), and
      // counted before the body is read: a refused attempt costs no megabytes. A ceiling for
      // floods; people meet the per-applicant and per-address allowances first (src/drivers/application-limits.ts).
      application: { ...group('application', config.APPLICATION_RATE_LIMIT_PER_HOUR, HOUR_MS), hook: 'onRequest' },
      // The public's: lookups, cancels, the tracking, booking and claim pages. Generous for people
      // (many behind one address), useless for guessing references.
      lookup: group('lookup', config.LOOKUP_RATE_LIMIT_PER_MINUTE, MINUTE_MS),
      // The driver app and its pages, job-card answers and trip reports: a driver app polls and
      // retries, a script should not. Per signed-in driver (above), else per address.
      driver: { ...group('driver', config.DRIVER_RATE_LIMIT_PER_MINUTE, MINUTE_MS), keyGenerator: driverKey },
      // Staff consoles (/ops, /api/ops, the operator dashboard): per staff member, never the public's.
      staff: { ...group('staff', config.STAFF_RATE_LIMIT_PER_MINUTE, MINUTE_MS), keyGenerator: staffKey },
      // Partner, operator and supplier intake (up to 100 jobs a request) and their event listings.
      partner: group('partner', config.PARTNER_RATE_LIMIT_PER_MINUTE, MINUTE_MS),
      // Sign-in and consent pages and the OAuth endpoints (src/routes/oauth.ts counts the latter by hand).
      oauth: group('oauth', config.OAUTH_RATE_LIMIT_PER_MINUTE, MINUTE_MS),
      // The MCP server per IP; each signed-in passenger also has allowances of their own (src/mcp/tools.ts).
      mcp: group('mcp', config.MCP_RATE_LIMIT_PER_MINUTE, MINUTE_MS),
    });
  },
  { name: 'rate-limits', dependencies: ['postgres', 'request-caller'] },
);
