import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../app.js';
import { verifyJobLinkToken } from '../dispatch/job-link.js';
import { ProblemError, problemResponses } from '../http/problem.js';
import { OfferResponseReply, OfferResponseRequest, TripEventRequest } from '../schemas/booking.js';
import {
  bookingWorkflowId,
  driverDroppedSignal,
  parseOfferId,
  respondToOfferUpdate,
  tripProgressSignal,
} from '../../workflows/booking-definitions.js';

export async function driverRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  // The job card link carries a token that authenticates this driver for this one offer.
  r.post('/api/driver/offers/:offerId/respond', {
    schema: {
      operationId: 'respondToOffer',
      tags: ['drivers'],
      summary: 'Accept or decline a job card (driver-authenticated by the signed job-card link)',
      params: z.object({ offerId: z.string().min(5).max(120) }),
      body: OfferResponseRequest,
      response: { 200: OfferResponseReply, ...problemResponses(400, 403, 404, 409, 410) },
    },
    handler: async (request) => {
      const { offerId } = request.params;
      if (!verifyJobLinkToken(deps.config.JOB_LINK_SECRET, offerId, request.body.token)) {
        throw new ProblemError(403, 'invalid_job_link', 'This job link is not valid.');
      }
      const parsed = parseOfferId(offerId);
      if (!parsed) throw new ProblemError(404, 'offer_not_found', `No offer ${offerId}.`);
      const result = await deps.temporal.workflow
        .getHandle(bookingWorkflowId(parsed.ref))
        .executeUpdate(respondToOfferUpdate, { args: [{ offerId, driverId: parsed.driverId, decision: request.body.decision }] })
        .catch((err: unknown) => {
          // A finished booking (cancelled, completed) no longer takes answers.
          if (err instanceof Error && err.name === 'WorkflowNotFoundError') return 'expired' as const;
          throw err;
        });
      if (result === 'taken') throw new ProblemError(409, 'job_taken', 'Another driver has already taken this job.');
      if (result === 'expired') throw new ProblemError(410, 'offer_expired', 'This offer is no longer open.');
      return { result, booking_reference: parsed.ref };
    },
  });

  // The driver app reports the trip, or gives the job back, with the link of the offer it accepted.
  r.post('/api/driver/offers/:offerId/trip', {
    schema: {
      operationId: 'reportTrip',
      tags: ['drivers'],
      summary: 'Report trip progress (en_route, arrived, on_board, completed) or drop an accepted job',
      params: z.object({ offerId: z.string().min(5).max(120) }),
      body: TripEventRequest,
      response: { 202: z.object({ booking_reference: z.string(), event: z.string() }), ...problemResponses(400, 403, 404, 409) },
    },
    handler: async (request, reply) => {
      const { offerId } = request.params;
      if (!verifyJobLinkToken(deps.config.JOB_LINK_SECRET, offerId, request.body.token)) {
        throw new ProblemError(403, 'invalid_job_link', 'This job link is not valid.');
      }
      const parsed = parseOfferId(offerId);
      if (!parsed) throw new ProblemError(404, 'offer_not_found', `No offer ${offerId}.`);
      const [row] = await deps.sql<{ driver_id: string | null }[]>`select driver_id from bookings where ref = ${parsed.ref}`;
      if (!row) throw new ProblemError(404, 'booking_not_found', `No booking ${parsed.ref}.`);
      if (row.driver_id !== parsed.driverId) throw new ProblemError(409, 'not_your_job', 'This job is not assigned to you.');
      const handle = deps.temporal.workflow.getHandle(bookingWorkflowId(parsed.ref));
      const { event } = request.body;
      if (event === 'drop') await handle.signal(driverDroppedSignal, { driverId: parsed.driverId, reason: 'dropped' });
      else await handle.signal(tripProgressSignal, { driverId: parsed.driverId, progress: event });
      return reply.code(202).send({ booking_reference: parsed.ref, event });
    },
  });
}
