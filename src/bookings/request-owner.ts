import { createHash } from 'node:crypto';
import { mailboxKey } from '../passengers/email.js';
import type { RequestOwner } from './store.js';

// Who is asking for a booking, and how a repeated request is answered (src/bookings/ownership.ts
// tells the story). Pure: the API's routes and the worker's partner job activities share it.

/** The principal a booking has once its passenger took charge of it: no caller is it (issue 33). */
export const CLAIMED_PRINCIPAL = 'claimed';

/** Who is asking, as far as a booking's ownership goes. */
export function requestOwner(c: {
  apiKeyId?: string | null;
  accountId?: string | null;
  partnerId?: string | null;
  /** The caller's Idempotency-Key, with the scope it was read in. */
  idempotency?: { scope: string; key: string } | null;
  email?: string | null;
  /** The digest of the request's body (src/http/idempotency.ts bodyDigest), and the address it came from (addressKey). */
  bodyHash?: string | null;
  address?: string | null;
}): RequestOwner {
  const request = c.idempotency
    ? createHash('sha256').update(`${c.idempotency.scope}\n${c.idempotency.key}`).digest('hex')
    : null;
  const principal = c.partnerId
    ? `partner:${c.partnerId}`
    : c.accountId
      ? `account:${c.accountId}`
      : c.apiKeyId
        ? `key:${c.apiKeyId}`
        : request
          ? `idem:${request}`
          : 'anonymous';
  return {
    principal,
    mailbox: c.email ? mailboxKey(c.email) : null,
    request,
    bodyHash: c.bodyHash ?? null,
    address: c.address ?? null,
  };
}

/**
 * An API key is a credential many people may hold (a hotel desk's staff, an integrator's servers):
 * holding it proves nothing about which of its requests made a booking. A partner's jobs, a
 * signed-in passenger and an anonymous caller's Idempotency-Key each name one party.
 */
const sharedCredential = (principal: string) => principal.startsWith('key:');

/** What a repeat is compared against beyond its owner: when the first request was made, and what it redeemed. */
export interface RepeatContext {
  /** The request identity is a quote's (its uuid is known only to whoever quoted, and the passenger). */
  quote: boolean;
  /** Seconds since the first request claimed the ride. */
  ageSeconds: number;
  /** How long the same body from the same address is the same caller (BOOKING_DEDUPE_WINDOW_SECONDS). */
  sameAddressSeconds: number;
}

/**
 * How a repeated request for an existing ride is answered:
 * - 'owner': the request that made it (the same partner, signed-in passenger or anonymous
 *   Idempotency-Key; under an API key, the same API key and the same Idempotency-Key): the booking
 *   again, with a new manage token;
 * - 'same_caller': another request under the same API key (no Idempotency-Key, or another one): the
 *   booking, without a token, so a retry always gets its booking back (spec 1) but never a token;
 * - 'same_email': a request giving the booking's own email: the booking without a token;
 * - 'same_request': the first request's very body again (issue 37), redeeming the same quote (from
 *   anywhere, at any time), or from the same address within `sameAddressSeconds`: a client that
 *   lost its reply, with nothing else to prove it (no key, no email, no Idempotency-Key). The
 *   booking without a token, and nobody texted;
 * - 'stranger': 409.
 */
export function repeatedBy(
  first: RequestOwner,
  now: RequestOwner,
  ctx?: RepeatContext,
): 'owner' | 'same_caller' | 'same_email' | 'same_request' | 'stranger' {
  if (first.principal === now.principal && now.principal !== 'anonymous' && now.principal !== CLAIMED_PRINCIPAL) {
    if (!sharedCredential(now.principal)) return 'owner';
    return first.request && first.request === now.request ? 'owner' : 'same_caller';
  }
  if (first.mailbox && now.mailbox && first.mailbox === now.mailbox) return 'same_email';
  if (ctx && first.bodyHash && first.bodyHash === now.bodyHash) {
    if (ctx.quote) return 'same_request';
    if (first.address && first.address === now.address && ctx.ageSeconds <= ctx.sameAddressSeconds)
      return 'same_request';
  }
  return 'stranger';
}
