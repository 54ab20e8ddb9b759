import { createHash } from 'node:crypto';
import { mailboxKey } from '../passengers/email.js';
import type { RequestOwner } from './store.js';

// Who is asking for a booking, and how a repeated request is answered (src/bookings/ownership.ts
// tells the story). Pure: the API's routes and the worker's partner job activities share it.

/** Who is asking, as far as a booking's ownership goes. */
export function requestOwner(c: {
  apiKeyId?: string | null;
  accountId?: string | null;
  partnerId?: string | null;
  /** An anonymous caller's Idempotency-Key, with the scope it was read in. */
  idempotency?: { scope: string; key: string } | null;
  email?: string | null;
}): RequestOwner {
  const principal = c.partnerId
    ? `partner:${c.partnerId}`
    : c.accountId
      ? `account:${c.accountId}`
      : c.apiKeyId
        ? `key:${c.apiKeyId}`
        : c.idempotency
          ? `idem:${createHash('sha256').update(`${c.idempotency.scope}\n${c.idempotency.key}`).digest('hex')}`
          : 'anonymous';
  return { principal, mailbox: c.email ? mailboxKey(c.email) : null };
}

/**
 * How a repeated request for an existing ride is answered: 'owner' (the same caller: the booking
 * again, with a token), 'same_email' (anonymous, the booking's email: the booking without a
 * token), or 'stranger' (409).
 */
export function repeatedBy(first: RequestOwner, now: RequestOwner): 'owner' | 'same_email' | 'stranger' {
  if (first.principal === now.principal && now.principal !== 'anonymous') return 'owner';
  if (first.mailbox && now.mailbox && first.mailbox === now.mailbox) return 'same_email';
  return 'stranger';
}
