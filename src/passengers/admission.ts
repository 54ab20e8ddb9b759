import { hitCounter } from '../http/pg-rate-limit-store.js';
import { Refusal } from '../refusal.js';
import type { Services } from '../services.js';
import { mailboxKey } from './email.js';
import { passengerBlocked } from './standing.js';
import { emailStanding } from './verification.js';

const HOUR_MS = 3600_000;

/**
 * May this email book (or price-check) now? A blocked account may not (403); an unconfirmed email
 * gets a few a hour (spec section 8), a verified one more (429 beyond). Address variants of one
 * mailbox (case, +tags, Gmail's dots) share one allowance, or the limit would be one plus-tag away.
 */
export async function admitPassengerEmail(
  s: Pick<Services, 'sql' | 'config'>,
  email: string,
): Promise<{ verified: boolean }> {
  const standing = await emailStanding(s.sql, email);
  if (standing.blocked) throw passengerBlocked();
  const max = standing.verified
    ? s.config.VERIFIED_EMAIL_BOOKINGS_PER_HOUR
    : s.config.UNVERIFIED_EMAIL_BOOKINGS_PER_HOUR;
  const { current, ttl } = await hitCounter(s.sql, `email:${mailboxKey(email)}`, HOUR_MS);
  if (current > max) {
    const retry = Math.ceil(ttl / 1000);
    throw Refusal.tooMany(
      'email_rate_limited',
      `Too many bookings or price checks from this email; retry in ${retry} s.`,
      { retryAfterSeconds: retry },
    );
  }
  return { verified: standing.verified };
}
