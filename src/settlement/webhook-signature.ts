import { createHmac, timingSafeEqual } from 'node:crypto';

// Payment providers' webhooks, signed as Standard Webhooks sign them: HMAC-SHA256 over
// "<webhook-id>.<webhook-timestamp>.<raw body>" with the shared secret (whsec_<base64>), sent as
// `webhook-signature: v1,<base64>` (several, space separated, while a secret is rotated). The
// timestamp is part of what is signed and must be within five minutes, so a captured request
// cannot be replayed later; a replay within the window is caught by its webhook-id.

export const WEBHOOK_TOLERANCE_SECONDS = 5 * 60;

export type SignatureCheck =
  { ok: true } | { ok: false; reason: 'missing_headers' | 'stale_timestamp' | 'bad_signature' };

export function signWebhook(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`, 'utf8').digest('base64')}`;
}

export function verifyWebhook(
  secrets: string[],
  headers: { id?: string; timestamp?: string; signature?: string },
  body: string,
  nowSeconds: number,
): SignatureCheck {
  const { id, timestamp, signature } = headers;
  if (!id || !timestamp || !signature || !/^\d{1,12}$/.test(timestamp) || id.length > 200)
    return { ok: false, reason: 'missing_headers' };
  const ts = Number(timestamp);
  if (Math.abs(nowSeconds - ts) > WEBHOOK_TOLERANCE_SECONDS) return { ok: false, reason: 'stale_timestamp' };
  const presented = signature
    .split(' ')
    .filter((s) => s.startsWith('v1,'))
    .map((s) => Buffer.from(s.slice(3), 'base64'));
  for (const secret of secrets) {
    const expected = Buffer.from(signWebhook(secret, id, ts, body).slice(3), 'base64');
    if (presented.some((p) => p.length === expected.length && timingSafeEqual(p, expected))) return { ok: true };
  }
  return { ok: false, reason: 'bad_signature' };
}
