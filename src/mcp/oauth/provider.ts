import { createHmac } from 'node:crypto';
import Provider, { errors, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import type { Config } from '../../config.js';
import type { Sql } from '../../db/sql.js';
import { accountStanding } from '../../passengers/account-store.js';
import { CONTROL_CHARACTER } from '../../schemas/common.js';
import { GRANT_CLAIM } from '../resource-server.js';
import { MCP_SCOPES, mcpResourceUrl, oauthIssuer } from '../scopes.js';
import type { SigningKeys } from './keys.js';
import { checkRedirectUri } from './redirect-uris.js';
import { postgresAdapter } from './store.js';

// The OAuth 2.1 authorization server in front of /mcp: oidc-provider (a certified, maintained
// implementation), configured for what MCP clients need and nothing more:
// - authorization code with PKCE (S256 only: the library has dropped `plain`), required for every client;
// - clients identified by a Client ID Metadata Document (an https URL as client_id), or registered
//   dynamically (RFC 7591) for older clients; redirect URIs https or loopback http, matched exactly;
// - one resource, the /mcp URL (RFC 8707): its access tokens are JWTs (ES256) whose audience is
//   that URL, short-lived, and names its grant so /mcp can check the grant is still in force on every
//   request; refresh tokens rotate on every use, and reusing a spent one revokes the grant;
// - `iss` in every authorization response (RFC 9207), metadata at the RFC 8414 well-known path;
// - sign-in and consent are this service's own pages (src/routes/oauth.ts), everything else the library's.

/** OAuth endpoints, all under /oauth/ so the HTTP layer can hand them to the provider as a group. */
export const OAUTH_ROUTES = {
  authorization: '/oauth/authorize',
  token: '/oauth/token',
  jwks: '/oauth/jwks',
  registration: '/oauth/register',
  revocation: '/oauth/revoke',
  pushed_authorization_request: '/oauth/par',
  end_session: '/oauth/logout',
  userinfo: '/oauth/userinfo',
  introspection: '/oauth/introspect',
  device_authorization: '/oauth/device/auth',
  code_verification: '/oauth/device',
  backchannel_authentication: '/oauth/backchannel',
  challenge: '/oauth/challenge',
} as const;

/** Where the library sends the browser for sign-in and consent. */
export const interactionPath = (uid: string) => `/oauth/interaction/${uid}`;

/** A custom client property: validating it is where every client's redirect URIs are checked. */
const REDIRECT_POLICY_PROPERTY = 'redirect_uri_policy';

export interface AuthorizationServerOptions {
  config: Config;
  sql: Sql;
  keys: SigningKeys;
  /**
   * How Client ID Metadata Documents are fetched. The library's default refuses private and
   * loopback addresses (no SSRF); tests replace it to serve a client's document from a local server.
   */
  fetch?: Configuration['fetch'];
  /** Renders the library's own error pages (a bad client, redirect URI or request). */
  renderError: NonNullable<Configuration['renderError']>;
}

/** Anywhere in a metadata value: a name, a URI, a list of them. */
function hasControlCharacter(value: unknown): boolean {
  if (typeof value === 'string') return CONTROL_CHARACTER.test(value);
  if (Array.isArray(value)) return value.some(hasControlCharacter);
  if (value && typeof value === 'object') return Object.values(value).some(hasControlCharacter);
  return false;
}

const deriveKey = (secret: string, purpose: string) =>
  createHmac('sha256', secret).update(`oauth:${purpose}`).digest('base64url');

export function createAuthorizationServer(o: AuthorizationServerOptions): Provider {
  const { config } = o;
  const resource = mcpResourceUrl(config);
  const configuration: Configuration = {
    adapter: postgresAdapter(o.sql),
    jwks: { keys: o.keys.privateJwks },
    cookies: {
      keys: [deriveKey(config.OAUTH_SECRET, 'cookies')],
      long: { signed: true, httpOnly: true, sameSite: 'lax' },
      short: { signed: true, httpOnly: true, sameSite: 'lax' },
    },
    async findAccount(_ctx, sub) {
      // A blocked passenger's refresh tokens stop working too (the library answers invalid_grant).
      const standing = await accountStanding(o.sql, sub);
      if (!standing || standing.blocked) return undefined;
      return { accountId: standing.account.id, claims: () => ({ sub: standing.account.id }) };
    },
    // Resource scopes (taxi:*) come from getResourceServerInfo; these are the library's own.
    scopes: ['openid', 'offline_access'],
    claims: { openid: ['sub'] },
    routes: OAUTH_ROUTES,
    responseTypes: ['code'],
    pkce: { required: () => true },
    interactions: { url: (_ctx, interaction) => interactionPath(interaction.uid) },
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true },
      revocation: { enabled: true },
      userinfo: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      clientIdMetadataDocument: { enabled: true, ack: 'draft-02' },
      resourceIndicators: {
        enabled: true,
        // Clients must send `resource` (MCP requires it); one that forgets gets the only resource there is.
        defaultResource: () => resource,
        useGrantedResource: () => true,
        getResourceServerInfo(_ctx, indicator) {
          if (indicator !== resource)
            throw new errors.InvalidTarget(`unknown resource; this server issues tokens only for ${resource}`);
          return {
            scope: MCP_SCOPES.join(' '),
            audience: resource,
            accessTokenTTL: config.MCP_ACCESS_TOKEN_TTL_SECONDS,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: 'ES256' } },
          };
        },
      },
    },
    formats: {
      customizers: {
        jwt(_ctx, token, jwt) {
          if ('grantId' in token && token.grantId) jwt.payload[GRANT_CLAIM] = token.grantId;
        },
      },
    },
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      // The only signing key is ES256 (src/mcp/oauth/keys.ts).
      id_token_signed_response_alg: 'ES256',
    },
    enabledJWA: { idTokenSigningAlgValues: ['ES256'] },
    extraClientMetadata: {
      properties: [REDIRECT_POLICY_PROPERTY],
      // Called for every client however it arrives (registered, or from a metadata document).
      validator(_ctx, key, _value, metadata) {
        if (key !== REDIRECT_POLICY_PROPERTY) return;
        const hidden = Object.entries(metadata).find(([, v]) => hasControlCharacter(v));
        if (hidden) throw new errors.InvalidClientMetadata(`${hidden[0]} must not contain control characters`);
        for (const uri of metadata.redirect_uris ?? []) {
          const check = checkRedirectUri(uri);
          if (!check.ok) throw new errors.InvalidRedirectUri(`redirect_uris: ${uri} ${check.reason}`);
        }
      },
    },
    // A public client (no secret) that may refresh gets a refresh token without having to ask for
    // offline_access, which MCP clients do not know to ask for.
    issueRefreshToken: (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: true,
    ttl: {
      AccessToken: config.MCP_ACCESS_TOKEN_TTL_SECONDS,
      AuthorizationCode: 60,
      Interaction: 60 * 60,
      Session: 14 * 24 * 60 * 60,
      Grant: config.MCP_REFRESH_TOKEN_TTL_SECONDS,
      RefreshToken: config.MCP_REFRESH_TOKEN_TTL_SECONDS,
    },
    // Browser-based clients may call the token endpoint from their own redirect URI's origin.
    clientBasedCORS(_ctx: KoaContextWithOIDC, origin: string, client) {
      return origin !== 'null' && (client.redirectUris ?? []).some((uri) => URL.parse(uri)?.origin === origin);
    },
    renderError: o.renderError,
    ...(o.fetch ? { fetch: o.fetch } : {}),
  };
  const provider = new Provider(oauthIssuer(config), configuration);
  // Behind the service's own proxy the original scheme and host come from X-Forwarded-*.
  provider.proxy = config.TRUST_PROXY;
  return provider;
}
