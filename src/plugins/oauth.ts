import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type Provider from 'oidc-provider';
import type { Configuration } from 'oidc-provider';
import type { Config } from '../config.js';
import { loadSigningKeys, type SigningKeys } from '../mcp/oauth/keys.js';
import { createAuthorizationServer } from '../mcp/oauth/provider.js';
import { purgeExpiredOAuthRecords } from '../mcp/oauth/store.js';
import { oauthErrorPage } from '../pages/oauth-pages.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The authorization server in front of /mcp, and the keys its tokens are signed with. */
    oauth: { provider: Provider; keys: SigningKeys };
  }
}

/**
 * One authorization server per API process, on the shared signing keys in Postgres (made by the
 * first process to start), so tokens from any replica verify on every other.
 */
export const oauthPlugin = fp(
  async (app: FastifyInstance, opts: { config: Config; fetch?: Configuration['fetch'] }) => {
    const keys = await loadSigningKeys(app.sql, opts.config.OAUTH_SECRET);
    const provider = createAuthorizationServer({
      config: opts.config,
      sql: app.sql,
      keys,
      ...(opts.fetch ? { fetch: opts.fetch } : {}),
      renderError: (ctx, out) => {
        const page = oauthErrorPage(
          String(out.error),
          typeof out.error_description === 'string' ? out.error_description : undefined,
        );
        ctx.status = page.status;
        ctx.type = 'html';
        ctx.set('content-security-policy', page.csp);
        ctx.set('cache-control', 'no-store');
        ctx.body = page.html;
      },
    });
    app.decorate('oauth', { provider, keys });
    // Expired sessions, codes and tokens are never read again; every process sweeps now and then
    // (a delete of nothing costs nothing when another process got there first).
    const sweep = () =>
      void purgeExpiredOAuthRecords(app.sql).catch((err: unknown) => app.log.warn({ err }, 'oauth purge failed'));
    const timer = setInterval(sweep, 60 * 60_000);
    timer.unref();
    app.addHook('onClose', async () => clearInterval(timer));
  },
  { name: 'oauth', dependencies: ['postgres'] },
);
