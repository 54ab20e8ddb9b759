import { WorkflowUpdateFailedError } from '@temporalio/client';
import { WorkflowNotFoundError } from '@temporalio/common';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppDeps } from '../app.js';
import { bookQuote, bookTrip, type CreatedBooking } from '../bookings/create-booking.js';
import { readIdempotencyKey, withIdempotencyKey } from '../bookings/idempotency.js';
import { quoteFingerprint, tripFingerprint } from '../bookings/identity.js';
import { readPassenger } from '../bookings/passenger-input.js';
import { bookingForPassenger, presentBooking, statusUrl } from '../bookings/view-booking.js';
import { ProblemError, problemResponses } from '../http/problem.js';
import { priceTrip } from '../quotes/create-quote.js';
import { chooseVehicle } from '../quotes/vehicle-choice.js';
import {
  AgentBookingResponse,
  AgentCreateBookingRequest,
  AgentInstantBookingRequest,
  BookingCancelRequest,
  BookingLookupQuery,
  BookingRefParams,
  BookingView,
} from '../schemas/booking.js';
import { gbp } from '../schemas/common.js';
import { bookingWorkflowId, cancelBookingUpdate } from '../../workflows/booking-definitions.js';

/** Idempotency keys are per caller: two clients choosing the same key never share a booking. */
function idempotencyScope(request: FastifyRequest, group: string): string {
  return `${group}:${request.caller.kind === 'key' ? request.caller.key.id : 'anonymous'}`;
}

export async function bookingRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const base = deps.config.PUBLIC_BASE_URL;
  const bookingDeps = { sql: deps.sql, temporal: deps.temporal, config: deps.config };
  const agentReply = (b: CreatedBooking) => ({
    booking_reference: b.ref,
    status: b.state.status,
    status_url: statusUrl(base, b.ref),
    fare: gbp(b.farePence),
    currency: 'GBP' as const,
  });

  r.post('/api/public/bookings/create', {
    schema: {
      operationId: 'createTaxiBooking',
      tags: ['bookings'],
      summary: 'Redeem a quote and book it; the nearest available licensed driver gets a job card',
      description: 'The same request retried returns the same booking. Honours an Idempotency-Key header.',
      body: AgentCreateBookingRequest,
      response: { 200: AgentBookingResponse, ...problemResponses(400, 401, 404, 409, 410, 422, 429) },
    },
    handler: async (request, reply) => {
      const b = request.body;
      const key = readIdempotencyKey(request.headers['idempotency-key']);
      const passenger = readPassenger(
        {
          name: { field: 'passenger_name', value: b.passenger_name },
          phone: { field: 'passenger_phone_whatsapp', value: b.passenger_phone_whatsapp },
          email: { field: 'passenger_email', value: b.passenger_email },
          paymentMethod: b.payment_method,
          flightNumber: { field: 'flight_number', value: b.flight_number },
          notes: { field: 'notes', value: b.notes },
        },
        false,
      );
      const scope = idempotencyScope(request, 'bookings');
      const res = await withIdempotencyKey(deps.sql, { scope, key, body: b }, async () => {
        const identity = key ? `idem:${scope}:${key}` : `fp:${quoteFingerprint({ phone: passenger.phone, quoteId: b.quote_id })}`;
        const booking = await bookQuote(bookingDeps, {
          identity,
          quoteId: b.quote_id,
          source: 'agent_create',
          passenger,
          awaitEmailConfirmation: false,
        });
        return { status: 200, body: agentReply(booking) };
      });
      return reply.code(res.status as 200).send(res.body as never);
    },
  });

  r.post('/api/public/bookings/instant', {
    schema: {
      operationId: 'createInstantTaxiBooking',
      tags: ['bookings'],
      summary: 'Price on the regulated tariff, book and dispatch in one call',
      description:
        'Identical requests (same phone, pickup, drop-off and time) within a short window make one booking; an Idempotency-Key header makes retries exact.',
      body: AgentInstantBookingRequest,
      response: { 200: AgentBookingResponse, ...problemResponses(400, 401, 422, 429) },
    },
    config: { rateLimit: deps.bookingRateLimit },
    handler: async (request, reply) => {
      const b = request.body;
      const key = readIdempotencyKey(request.headers['idempotency-key']);
      const passenger = readPassenger(
        {
          name: { field: 'passenger_name', value: b.passenger_name },
          phone: { field: 'passenger_phone_whatsapp', value: b.passenger_phone_whatsapp },
          email: { field: 'passenger_email', value: b.passenger_email },
          paymentMethod: b.payment_method ?? 'cash_to_driver',
          flightNumber: { field: 'flight_number', value: b.flight_number },
          notes: { field: 'notes', value: b.notes },
          agent: { field: 'agent', value: b.agent },
        },
        false,
      );
      const passengers = b.passenger_count ?? 1;
      const vehicleType = chooseVehicle(b.vehicle_type, passengers, 'vehicle_type');
      const scope = idempotencyScope(request, 'bookings');
      const res = await withIdempotencyKey(deps.sql, { scope, key, body: b }, async () => {
        const trip = await priceTrip(
          { sql: deps.sql, geocoder: deps.geo.geocoder, router: deps.geo.router, now: deps.now },
          {
            fields: { pickup: 'pickup_address', dropoff: 'dropoff_address', departAt: 'depart_at' },
            pickup: b.pickup_address,
            dropoff: b.dropoff_address,
            departAt: b.depart_at,
            vehicleType,
            passengers,
            meetAndGreet: false,
            worldwide: false,
            apiKey: request.caller.kind === 'key' ? request.caller.key : null,
          },
        );
        const fingerprint = tripFingerprint({
          phone: passenger.phone,
          pickup: b.pickup_address,
          dropoff: b.dropoff_address,
          departAt: b.depart_at ?? null,
        });
        const windowMs = deps.config.BOOKING_DEDUPE_WINDOW_SECONDS * 1000;
        const identity = key ? `idem:${scope}:${key}` : `fp:${fingerprint}:${Math.floor(Date.now() / windowMs)}`;
        const booking = await bookTrip(bookingDeps, {
          identity,
          fingerprint,
          source: 'agent_instant',
          trip,
          query: { pickup: b.pickup_address, dropoff: b.dropoff_address },
          passengers,
          vehicleType,
          passenger,
          awaitEmailConfirmation: false,
        });
        return { status: 200, body: agentReply(booking) };
      });
      return reply.code(res.status as 200).send(res.body as never);
    },
  });

  r.get('/api/public/v1/booking/:ref', {
    schema: {
      operationId: 'getBooking',
      tags: ['bookings'],
      summary: 'Booking status, pickup time, assigned driver and payment state',
      params: BookingRefParams,
      querystring: BookingLookupQuery,
      response: { 200: BookingView, ...problemResponses(400, 403, 404) },
    },
    handler: async (request) => presentBooking(await bookingForPassenger(deps.sql, request.params.ref, request.query.email), base),
  });

  r.post('/api/public/v1/booking/:ref', {
    schema: {
      operationId: 'cancelBooking',
      tags: ['bookings'],
      summary: 'Cancel a booking (idempotent: cancelling again answers 200 with the same booking)',
      params: BookingRefParams,
      body: BookingCancelRequest,
      response: { 200: BookingView, ...problemResponses(400, 403, 404, 409) },
    },
    handler: async (request) => {
      const { ref } = request.params;
      const row = await bookingForPassenger(deps.sql, ref, request.body.email);
      if (row.status !== 'cancelled') {
        try {
          await deps.temporal.workflow
            .getHandle(bookingWorkflowId(ref))
            .executeUpdate(cancelBookingUpdate, { args: [{ reason: request.body.reason ?? null, by: 'passenger' }] });
        } catch (err) {
          if (err instanceof WorkflowUpdateFailedError) {
            throw new ProblemError(409, 'booking_closed', `Booking ${ref} is already completed and cannot be cancelled.`);
          }
          // The workflow closes once a booking can no longer be served (unassigned past pickup):
          // nothing is running to stop, so the record alone is marked.
          if (!(err instanceof WorkflowNotFoundError)) throw err;
          await deps.sql`update bookings set status = 'cancelled', cancelled_at = now(), cancel_reason = ${request.body.reason ?? null}
                          where ref = ${ref} and status not in ('cancelled', 'completed')`;
        }
      }
      return presentBooking(await bookingForPassenger(deps.sql, ref, request.body.email), base);
    },
  });
}
