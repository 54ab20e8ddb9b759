import { createHmac, timingSafeEqual } from 'node:crypto';

// A job card link authenticates the driver it was sent to for that one offer: the token is an
// HMAC of the offer id (which names the booking, round and driver) under the service's secret.

export function jobLinkToken(secret: string, offerId: string): string {
  return createHmac('sha256', secret).update(`offer:${offerId}`).digest('base64url');
}

export function verifyJobLinkToken(secret: string, offerId: string, token: string): boolean {
  const expected = Buffer.from(jobLinkToken(secret, offerId));
  const given = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export function jobCardUrl(baseUrl: string, secret: string, offerId: string): string {
  return `${baseUrl}/driver/jobs/${encodeURIComponent(offerId)}?t=${jobLinkToken(secret, offerId)}`;
}
