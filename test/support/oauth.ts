// What the OAuth and MCP tests need of the outside world: an MCP client's own web host (its Client
// ID Metadata Document and its redirect URI), a browser that keeps cookies and follows the sign-in
// forms, and the sign-in code the notifier "sent" (read from the outbox, as a passenger reads a text).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Sql } from '../../src/db/sql.js';
import { eventually } from './stack.js';

/** The https host a metadata-document client_id names; the test's fetch serves it from a local server. */
export const CLIENT_HOST = 'assistant.example';

export interface ClientHost {
  /** http://127.0.0.1:port: where the documents and callbacks are really served. */
  origin: string;
  /** A redirect URI on loopback (as a desktop assistant registers). */
  redirectUri: string;
  /** client_id of a metadata-document client: https://assistant.example/<name>.json */
  metadataClientId(name: string): string;
  /** Publishes (or replaces) a metadata document. */
  publish(name: string, doc: Record<string, unknown>): void;
  /** Every query string the redirect URI received, newest last. */
  callbacks: URLSearchParams[];
  /**
   * The fetch oidc-provider uses for metadata documents: https://assistant.example/... is served by
   * this host; anything else is refused, as no other host exists in a test.
   */
  fetch: typeof fetch;
  close(): Promise<void>;
}

export async function startClientHost(): Promise<ClientHost> {
  const documents = new Map<string, Record<string, unknown>>();
  const callbacks: URLSearchParams[] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname === '/callback') {
      callbacks.push(url.searchParams);
      res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Done</title><p>You can close this window.</p>');
      return;
    }
    const doc = documents.get(url.pathname);
    if (!doc) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=60' }).end(JSON.stringify(doc));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const localFetch: typeof fetch = async (input, init) => {
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
    if (url.protocol !== 'https:' || url.host !== CLIENT_HOST) throw new TypeError(`test network: no route to ${url.host}`);
    // The library's SSRF-guarding dispatcher is for the real network; this one is local.
    const { dispatcher: _dispatcher, ...rest } = (init ?? {}) as RequestInit & { dispatcher?: unknown };
    void _dispatcher;
    return fetch(`${origin}${url.pathname}${url.search}`, rest);
  };
  return {
    origin,
    redirectUri: `${origin}/callback`,
    metadataClientId: (name) => `https://${CLIENT_HOST}/${name}.json`,
    publish: (name, doc) => documents.set(`/${name}.json`, doc),
    callbacks,
    fetch: localFetch,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A browser reduced to what a sign-in needs: cookies, manual redirects, form posts. */
export class CookieBrowser {
  private readonly cookies = new Map<string, string>();

  async request(url: string, init: { method?: string; form?: Record<string, string> } = {}): Promise<Response> {
    const headers: Record<string, string> = {};
    const cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    if (cookie) headers.cookie = cookie;
    let body: string | undefined;
    if (init.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(init.form).toString();
    }
    const res = await fetch(url, { method: init.method ?? (init.form ? 'POST' : 'GET'), headers, body, redirect: 'manual' });
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
  async follow(url: string, init: { method?: string; form?: Record<string, string> } = {}, stopAt?: (location: string) => boolean): Promise<{ url: string; res: Response }> {
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

/** The newest sign-in code sent to this phone or email. */
export async function signInCodeSentTo(sql: Sql, recipient: string, after: Date): Promise<string> {
  return eventually(async () => {
    const [row] = await sql<{ body: string }[]>`
      select body from outbox where recipient = ${recipient} and body like '%sign-in code%' and created_at >= ${after}
       order by id desc limit 1`;
    return row ? /\b(\d{6})\b/.exec(row.body)?.[1] : undefined;
  }, 10_000, `a sign-in code for ${recipient}`);
}

/** What a page says, without its markup (for failure messages). */
export function pageText(pageHtml: string): string {
  const main = /<main>([\s\S]*)<\/main>/.exec(pageHtml)?.[1] ?? pageHtml;
  return main.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim().slice(0, 500);
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
  o: { authorizationUrl: string; baseUrl: string; identifier: string; sql: Sql; redirectUri: string },
): Promise<URL> {
  const isCallback = (location: string) => location.startsWith(o.redirectUri);
  const first = await browser.follow(o.authorizationUrl, {}, isCallback);
  if (isCallback(first.url)) return new URL(first.url);
  const page = await first.res.text();
  const uid = interactionUid(page);
  const since = new Date(Date.now() - 1000);
  const sent = await browser.request(`${o.baseUrl}/oauth/interaction/${uid}/code`, { form: { identifier: o.identifier } });
  if (sent.status !== 200) throw new Error(`sending the code answered ${sent.status}: ${await sent.text()}`);
  const code = await signInCodeSentTo(o.sql, o.identifier, since);
  const afterLogin = await browser.follow(`${o.baseUrl}/oauth/interaction/${uid}/login`, { form: { identifier: o.identifier, code } }, isCallback);
  if (isCallback(afterLogin.url)) return new URL(afterLogin.url);
  const consent = await afterLogin.res.text();
  const consentUid = interactionUid(consent);
  const done = await browser.follow(`${o.baseUrl}/oauth/interaction/${consentUid}/confirm`, { form: {} }, isCallback);
  if (!isCallback(done.url)) throw new Error(`no redirect back to the client: ${done.res.status} ${(await done.res.text()).slice(0, 300)}`);
  return new URL(done.url);
}

/**
 * A load balancer at `port` sending each request to the next of `targets` in turn: two API
 * processes behind one public address, so each step of a sign-in may land on either.
 */
export async function startRoundRobinProxy(port: number, targets: readonly number[]): Promise<{ served: number[]; close(): Promise<void> }> {
  const served = targets.map(() => 0);
  let next = 0;
  const server = http.createServer((req, res) => {
    const i = next++ % targets.length;
    served[i] = (served[i] ?? 0) + 1;
    const upstream = http.request(
      { host: '127.0.0.1', port: targets[i], method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { served, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
