// The MCP server's authorization on the real stack, driven by a standards client library
// (oauth4webapi) as an MCP client would: discovery from the 401, the protected resource and
// authorization server metadata, a client identified by its metadata document, PKCE with the
// resource parameter, the code exchange, a token whose audience is the /mcp URL, refresh
// rotation; and every refusal the issue names. Two API processes serve the public address in
// turn, so every step may land on either: the authorization server's state is in Postgres.
import { randomUUID } from 'node:crypto';
import { SignJWT, decodeJwt, importJWK } from 'jose';
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../dev/free-port.js';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { createStaff } from '../../src/auth/staff.js';
import {
  CookieBrowser,
  signInAndAllow,
  startClientHost,
  startRoundRobinProxy,
  type ClientHost,
} from '../support/oauth.js';
import { startStack, type TestStack } from '../support/stack.js';

let stack: TestStack;
let replica: FastifyInstance;
let proxy: Awaited<ReturnType<typeof startRoundRobinProxy>>;
let host: ClientHost;
let base: string;
let resource: string;
const insecure = { [oauth.allowInsecureRequests]: true };

beforeAll(async () => {
  host = await startClientHost();
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  resource = `${base}/mcp`;
  stack = await startStack(
    {
      PUBLIC_BASE_URL: base,
      OAUTH_RATE_LIMIT_PER_MINUTE: '1000',
      SIGN_IN_CODES_PER_ADDRESS_PER_HOUR: '1000',
      MCP_ALLOWED_ORIGINS: 'http://localhost:6274',
    },
    { oauthFetch: host.fetch },
  );
  // A second API process on the same database and Temporal, as production runs two or more.
  replica = await buildApp({
    config: stack.config,
    sql: stack.sql,
    temporal: stack.client,
    logger: false,
    oauthFetch: host.fetch,
  });
  const [a, b] = [await freePort(), await freePort()];
  await stack.app.listen({ port: a, host: '127.0.0.1' });
  await replica.listen({ port: b, host: '127.0.0.1' });
  proxy = await startRoundRobinProxy(port, [a, b]);
});
afterAll(async () => {
  await proxy?.close();
  await replica?.close();
  await stack?.close();
  await host?.close();
});

let phones = 0;
/** A fresh passenger phone per sign-in (code limits are per phone). */
const newPhone = () => `+4474009${String(Date.now() % 10000).padStart(4, '0')}${phones++ % 10}`.slice(0, 13);

function initialize(token?: string) {
  return fetch(resource, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
    }),
  });
}

function callTool(token: string, name: string, args: Record<string, unknown>) {
  return fetch(resource, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${token}`,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name, arguments: args } }),
  });
}

/** Discovery as a client does it: 401 → resource metadata → authorization server metadata. */
async function discover(): Promise<oauth.AuthorizationServer> {
  const challenge = await initialize();
  const metadataUrl = /resource_metadata="([^"]+)"/.exec(challenge.headers.get('www-authenticate') ?? '')?.[1];
  const prm = (await (await fetch(metadataUrl!)).json()) as { authorization_servers: string[] };
  const issuer = new URL(prm.authorization_servers[0]!);
  return oauth.processDiscoveryResponse(
    issuer,
    await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }),
  );
}

function metadataClient(name: string, extra: Record<string, unknown> = {}): oauth.Client {
  const clientId = host.metadataClientId(name);
  host.publish(name, {
    client_id: clientId,
    client_name: 'Trip Planner Assistant',
    redirect_uris: [host.redirectUri],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
    ...extra,
  });
  return { client_id: clientId, token_endpoint_auth_method: 'none' };
}

async function authorizationUrl(
  as: oauth.AuthorizationServer,
  client: oauth.Client,
  o: { scope?: string; verifier: string; state: string; params?: Record<string, string> },
) {
  const url = new URL(as.authorization_endpoint!);
  url.search = new URLSearchParams({
    client_id: client.client_id,
    redirect_uri: host.redirectUri,
    response_type: 'code',
    scope: o.scope ?? 'taxi:quote taxi:book',
    state: o.state,
    code_challenge: await oauth.calculatePKCECodeChallenge(o.verifier),
    code_challenge_method: 'S256',
    resource,
    ...o.params,
  }).toString();
  return url.toString();
}

/** A whole authorization: discovery to tokens. */
async function authorize(o: { scope?: string; phone?: string; name?: string } = {}) {
  const as = await discover();
  const client = metadataClient(o.name ?? `assistant-${randomUUID().slice(0, 8)}`);
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const callback = await signInAndAllow(new CookieBrowser(), {
    authorizationUrl: await authorizationUrl(as, client, { verifier, state, ...(o.scope ? { scope: o.scope } : {}) }),
    identifier: o.phone ?? newPhone(),
    sql: stack.sql,
    redirectUri: host.redirectUri,
  });
  const params = oauth.validateAuthResponse(as, client, callback, state);
  const response = await oauth.authorizationCodeGrantRequest(
    as,
    client,
    oauth.None(),
    params,
    host.redirectUri,
    verifier,
    {
      additionalParameters: { resource },
      ...insecure,
    },
  );
  const tokens = await oauth.processAuthorizationCodeResponse(as, client, response);
  return { as, client, tokens, callback };
}

describe('discovery', () => {
  it('answers a request without a token 401 with the resource metadata and the scopes to ask for', async () => {
    const res = await initialize();
    expect(res.status).toBe(401);
    const header = res.headers.get('www-authenticate') ?? '';
    expect(header).toMatch(/^Bearer /);
    expect(header).toContain(`resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`);
    expect(header).toContain('scope="taxi:quote taxi:book"');
    const prm = await (await fetch(`${base}/.well-known/oauth-protected-resource/mcp`)).json();
    expect(prm).toMatchObject({
      resource,
      authorization_servers: [base],
      scopes_supported: ['taxi:quote', 'taxi:book'],
      bearer_methods_supported: ['header'],
    });
  });

  it('publishes RFC 8414 metadata whose issuer matches, with PKCE S256, CIMD, registration and iss', async () => {
    const as = await discover();
    expect(as.issuer).toBe(base);
    expect(as.code_challenge_methods_supported).toEqual(['S256']);
    expect(as.client_id_metadata_document_supported).toBe(true);
    expect(as.authorization_response_iss_parameter_supported).toBe(true);
    expect(as.registration_endpoint).toBe(`${base}/oauth/register`);
    expect(as.grant_types_supported).toEqual(expect.arrayContaining(['authorization_code', 'refresh_token']));
    // The OpenID Connect path carries the same issuer.
    const oidc = (await (await fetch(`${base}/.well-known/openid-configuration`)).json()) as { issuer: string };
    expect(oidc.issuer).toBe(base);
  });
});

describe('the authorization code flow', () => {
  it('signs a passenger in with a texted code and issues a token for /mcp that the MCP server takes', async () => {
    const { tokens, callback } = await authorize();
    // RFC 9207: the authorization response names its issuer (validateAuthResponse checked it).
    expect(callback.searchParams.get('iss')).toBe(base);
    const claims = decodeJwt(tokens.access_token);
    expect(claims.aud).toBe(resource);
    expect(claims.iss).toBe(base);
    expect(String(claims.scope).split(' ').sort()).toEqual(['taxi:book', 'taxi:quote']);
    // Short-lived.
    expect(claims.exp! - claims.iat!).toBeLessThanOrEqual(600);
    expect(tokens.token_type.toLowerCase()).toBe('bearer');
    const res = await initialize(tokens.access_token);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { result: { serverInfo: { name: string } } }).result.serverInfo.name).toBe(
      'direct-taxi',
    );
    // Both processes took part: sessions, interactions, codes and keys are shared.
    expect(proxy.served.every((n) => n > 3)).toBe(true);
  });

  it('rotates the refresh token on every use and refuses the spent one', async () => {
    const { as, client, tokens } = await authorize();
    const first = tokens.refresh_token!;
    expect(first).toBeTruthy();
    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, oauth.None(), first, {
        additionalParameters: { resource },
        ...insecure,
      }),
    );
    expect(refreshed.refresh_token).toBeTruthy();
    expect(refreshed.refresh_token).not.toBe(first);
    expect(decodeJwt(refreshed.access_token).aud).toBe(resource);
    expect((await initialize(refreshed.access_token)).status).toBe(200);
    // Reusing a rotated refresh token is refused (and revokes the grant).
    await expect(
      oauth.processRefreshTokenResponse(
        as,
        client,
        await oauth.refreshTokenGrantRequest(as, client, oauth.None(), first, {
          additionalParameters: { resource },
          ...insecure,
        }),
      ),
    ).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('registers an older client dynamically (RFC 7591) and takes it through the same flow', async () => {
    const as = await discover();
    const registered = await oauth.processDynamicClientRegistrationResponse(
      await oauth.dynamicClientRegistrationRequest(
        as,
        {
          redirect_uris: [host.redirectUri],
          client_name: 'Old Desktop Assistant',
          token_endpoint_auth_method: 'none',
          application_type: 'native',
          grant_types: ['authorization_code', 'refresh_token'],
        },
        insecure,
      ),
    );
    const client: oauth.Client = { client_id: registered.client_id, token_endpoint_auth_method: 'none' };
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const callback = await signInAndAllow(new CookieBrowser(), {
      authorizationUrl: await authorizationUrl(as, client, { verifier, state }),
      identifier: newPhone(),
      sql: stack.sql,
      redirectUri: host.redirectUri,
    });
    const params = oauth.validateAuthResponse(as, client, callback, state);
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, host.redirectUri, verifier, {
        additionalParameters: { resource },
        ...insecure,
      }),
    );
    expect(decodeJwt(tokens.access_token).aud).toBe(resource);
  });
});

describe('refusals', () => {
  async function errorOf(params: Record<string, string>, clientName = `refused-${randomUUID().slice(0, 8)}`) {
    const as = await discover();
    const client = metadataClient(clientName);
    const url = new URL(
      await authorizationUrl(as, client, { verifier: oauth.generateRandomCodeVerifier(), state: 'xyz' }),
    );
    for (const [k, v] of Object.entries(params)) {
      if (v === '') url.searchParams.delete(k);
      else url.searchParams.set(k, v);
    }
    const res = await new CookieBrowser().request(url.toString());
    const location = res.headers.get('location');
    if (location?.startsWith(host.redirectUri)) {
      const back = new URL(location);
      return {
        status: res.status,
        redirected: true,
        error: back.searchParams.get('error'),
        iss: back.searchParams.get('iss'),
      };
    }
    return { status: res.status, redirected: false, error: null, body: await res.text(), iss: null };
  }

  it('refuses an authorization request without PKCE', async () => {
    const r = await errorOf({ code_challenge: '', code_challenge_method: '' });
    expect(r).toMatchObject({ redirected: true, error: 'invalid_request', iss: base });
  });

  it('refuses plain PKCE', async () => {
    const r = await errorOf({ code_challenge: 'a'.repeat(43), code_challenge_method: 'plain' });
    expect(r).toMatchObject({ redirected: true, error: 'invalid_request' });
  });

  it('refuses a resource other than the /mcp URL', async () => {
    const r = await errorOf({ resource: 'https://elsewhere.example/mcp' });
    expect(r).toMatchObject({ redirected: true, error: 'invalid_target' });
  });

  it('never redirects to a URI the client did not register, and says so on a page', async () => {
    const r = await errorOf({ redirect_uri: `${host.origin}/other-callback` });
    expect(r.redirected).toBe(false);
    expect(r.status).toBe(400);
    expect(r.body).toContain('redirect_uri');
  });

  it('refuses a client whose metadata document lists a redirect URI that is neither https nor loopback', async () => {
    const as = await discover();
    const name = `bad-redirect-${randomUUID().slice(0, 8)}`;
    const client = metadataClient(name, { redirect_uris: ['http://assistant.example/callback'] });
    const url = new URL(
      await authorizationUrl(as, client, { verifier: oauth.generateRandomCodeVerifier(), state: 's' }),
    );
    url.searchParams.set('redirect_uri', 'http://assistant.example/callback');
    const res = await new CookieBrowser().request(url.toString());
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
  });

  it('refuses registrations with control characters or forbidden redirect URIs with 400, never a 500', async () => {
    for (const [metadata, error] of [
      [{ redirect_uris: ['http://127.0.0.1/cb\u0000'] }, 'invalid_redirect_uri'],
      [{ redirect_uris: [host.redirectUri], client_name: 'Nice\u0007Client' }, 'invalid_client_metadata'],
      [{ redirect_uris: ['http://assistant.example/cb'] }, 'invalid_redirect_uri'],
      [{ redirect_uris: ['cursor://anysphere/cb'], application_type: 'native' }, 'invalid_redirect_uri'],
    ] as const) {
      const res = await fetch(`${base}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(metadata),
      });
      expect(res.status, JSON.stringify(metadata)).toBe(400);
      expect(((await res.json()) as { error: string }).error).toBe(error);
    }
  });

  it('refuses an expired token, a token for another audience and one signed by someone else with 401 invalid_token', async () => {
    const { tokens } = await authorize();
    const claims = decodeJwt(tokens.access_token);
    const jwk = stack.app.oauth.keys.privateJwks[0]!;
    const key = await importJWK(jwk, 'ES256');
    type SigningKey = Parameters<SignJWT['sign']>[0];
    const sign = (over: Record<string, unknown>, k: SigningKey = key) =>
      new SignJWT({ ...claims, ...over }).setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: jwk.kid! }).sign(k);
    const now = Math.floor(Date.now() / 1000);
    const expired = await sign({ iat: now - 7200, exp: now - 3600 });
    const elsewhere = await sign({ aud: 'https://elsewhere.example/mcp' });
    const { generateKeyPair } = await import('jose');
    const forged = await sign({}, (await generateKeyPair('ES256')).privateKey);
    for (const [token, reason] of [
      [expired, 'expired'],
      [elsewhere, 'not issued for this resource'],
      [forged, 'signature'],
    ] as const) {
      const res = await initialize(token);
      expect(res.status, reason).toBe(401);
      expect(res.headers.get('www-authenticate')).toContain('error="invalid_token"');
      expect(res.headers.get('www-authenticate')).toContain(reason);
    }
    expect((await initialize(tokens.access_token)).status).toBe(200);
  });

  it('refuses an access token as soon as its grant is revoked, or its passenger blocked, not when it expires', async () => {
    // The finding: a token kept working for up to its 10 minutes after the grant was revoked.
    const { as, client, tokens } = await authorize();
    expect((await initialize(tokens.access_token)).status).toBe(200);
    await oauth.processRevocationResponse(
      await oauth.revocationRequest(as, client, oauth.None(), tokens.refresh_token!, insecure),
    );
    const revoked = await initialize(tokens.access_token);
    expect(revoked.status).toBe(401);
    expect(revoked.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect(revoked.headers.get('www-authenticate')).toContain('revoked');

    const email = `mcp-${randomUUID().slice(0, 8)}@example.com`;
    const signedIn = await authorize({ phone: email });
    expect((await initialize(signedIn.tokens.access_token)).status).toBe(200);
    const staff = (await createStaff(stack.sql, { name: `Ops ${email}`, role: 'operator' })).key;
    const block = await fetch(`${base}/api/ops/passengers`, {
      method: 'POST',
      headers: { authorization: `Bearer ${staff}`, 'content-type': 'application/json' },
      body: JSON.stringify({ email, action: 'block', reason: 'fraudulent bookings' }),
    });
    expect(block.status).toBe(200);
    const blocked = await initialize(signedIn.tokens.access_token);
    expect(blocked.status).toBe(403);
    expect(((await blocked.json()) as { code: string }).code).toBe('passenger_blocked');
    // Nor does a blocked passenger's assistant get a fresh token.
    await expect(
      oauth.processRefreshTokenResponse(
        signedIn.as,
        signedIn.client,
        await oauth.refreshTokenGrantRequest(
          signedIn.as,
          signedIn.client,
          oauth.None(),
          signedIn.tokens.refresh_token!,
          { additionalParameters: { resource }, ...insecure },
        ),
      ),
    ).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('takes tokens only in the Authorization header', async () => {
    const { tokens } = await authorize();
    const res = await fetch(`${resource}?access_token=${tokens.access_token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('www-authenticate')).toContain('error="invalid_request"');
  });

  it('answers start_booking with 403 insufficient_scope for a token without taxi:book, and still prices', async () => {
    const { tokens } = await authorize({ scope: 'taxi:quote' });
    expect(decodeJwt(tokens.access_token).scope).toBe('taxi:quote');
    const booking = await callTool(tokens.access_token, 'start_booking', {
      pickup: 'Manchester Piccadilly',
      dropoff: 'Manchester Airport',
      passenger_name: 'Ada',
    });
    expect(booking.status).toBe(403);
    const header = booking.headers.get('www-authenticate') ?? '';
    expect(header).toContain('error="insufficient_scope"');
    expect(header).toContain('scope="taxi:book"');
    expect(header).toContain('resource_metadata=');
    const fare = await callTool(tokens.access_token, 'estimate_fare', {
      pickup: 'Manchester Piccadilly',
      dropoff: 'Manchester Airport',
    });
    expect(fare.status).toBe(200);
    expect(
      ((await fare.json()) as { result: { structuredContent: { currency: string } } }).result.structuredContent
        .currency,
    ).toBe('GBP');
  });

  it('answers the browser origins it allows with CORS, the challenge readable by their scripts', async () => {
    const preflight = await fetch(resource, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:6274', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('http://localhost:6274');
    expect(preflight.headers.get('access-control-allow-headers')).toMatch(/Authorization/);
    const unauthenticated = await fetch(resource, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'http://localhost:6274' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.headers.get('access-control-expose-headers')).toMatch(/WWW-Authenticate/);
    const { tokens } = await authorize();
    const listed = await fetch(resource, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${tokens.access_token}`,
        origin: 'http://localhost:6274',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(listed.status).toBe(200);
    expect(listed.headers.get('access-control-allow-origin')).toBe('http://localhost:6274');
    expect((await fetch(resource, { method: 'OPTIONS', headers: { origin: 'https://evil.example' } })).status).toBe(
      403,
    );
  });

  it('refuses requests from a browser origin it does not know', async () => {
    const { tokens } = await authorize();
    const res = await fetch(resource, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${tokens.access_token}`,
        origin: 'https://evil.example',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(res.status).toBe(403);
  });
});
