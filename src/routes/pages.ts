import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../app.js';
import { loadBookingRow } from '../bookings/view-booking.js';
import { verifyJobLinkToken } from '../dispatch/job-link.js';
import { ProblemError, problemResponses } from '../http/problem.js';
import { renderQuotePage } from '../pages/book-page.js';
import { html } from '../pages/escape-html.js';
import { invalidJobLinkPage, jobNotFoundPage, renderJobCardPage } from '../pages/job-card-page.js';
import { messagePage, type Page } from '../pages/layout.js';
import { loadOfferForPage, loadQuoteForPage } from '../pages/page-data.js';
import { bookingNotFoundPage, renderTrackPage, trackStatus, TrackStatus } from '../pages/track-page.js';
import { BookingRefParams } from '../schemas/booking.js';

// Server-rendered pages for people rather than programs: the booking link a quote hands out, the
// passenger's tracking page and the driver's job card. Kept out of the OpenAPI document.

const BOOKING_REF = /^TX[0-9A-Z]{8}$/;

function sendPage(reply: FastifyReply, page: Page): FastifyReply {
  return reply
    .code(page.status)
    .headers({
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': page.csp,
      // Every page shows live state (quote status, booking progress, offer countdown).
      'cache-control': 'no-store',
      // The job card URL carries the driver's token; it must not travel on in a Referer.
      'referrer-policy': 'no-referrer',
      'x-content-type-options': 'nosniff',
    })
    .send(page.html);
}

export async function pageRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const now = () => deps.now?.() ?? new Date();

  // The tracking page polls this; a JSON endpoint, so its errors stay problem details.
  app.withTypeProvider<ZodTypeProvider>().get('/track/:ref/status.json', {
    schema: { hide: true, params: BookingRefParams, response: { 200: TrackStatus, ...problemResponses(400, 404) } },
    handler: async (request, reply) => {
      const row = await loadBookingRow(deps.sql, request.params.ref);
      if (!row) throw new ProblemError(404, 'booking_not_found', `No booking ${request.params.ref}.`);
      void reply.header('cache-control', 'no-store');
      return trackStatus(row);
    },
  });

  await app.register(async (pages) => {
    // A person reading a page gets a page when something fails, not a problem+json body.
    pages.setErrorHandler((err: FastifyError, request, reply) => {
      const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
      if (status >= 500) request.log.error({ err }, 'page failed');
      const page =
        status >= 500
          ? messagePage(500, 'Something went wrong', html`<p>Please try again in a moment. If it keeps happening, quote reference ${request.id}.</p>`)
          : messagePage(status, 'Page not available', html`<p>Check the link you were sent.</p>`);
      return sendPage(reply, page);
    });
    const r = pages.withTypeProvider<ZodTypeProvider>();

    r.get('/book/:quoteId', {
      schema: { hide: true, params: z.object({ quoteId: z.string() }) },
      handler: async (request, reply) => sendPage(reply, renderQuotePage(await loadQuoteForPage(deps.sql, request.params.quoteId), now())),
    });

    r.get('/track/:ref', {
      schema: { hide: true, params: z.object({ ref: z.string() }) },
      handler: async (request, reply) => {
        const { ref } = request.params;
        const row = BOOKING_REF.test(ref) ? await loadBookingRow(deps.sql, ref) : null;
        return sendPage(reply, row ? renderTrackPage(trackStatus(row)) : bookingNotFoundPage());
      },
    });

    r.get('/driver/jobs/:offerId', {
      schema: { hide: true, params: z.object({ offerId: z.string() }), querystring: z.object({ t: z.string().optional() }) },
      handler: async (request, reply) => {
        const { offerId } = request.params;
        const token = request.query.t ?? '';
        if (!verifyJobLinkToken(deps.config.JOB_LINK_SECRET, offerId, token)) return sendPage(reply, invalidJobLinkPage());
        const offer = await loadOfferForPage(deps.sql, offerId);
        const booking = offer && (await loadBookingRow(deps.sql, offer.booking_ref));
        return sendPage(reply, offer && booking ? renderJobCardPage({ offer, booking, token, now: now() }) : jobNotFoundPage());
      },
    });
  });
}
