// Gets an access token for the MCP server the way an MCP client does, and prints it (only the
// token on stdout, so `TOKEN=$(npm run --silent mcp:token ...)` works):
//   npm run mcp:token                                  open the printed link, sign in, allow
//   npm run mcp:token -- --dev-sign-in +447400123456   sign in without a browser (embedded notifier only)
//   npm run mcp:token -- --url https://taxi.example --scope taxi:quote
// Discovery from /mcp's 401, dynamic client registration with a loopback redirect, PKCE (S256)
// and the resource parameter, the code exchange. --url and the database (for --dev-sign-in, where
// the code is read from the outbox) default to those of the stack `npm start` runs with the same
// DATA_DIR (docs/configuration.md), unless PORT or DATABASE_URL name others.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { scriptArgs } from './script-args.js';
import * as oauth from 'oauth4webapi';
import { CookieBrowser, signInAndAllow } from '../dev/oauth-sign-in.js';
import { scriptStack, stackDatabaseOrExit } from '../dev/stack-settings.js';

const values = scriptArgs(
  {
    url: { type: 'string' },
    scope: { type: 'string', default: 'taxi:quote taxi:book' },
    'dev-sign-in': { type: 'string' },
    'timeout-seconds': { type: 'string', default: '600' },
  },
  'usage: npm run mcp:token [-- --url <the service> --scope "taxi:quote taxi:book" --dev-sign-in <phone> --timeout-seconds 600]',
);
const base = (values.url ?? scriptStack().apiUrl).replace(/\/$/, '');
const mcpUrl = `${base}/mcp`;
const say = (line: string) => process.stderr.write(`${line}\n`);
// The service's own address may be plain http in development; the library refuses that unless told.
const insecure = base.startsWith('http://') ? { [oauth.allowInsecureRequests]: true } : {};

// 1. Discovery, as a client starts: the 401 names the resource metadata, which names the issuer.
const challenge = await fetch(mcpUrl, {
  method: 'POST',
  headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
  body: JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'mcp-token', version: '1' } },
  }),
});
const metadataUrl = /resource_metadata="([^"]+)"/.exec(challenge.headers.get('www-authenticate') ?? '')?.[1];
if (challenge.status !== 401 || !metadataUrl)
  throw new Error(
    `${mcpUrl} did not answer 401 with resource_metadata (got ${challenge.status}); is the service running?`,
  );
const prm = (await (await fetch(metadataUrl)).json()) as { resource: string; authorization_servers: string[] };
// The server's canonical URI (the tokens' audience), which may differ from the address used to reach it.
const resource = prm.resource;
const issuer = new URL(prm.authorization_servers[0]!);
const as = await oauth.processDiscoveryResponse(
  issuer,
  await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }),
);

// 2. A loopback redirect to receive the code, and a client registered for it.
let received: (params: URLSearchParams) => void = () => {};
const callbackReceived = new Promise<URLSearchParams>((resolve) => (received = resolve));
const server = http.createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  if (url.pathname !== '/callback') return void res.writeHead(404).end();
  res
    .writeHead(200, { 'content-type': 'text/plain; charset=utf-8' })
    .end('Signed in. You can close this window and go back to the terminal.');
  received(url.searchParams);
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const redirectUri = `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`;
const registered = await oauth.processDynamicClientRegistrationResponse(
  await oauth.dynamicClientRegistrationRequest(
    as,
    {
      client_name: 'Direct Taxi token helper',
      redirect_uris: [redirectUri],
      application_type: 'native',
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
    },
    insecure,
  ),
);
const client: oauth.Client = { client_id: registered.client_id, token_endpoint_auth_method: 'none' };

// 3. The authorization request, PKCE and resource included.
const verifier = oauth.generateRandomCodeVerifier();
const state = oauth.generateRandomState();
const authorize = new URL(as.authorization_endpoint!);
authorize.search = new URLSearchParams({
  client_id: client.client_id,
  redirect_uri: redirectUri,
  response_type: 'code',
  scope: values.scope,
  state,
  code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
  code_challenge_method: 'S256',
  resource,
}).toString();

try {
  let callback: URL;
  const identifier = values['dev-sign-in'];
  if (identifier) {
    const { sql } = await stackDatabaseOrExit('mcp:token', 2);
    try {
      callback = await signInAndAllow(new CookieBrowser(), {
        authorizationUrl: authorize.toString(),
        identifier,
        sql,
        redirectUri,
      });
    } finally {
      await sql.end({ timeout: 5 });
    }
  } else {
    say('Open this link in a browser, sign in and allow access:');
    say(`  ${authorize.toString()}`);
    const timeout = setTimeout(
      () => {
        say('No sign-in came back in time.');
        process.exit(1);
      },
      Number(values['timeout-seconds']) * 1000,
    );
    const params = await callbackReceived;
    clearTimeout(timeout);
    callback = new URL(`${redirectUri}?${params.toString()}`);
  }

  // 4. The code for tokens (the issuer in the response is checked first, RFC 9207).
  const params = oauth.validateAuthResponse(as, client, callback, state);
  const tokens = await oauth.processAuthorizationCodeResponse(
    as,
    client,
    await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, redirectUri, verifier, {
      additionalParameters: { resource },
      ...insecure,
    }),
  );
  say(`Access token for ${resource} (scope "${tokens.scope ?? values.scope}", ${tokens.expires_in ?? '?'} s):`);
  process.stdout.write(`${tokens.access_token}\n`);
} finally {
  server.close();
}
