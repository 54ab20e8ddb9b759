import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../app.js';
import { verifyJobLinkToken } from '../dispatch/job-link.js';
import { ProblemError, problemResponses } from '../http/problem.js';
import { OfferResponseReply, OfferResponseRequest } from '../schemas/booking.js';
import { bookingWorkflowId, parseOfferId, respondToOfferUpdate } from '../../workflows/booking-definitions.js';

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
}
