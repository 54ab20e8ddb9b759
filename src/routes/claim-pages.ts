import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { cancelBooking } from '../bookings/cancel.js';
import { claimBooking, openClaim, requestClaimLink } from '../bookings/ownership.js';
import { backgroundWork } from '../http/background-work.js';
import { normalisePhone } from '../passengers/phone.js';
import { findBooking } from '../bookings/store.js';
import { refusalProblem } from '../http/refusal-problem.js';
import { cancelledPage, claimedPage, claimGonePage, claimPage } from '../pages/claim-page.js';
import { html } from '../pages/escape-html.js';
import { messagePage } from '../pages/layout.js';
import { sendPage } from '../pages/send-page.js';
import { BookingRefParams } from '../schemas/booking.js';
import { text } from '../schemas/common.js';

// The pages behind the link a booking's phone is texted (src/bookings/ownership.ts): a passenger
// takes charge of a booking made with their number, then tracks or cancels it. Forms, not JSON:
// these are for people on a phone. Kept out of the OpenAPI document.

const ClaimParams = z.object({
  token: z
    .string()
    .max(100)
    .regex(/^[A-Za-z0-9_-]+$/),
});
const ClaimForm = z.object({ name: text(100).optional(), email: text(254).optional() });
const CancelForm = z.object({ token: text(100), reason: text(300).optional() });
const ManageLinkForm = z.object({ mobile: text(40) });

export async function claimPageRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const s = app.services;
  const limited = { rateLimit: app.rateLimits.lookup };
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 4096 },
    (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    },
  );
  // A form that fails validation is a person's typo or a forged post: a page either way, never JSON.
  app.setErrorHandler((err, _request, reply) => {
    const status = (err as { statusCode?: number }).statusCode ?? 500;
    if (status >= 500) throw err;
    return sendPage(
      reply,
      messagePage(
        400,
        'Check what you typed',
        html`<p>Something in the form could not be used. Go back and try again.</p>`,
      ),
    );
  });

  r.get('/claim/:token', {
    schema: { hide: true, params: ClaimParams },
    config: limited,
    handler: async (request, reply) => {
      const booking = await openClaim(s, request.params.token);
      return sendPage(reply, booking ? claimPage({ token: request.params.token, booking }) : claimGonePage());
    },
  });

  r.post('/claim/:token', {
    schema: { hide: true, params: ClaimParams, body: ClaimForm },
    config: limited,
    handler: async (request, reply) => {
      const { token } = request.params;
      try {
        const claimed = await claimBooking(s, token, request.body, {
          address: request.ip,
          log: (message, err) => request.log.warn({ err }, message),
        });
        const booking = await findBooking(s.sql, claimed.ref);
        return sendPage(
          reply,
          claimedPage({
            booking: booking!,
            manageToken: claimed.manageToken,
            email: claimed.email,
            confirmationSent: claimed.confirmationSent,
          }),
        );
      } catch (err) {
        const refused = refusalProblem(err);
        if (!refused) throw err;
        if (refused.status === 410) return sendPage(reply, claimGonePage());
        const booking = await openClaim(s, token);
        if (!booking) return sendPage(reply, claimGonePage());
        return sendPage(
          reply,
          claimPage({ token, booking, ...request.body, error: refused.message, status: refused.status }),
        );
      }
    },
  });

  // "Find my booking" opens the tracking page with no right to change the booking: a reference and
  // a contact are easily known to others. To cancel, the passenger proves the phone is theirs: the
  // booking's mobile, typed here, is texted the link to take charge of it (as the claim API does,
  // with its limits), and the page says the same whatever was typed.
  const afterReply = backgroundWork(app, 'manage link from the tracking page');
  r.post('/track/:ref/manage-link', {
    schema: { hide: true, params: BookingRefParams, body: ManageLinkForm },
    config: limited,
    handler: async (request, reply) => {
      const { ref } = request.params;
      const phone = normalisePhone(request.body.mobile);
      if (!phone.ok)
        return sendPage(
          reply,
          messagePage(
            400,
            'Check the number',
            html`<p>Type the mobile number on the booking, for example 07400 123456.</p><p><a href="/track/${ref}">Back to booking ${ref}</a></p>`,
          ),
        );
      afterReply(() => requestClaimLink(s, ref, phone.e164, { address: request.ip }));
      return sendPage(
        reply,
        messagePage(
          202,
          'Check your phone',
          html`<p>If that number is the mobile on booking ${ref}, we have texted it a link. Open the link on that phone to cancel or change the booking.</p><p><a href="/track/${ref}">Back to booking ${ref}</a></p>`,
        ),
      );
    },
  });

  r.post('/manage/:ref/cancel', {
    schema: { hide: true, params: BookingRefParams, body: CancelForm },
    config: limited,
    handler: async (request, reply) => {
      try {
        const row = await cancelBooking(s, {
          ref: request.params.ref,
          proof: { token: request.body.token },
          reason: request.body.reason?.trim() || null,
          by: 'passenger',
        });
        return sendPage(reply, cancelledPage(row));
      } catch (err) {
        const refused = refusalProblem(err);
        if (!refused || refused.status >= 500) throw err;
        return sendPage(reply, messagePage(refused.status, 'Not cancelled', html`<p>${refused.message}</p>`));
      }
    },
  });
}
