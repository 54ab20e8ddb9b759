import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ApiKeyStore, type ApiKey } from '../auth/api-keys.js';
import { addressKey } from '../http/address.js';
import { ProblemError } from '../http/problem.js';

/**
 * Who is calling: an API key holder, or an anonymous client known only by IP. `rateKey` is what
 * every per-caller allowance counts: the key, else the address (IPv6 by its /64, an IPv4-mapped
 * address as IPv4: src/http/address.ts), so one subscriber's many IPv6 addresses are one caller.
 */
export type Caller = { kind: 'key'; key: ApiKey; rateKey: string } | { kind: 'anonymous'; ip: string; rateKey: string };

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller;
  }
}

/** Bearer tokens that are not API keys: driver sessions (src/drivers/sign-in.ts) and staff keys (src/auth/staff.ts). */
const OTHER_BEARER_PREFIXES = ['drs_', 'stf_'];

const conflicting = () =>
  new ProblemError(
    400,
    'conflicting_credentials',
    'Send one credential: the same API key in each header that carries it, and no other token beside it.',
    {
      headers: { 'www-authenticate': 'Bearer error="invalid_request"' },
    },
  );

/**
 * The API key presented in the three headers the spec accepts (X-Network-Taxi-AI-Key, x-api-key,
 * Authorization: Bearer), or null. A request with a key header and an Authorization header that is
 * not `Bearer <that same key>` carries two credentials: whichever one was used, the other would be
 * ignored (a driver's or staff token beside a partner's key, someone else's key), so it is refused
 * (400, RFC 6750's "more than one method" is invalid_request). A driver's session or staff key on
 * its own is not an API key: the routes that take it check it.
 */
export function presentedApiKey(request: FastifyRequest): string | null {
  const h = request.headers;
  const keyHeaders = [h['x-network-taxi-ai-key'], h['x-api-key']]
    .filter((v): v is string => typeof v === 'string' && v.trim().length > 0)
    .map((v) => v.trim());
  const auth = typeof h.authorization === 'string' && h.authorization.trim() !== '' ? h.authorization : undefined;
  const bearer = auth === undefined ? undefined : /^Bearer\s+(.+)$/i.exec(auth)?.[1]?.trim();
  const [key, ...others] = keyHeaders;
  if (key !== undefined) {
    if (
      others.some((o) => !sameSecret(o, key)) ||
      (auth !== undefined && (bearer === undefined || !sameSecret(bearer, key)))
    )
      throw conflicting();
    return key;
  }
  if (bearer && !OTHER_BEARER_PREFIXES.some((p) => bearer.startsWith(p))) return bearer;
  return null;
}

/** Compared in constant time: the headers hold secrets. */
function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function isOAuthPath(url: string): boolean {
  const path = url.split('?')[0] ?? '';
  // /metrics takes its own token (METRICS_TOKEN, src/routes/metrics.ts), never an API key.
  return path === '/mcp' || path.startsWith('/mcp/') || path.startsWith('/oauth/') || path === '/metrics';
}

/**
 * Resolves the caller on every request. A key is optional on the public endpoints, but a key that
 * is presented must be valid: a typo should fail loudly (401), not silently fall back to the much
 * smaller anonymous allowance.
 */
export const callerPlugin = fp(
  async (app: FastifyInstance) => {
    const store = new ApiKeyStore(app.sql);
    // Set by the hook below on every request before any handler reads it.
    app.decorateRequest('caller', null as never);
    app.addHook('onRequest', async (request) => {
      // The MCP server and the OAuth endpoints take OAuth tokens in Authorization, never API keys:
      // their own checks (src/routes/mcp.ts, oidc-provider) judge them.
      const presented = isOAuthPath(request.url) ? null : presentedApiKey(request);
      if (presented === null) {
        request.caller = { kind: 'anonymous', ip: request.ip, rateKey: `ip:${addressKey(request.ip)}` };
        return;
      }
      const key = await store.verify(presented);
      if (!key) {
        throw new ProblemError(401, 'invalid_api_key', 'The API key is not valid. Omit it to call anonymously.', {
          headers: { 'www-authenticate': 'Bearer' },
        });
      }
      request.caller = { kind: 'key', key, rateKey: `key:${key.id}` };
    });
  },
  { name: 'request-caller', dependencies: ['postgres'] },
);
