import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { reportTrip, respondToOffer } from '../drivers/offers.js';
import { problemResponses } from '../http/problem.js';
import { OfferIdParams, OfferResponseReply, OfferResponseRequest, TripEventReply, TripEventRequest } from '../schemas/booking.js';

// The driver's side of a job card: the signed link in the card authenticates the driver for that
// one offer (src/dispatch/job-link.ts). The driver app (a later stage) calls the same use cases.

export async function driverRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const s = app.services;

  r.post('/api/driver/offers/:offerId/respond', {
    schema: {
      operationId: 'respondToOffer',
      tags: ['drivers'],
      summary: 'Accept or decline a job card (driver-authenticated by the signed job-card link)',
      params: OfferIdParams,
      body: OfferResponseRequest,
      response: { 200: OfferResponseReply, ...problemResponses(400, 401, 403, 404, 409, 410, 429, 503) },
    },
    config: { rateLimit: app.rateLimits.driver },
    handler: async (request) => {
      const { result, ref } = await respondToOffer(s, { offerId: request.params.offerId, ...request.body });
      return { result, booking_reference: ref };
    },
  });

  r.post('/api/driver/offers/:offerId/trip', {
    schema: {
      operationId: 'reportTrip',
      tags: ['drivers'],
      summary: 'Report trip progress (en_route, arrived, on_board, completed) or drop an accepted job',
      description:
        'Steps go forward only: assigned -> en_route (optional) -> arrived -> on_board -> completed. Repeating the current step is accepted; anything else, a closed booking, or a job that is not yours is 409.',
      params: OfferIdParams,
      body: TripEventRequest,
      response: { 202: TripEventReply, ...problemResponses(400, 401, 403, 404, 409, 429, 503) },
    },
    config: { rateLimit: app.rateLimits.driver },
    handler: async (request, reply) => {
      const { ref, status } = await reportTrip(s, { offerId: request.params.offerId, ...request.body });
      return reply.code(202).send({ booking_reference: ref, event: request.body.event, status });
    },
  });
}
