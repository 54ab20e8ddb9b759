import { createHash, randomInt } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { WorkflowNotFoundError } from '@temporalio/common';
import { bookingsAwaitingEmail, markEmailVerified } from '../bookings/store.js';
import type { Sql } from '../db/sql.js';
import type { Notifier } from '../notify/notifier.js';
import { bookingWorkflowId, emailConfirmedSignal } from '../../workflows/bookings/definitions.js';

const CODE_TTL_MINUTES = 15;
const MAX_ATTEMPTS = 5;

const codeHash = (email: string, code: string) => createHash('sha256').update(`${email}:${code}`).digest('hex');

export interface EmailStanding {
  verified: boolean;
  blocked: boolean;
}

export async function emailStanding(sql: Sql, email: string): Promise<EmailStanding> {
  const [row] = await sql<{ verified_at: Date | null; blocked_at: Date | null }[]>`
    select verified_at, blocked_at from passenger_emails where email = ${email}`;
  return { verified: !!row?.verified_at, blocked: !!row?.blocked_at };
}

/** Emails a 6-digit code; a new request replaces the previous code. */
export async function sendVerificationCode(deps: { sql: Sql; notifier: Notifier }, email: string): Promise<void> {
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const [row] = await deps.sql<{ created_at: Date }[]>`
    insert into passenger_emails (email, code_hash, code_expires_at, attempts)
    values (${email}, ${codeHash(email, code)}, now() + make_interval(mins => ${CODE_TTL_MINUTES}), 0)
    on conflict (email) do update set code_hash = excluded.code_hash, code_expires_at = excluded.code_expires_at, attempts = 0
    returning created_at`;
  await deps.notifier.send({
    channel: 'email',
    to: email,
    subject: 'Your Direct Taxi verification code',
    body: `Your code is ${code}. It expires in ${CODE_TTL_MINUTES} minutes. If you did not ask for it, ignore this email.`,
    // A new key per code: each request is a message of its own.
    idempotencyKey: `verify:${email}:${codeHash(email, code).slice(0, 16)}:${row?.created_at.getTime() ?? 0}`,
  });
}

export type VerifyResult = 'verified' | 'wrong_code' | 'expired' | 'too_many_attempts';

/** Checks a code; on success marks the email verified and releases every booking held for it. */
export async function verifyCode(deps: { sql: Sql; temporal: Client }, email: string, code: string): Promise<VerifyResult> {
  const [row] = await deps.sql<{ code_hash: string | null; code_expires_at: Date | null; attempts: number; verified_at: Date | null }[]>`
    update passenger_emails set attempts = attempts + 1 where email = ${email}
    returning code_hash, code_expires_at, attempts, verified_at`;
  if (!row?.code_hash || !row.code_expires_at) return 'expired';
  if (row.attempts > MAX_ATTEMPTS) return 'too_many_attempts';
  if (row.code_expires_at.getTime() < Date.now()) return 'expired';
  if (row.code_hash !== codeHash(email, code)) return 'wrong_code';
  await markVerified(deps, email);
  return 'verified';
}

/**
 * Marks the email verified and releases every booking held for it. Each booking is marked only
 * after its workflow has had the signal, so if Temporal is briefly unreachable the error reaches
 * the passenger, whose retry finds the same bookings still held; only a workflow that no longer
 * exists (the booking has closed) is passed over.
 */
export async function markVerified(deps: { sql: Sql; temporal: Client }, email: string): Promise<void> {
  await deps.sql`
    insert into passenger_emails (email, verified_at) values (${email}, now())
    on conflict (email) do update set verified_at = coalesce(passenger_emails.verified_at, now()), code_hash = null`;
  for (const ref of await bookingsAwaitingEmail(deps.sql, email)) {
    try {
      await deps.temporal.workflow.getHandle(bookingWorkflowId(ref)).signal(emailConfirmedSignal);
    } catch (err) {
      if (!(err instanceof WorkflowNotFoundError)) throw err;
    }
    await markEmailVerified(deps.sql, ref);
  }
}
