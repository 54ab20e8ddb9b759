import { signPartnerBody, signPartnerRequest } from '../partners/signature.js';
import type { PartnerJob } from '../schemas/partner-job.js';

// What we send an exchange fleet, over its own public API (the same API as ours: docs/exchange.md):
// a job (new, amend, cancel) to POST /api/public/v1/jobs, signed with spec 5's body-only form
// (`t=<unix>,v1=<hex HMAC-SHA256(secret, "<t>." + body)>`, taken on the job intake POSTs), and our
// hook URL to PUT /api/public/v1/partner/webhook, signed v2 (the sender routes take only v2).

export const EXCHANGE_TIMEOUT_MS = 10_000;
/**
 * Sent with every job we hand to a fleet: the job is an exchange's, and the fleet must never hand it
 * on (one hop). Its intake records it on the booking it makes, whatever its registration of us says
 * (docs/exchange.md, "One hop").
 */
export const EXCHANGE_HOP_HEADER = 'x-exchange-hop';
const USER_AGENT = 'DirectTaxi-Exchange/1';

export interface FleetEndpoint {
  baseUrl: string;
  ourPartnerId: string;
  signingSecret: string;
}

/** A network error, a timeout, a 5xx, a 429 or a 401: worth trying again later. */
export class FleetUnavailable extends Error {
  override name = 'FleetUnavailable';
}

export type JobAnswer =
  | { outcome: 'accepted'; code: string; remoteRef: string | null; remoteStatus: string | null }
  | { outcome: 'rejected'; code: string; message: string };

async function send(
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string },
): Promise<{ status: number; text: string }> {
  let res: Response;
  try {
    res = await fetch(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(EXCHANGE_TIMEOUT_MS) });
  } catch (err) {
    throw new FleetUnavailable(`${init.method} ${url}: ${err instanceof Error ? err.message : String(err)}`);
  }
  const text = (await res.text()).slice(0, 4_000);
  return { status: res.status, text };
}

/** One job to the fleet's intake; its answer for that job. Throws FleetUnavailable when worth retrying. */
export async function postJob(
  f: FleetEndpoint,
  job: PartnerJob,
  now: () => Date = () => new Date(),
): Promise<JobAnswer> {
  const body = JSON.stringify(job);
  const t = Math.floor(now().getTime() / 1000);
  const { status, text } = await send(`${f.baseUrl}/api/public/v1/jobs`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
      'x-partner': f.ourPartnerId,
      'x-signature': signPartnerBody(f.signingSecret, t, body),
      [EXCHANGE_HOP_HEADER]: '1',
    },
    body,
  });
  if (status === 200 || status === 207) {
    const reply = JSON.parse(text) as {
      results?: {
        outcome: string;
        code: string;
        message: string;
        bookingReference: string | null;
        bookingStatus: string | null;
      }[];
    };
    const r = reply.results?.[0];
    if (!r) throw new FleetUnavailable(`POST jobs answered ${status} without a result`);
    // Not taken in in time (nothing applied, a repeat is safe): sent again, like an unreachable fleet.
    if (r.outcome === 'rejected' && r.code === 'try_again')
      throw new FleetUnavailable(`POST jobs: try_again: ${r.message}`);
    return r.outcome === 'accepted'
      ? { outcome: 'accepted', code: r.code, remoteRef: r.bookingReference, remoteStatus: r.bookingStatus }
      : { outcome: 'rejected', code: r.code, message: r.message };
  }
  // A refusal of the whole request that sending it again will not change (bad body, forbidden).
  if (status === 400 || status === 403 || status === 413 || status === 415)
    return { outcome: 'rejected', code: `http_${status}`, message: text.slice(0, 500) };
  throw new FleetUnavailable(`POST jobs answered ${status}: ${text.slice(0, 300)}`);
}

/** Registers our hook URL as our callback at the fleet; its whsec_ secret when it issued one now. */
export async function registerHookAt(
  f: FleetEndpoint,
  hookUrl: string,
  now: () => Date = () => new Date(),
): Promise<{ url: string; signingSecret: string | null }> {
  const target = '/api/public/v1/partner/webhook';
  const body = JSON.stringify({ url: hookUrl });
  const t = Math.floor(now().getTime() / 1000);
  const { status, text } = await send(`${f.baseUrl}${target}`, {
    method: 'PUT',
    headers: {
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
      'x-partner': f.ourPartnerId,
      'x-signature': signPartnerRequest(f.signingSecret, t, { method: 'PUT', target, body }),
    },
    body,
  });
  if (status !== 200) throw new Error(`the fleet refused our hook URL: ${status} ${text.slice(0, 300)}`);
  const reply = JSON.parse(text) as { url: string; signingSecret?: string };
  return { url: reply.url, signingSecret: reply.signingSecret ?? null };
}

/** Asks the fleet for a new whsec_ secret (ours was lost, or a registration without one). */
export async function rotateHookSecretAt(f: FleetEndpoint, now: () => Date = () => new Date()): Promise<string> {
  const target = '/api/public/v1/partner/webhook/secret';
  const t = Math.floor(now().getTime() / 1000);
  const { status, text } = await send(`${f.baseUrl}${target}`, {
    method: 'POST',
    headers: {
      'user-agent': USER_AGENT,
      'x-partner': f.ourPartnerId,
      'x-signature': signPartnerRequest(f.signingSecret, t, { method: 'POST', target, body: '' }),
    },
  });
  if (status !== 200)
    throw new Error(`the fleet refused to rotate our webhook secret: ${status} ${text.slice(0, 300)}`);
  const secret = (JSON.parse(text) as { signingSecret?: string }).signingSecret;
  if (!secret) throw new Error('the fleet rotated our webhook secret but did not return it');
  return secret;
}
