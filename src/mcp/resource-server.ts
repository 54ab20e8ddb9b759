import { createLocalJWKSet, errors as jose, jwtVerify, type JWK } from 'jose';
import {
  MCP_SCOPES,
  grantedScopes,
  mcpResourceUrl,
  oauthIssuer,
  protectedResourceMetadataUrl,
  type McpScope,
} from './scopes.js';
import type { McpCaller } from './tools.js';

// /mcp as an OAuth 2.1 resource server (MCP authorization, RFC 6750, RFC 9728): which tokens it
// takes, how it says no, and the metadata that tells a client where to get a token. Tokens are
// accepted only from this service's own authorization server, only for this resource (the
// audience is the /mcp URL) and only in the Authorization header; they are never passed on. A
// token names its grant (`grant_id`, put there by src/mcp/oauth/provider.ts), which the route
// looks up on every request: a revoked grant stops its tokens at once, not when they expire.

export class TokenRefused extends Error {
  override name = 'TokenRefused';
}

/** A verified access token: who it acts for, and the grant (the passenger's consent) it came from. */
export interface VerifiedToken extends McpCaller {
  grantId: string;
}

/** The claim naming the token's grant. */
export const GRANT_CLAIM = 'grant_id';

/** Verifies access tokens locally against the authorization server's public keys (no network call). */
export function accessTokenVerifier(
  config: { PUBLIC_BASE_URL: string },
  publicJwks: JWK[],
): (token: string) => Promise<VerifiedToken> {
  const keys = createLocalJWKSet({ keys: publicJwks });
  const issuer = oauthIssuer(config);
  const audience = mcpResourceUrl(config);
  return async (token) => {
    try {
      const { payload } = await jwtVerify(token, keys, {
        issuer,
        audience,
        algorithms: ['ES256'],
        typ: 'at+jwt',
        requiredClaims: ['exp', 'sub', 'client_id', GRANT_CLAIM],
        clockTolerance: 5,
      });
      return {
        accountId: String(payload.sub),
        clientId: String(payload.client_id),
        scopes: grantedScopes(payload.scope),
        grantId: String(payload[GRANT_CLAIM]),
      };
    } catch (err) {
      throw new TokenRefused(refusalReason(err));
    }
  };
}

function refusalReason(err: unknown): string {
  if (err instanceof jose.JWTExpired) return 'the access token has expired';
  if (err instanceof jose.JWTClaimValidationFailed) {
    if (err.claim === 'aud') return `the access token was not issued for this resource`;
    if (err.claim === 'iss') return 'the access token was not issued by this service';
    // Tokens issued before grants were checked on every request: a refresh gets one that does.
    if (err.claim === GRANT_CLAIM) return 'the access token names no grant; refresh it';
    return `the access token's ${err.claim} claim is not valid`;
  }
  if (err instanceof jose.JWSSignatureVerificationFailed || err instanceof jose.JWKSNoMatchingKey)
    return 'the access token signature is not valid';
  return 'the access token is not valid';
}

/** The /mcp scope each JSON-RPC message needs: booking needs taxi:book, everything else taxi:quote. */
export function requiredScope(message: unknown): McpScope {
  const messages = Array.isArray(message) ? message : [message];
  const books = messages.some((m) => {
    const msg = m as { method?: unknown; params?: { name?: unknown } } | null;
    return msg?.method === 'tools/call' && msg.params?.name === 'start_booking';
  });
  return books ? 'taxi:book' : 'taxi:quote';
}

const quoted = (v: string) => `"${v.replace(/["\\]/g, '')}"`;

/**
 * The WWW-Authenticate challenge: where the metadata is and which scopes to ask for, plus the
 * error (RFC 6750 section 3.1) when a token was sent and refused.
 */
export function bearerChallenge(
  config: { PUBLIC_BASE_URL: string },
  o: {
    error?: 'invalid_request' | 'invalid_token' | 'insufficient_scope';
    description?: string;
    scope?: readonly string[];
  } = {},
): string {
  const params = [
    ...(o.error ? [`error=${quoted(o.error)}`] : []),
    ...(o.description ? [`error_description=${quoted(o.description)}`] : []),
    `resource_metadata=${quoted(protectedResourceMetadataUrl(config))}`,
    `scope=${quoted((o.scope ?? MCP_SCOPES).join(' '))}`,
  ];
  return `Bearer ${params.join(', ')}`;
}

/** RFC 9728 Protected Resource Metadata for /mcp. */
export function protectedResourceMetadata(config: { PUBLIC_BASE_URL: string }) {
  return {
    resource: mcpResourceUrl(config),
    authorization_servers: [oauthIssuer(config)],
    scopes_supported: [...MCP_SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: 'Direct Taxi',
    resource_documentation: `${config.PUBLIC_BASE_URL}/api/public/docs`,
  };
}
