import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hitCounter } from '../http/pg-rate-limit-store.js';
import { ProblemError } from '../http/problem.js';
import {
  TokenRefused,
  accessTokenVerifier,
  type VerifiedToken,
  bearerChallenge,
  protectedResourceMetadata,
  requiredScope,
} from '../mcp/resource-server.js';
import { createTaxiMcpServer } from '../mcp/server.js';
import { grantInForce } from '../mcp/oauth/store.js';
import type { McpCaller } from '../mcp/tools.js';
import { accountStanding } from '../passengers/account-store.js';

// The MCP server at /mcp (spec 1, 5): Streamable HTTP, stateless, JSON responses, behind OAuth 2.1.
// Every request is authenticated on its own (Origin, bearer token, scope), then answered by a
// fresh MCP server bound to that caller. A token's signature and expiry are checked locally, and
// its grant and passenger in Postgres on every request: a revoked grant or a blocked passenger
// stops an access token at once, not when it expires (up to MCP_ACCESS_TOKEN_TTL_SECONDS later).

declare module 'fastify' {
  interface FastifyRequest {
    mcpCaller?: McpCaller;
  }
}

export async function mcpRoutes(app: FastifyInstance): Promise<void> {
  const s = app.services;
  const verify = accessTokenVerifier(s.config, app.oauth.keys.publicJwks);
  const ownOrigin = new URL(s.config.PUBLIC_BASE_URL).origin;
  const allowedOrigins = new Set([ownOrigin, ...s.config.MCP_ALLOWED_ORIGINS.map((o) => new URL(o).origin)]);
  const challenge = (o: Parameters<typeof bearerChallenge>[1] = {}) => ({
    'www-authenticate': bearerChallenge(s.config, o),
  });

  // RFC 9728: at the path the /mcp resource implies, and at the root for clients that only look there.
  for (const url of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']) {
    app.get(url, { schema: { hide: true } }, async (_request, reply) => {
      void reply.header('access-control-allow-origin', '*').header('cache-control', 'public, max-age=3600');
      return protectedResourceMetadata(s.config);
    });
  }

  /** CORS for the browser origins allowed to call /mcp; the challenge must be readable by their scripts. */
  const corsHeaders = (origin: string): Record<string, string> => ({
    'access-control-allow-origin': origin,
    'access-control-expose-headers': 'WWW-Authenticate, Mcp-Session-Id',
    vary: 'Origin',
  });
  function allowedOrigin(request: FastifyRequest): string | undefined {
    const origin = request.headers.origin;
    // A browser page from elsewhere must not drive a passenger's token (DNS rebinding, CSRF).
    if (origin !== undefined && !allowedOrigins.has(origin)) {
      throw new ProblemError(403, 'origin_not_allowed', 'Requests from this origin are not allowed.');
    }
    return origin;
  }

  app.options('/mcp', { schema: { hide: true } }, async (request, reply) => {
    const origin = allowedOrigin(request);
    if (origin) void reply.headers(corsHeaders(origin));
    return reply
      .code(204)
      .header('access-control-allow-methods', 'POST')
      .header(
        'access-control-allow-headers',
        'Authorization, Content-Type, Accept, Mcp-Protocol-Version, Last-Event-ID',
      )
      .header('access-control-max-age', '600')
      .send();
  });

  /** Who is calling /mcp: checked before the body is read, so a client without a token learns where to get one. */
  async function authenticate(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const origin = allowedOrigin(request);
    if (origin) void reply.headers(corsHeaders(origin));
    const query = request.query as Record<string, unknown> | undefined;
    if (query && 'access_token' in query) {
      throw new ProblemError(
        400,
        'invalid_request',
        'Send the access token in the Authorization header, never in the URL.',
        {
          headers: challenge({
            error: 'invalid_request',
            description: 'tokens are accepted only in the Authorization header',
          }),
        },
      );
    }
    const header = request.headers.authorization;
    if (!header)
      throw new ProblemError(401, 'unauthorized', 'Sign in: this server needs an OAuth access token.', {
        headers: challenge(),
      });
    const m = /^Bearer ([A-Za-z0-9._~+/-]+=*)$/i.exec(header);
    if (!m) {
      throw new ProblemError(401, 'invalid_token', 'The Authorization header must be "Bearer <access token>".', {
        headers: challenge({ error: 'invalid_token', description: 'malformed Authorization header' }),
      });
    }
    let token: VerifiedToken;
    try {
      token = await verify(m[1]!);
    } catch (err) {
      if (!(err instanceof TokenRefused)) throw err;
      throw new ProblemError(401, 'invalid_token', `Refused: ${err.message}.`, {
        headers: challenge({ error: 'invalid_token', description: err.message }),
      });
    }
    const refused = (description: string) =>
      new ProblemError(401, 'invalid_token', `Refused: ${description}.`, {
        headers: challenge({ error: 'invalid_token', description }),
      });
    const [standing, granted] = await Promise.all([
      accountStanding(s.sql, token.accountId),
      grantInForce(s.sql, token),
    ]);
    if (!standing) throw refused('the passenger account no longer exists');
    if (!granted) throw refused("the passenger's authorization for this client was revoked");
    if (standing.blocked)
      throw new ProblemError(403, 'passenger_blocked', 'This passenger account is blocked. Contact support.');
    request.mcpCaller = { accountId: token.accountId, clientId: token.clientId, scopes: token.scopes };
  }

  const noStreams = async (_request: FastifyRequest, reply: FastifyReply) =>
    // Stateless: there is no server-to-client stream to open (GET) and no session to end (DELETE).
    reply
      .code(405)
      .header('allow', 'POST')
      .type('application/problem+json')
      .send(
        new ProblemError(
          405,
          'method_not_allowed',
          'This MCP server is stateless: POST JSON-RPC requests to /mcp.',
        ).toProblem(_request.id, '/mcp'),
      );
  app.route({
    method: ['GET', 'DELETE'],
    url: '/mcp',
    schema: { hide: true },
    onRequest: authenticate,
    handler: noStreams,
  });

  app.post('/mcp', {
    schema: { hide: true },
    config: { rateLimit: app.rateLimits.mcp, screensOwnInput: true },
    onRequest: authenticate,
    handler: async (request, reply) => {
      const caller = request.mcpCaller!;
      const needed = requiredScope(request.body);
      if (!caller.scopes.has(needed)) {
        throw new ProblemError(
          403,
          'insufficient_scope',
          `This needs the ${needed} scope: ask the passenger to allow it.`,
          {
            headers: challenge({ error: 'insufficient_scope', description: `requires ${needed}`, scope: [needed] }),
          },
        );
      }
      const { current, ttl } = await hitCounter(s.sql, `mcp:account:${caller.accountId}`, 60_000);
      if (current > s.config.MCP_RATE_LIMIT_PER_MINUTE) {
        throw new ProblemError(
          429,
          'rate_limited',
          `Rate limit of ${s.config.MCP_RATE_LIMIT_PER_MINUTE} requests a minute exceeded for this passenger.`,
          {
            headers: { 'retry-after': String(Math.ceil(ttl / 1000)) },
          },
        );
      }

      const server = createTaxiMcpServer({
        services: s,
        caller,
        logError: (message, err) => request.log.error({ err, clientId: caller.clientId }, message),
        address: request.ip,
      });
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      reply.hijack();
      reply.raw.setHeader('x-request-id', request.id);
      for (const [name, value] of Object.entries(reply.getHeaders()))
        if (name.startsWith('access-control-') || name === 'vary') reply.raw.setHeader(name, String(value));
      reply.raw.on('close', () => {
        void transport.close();
        void server.close();
      });
      try {
        await server.connect(transport);
        await transport.handleRequest(request.raw, reply.raw, request.body);
      } catch (err) {
        request.log.error({ err }, 'mcp request failed');
        if (!reply.raw.headersSent) {
          reply.raw.writeHead(500, { 'content-type': 'application/json' });
          reply.raw.end(
            JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal error' }, id: null }),
          );
        }
      }
    },
  });
}
