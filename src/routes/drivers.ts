import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { confirmPayment, reportTrip, respondToOffer } from '../drivers/offers.js';
import { problemResponses } from '../http/problem.js';
import { gbp } from '../schemas/common.js';
import {
  OfferIdParams,
  OfferResponseReply,
  OfferResponseRequest,
  SettlementReply,
  SettlementRequest,
  TripEventReply,
  TripEventRequest,
} from '../schemas/booking.js';

// The driver's side of a job card: the signed link in the card authenticates the driver for that
// one offer (src/dispatch/job-link.ts). The driver app (a later stage) calls the same use cases.

export async function driverRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const s = app.services;
  // Every action on a job card names its offer and answers the same refusals.
  const onOffer = { tags: ['drivers'], params: OfferIdParams };
  const refusals = problemResponses(400, 401, 403, 404, 409, 429, 503);
  const perDriver = { rateLimit: app.rateLimits.driver };

  r.post('/api/driver/offers/:offerId/respond', {
    schema: {
      ...onOffer,
      operationId: 'respondToOffer',
      summary: 'Accept or decline a job card (driver-authenticated by the signed job-card link)',
      body: OfferResponseRequest,
      response: { 200: OfferResponseReply, ...refusals, ...problemResponses(410) },
    },
    config: perDriver,
    handler: async (request) => {
      const { result, ref } = await respondToOffer(s, { offerId: request.params.offerId, ...request.body });
      return { result, booking_reference: ref };
    },
  });

  r.post('/api/driver/offers/:offerId/trip', {
    schema: {
      ...onOffer,
      operationId: 'reportTrip',
      summary: 'Report trip progress (en_route, arrived, on_board, completed, no_show) or drop an accepted job',
      description:
        'Steps go forward only: assigned -> en_route (optional) -> arrived -> on_board -> completed, or arrived -> no_show when the passenger did not come. Repeating the current step is accepted; anything else, a closed booking, or a job that is not yours is 409.',
      body: TripEventRequest,
      response: { 202: TripEventReply, ...refusals },
    },
    config: perDriver,
    handler: async (request, reply) => {
      const { ref, status } = await reportTrip(s, { offerId: request.params.offerId, ...request.body });
      return reply.code(202).send({ booking_reference: ref, event: request.body.event, status });
    },
  });

  r.post('/api/driver/offers/:offerId/payment', {
    schema: {
      ...onOffer,
      operationId: 'confirmPayment',
      summary: 'Confirm what the passenger paid for a completed trip (written once, as an immutable payment record)',
      description:
        'amount defaults to the fare; less than the fare needs a reason (400 reason_required), kept with the record. A repeat answers the record already written. With the passenger on board, the confirmation completes the trip as it settles it (one tap for both); earlier than that is 409 trip_not_completed. Corrections are made by ops as new records, never by editing.',
      body: SettlementRequest,
      response: { 200: SettlementReply, ...refusals },
    },
    config: perDriver,
    handler: async (request) => {
      const { token, method, amount, reason } = request.body;
      const { ref, payment } = await confirmPayment(s, {
        offerId: request.params.offerId,
        token,
        method,
        reason,
        ...(amount === undefined ? {} : { amountPence: Math.round(amount * 100) }),
      });
      return {
        booking_reference: ref,
        payment: {
          amount: gbp(payment.amountPence),
          method: payment.method,
          recorded_at: payment.recordedAt,
          recorded_by: payment.recordedBy,
        },
      };
    },
  });
}
