// What the OAuth and MCP tests need of the outside world: an MCP client's own web host (its Client
// ID Metadata Document and its redirect URI), a browser that keeps cookies and follows the sign-in
// forms, and the sign-in code the notifier "sent" (read from the outbox, as a passenger reads a text).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
export {
  authorizationRequestUrl,
  CookieBrowser,
  interactionUid,
  pageText,
  signInAndAllow,
  signInCodeSentTo,
} from '../../dev/oauth-sign-in.js';
export { startRoundRobinProxy } from '../../dev/round-robin-proxy.js';

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
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<!doctype html><title>Done</title><p>You can close this window.</p>');
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
    if (url.protocol !== 'https:' || url.host !== CLIENT_HOST)
      throw new TypeError(`test network: no route to ${url.host}`);
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
