import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ApiKeyStore, type ApiKey } from '../auth/api-keys.js';
import { ProblemError } from '../http/problem.js';

/** Who is calling: an API key holder, or an anonymous client known only by IP. */
export type Caller = { kind: 'key'; key: ApiKey; rateKey: string } | { kind: 'anonymous'; ip: string; rateKey: string };

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller;
  }
}

/** Bearer tokens that are not API keys: driver sessions (src/drivers/sign-in.ts) and staff keys (src/auth/staff.ts). */
const OTHER_BEARER_PREFIXES = ['drs_', 'stf_'];

/** The three headers the spec accepts for a public API key, in order of precedence. */
export function presentedApiKey(request: FastifyRequest): string | null {
  const h = request.headers;
  const direct = h['x-network-taxi-ai-key'] ?? h['x-api-key'];
  if (typeof direct === 'string' && direct.length > 0) return direct.trim();
  const auth = h.authorization;
  if (typeof auth === 'string') {
    const m = /^Bearer\s+(.+)$/i.exec(auth);
    // A driver's session or a staff key is another credential, checked by the routes that take it.
    if (m?.[1] && !OTHER_BEARER_PREFIXES.some((p) => m[1]!.trim().startsWith(p))) return m[1].trim();
  }
  return null;
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
        request.caller = { kind: 'anonymous', ip: request.ip, rateKey: `ip:${request.ip}` };
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
