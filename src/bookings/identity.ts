import { createHash } from 'node:crypto';

// How a booking request is recognised when it comes again. The booking reference is derived from
// the request's identity, so every retry and every concurrent duplicate addresses the same
// workflow (booking:<ref>) and Temporal's id uniqueness does the rest.

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** "TX" + 8 Crockford base32 characters (40 bits): short enough to read out on the phone. */
export function bookingRefFor(identity: string): string {
  const digest = createHash('sha256').update(identity).digest();
  let bits = 0n;
  for (let i = 0; i < 5; i++) bits = (bits << 8n) | BigInt(digest[i]!);
  let out = '';
  for (let i = 0; i < 8; i++) {
    out = CROCKFORD[Number(bits & 31n)]! + out;
    bits >>= 5n;
  }
  return `TX${out}`;
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** Stable JSON: key order does not change the hash of the same body. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

const norm = (s: string) => s.trim().toLowerCase().replace(/\s+/g, ' ');

/**
 * Duplicate detection without an Idempotency-Key: the same phone booking the same trip at the same
 * requested time is the same ride. Requests "for now" share the fingerprint within the dedupe window.
 */
export function tripFingerprint(f: { phone: string; pickup: string; dropoff: string; departAt: string | null }): string {
  return sha256(['trip', f.phone, norm(f.pickup), norm(f.dropoff), f.departAt ?? 'now'].join('|'));
}

/** A quote can be redeemed once, so the passenger's phone and the quote identify the request for good. */
export function quoteFingerprint(f: { phone: string; quoteId: string }): string {
  return sha256(['quote', f.phone, f.quoteId.toLowerCase()].join('|'));
}
