import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

// Signed requests from partners, operators and suppliers (spec 5: "sign the raw request body with
// HMAC SHA-256; send x-partner and x-signature"; the encoding is ours to state). The encoding:
//
//   x-partner:   <partner id>
//   x-signature: t=<unix seconds>,v1=<lowercase hex HMAC-SHA256(secret, "<t>.<raw body>")>
//
// The timestamp is inside what is signed, so a captured request cannot be replayed later than the
// tolerance; within it, the caller remembers `replayKey` and refuses a repeat. While a secret is
// rotated, the sender may send one v1 per secret (comma separated) and the receiver holds both.

export const SIGNATURE_TOLERANCE_SECONDS = 5 * 60;
const MAX_HEADER_LENGTH = 1_000;

export type PartnerSignatureCheck =
  | { ok: true; timestamp: number; replayKey: string }
  | { ok: false; reason: 'malformed' | 'stale' | 'mismatch' };

export function signPartnerRequest(secret: string, timestamp: number, rawBody: string): string {
  return `t=${timestamp},v1=${hmacHex(secret, timestamp, rawBody)}`;
}

export function verifyPartnerSignature(
  secrets: readonly string[],
  header: string | undefined,
  rawBody: string,
  nowSeconds: number,
  toleranceSeconds = SIGNATURE_TOLERANCE_SECONDS,
): PartnerSignatureCheck {
  if (!header || header.length > MAX_HEADER_LENGTH) return { ok: false, reason: 'malformed' };
  let timestamp: number | null = null;
  const signatures: Buffer[] = [];
  for (const part of header.split(',')) {
    const [k, v] = part.trim().split('=', 2);
    if (k === 't' && v && /^\d{1,12}$/.test(v)) timestamp = Number(v);
    else if (k === 'v1' && v && /^[0-9a-f]{64}$/.test(v)) signatures.push(Buffer.from(v, 'hex'));
  }
  if (timestamp === null || signatures.length === 0) return { ok: false, reason: 'malformed' };
  if (Math.abs(nowSeconds - timestamp) > toleranceSeconds) return { ok: false, reason: 'stale' };
  for (const secret of secrets) {
    const expected = Buffer.from(hmacHex(secret, timestamp, rawBody), 'hex');
    // Every presented signature is compared in full and in constant time.
    if (signatures.some((s) => timingSafeEqual(s, expected))) {
      const replayKey = createHash('sha256').update(`${timestamp}.`).update(expected).digest('hex');
      return { ok: true, timestamp, replayKey };
    }
  }
  return { ok: false, reason: 'mismatch' };
}

function hmacHex(secret: string, timestamp: number, rawBody: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${rawBody}`, 'utf8').digest('hex');
}
