import {
  admitCode,
  admitGuess,
  lockSubject,
  recordRightGuess,
  refuseWrongCode,
  servedMobile,
} from '../auth/code-guard.js';
import { hashCode, hashSecret, newCode, sameDigest } from '../auth/secrets.js';
import { renderPassengerSignInCode } from '../notify/templates.js';
import { Refusal } from '../refusal.js';
import type { Services } from '../services.js';
import {
  accountFor,
  hasSignedInBefore,
  identifierKey,
  saveSignInCode,
  spendSignInCode,
  takeSignInAttempt,
  type PassengerAccount,
  type SignInIdentifier,
} from './account-store.js';
import { checkPassengerEmail, mailboxKey } from './email.js';
import { normalisePhone } from './phone.js';
import { refuseBlockedPassenger } from './standing.js';

// Password-less sign-in for passengers (to authorise an AI assistant to quote and book for them):
// a six-digit code sent by the notifier to the phone (SMS) or email they give. Whoever can read
// that code is the passenger: the account is made on first sign-in, keyed by what they used.
// Which numbers get codes, how many, and what wrong guesses cost: src/auth/code-guard.ts.

const CODE_TTL_MS = 10 * 60_000;
/** Tries per code; wrong guesses also count across codes against the identifier, for the guessing address (code-guard). */
const MAX_ATTEMPTS = 5;

/** Where a sign-in request came from: the caller's IP and the OAuth interaction it belongs to. */
export interface SignInContext {
  address: string;
  interaction?: string;
}

export type IdentifierCheck = { ok: true; identifier: SignInIdentifier } | { ok: false; reason: string };

/** "07400 123456", "+44 7400 123456" or "ada@example.com": which one, normalised, or why it cannot be used. */
export function readSignInIdentifier(input: string): IdentifierCheck {
  const text = input.trim();
  if (text.includes('@')) {
    const e = checkPassengerEmail(text);
    return e.ok ? { ok: true, identifier: { kind: 'email', value: e.email } } : { ok: false, reason: e.reason };
  }
  const p = normalisePhone(text);
  return p.ok ? { ok: true, identifier: { kind: 'phone', value: p.e164 } } : { ok: false, reason: p.reason };
}

const subjectOf = (i: SignInIdentifier) =>
  lockSubject.passenger(i.kind, i.kind === 'email' ? mailboxKey(i.value) : i.value);

/**
 * Sends a code if the code guard admits it: only to mobiles of the countries served (400), never
 * to a locked identifier, within the per-address, per-sign-in, per-recipient and daily limits
 * (429, 503). A blocked email or phone is refused (403).
 */
export async function sendPassengerSignInCode(
  s: Pick<Services, 'sql' | 'config' | 'notifier'>,
  identifier: SignInIdentifier,
  ctx: SignInContext,
): Promise<void> {
  if (identifier.kind === 'phone') {
    const served = servedMobile(identifier.value, s.config.SIGN_IN_CODE_COUNTRIES);
    if (!served.ok) throw Refusal.invalid('number_not_served', `Sorry: ${served.reason}.`);
  }
  await refuseBlockedPassenger(s.sql, { [identifier.kind]: identifier.value });
  await admitCode(s, {
    channel: identifier.kind === 'phone' ? 'sms' : 'email',
    audience: 'passenger',
    recipient: identifier.kind === 'email' ? `email:${mailboxKey(identifier.value)}` : identifierKey(identifier),
    subject: subjectOf(identifier),
    address: ctx.address,
    ...(ctx.interaction ? { interaction: ctx.interaction } : {}),
    returning: await hasSignedInBefore(s.sql, identifier),
  });
  const key = identifierKey(identifier);
  const code = newCode();
  await saveSignInCode(s.sql, key, hashCode(s.config.OAUTH_SECRET, key, code), new Date(Date.now() + CODE_TTL_MS));
  const { subject, body } = renderPassengerSignInCode(code, CODE_TTL_MS / 60_000);
  await s.notifier.send({
    channel: identifier.kind === 'phone' ? 'sms' : 'email',
    to: identifier.value,
    ...(identifier.kind === 'email' ? { subject } : {}),
    body,
    // One message per code: a new code is a new message.
    idempotencyKey: `passenger-sign-in:${hashSecret(key).slice(0, 16)}:${hashSecret(code).slice(0, 16)}:${Date.now()}`,
    purpose: 'sign_in_code',
  });
}

/**
 * The signed-in account, or 401 for a wrong, expired, spent or over-tried code (the same answer
 * for each), or 429 while the identifier is locked for this address by its earlier wrong codes.
 */
export async function verifyPassengerSignInCode(
  s: Pick<Services, 'sql' | 'config'>,
  identifier: SignInIdentifier,
  code: string,
  ctx: SignInContext,
): Promise<PassengerAccount> {
  const subject = subjectOf(identifier);
  await admitGuess(s, subject, ctx.address);
  const key = identifierKey(identifier);
  const stored = await takeSignInAttempt(s.sql, key, MAX_ATTEMPTS);
  if (!stored || !/^\d{6}$/.test(code) || !sameDigest(stored, hashCode(s.config.OAUTH_SECRET, key, code))) {
    return refuseWrongCode(
      s,
      subject,
      ctx.address,
      Refusal.unauthenticated('invalid_code', 'That code is not right, or it has expired. Ask for a new one.'),
    );
  }
  await spendSignInCode(s.sql, key);
  await recordRightGuess(s, subject, ctx.address);
  // Blocked since the code was sent: no session.
  await refuseBlockedPassenger(s.sql, { [identifier.kind]: identifier.value });
  return accountFor(s.sql, identifier);
}
