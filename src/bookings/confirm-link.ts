import { createHmac, timingSafeEqual } from 'node:crypto';

// The link in a booking confirmation email proves the passenger can read that mailbox: it is an
// HMAC of the booking reference, so it cannot be made without the service's secret.

function token(secret: string, ref: string): string {
  return createHmac('sha256', secret).update(`confirm:${ref}`).digest('base64url');
}

export function confirmUrl(baseUrl: string, secret: string, ref: string): string {
  return `${baseUrl}/confirm/${ref}?t=${token(secret, ref)}`;
}

export function verifyConfirmToken(secret: string, ref: string, given: string): boolean {
  const expected = Buffer.from(token(secret, ref));
  const actual = Buffer.from(given);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
