// Twilio's Messages API as Twilio itself describes it, for tests and `PROVIDERS=local npm start`: Stoplight Prism, a validating mock
// of an OpenAPI document, run on an excerpt of Twilio's published document (twilio/README.md), behind
// a small front. Twilio publishes no simulator; its document is the nearest thing to its own word.
// Prism refuses whatever the document does not allow (422 with an `sl-violations` header, or 401 for
// missing or malformed Basic auth) and otherwise answers a documented example. What it cannot do is
// pick a reply by the request's body, as Twilio's test credentials do for their "magic" To numbers
// (https://www.twilio.com/docs/iam/test-credentials): the front reads To and asks Prism, with a
// `Prefer` header, for that reply. It forwards everything else unchanged, so Prism sees and
// validates every request exactly as the adapter sent it.
import { appendFileSync, realpathSync } from 'node:fs';
import http, { type IncomingHttpHeaders } from 'node:http';
import path from 'node:path';
import { freePort } from '../free-port.js';
import { providerExecutable, spawnProviderServer } from './servers.js';

const DOCUMENT = path.join(import.meta.dirname, 'twilio/twilio_api_v2010.messages.json');

/** To number (whatsapp: prefix aside) -> the documented reply the front asks Prism for. */
export const MAGIC_NUMBERS: Readonly<Record<string, { code: number; example: string }>> = {
  // Twilio's own magic numbers, and the errors its test credentials answer them with.
  '+15005550001': { code: 400, example: 'invalidTo' }, // 21211 invalid 'To' number
  '+15005550002': { code: 400, example: 'cannotRoute' }, // 21612 cannot route to this number
  '+15005550003': { code: 400, example: 'noRegionPermission' }, // 21408 region not enabled
  '+15005550004': { code: 400, example: 'unsubscribed' }, // 21610 recipient replied STOP
  '+15005550009': { code: 400, example: 'notMobile' }, // 21614 not a mobile number
  // Ours, in the same reserved test range: replies Twilio gives no magic number for.
  '+15005550429': { code: 429, example: 'tooManyRequests' }, // 20429 rate limited
  '+15005550611': { code: 400, example: 'queueFull' }, // 21611 From number's queue is full
  // Ours, a UK mobile (07400 900610) the sending policy texts, unlike Twilio's US numbers: a
  // passenger who texted STOP, for walks through the pages and a local stack.
  '+447400900610': { code: 400, example: 'unsubscribed' },
};

/** One request the front saw, and Prism's answer to it. */
export interface TwilioExchange {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The form body as Twilio would read it (empty when it was not form-encoded). */
  form: Record<string, string>;
  /** The Prefer header the front added for a magic number, else null. */
  prefer: string | null;
  status: number;
  /** Prism's `sl-violations` messages: non-empty exactly when Prism refused the request. */
  violations: string[];
}

export interface TwilioMock {
  /** The front's URL: TwilioTransport's baseUrl. */
  url: string;
  requests(): TwilioExchange[];
  stop(): Promise<void>;
}

/**
 * Starts Prism on Twilio's document and the front before it, on free loopback ports (or `port`
 * for the front). `requestLog`, if given, gets one JSON line per exchange: what a local stack's
 * texts looked like on the wire.
 */
export async function startTwilioMock(opts: { port?: number; requestLog?: string } = {}): Promise<TwilioMock> {
  const bin = await providerExecutable('prism');
  // Its CLI is a Node script: run by this Node, so the pid is Prism's own whatever PATH says.
  const prism = await spawnProviderServer({
    name: 'prism',
    command: process.execPath,
    args: (p) => [realpathSync(bin), 'mock', '-h', '127.0.0.1', '-p', String(p), DOCUMENT],
    // Any HTTP answer (a 404 for a path the document lacks) means it has read the document and listens.
    ready: async (url) => {
      await fetch(`${url}/`);
      return true;
    },
  });
  const prismPort = prism.port;

  const seen: TwilioExchange[] = [];
  const front = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const form = /^application\/x-www-form-urlencoded/.test(req.headers['content-type'] ?? '')
        ? Object.fromEntries(new URLSearchParams(body.toString('utf8')))
        : {};
      const magic = MAGIC_NUMBERS[(form.To ?? '').replace(/^whatsapp:/, '')];
      const prefer = magic ? `code=${magic.code}, example=${magic.example}` : null;
      const upstream = http.request(
        {
          host: '127.0.0.1',
          port: prismPort,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, ...(prefer ? { prefer } : {}) },
        },
        (answer) => {
          const reply: Buffer[] = [];
          answer.on('data', (c: Buffer) => reply.push(c));
          answer.on('end', () => {
            const exchange: TwilioExchange = {
              method: req.method ?? '',
              path: req.url ?? '',
              headers: req.headers,
              form,
              prefer,
              status: answer.statusCode ?? 0,
              violations: violationsOf(answer.headers['sl-violations']),
            };
            seen.push(exchange);
            if (opts.requestLog) {
              // Everything but the Basic auth header, which carries the auth token.
              const { authorization: _auth, ...headers } = exchange.headers;
              appendFileSync(
                opts.requestLog,
                `${JSON.stringify({ at: new Date().toISOString(), ...exchange, headers })}\n`,
              );
            }
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            res.end(Buffer.concat(reply));
          });
        },
      );
      // Only when Prism has gone away: a test then fails on a 502 it can read, not a hang.
      upstream.on('error', (err) => {
        res.writeHead(502, { 'content-type': 'text/plain' });
        res.end(`twilio mock front: Prism unreachable: ${err.message}`);
      });
      upstream.end(body);
    });
  });
  const frontPort = opts.port ?? (await freePort());
  await new Promise<void>((resolve) => front.listen(frontPort, '127.0.0.1', resolve));

  return {
    url: `http://127.0.0.1:${frontPort}`,
    requests: () => [...seen],
    stop: async () => {
      // fetch keeps connections alive; close them, or close() waits for them.
      front.closeAllConnections();
      await new Promise<void>((resolve) => front.close(() => resolve()));
      await prism.stop();
    },
  };
}

function violationsOf(header: string | string[] | undefined): string[] {
  if (typeof header !== 'string') return [];
  const parsed = JSON.parse(header) as { message: string }[];
  return parsed.map((v) => v.message);
}
