// Signing a passenger in on the OAuth pages without a browser: a cookie jar, manual redirects and
// the forms, with the sign-in code read from the outbox (the embedded notifier), as a passenger
// reads a text. For development and tests only (`npm run mcp:token -- --dev-sign-in`, the OAuth
// tests): with a live notifier the code goes to a real phone and this cannot read it.
import * as oauth from 'oauth4webapi';
import type { Sql } from '../src/db/sql.js';

async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A browser reduced to what a sign-in needs: cookies, manual redirects, form posts. */
export class CookieBrowser {
  private readonly cookies = new Map<string, string>();

  /** `headers` go with every request (a test's X-Forwarded-For, to sign in from another address). */
  constructor(private readonly headers: Record<string, string> = {}) {}

  async request(url: string, init: { method?: string; form?: Record<string, string> } = {}): Promise<Response> {
    const headers: Record<string, string> = { ...this.headers };
    const cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    if (cookie) headers.cookie = cookie;
    let body: string | undefined;
    if (init.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(init.form).toString();
    }
    const res = await fetch(url, {
      method: init.method ?? (init.form ? 'POST' : 'GET'),
      headers,
      body,
      redirect: 'manual',
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const i = pair.indexOf('=');
      const name = pair.slice(0, i).trim();
      const value = pair.slice(i + 1).trim();
      if (/expires=Thu, 01 Jan 1970/i.test(line) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }

  /** Follows redirects from `url` until a page answers (not a 3xx) or `stopAt` matches the next location. */
  async follow(
    url: string,
    init: { method?: string; form?: Record<string, string> } = {},
    stopAt?: (location: string) => boolean,
  ): Promise<{ url: string; res: Response }> {
    let current = url;
    let res = await this.request(current, init);
    for (let hops = 0; res.status >= 300 && res.status < 400; hops++) {
      if (hops > 10) throw new Error('too many redirects');
      const location = new URL(res.headers.get('location')!, current).toString();
      if (stopAt?.(location)) return { url: location, res };
      current = location;
      res = await this.request(current);
    }
    return { url: current, res };
  }
}

/**
 * An authorization request as an MCP client makes it (PKCE S256, the /mcp resource, both scopes),
 * for a sign-in that goes no further than the pages: the verifier is not kept.
 */
export async function authorizationRequestUrl(o: {
  endpoint: string;
  clientId: string;
  redirectUri: string;
  resource: string;
}): Promise<string> {
  const url = new URL(o.endpoint);
  url.search = new URLSearchParams({
    client_id: o.clientId,
    redirect_uri: o.redirectUri,
    response_type: 'code',
    scope: 'taxi:quote taxi:book',
    state: oauth.generateRandomState(),
    code_challenge: await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier()),
    code_challenge_method: 'S256',
    resource: o.resource,
  }).toString();
  return url.toString();
}

/** The newest sign-in code sent to this phone or email. */
export async function signInCodeSentTo(sql: Sql, recipient: string, after: Date): Promise<string> {
  return eventually(
    async () => {
      const [row] = await sql<{ body: string }[]>`
      select body from outbox where recipient = ${recipient} and body like '%sign-in code%' and created_at >= ${after}
       order by id desc limit 1`;
      return row ? /\b(\d{6})\b/.exec(row.body)?.[1] : undefined;
    },
    10_000,
    `a sign-in code for ${recipient}`,
  );
}

/** What a page says, without its markup (for failure messages). */
export function pageText(pageHtml: string): string {
  const main = /<main>([\s\S]*)<\/main>/.exec(pageHtml)?.[1] ?? pageHtml;
  return main
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 500);
}

/** The interaction id in a sign-in page's form action. */
export function interactionUid(pageHtml: string): string {
  const m = /action="\/oauth\/interaction\/([A-Za-z0-9_-]+)\//.exec(pageHtml);
  if (!m) throw new Error(`no interaction form in page: ${pageText(pageHtml)}`);
  return m[1]!;
}

/**
 * A passenger signs in on the interaction pages with a code sent to `identifier` and allows what
 * was asked; resolves with the redirect back to the client (code, state, iss).
 */
export async function signInAndAllow(
  browser: CookieBrowser,
  o: { authorizationUrl: string; identifier: string; sql: Sql; redirectUri: string },
): Promise<URL> {
  const isCallback = (location: string) => location.startsWith(o.redirectUri);
  const first = await browser.follow(o.authorizationUrl, {}, isCallback);
  if (isCallback(first.url)) return new URL(first.url);
  const page = await first.res.text();
  const uid = interactionUid(page);
  // The pages' own origin: the sign-in cookies belong to it, whatever address the caller started from.
  const origin = new URL(first.url).origin;
  const since = new Date(Date.now() - 1000);
  const sent = await browser.request(`${origin}/oauth/interaction/${uid}/code`, { form: { identifier: o.identifier } });
  if (sent.status !== 200) throw new Error(`sending the code answered ${sent.status}: ${await sent.text()}`);
  const code = await signInCodeSentTo(o.sql, o.identifier, since);
  const afterLogin = await browser.follow(
    `${origin}/oauth/interaction/${uid}/login`,
    { form: { identifier: o.identifier, code } },
    isCallback,
  );
  if (isCallback(afterLogin.url)) return new URL(afterLogin.url);
  const consent = await afterLogin.res.text();
  const consentUid = interactionUid(consent);
  const done = await browser.follow(`${origin}/oauth/interaction/${consentUid}/confirm`, { form: {} }, isCallback);
  if (!isCallback(done.url))
    throw new Error(`no redirect back to the client: ${done.res.status} ${(await done.res.text()).slice(0, 300)}`);
  return new URL(done.url);
}
