import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { staffMember } from '../plugins/auth.js';
import { ProblemError, problemResponses } from '../http/problem.js';
import { bookingStory, decisionLog, opsBoard } from '../ops/view.js';
import { BookingRefParams } from '../schemas/booking.js';
import { text } from '../schemas/common.js';
import { OpsBoard, OpsBoardQuery, OpsBookingStory, OpsDecisionLog, OpsDecisionQuery } from '../schemas/ops.js';

/** The board a page at a time, or a search over every booking. */
const OpsBoardPageQuery = OpsBoardQuery.extend({
  limit: z.coerce.number().int().min(1).max(500).default(50),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  q: text(64)
    .trim()
    .optional()
    .describe(
      'Find bookings, open or closed, whenever their pickup: by reference (or its start), passenger phone as typed (07400 123456), or a partner’s jobRef',
    ),
});

const OpsBoardPage = OpsBoard.extend({
  q: z.string().nullable().describe('The search, when one was asked'),
  total: z
    .number()
    .int()
    .describe('Bookings on every page: live ones in the window (of the status asked), or those the search found'),
  limit: z.number().int(),
  offset: z.number().int(),
  next_offset: z.number().int().nullable().describe('The next page’s offset; null on the last'),
  previous_offset: z.number().int().nullable(),
});

// The ops view for staff (Authorization: Bearer stf_...): live bookings, a booking's whole story,
// and its dispatch decision log by driver. Reads only.

export async function opsViewRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const s = app.services;
  const tags = ['ops'];
  const limited = { rateLimit: app.rateLimits.staff };
  const noBooking = (ref: string) => new ProblemError(404, 'booking_not_found', `No booking ${ref}.`);

  r.get('/api/ops/bookings', {
    schema: {
      operationId: 'opsListBookings',
      tags,
      summary:
        'Live bookings by status and pickup time: those without a driver first, nearest pickup first; or, with q, every booking found by reference, phone or jobRef',
      description:
        'A page at a time (limit, 50 by default, and offset), with the total on every page. With q the window and status are ignored: open and closed bookings, most recent pickup first.',
      querystring: OpsBoardPageQuery,
      response: { 200: OpsBoardPage, ...problemResponses(400, 401, 429) },
    },
    config: limited,
    handler: async (request) => {
      await staffMember(s, request);
      const q = request.query;
      return opsBoard(s, {
        status: q.status,
        hoursBack: q.hours_back,
        hoursAhead: q.hours_ahead,
        limit: q.limit,
        offset: q.offset,
        q: q.q,
      });
    },
  });

  r.get('/api/ops/bookings/:ref', {
    schema: {
      operationId: 'opsGetBookingStory',
      tags,
      summary:
        'A booking’s whole story: the booking, its status changes, dispatch rounds, offers, messages sent and payment records',
      params: BookingRefParams,
      response: { 200: OpsBookingStory, ...problemResponses(400, 401, 404, 429) },
    },
    config: limited,
    handler: async (request) => {
      await staffMember(s, request);
      const story = await bookingStory(s, request.params.ref);
      if (!story) throw noBooking(request.params.ref);
      return story;
    },
  });

  r.get('/api/ops/bookings/:ref/decisions', {
    schema: {
      operationId: 'opsGetBookingDecisions',
      tags,
      summary:
        'The dispatch decision log: every driver considered, why skipped, offered, declined, timed out; with driver_id, why that driver was or was not offered the job',
      params: BookingRefParams,
      querystring: OpsDecisionQuery,
      response: { 200: OpsDecisionLog, ...problemResponses(400, 401, 404, 429) },
    },
    config: limited,
    handler: async (request) => {
      await staffMember(s, request);
      const result = await decisionLog(s, request.params.ref, request.query.driver_id ?? null);
      if (result.found === 'no_booking') throw noBooking(request.params.ref);
      if (result.found === 'no_driver')
        throw new ProblemError(404, 'driver_not_found', `No driver ${request.query.driver_id ?? ''}.`);
      return result.log;
    },
  });
}
