import { hashCode, hashSecret, newCode, sameDigest } from '../auth/secrets.js';
import { hitCounter } from '../http/pg-rate-limit-store.js';
import { ProblemError } from '../http/problem.js';
import type { Services } from '../services.js';
import {
  accountFor,
  identifierKey,
  saveSignInCode,
  spendSignInCode,
  takeSignInAttempt,
  type PassengerAccount,
  type SignInIdentifier,
} from './account-store.js';
import { checkPassengerEmail, mailboxKey } from './email.js';
import { normaliseInternationalPhone } from './phone.js';
import { emailStanding } from './verification.js';

// Password-less sign-in for passengers (to authorise an AI assistant to quote and book for them):
// a six-digit code sent by the notifier to the phone (SMS) or email they give. Whoever can read
// that code is the passenger: the account is made on first sign-in, keyed by what they used.

const CODE_TTL_MS = 10 * 60_000;
const MAX_ATTEMPTS = 5;
const HOUR_MS = 3600_000;

export type IdentifierCheck = { ok: true; identifier: SignInIdentifier } | { ok: false; reason: string };

/** "+44 7400 123456" or "ada@example.com": which one, normalised, or why it cannot be used. */
export function readSignInIdentifier(input: string): IdentifierCheck {
  const text = input.trim();
  if (text.includes('@')) {
    const e = checkPassengerEmail(text);
    return e.ok ? { ok: true, identifier: { kind: 'email', value: e.email } } : { ok: false, reason: e.reason };
  }
  const p = normaliseInternationalPhone(text);
  return p.ok ? { ok: true, identifier: { kind: 'phone', value: p.e164 } } : { ok: false, reason: p.reason };
}

/**
 * Sends a code, at most SIGN_IN_CODES_PER_HOUR an hour to one phone or mailbox (429 beyond), so the
 * sign-in page cannot be used to flood someone. A blocked email is refused (403).
 */
export async function sendPassengerSignInCode(s: Pick<Services, 'sql' | 'config' | 'notifier'>, identifier: SignInIdentifier): Promise<void> {
  if (identifier.kind === 'email' && (await emailStanding(s.sql, identifier.value)).blocked) {
    throw new ProblemError(403, 'passenger_blocked', 'This passenger account is blocked. Contact support.');
  }
  const counted = identifier.kind === 'email' ? `email:${mailboxKey(identifier.value)}` : identifierKey(identifier);
  const { current, ttl } = await hitCounter(s.sql, `sign-in-code:${counted}`, HOUR_MS);
  if (current > s.config.SIGN_IN_CODES_PER_HOUR) {
    const retry = Math.ceil(ttl / 1000);
    throw new ProblemError(429, 'too_many_codes', `Too many codes sent to this ${identifier.kind}; try again in ${Math.ceil(retry / 60)} minutes.`, {
      headers: { 'retry-after': String(retry) },
    });
  }
  const key = identifierKey(identifier);
  const code = newCode();
  await saveSignInCode(s.sql, key, hashCode(s.config.OAUTH_SECRET, key, code), new Date(Date.now() + CODE_TTL_MS));
  const text = `Your Direct Taxi sign-in code is ${code}. It expires in 10 minutes. Never share it: nobody from Direct Taxi will ask for it.`;
  await s.notifier.send({
    channel: identifier.kind === 'phone' ? 'sms' : 'email',
    to: identifier.value,
    ...(identifier.kind === 'email' ? { subject: 'Your Direct Taxi sign-in code' } : {}),
    body: text,
    // One message per code: a new code is a new message.
    idempotencyKey: `passenger-sign-in:${hashSecret(key).slice(0, 16)}:${hashSecret(code).slice(0, 16)}:${Date.now()}`,
  });
}

/** The signed-in account, or 401 for a wrong, expired, spent or over-tried code (the same answer for each). */
export async function verifyPassengerSignInCode(
  s: Pick<Services, 'sql' | 'config'>,
  identifier: SignInIdentifier,
  code: string,
): Promise<PassengerAccount> {
  const key = identifierKey(identifier);
  const stored = await takeSignInAttempt(s.sql, key, MAX_ATTEMPTS);
  if (!stored || !/^\d{6}$/.test(code) || !sameDigest(stored, hashCode(s.config.OAUTH_SECRET, key, code))) {
    throw new ProblemError(401, 'invalid_code', 'That code is not right, or it has expired. Ask for a new one.');
  }
  await spendSignInCode(s.sql, key);
  return accountFor(s.sql, identifier);
}
