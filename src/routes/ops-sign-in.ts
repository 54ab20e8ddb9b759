import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { DateTime } from 'luxon';
import { activeLockouts, codesToday, unlock } from '../auth/code-guard-store.js';
import { recordStaffAction } from '../auth/staff.js';
import { staffMember } from '../http/auth.js';
import { problemResponses } from '../http/problem.js';
import { SignInLockoutsReply, SignInUnlockReply, SignInUnlockRequest } from '../schemas/ops.js';

// What ops see of sign-in codes: how many went today against the ceiling, and which phones and
// mailboxes wrong guesses have locked, with a way to lift a lock for a passenger or driver who
// calls in (recorded with who and why).

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
        lockouts: locks.map((l) => ({
          subject: l.subject,
          locked_until: l.lockedUntil.toISOString(),
          locked_until_london: DateTime.fromJSDate(l.lockedUntil, { zone: 'Europe/London' }).toFormat('d LLL yyyy HH:mm'),
          locks_in_a_row: l.lockouts,
          last_failure_at: l.lastFailureAt.toISOString(),
          last_address: l.lastAddress,
        })),
      };
    },
  });

  r.post('/api/ops/sign-in-lockouts/unlock', {
    schema: {
      operationId: 'opsSignInUnlock',
      tags: ['ops'],
      summary: 'Lift a sign-in lock (recorded with who and why); the identifier starts afresh',
      body: SignInUnlockRequest,
      response: { 200: SignInUnlockReply, ...problemResponses(400, 401, 429) },
    },
    config: limited,
    handler: async (request) => {
      const staff = await staffMember(s, request);
      const { subject, reason } = request.body;
      const unlocked = await unlock(s.sql, subject);
      if (unlocked) await recordStaffAction(s.sql, { staffId: staff.id, action: 'sign_in.unlock', subjectKind: 'sign_in', subjectId: subject, reason });
      return { subject, unlocked };
    },
  });
}
