import { createHmac, timingSafeEqual } from 'node:crypto';

// The link in a booking email (`/confirm/<ref>?t=<token>`) proves the passenger reads the mailbox it
// was sent to (issue 33). The token is a MAC, with the service's secret, of the booking reference,
// that mailbox, the booking's claim generation and an expiry, carried with the expiry:
//
//   t = base64url(expiry as 4 bytes, unix seconds, big-endian || first 16 bytes of
//       HMAC-SHA256(secret, "confirm:v2\n<ref>\n<mailbox>\n<generation>\n<expiry>"))
//
// So a link confirms only the mailbox it was sent to: once the booking carries another email (a
// claim through the passenger's phone replaced it, or took it off), or the booking was claimed at
// all (the generation moved on), or the expiry has passed, it confirms and opens nothing. The
// expiry is CONFIRM_LINK_DAYS after the link is issued, and never later than a day after pickup
// (when the booking's manage tokens stop working too). Derived from the booking row alone, so a
// retried activity writes the same link.

/** How long a confirmation link works after it is sent (no later than a day after pickup). */
export const CONFIRM_LINK_DAYS = 7;
const DAY_MS = 24 * 3600_000;
const MAC_BYTES = 16;

/** What a confirmation link is made from: the booking row as the activities and routes read it. */
export interface ConfirmTarget {
  ref: string;
  passenger_email: string | null;
  pickup_at: Date;
  created_at: Date;
  /** Bumped by each claim (migration 00036); absent reads as 0, a booking never claimed. */
  claim_generation?: number | undefined;
}

/** The mailbox a link names: the booking's email as it is stored, lower-cased ('' for none). */
const mailboxOf = (b: ConfirmTarget) => (b.passenger_email ?? '').trim().toLowerCase();

function mac(secret: string, b: ConfirmTarget, expiry: number): Buffer {
  return createHmac('sha256', secret)
    .update(['confirm:v2', b.ref, mailboxOf(b), String(b.claim_generation ?? 0), String(expiry)].join('\n'))
    .digest()
    .subarray(0, MAC_BYTES);
}

/** When a link issued at `issuedAt` stops working, in unix seconds. */
export function confirmExpiry(b: Pick<ConfirmTarget, 'pickup_at'>, issuedAt: Date): number {
  const until = Math.min(issuedAt.getTime() + CONFIRM_LINK_DAYS * DAY_MS, b.pickup_at.getTime() + DAY_MS);
  return Math.floor(Math.max(until, issuedAt.getTime() + 3600_000) / 1000);
}

/** The token for the booking's current mailbox and generation, issued at `issuedAt`. */
export function confirmToken(secret: string, b: ConfirmTarget, issuedAt: Date = b.created_at): string {
  const expiry = confirmExpiry(b, issuedAt);
  const head = Buffer.alloc(4);
  head.writeUInt32BE(expiry);
  return Buffer.concat([head, mac(secret, b, expiry)]).toString('base64url');
}

/**
 * The link for the booking's email, as the row says now. `issuedAt` (for the expiry) defaults to
 * when the booking was made, so both booking emails of one booking carry the same link.
 */
export function confirmUrl(baseUrl: string, secret: string, b: ConfirmTarget, issuedAt: Date = b.created_at): string {
  return `${baseUrl}/confirm/${b.ref}?t=${confirmToken(secret, b, issuedAt)}`;
}

/**
 * Whether `given` is a live link for this booking as it is now: made with the secret for its
 * reference, its current email and its current claim generation, and not expired. False for a
 * booking without an email.
 */
export function verifyConfirmToken(secret: string, b: ConfirmTarget, given: string, now: Date = new Date()): boolean {
  if (!mailboxOf(b) || !/^[A-Za-z0-9_-]+$/.test(given)) return false;
  const raw = Buffer.from(given, 'base64url');
  if (raw.length !== 4 + MAC_BYTES) return false;
  const expiry = raw.readUInt32BE(0);
  const ok = timingSafeEqual(raw.subarray(4), mac(secret, b, expiry));
  return ok && expiry * 1000 > now.getTime();
}
