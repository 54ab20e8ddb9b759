import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { DateTime } from 'luxon';
import { clearSignIn, dailyCeiling, newRecipientLimit } from '../auth/code-guard.js';
import { activeLockouts, codesToday } from '../auth/code-guard-store.js';
import { recordStaffAction } from '../auth/staff.js';
import { staffMember } from '../plugins/auth.js';
import { problemResponses } from '../http/problem.js';
import { SignInLockoutsReply, SignInUnlockReply, SignInUnlockRequest } from '../schemas/ops.js';

// What ops see of sign-in codes: how many went today against the ceiling (and the share of it codes
// to new recipients may use), and which phones and mailboxes wrong guesses have locked, and for which
// address, with a way to clear a passenger or driver who calls in (recorded with who and why): their
// locks from every address and their phone's or mailbox's code allowances.

export async function opsSignInRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const s = app.services;
  const limited = { rateLimit: app.rateLimits.staff };

  r.get('/api/ops/sign-in-lockouts', {
    schema: {
      operationId: 'opsSignInLockouts',
      tags: ['ops'],
      summary: 'Sign-in codes sent today against the daily ceiling, and the identifiers locked by wrong codes',
      response: { 200: SignInLockoutsReply, ...problemResponses(400, 401, 429) },
    },
    config: limited,
    handler: async (request) => {
      await staffMember(s, request);
      const locks = await activeLockouts(s.sql);
      return {
        codes_today: { sms: await codesToday(s.sql, 'sms'), email: await codesToday(s.sql, 'email') },
        daily_ceiling: { sms: s.config.SIGN_IN_SMS_PER_DAY, email: s.config.SIGN_IN_EMAILS_PER_DAY },
        new_recipient_limit: {
          sms: newRecipientLimit(dailyCeiling(s.config, 'sms')),
          email: newRecipientLimit(dailyCeiling(s.config, 'email')),
        },
        lockouts: locks.map((l) => ({
          subject: l.subject,
          address: l.address,
          locked_until: l.lockedUntil.toISOString(),
          locked_until_london: DateTime.fromJSDate(l.lockedUntil, { zone: 'Europe/London' }).toFormat(
            'd LLL yyyy HH:mm',
          ),
          locks_in_a_row: l.lockouts,
          last_failure_at: l.lastFailureAt.toISOString(),
          last_address: l.address,
        })),
      };
    },
  });

  r.post('/api/ops/sign-in-lockouts/unlock', {
    schema: {
      operationId: 'opsSignInUnlock',
      tags: ['ops'],
      summary:
        'Clear a sign-in (recorded with who and why): its locks from every address and its phone’s or mailbox’s code allowances',
      description:
        'For a passenger or driver who calls in. Deletes every lock and wrong-code count of the identifier (from any address) and every code allowance of its phone or mailbox (per address and across addresses), so the next code is sent at once. `unlocked` is true when anything was cleared (then recorded in staff_actions as sign_in.unlock).',
      body: SignInUnlockRequest,
      response: { 200: SignInUnlockReply, ...problemResponses(400, 401, 429) },
    },
    config: limited,
    handler: async (request) => {
      const staff = await staffMember(s, request);
      const { subject, reason } = request.body;
      const { cleared, locks, allowances } = await clearSignIn(s, subject);
      if (cleared) {
        await recordStaffAction(s.sql, {
          staffId: staff.id,
          action: 'sign_in.unlock',
          subjectKind: 'sign_in',
          subjectId: subject,
          reason,
          details: { locks_cleared: locks, allowances_cleared: allowances },
        });
      }
      return { subject, unlocked: cleared, locks_cleared: locks, allowances_cleared: allowances };
    },
  });
}
