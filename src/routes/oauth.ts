import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errors, type InteractionResults } from 'oidc-provider';
import { z } from 'zod';
import { hitCounter } from '../http/pg-rate-limit-store.js';
import { ProblemError } from '../http/problem.js';
import { refusalProblem } from '../http/refusal-problem.js';
import { OAUTH_ROUTES } from '../mcp/oauth/provider.js';
import { MCP_SCOPES, SCOPE_DESCRIPTIONS, mcpResourceUrl, type McpScope } from '../mcp/scopes.js';
import { findAccount } from '../passengers/account-store.js';
import { readSignInIdentifier, sendPassengerSignInCode, verifyPassengerSignInCode } from '../passengers/sign-in.js';
import { codePage, consentPage, interactionGonePage, signInPage, type ClientFacts } from '../pages/oauth-pages.js';
import { sendPage } from '../pages/send-page.js';

// The authorization server's HTTP side. Its protocol endpoints (/oauth/*, the metadata documents)
// are oidc-provider's own, handed the raw request before Fastify reads the body; sign-in and
// consent (/oauth/interaction/:uid) are this service's pages: a passenger proves their phone or
// email with a one-time code, then allows or denies what the assistant asked for.

type Interaction = Awaited<ReturnType<FastifyInstance['oauth']['provider']['interactionDetails']>>;

const UidParams = z.object({ uid: z.string().regex(/^[A-Za-z0-9_-]{10,64}$/, 'not an interaction id') });
const IdentifierForm = z.object({ identifier: z.string().max(254).default('') });
const CodeForm = z.object({ identifier: z.string().max(254).default(''), code: z.string().max(32).default('') });

export async function oauthRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const s = app.services;
  const { provider } = app.oauth;
  const callback = provider.callback();
  const resource = mcpResourceUrl(s.config);

  // --- The protocol endpoints: oidc-provider reads and answers the request itself. ---
  const handOver = (rewriteTo?: string) => async (request: FastifyRequest, reply: FastifyReply) => {
    // Counted like the @fastify/rate-limit group 'oauth' (same key), which cannot run this early.
    const { current, ttl } = await hitCounter(s.sql, `oauth:${request.caller.rateKey}`, 60_000);
    if (current > s.config.OAUTH_RATE_LIMIT_PER_MINUTE) {
      throw new ProblemError(
        429,
        'rate_limited',
        `Rate limit of ${s.config.OAUTH_RATE_LIMIT_PER_MINUTE} requests exceeded; retry in ${Math.ceil(ttl / 1000)} s.`,
        {
          headers: { 'retry-after': String(Math.ceil(ttl / 1000)) },
        },
      );
    }
    reply.hijack();
    if (rewriteTo) {
      // RFC 8414's path and OpenID Connect's carry the same document for an issuer without a path.
      const query = request.raw.url?.includes('?') ? request.raw.url.slice(request.raw.url.indexOf('?')) : '';
      request.raw.url = rewriteTo + query;
    }
    await callback(request.raw, reply.raw);
  };
  const methods = ['GET', 'POST', 'OPTIONS', 'DELETE', 'PUT'] as const;
  const noop = async () => undefined;
  for (const url of ['/oauth/*', '/.well-known/openid-configuration']) {
    app.route({ method: [...methods], url, schema: { hide: true }, onRequest: handOver(), handler: noop });
  }
  app.route({
    method: ['GET', 'OPTIONS'],
    url: '/.well-known/oauth-authorization-server',
    schema: { hide: true },
    onRequest: handOver('/.well-known/openid-configuration'),
    handler: noop,
  });

  // --- Sign-in and consent pages. ---
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 4096 },
    (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    },
  );
  const limited = { rateLimit: app.rateLimits.oauth };

  /** The interaction this browser is in, if it is the one the URL names. */
  async function interactionOf(request: FastifyRequest, reply: FastifyReply, uid: string): Promise<Interaction | null> {
    try {
      const details = await provider.interactionDetails(request.raw, reply.raw);
      return details.uid === uid ? details : null;
    } catch (err) {
      if (err instanceof errors.SessionNotFound || err instanceof errors.InvalidRequest) return null;
      throw err;
    }
  }

  async function clientFacts(details: Interaction): Promise<ClientFacts> {
    const clientId = String(details.params.client_id);
    const redirectUri = typeof details.params.redirect_uri === 'string' ? details.params.redirect_uri : '';
    const client = await provider.Client.find(clientId);
    const redirect = URL.parse(redirectUri);
    const fromUrl = URL.parse(clientId);
    return {
      name: client?.clientName ?? null,
      // A metadata-document client is whoever serves that URL; any other is known by where it redirects.
      host: fromUrl?.protocol === 'https:' ? fromUrl.host : (redirect?.host ?? clientId),
      redirectOrigin: redirect?.origin ?? "'self'",
    };
  }

  async function finish(request: FastifyRequest, reply: FastifyReply, result: InteractionResults, merge: boolean) {
    reply.hijack();
    await provider.interactionFinished(request.raw, reply.raw, result, { mergeWithLastSubmission: merge });
  }

  r.get('/oauth/interaction/:uid', {
    schema: { hide: true, params: UidParams },
    config: limited,
    handler: async (request, reply) => {
      const details = await interactionOf(request, reply, request.params.uid);
      if (!details) return sendPage(reply, interactionGonePage());
      const client = await clientFacts(details);
      if (details.prompt.name === 'login') return sendPage(reply, signInPage({ uid: details.uid, client }));
      const account = details.session?.accountId ? await findAccount(s.sql, details.session.accountId) : null;
      if (!account) return sendPage(reply, signInPage({ uid: details.uid, client }));
      return sendPage(
        reply,
        consentPage({
          uid: details.uid,
          client,
          signedInAs: account.phone ?? account.email ?? '',
          scopes: requestedScopes(details, resource).map((scope) => ({
            scope,
            description: SCOPE_DESCRIPTIONS[scope],
          })),
        }),
      );
    },
  });

  r.post('/oauth/interaction/:uid/code', {
    schema: { hide: true, params: UidParams, body: IdentifierForm },
    config: limited,
    handler: async (request, reply) => {
      const details = await interactionOf(request, reply, request.params.uid);
      if (!details) return sendPage(reply, interactionGonePage());
      const client = await clientFacts(details);
      const given = request.body.identifier;
      const read = readSignInIdentifier(given);
      if (!read.ok)
        return sendPage(
          reply,
          signInPage({ uid: details.uid, client, identifier: given, error: `That ${read.reason}.`, status: 400 }),
        );
      try {
        await sendPassengerSignInCode(s, read.identifier, { address: request.ip, interaction: details.uid });
      } catch (err) {
        // Refusals the passenger can act on (and "codes paused", 503) are shown on the page.
        const refused = refusalProblem(err);
        if (!refused || (refused.status >= 500 && refused.code !== 'codes_paused')) throw err;
        return sendPage(
          reply,
          signInPage({ uid: details.uid, client, identifier: given, error: refused.message, status: refused.status }),
        );
      }
      return sendPage(reply, codePage({ uid: details.uid, client, identifier: read.identifier.value }));
    },
  });

  r.post('/oauth/interaction/:uid/login', {
    schema: { hide: true, params: UidParams, body: CodeForm },
    config: limited,
    handler: async (request, reply) => {
      const details = await interactionOf(request, reply, request.params.uid);
      if (!details) return sendPage(reply, interactionGonePage());
      const read = readSignInIdentifier(request.body.identifier);
      if (!read.ok)
        return sendPage(
          reply,
          signInPage({
            uid: details.uid,
            client: await clientFacts(details),
            error: `That ${read.reason}.`,
            status: 400,
          }),
        );
      try {
        const account = await verifyPassengerSignInCode(s, read.identifier, request.body.code.trim(), {
          address: request.ip,
          interaction: details.uid,
        });
        return finish(request, reply, { login: { accountId: account.id } }, false);
      } catch (err) {
        const refused = refusalProblem(err);
        if (!refused || refused.status >= 500) throw err;
        return sendPage(
          reply,
          codePage({
            uid: details.uid,
            client: await clientFacts(details),
            identifier: read.identifier.value,
            error: refused.message,
            status: refused.status,
          }),
        );
      }
    },
  });

  r.post('/oauth/interaction/:uid/confirm', {
    schema: { hide: true, params: UidParams },
    config: limited,
    handler: async (request, reply) => {
      const details = await interactionOf(request, reply, request.params.uid);
      if (!details || details.prompt.name !== 'consent' || !details.session?.accountId)
        return sendPage(reply, interactionGonePage());
      const missing = details.prompt.details as {
        missingOIDCScope?: string[];
        missingOIDCClaims?: string[];
        missingResourceScopes?: Record<string, string[]>;
      };
      const grant =
        (details.grantId ? await provider.Grant.find(details.grantId) : undefined) ??
        new provider.Grant({ accountId: details.session.accountId, clientId: String(details.params.client_id) });
      if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
      if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
      for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {}))
        grant.addResourceScope(indicator, scopes.join(' '));
      const grantId = await grant.save();
      return finish(request, reply, { consent: { grantId } }, true);
    },
  });

  r.post('/oauth/interaction/:uid/abort', {
    schema: { hide: true, params: UidParams },
    config: limited,
    handler: async (request, reply) => {
      const details = await interactionOf(request, reply, request.params.uid);
      if (!details) return sendPage(reply, interactionGonePage());
      return finish(
        request,
        reply,
        { error: 'access_denied', error_description: 'The passenger did not allow access.' },
        false,
      );
    },
  });

  // Keep the route table honest: every protocol path the provider serves is under the /oauth/* hand-over.
  for (const path of Object.values(OAUTH_ROUTES))
    if (!path.startsWith('/oauth/')) throw new Error(`${path} is outside /oauth/`);
}

/** The /mcp scopes this consent is asked for (those the client requested and does not hold yet). */
function requestedScopes(details: Interaction, resource: string): McpScope[] {
  const missing =
    (details.prompt.details as { missingResourceScopes?: Record<string, string[]> }).missingResourceScopes?.[
      resource
    ] ?? [];
  return MCP_SCOPES.filter((scope) => missing.includes(scope));
}
