import type { FastifyError, FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { BOOKING_REF_PATTERN } from '../model/bookings.js';
import { findBooking, type BookingWithDriver } from '../bookings/store.js';
import { verifyJobLinkToken } from '../dispatch/job-link.js';
import { findOffer } from '../dispatch/store.js';
import { findDriverCar } from '../drivers/store.js';
import { assertDriverMayWork } from '../drivers/suspension.js';
import { offersSeen } from '../drivers/offers.js';
import { nearestPlace } from '../geo/nearest-place.js';
import { ProblemError, problemResponses } from '../http/problem.js';
import { renderQuotePage } from '../pages/book-page.js';
import { findDriverPosition } from '../pages/driver-position-store.js';
import { html } from '../pages/escape-html.js';
import { invalidJobLinkPage, jobNotFoundPage, renderJobCardPage } from '../pages/job-card-page.js';
import { messagePage } from '../pages/layout.js';
import { sendPage } from '../pages/send-page.js';
import {
  bookingNotFoundPage,
  etaFrom,
  renderTrackPage,
  showsDriverPosition,
  trackStatus,
  TrackStatus,
} from '../pages/track-page.js';
import { toProblemError } from '../plugins/error-handler.js';
import { findQuote } from '../quotes/store.js';
import { BookingRefParams } from '../schemas/booking.js';

// Server-rendered pages for people rather than programs: the booking link a quote hands out, the
// passenger's tracking page and the driver's job card. Kept out of the OpenAPI document.

export async function pageRoutes(app: FastifyInstance): Promise<void> {
  const s = app.services;

  /**
   * The status with the driver's position, read only when the page could show it, where that is in
   * words (the street or area: the places index, loaded on first need), and their car.
   */
  const liveStatus = async (row: BookingWithDriver): Promise<TrackStatus> => {
    const position = showsDriverPosition(row) ? await findDriverPosition(s.sql, row.driver_id!) : null;
    const car = row.driver_id && row.d_name ? await findDriverCar(s.sql, row.driver_id) : null;
    const places = position
      ? await nearestPlace().catch((err: unknown) => {
          app.log.error({ err }, 'places index failed to load: the tracking page names no street');
          return null;
        })
      : null;
    const near = places ? (at: { lat: number; lon: number }) => places.near(at.lat, at.lon) : undefined;
    const live = { position, now: s.now(), car, ...(near ? { near } : {}) };
    // Routed on the driver's own map key when they keep one (src/drivers/map-service.ts).
    const from = etaFrom(row, live);
    const eta = from ? await s.driverMaps.pickupEta(row.driver_id!, from, row.pickup) : null;
    return trackStatus(row, { ...live, ...(eta ? { etaMinutes: eta.minutes } : {}) });
  };

  // The tracking page polls this; a JSON endpoint, so its errors stay problem details.
  app.withTypeProvider<ZodTypeProvider>().get('/track/:ref/status.json', {
    schema: {
      hide: true,
      params: BookingRefParams,
      response: { 200: TrackStatus, ...problemResponses(400, 404, 429) },
    },
    config: { rateLimit: app.rateLimits.lookup },
    handler: async (request, reply) => {
      const row = await findBooking(s.sql, request.params.ref);
      if (!row) throw new ProblemError(404, 'booking_not_found', `No booking ${request.params.ref}.`);
      void reply.header('cache-control', 'no-store');
      return liveStatus(row);
    },
  });

  await app.register(async (pages) => {
    // A person reading a page gets a page when something fails, not a problem+json body, with the
    // status the same failure gets anywhere else (a bad API key is a 401 here too, never a 500).
    pages.setErrorHandler((err: FastifyError, request, reply) => {
      const problem = toProblemError(err);
      for (const [k, v] of Object.entries(problem.extra.headers ?? {})) void reply.header(k, v);
      if (problem.status >= 500) request.log.error({ err }, 'page failed');
      const page =
        problem.status >= 500
          ? messagePage(
              problem.status,
              'Something went wrong',
              html`<p>Please try again in a moment. If it keeps happening, quote reference ${request.id}.</p>`,
            )
          : messagePage(
              problem.status,
              'Page not available',
              html`<p>${problem.message}</p><p>Check the link you were sent.</p>`,
            );
      return sendPage(reply, page);
    });
    const r = pages.withTypeProvider<ZodTypeProvider>();

    r.get('/book/:quoteId', {
      schema: { hide: true, params: z.object({ quoteId: z.string().max(64) }) },
      config: { rateLimit: app.rateLimits.lookup },
      handler: async (request, reply) => {
        const quote = await findQuote(s.sql, request.params.quoteId);
        return sendPage(reply, renderQuotePage(quote, s.now()));
      },
    });

    r.get('/track/:ref', {
      schema: { hide: true, params: z.object({ ref: z.string().max(64) }) },
      // Public by reference: limited so that references cannot be guessed by trying them.
      config: { rateLimit: app.rateLimits.lookup },
      handler: async (request, reply) => {
        const { ref } = request.params;
        const row = BOOKING_REF_PATTERN.test(ref) ? await findBooking(s.sql, ref) : null;
        const page = row
          ? renderTrackPage(await liveStatus(row), {
              pickup: row.pickup,
              tileUrl: s.config.MAP_TILE_URL,
              attribution: s.config.MAP_TILE_ATTRIBUTION,
            })
          : bookingNotFoundPage();
        return sendPage(reply, page);
      },
    });

    r.get('/driver/jobs/:offerId', {
      schema: {
        hide: true,
        params: z.object({ offerId: z.string().max(120) }),
        querystring: z.object({ t: z.string().max(100).optional() }),
      },
      config: { rateLimit: app.rateLimits.driver },
      handler: async (request, reply) => {
        const { offerId } = request.params;
        const token = request.query.t ?? '';
        if (!verifyJobLinkToken(s.config.JOB_LINK_SECRET, offerId, token)) return sendPage(reply, invalidJobLinkPage());
        const offer = await findOffer(s.sql, offerId);
        // A suspended driver's link shows nothing of the job (a 403 page, as any refusal here).
        if (offer) await assertDriverMayWork(s, offer.driver_id);
        const booking = offer && (await findBooking(s.sql, offer.booking_ref));
        // The driver is looking: their card gets its full window. Never in the way of showing it.
        if (offer && booking)
          await offersSeen(s, offer.driver_id, [offer.id], (err) =>
            request.log.warn({ err, offerId }, 'job card seen: booking not told'),
          );
        return sendPage(
          reply,
          offer && booking ? renderJobCardPage({ offer, booking, token, now: s.now() }) : jobNotFoundPage(),
        );
      },
    });
  });
}
