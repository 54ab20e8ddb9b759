import { randomInt } from 'node:crypto';
import { admitCode, admitGuess, lockSubject, recordRightGuess, recordWrongGuess } from '../auth/code-guard.js';
import { hashCode, sameDigest } from '../auth/secrets.js';
import type { Sql } from '../db/sql.js';
import { renderEmailVerificationCode } from '../notify/templates.js';
import type { Services } from '../services.js';
import { mailboxKey } from './email.js';
import { isPassengerBlocked } from './standing.js';

const CODE_TTL_MINUTES = 15;
const MAX_ATTEMPTS = 5;

// Six digits are too few to store as a plain hash: keyed with the server's secret, as sign-in codes are.
const codeHash = (secret: string, email: string, code: string) => hashCode(secret, `verify:${email}`, code);

export interface EmailStanding {
  verified: boolean;
  blocked: boolean;
}

/** Verified by its own address; blocked by its mailbox, however it is spelled (src/passengers/standing.ts). */
export async function emailStanding(sql: Sql, email: string): Promise<EmailStanding> {
  const [row] = await sql<
    { verified_at: Date | null }[]
  >`select verified_at from passenger_emails where email = ${email}`;
  return { verified: !!row?.verified_at, blocked: await isPassengerBlocked(sql, { email }) };
}

/**
 * Emails a 6-digit code; a new request replaces the previous code. The code guard
 * (src/auth/code-guard.ts) admits it first: limits per mailbox, per address and per day (429, 503),
 * and none while wrong guesses keep the mailbox locked.
 */
export async function sendVerificationCode(
  deps: Pick<Services, 'sql' | 'notifier' | 'config'>,
  email: string,
  ctx: { address: string },
): Promise<void> {
  const mailbox = mailboxKey(email);
  await admitCode(deps, {
    channel: 'email',
    audience: 'verify',
    recipient: `email:${mailbox}`,
    subject: lockSubject.verify(mailbox),
    address: ctx.address,
  });
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const hash = codeHash(deps.config.OAUTH_SECRET, email, code);
  const [row] = await deps.sql<{ created_at: Date }[]>`
    insert into passenger_emails (email, code_hash, code_expires_at, attempts)
    values (${email}, ${hash}, now() + make_interval(mins => ${CODE_TTL_MINUTES}), 0)
    on conflict (email) do update set code_hash = excluded.code_hash, code_expires_at = excluded.code_expires_at, attempts = 0
    returning created_at`;
  const { subject, body } = renderEmailVerificationCode(code, CODE_TTL_MINUTES);
  await deps.notifier.send({
    channel: 'email',
    to: email,
    subject,
    body,
    // A new key per code: each request is a message of its own.
    idempotencyKey: `verify:${email}:${hash.slice(0, 16)}:${Date.now()}:${row?.created_at.getTime() ?? 0}`,
    purpose: 'verification_code',
  });
}

/**
 * What a verified mailbox releases: the bookings held for it (src/bookings/email-hold.ts,
 * releaseBookingsHeldFor). Passed in by the caller, since src/passengers imports no booking.
 */
export type ReleaseHeldBookings = (email: string) => Promise<void>;

export type VerifyResult = 'verified' | 'wrong_code' | 'expired' | 'too_many_attempts';

/**
 * Checks a code; on success marks the email verified and releases every booking held for it.
 * Wrong codes also count against the mailbox across codes, for the guessing address (429
 * sign_in_locked while it is locked there).
 */
export async function verifyCode(
  deps: Pick<Services, 'sql' | 'config'>,
  email: string,
  code: string,
  ctx: { address: string },
  releaseHeld: ReleaseHeldBookings,
): Promise<VerifyResult> {
  const subject = lockSubject.verify(mailboxKey(email));
  await admitGuess(deps, subject, ctx.address);
  const [row] = await deps.sql<
    { code_hash: string | null; code_expires_at: Date | null; attempts: number; verified_at: Date | null }[]
  >`
    update passenger_emails set attempts = attempts + 1 where email = ${email}
    returning code_hash, code_expires_at, attempts, verified_at`;
  if (!row?.code_hash || !row.code_expires_at) return 'expired';
  if (row.attempts > MAX_ATTEMPTS) return 'too_many_attempts';
  if (row.code_expires_at.getTime() < Date.now()) return 'expired';
  if (!sameDigest(row.code_hash, codeHash(deps.config.OAUTH_SECRET, email, code))) {
    const { lockedForMs } = await recordWrongGuess(deps, subject, ctx.address);
    return lockedForMs > 0 ? 'too_many_attempts' : 'wrong_code';
  }
  await recordRightGuess(deps, subject, ctx.address);
  await markVerified(deps, email, releaseHeld);
  return 'verified';
}

/**
 * Marks the email verified, then releases every booking held for it (`releaseHeld`; an error there,
 * Temporal briefly unreachable, reaches the passenger, whose retry finds the same bookings held).
 */
export async function markVerified(
  deps: Pick<Services, 'sql'>,
  email: string,
  releaseHeld: ReleaseHeldBookings,
): Promise<void> {
  await deps.sql`
    insert into passenger_emails (email, verified_at) values (${email}, now())
    on conflict (email) do update set verified_at = coalesce(passenger_emails.verified_at, now()), code_hash = null`;
  await releaseHeld(email);
}
