import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CONFIRM_LINK_DAYS } from '../bookings/confirm-link.js';
import { releaseBookingsHeldFor } from '../bookings/email-hold.js';
import { openFromEmailLink } from '../bookings/ownership.js';
import { ProblemError, problemResponses } from '../http/problem.js';
import { html } from '../pages/escape-html.js';
import { messagePage } from '../pages/layout.js';
import { checkPassengerEmail } from '../passengers/email.js';
import { emailStanding, sendVerificationCode, verifyCode } from '../passengers/verification.js';
import { PassengerVerifyRequest, PassengerVerifyResponse } from '../schemas/booking.js';

// Passenger email verification (spec 4.12) and the confirmation link in booking emails.

export async function passengerRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const s = app.services;

  r.post('/api/public/v1/passenger-verify', {
    schema: {
      operationId: 'verifyPassenger',
      tags: ['bookings'],
      summary: 'Verify a passenger email: send {email} to get a code, then {email, code} to confirm it',
      description:
        'Disposable and role addresses are refused. Bookings held for this email are dispatched once it is verified.',
      body: PassengerVerifyRequest,
      response: { 200: PassengerVerifyResponse, ...problemResponses(400, 401, 403, 410, 429, 503) },
    },
    // Each request can send an email: it shares the quote allowance.
    config: { rateLimit: app.rateLimits.quote },
    handler: async (request) => {
      const checked = checkPassengerEmail(request.body.email);
      if (!checked.ok)
        throw new ProblemError(400, checked.code, checked.reason, {
          errors: [{ field: 'body.email', message: checked.reason }],
        });
      const email = checked.email;
      const standing = await emailStanding(s.sql, email);
      if (standing.blocked)
        throw new ProblemError(403, 'passenger_blocked', 'This passenger account is blocked. Contact support.');
      if (!request.body.code) {
        if (standing.verified) return { email, status: 'verified' as const };
        await sendVerificationCode(s, email, { address: request.ip });
        return { email, status: 'code_sent' as const };
      }
      const result = await verifyCode(s, email, request.body.code, { address: request.ip }, (e) =>
        releaseBookingsHeldFor(s, e),
      );
      if (result === 'verified') return { email, status: 'verified' as const };
      if (result === 'wrong_code')
        throw new ProblemError(400, 'wrong_code', 'That code is not right.', {
          errors: [{ field: 'body.code', message: 'does not match' }],
        });
      if (result === 'too_many_attempts')
        throw new ProblemError(429, 'too_many_attempts', 'Too many wrong codes; ask for a new one later.');
      throw new ProblemError(410, 'code_expired', 'The code has expired; ask for a new one.');
    },
  });

  // The link in the booking email confirms the address it was sent to and opens the booking on its
  // tracking page with the link's manage token in the fragment (never sent to the server again but
  // to cancel). The same link always opens the same token (src/bookings/ownership.ts), so a reload
  // or a mail scanner's visit changes nothing; it expires, and dies when the booking is claimed.
  r.get('/confirm/:ref', {
    schema: {
      hide: true,
      params: z.object({ ref: z.string().max(20) }),
      querystring: z.object({ t: z.string().max(100).default('') }),
    },
    config: { rateLimit: app.rateLimits.lookup },
    handler: async (request, reply) => {
      const opened = await openFromEmailLink(s, request.params.ref, request.query.t);
      if (opened)
        return reply.redirect(`/track/${request.params.ref}#t=${encodeURIComponent(opened.manageToken)}`, 303);
      const page = messagePage(
        403,
        'Link not valid',
        html`<p>This confirmation link is not valid, or no longer: links work for ${CONFIRM_LINK_DAYS} days (until a day after pickup) and only while the booking carries the email they were sent to.</p>`,
      );
      return reply
        .code(page.status)
        .header('content-security-policy', page.csp)
        .type('text/html; charset=utf-8')
        .send(page.html);
    },
  });
}
