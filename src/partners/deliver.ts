import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { Webhook } from 'standardwebhooks';
import {
  CallbackAddressRefused,
  guardedLookup,
  isPublicAddress,
  parseCallbackUrl,
  strictCallbacks,
  type DeploymentEnv,
} from './callback-url.js';

// One delivery attempt of one event to a sender's callback URL, signed as Standard Webhooks sign
// (https://www.standardwebhooks.com): webhook-id (the event's stable id), webhook-timestamp (this
// attempt, in unix seconds: receivers refuse old ones, so a retry is signed afresh) and
// webhook-signature, one `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">` per active secret.

export interface OutboundWebhook {
  url: string;
  id: string;
  body: string;
  /** Newest first; more than one while a rotated secret is still honoured. */
  secrets: readonly string[];
}

export const USER_AGENT = 'DirectTaxi-Webhooks/1';
/** A receiver has this long to answer; anything slower is a failed attempt (retried later). */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** Of a receiver's answer, only this much is read (and kept, as the error, when it is not a 2xx). */
const MAX_RESPONSE_BYTES = 2_048;

export function webhookHeaders(w: Pick<OutboundWebhook, 'id' | 'body' | 'secrets'>, at: Date): Record<string, string> {
  const signature = w.secrets.map((s) => new Webhook(s).sign(w.id, at, w.body)).join(' ');
  return {
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
    'webhook-id': w.id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signature,
  };
}

export class DeliveryFailed extends Error {
  override name = 'DeliveryFailed';
}

/**
 * POSTs the event; resolves on a 2xx answer, otherwise rejects with a DeliveryFailed saying what
 * came back (a status and the start of the body, or the network error). Redirects are not
 * followed: a receiver that moved registers its new URL.
 */
export async function postWebhook(
  w: OutboundWebhook,
  opts: { env: DeploymentEnv; timeoutMs?: number; now?: () => Date },
): Promise<{ status: number }> {
  const parsed = parseCallbackUrl(w.url, opts.env);
  if (!parsed.ok) throw new DeliveryFailed(`callback URL refused: ${parsed.reason}`);
  // A literal address is never looked up, so it is checked here; names are checked as they resolve.
  if (strictCallbacks(opts.env) && isIP(parsed.host) && !isPublicAddress(parsed.host)) {
    throw new DeliveryFailed(`callback URL refused: ${parsed.host} is not a public address`);
  }
  if (w.secrets.length === 0)
    throw new DeliveryFailed('no webhook signing secret: register the callback URL again or rotate the secret');
  const headers = webhookHeaders(w, (opts.now ?? (() => new Date()))());
  const body = Buffer.from(w.body, 'utf8');
  const client = parsed.url.protocol === 'https:' ? https : http;
  const timeoutMs = opts.timeoutMs ?? DELIVERY_TIMEOUT_MS;

  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (outcome: { status: number } | DeliveryFailed) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      if (outcome instanceof DeliveryFailed) reject(outcome);
      else resolve(outcome);
    };
    const req = client.request(
      parsed.url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(body.length) },
        lookup: guardedLookup(opts.env),
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          if (size < MAX_RESPONSE_BYTES) chunks.push(c);
          size += c.length;
          if (size >= MAX_RESPONSE_BYTES) res.destroy();
        });
        const done = () => {
          const status = res.statusCode ?? 0;
          if (status >= 200 && status < 300) return settle({ status });
          const text = Buffer.concat(chunks).toString('utf8').slice(0, MAX_RESPONSE_BYTES).replace(/\s+/g, ' ').trim();
          settle(new DeliveryFailed(`HTTP ${status}${text ? `: ${text}` : ''}`));
        };
        res.on('end', done);
        res.on('close', done);
        res.on('error', done);
      },
    );
    // The whole exchange, not just each read: a receiver that trickles its answer is as down as one that never answers.
    const deadline = setTimeout(() => req.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    req.on('error', (err) => {
      const detail =
        err instanceof CallbackAddressRefused
          ? `callback URL refused: ${err.message}`
          : `${(err as NodeJS.ErrnoException).code ?? err.name}: ${err.message}`;
      settle(new DeliveryFailed(detail));
    });
    req.end(body);
  });
}
