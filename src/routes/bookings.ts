import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { bookingForHolder, type BookingProof } from '../bookings/access.js';
import { bookQuote, bookTrip, type CreatedBooking } from '../bookings/book.js';
import { cancelBooking } from '../bookings/cancel.js';
import { readPassenger } from '../bookings/passenger-input.js';
import { createdBookingLinks, presentBooking } from '../bookings/present.js';
import { v1VehicleType } from '../bookings/v1-vehicle.js';
import { idempotencyScope, readIdempotencyKey, withIdempotencyKey, type StoredResponse } from '../http/idempotency.js';
import { ProblemError, problemResponses } from '../http/problem.js';
import { admitPassengerEmail } from '../passengers/admission.js';
import { checkPassengerEmail } from '../passengers/email.js';
import { chooseVehicle } from '../quotes/vehicle-choice.js';
import {
  AgentBookingResponse,
  AgentCreateBookingRequest,
  AgentInstantBookingRequest,
  BookingCancelRequest,
  BookingLookupQuery,
  BookingRefParams,
  BookingView,
  V1BookingRequest,
  V1BookingResponse,
  type V1DirectBookingRequest,
  type V1QuoteBookingRequest,
} from '../schemas/booking.js';
import type { z } from 'zod';

// Booking routes (spec 4.2, 4.3, 4.5-4.7): each validates, calls one use case of src/bookings/ and
// shapes the reply in its contract's field names.

type DirectBody = z.infer<typeof V1DirectBookingRequest>;
type QuoteBody = z.infer<typeof V1QuoteBookingRequest>;
const isQuoteForm = (b: DirectBody | QuoteBody): b is QuoteBody => 'quote_id' in b;

/** Replays a stored reply for a repeated Idempotency-Key, else runs the booking and stores its reply. */
function idempotent(app: FastifyInstance, request: FastifyRequest, group: string, run: () => Promise<StoredResponse>) {
  const key = readIdempotencyKey(request.headers['idempotency-key']);
  return withIdempotencyKey(app.sql, { scope: idempotencyScope(group, request.caller, request.body), key, body: request.body }, run);
}

const apiKeyOf = (request: FastifyRequest) => (request.caller.kind === 'key' ? request.caller.key : null);

function emailOrError(field: string, value: string): string {
  const e = checkPassengerEmail(value);
  if (!e.ok) throw new ProblemError(400, e.code, e.reason, { errors: [{ field: `body.${field}`, message: e.reason }] });
  return e.email;
}

function proofOf(given: { email?: string | undefined; token?: string | undefined }, where: 'body' | 'querystring'): BookingProof {
  if (given.token) return { token: given.token };
  if (given.email) return { email: given.email };
  throw new ProblemError(400, 'validation_failed', 'Give the email on the booking, or its manage_token.', {
    errors: [{ field: `${where}.email`, message: 'email or token is required' }],
  });
}

export async function bookingRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const s = app.services;
  const agentReply = (b: CreatedBooking) => createdBookingLinks(b, s.config);

  r.post('/api/public/bookings/create', {
    schema: {
      operationId: 'createTaxiBooking',
      tags: ['bookings'],
      summary: 'Redeem a quote and book it; the nearest available licensed driver gets a job card',
      description: 'The same request retried returns the same booking. Honours an Idempotency-Key header.',
      body: AgentCreateBookingRequest,
      response: { 200: AgentBookingResponse, ...problemResponses(400, 401, 404, 409, 410, 422, 429, 503) },
    },
    config: { rateLimit: app.rateLimits.booking },
    handler: async (request, reply) => {
      const b = request.body;
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
      const res = await idempotent(app, request, 'bookings', async () => {
        const booking = await bookQuote(s, { source: 'agent_create', quoteId: b.quote_id, passenger, awaitEmailConfirmation: false });
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
        'One ride per trip: the same phone between the same places at the same pickup time is one booking, however the request is spelled and whatever Idempotency-Key it carries (without depart_at, identical requests within a short window are one). An Idempotency-Key makes retries return the first reply exactly.',
      body: AgentInstantBookingRequest,
      response: { 200: AgentBookingResponse, ...problemResponses(400, 401, 422, 429, 503) },
    },
    config: { rateLimit: app.rateLimits.booking },
    handler: async (request, reply) => {
      const b = request.body;
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
      const res = await idempotent(app, request, 'bookings', async () => {
        const booking = await bookTrip(s, {
          source: 'agent_instant',
          fields: { pickup: 'pickup_address', dropoff: 'dropoff_address', departAt: 'depart_at' },
          pickup: b.pickup_address,
          dropoff: b.dropoff_address,
          departAt: b.depart_at,
          passengers,
          vehicleType,
          meetAndGreet: false,
          passenger,
          apiKey: apiKeyOf(request),
          awaitEmailConfirmation: false,
        });
        return { status: 200, body: agentReply(booking) };
      });
      return reply.code(res.status as 200).send(res.body as never);
    },
  });

  /** v1 booking, either form (spec 4.5): email admitted first, then the direct or quote use case. */
  async function bookV1(request: FastifyRequest, body: DirectBody | QuoteBody): Promise<CreatedBooking> {
    if (isQuoteForm(body)) {
      const email = emailOrError('passenger_email', body.passenger_email);
      const { verified } = await admitPassengerEmail(s, email);
      const passenger = readPassenger(
        {
          name: { field: 'passenger_name', value: body.passenger_name },
          phone: { field: 'passenger_phone', value: body.passenger_phone },
          email: { field: 'passenger_email', value: email },
          paymentMethod: body.payment_method ?? 'direct_to_driver',
          flightNumber: { field: 'flight_number', value: body.flight_number },
          notes: { field: 'notes', value: body.notes },
        },
        verified,
      );
      return bookQuote(s, { source: 'v1_quote', quoteId: body.quote_id, passenger, awaitEmailConfirmation: !verified });
    }
    const email = emailOrError('passengerEmail', body.passengerEmail);
    const { verified } = await admitPassengerEmail(s, email);
    const passenger = readPassenger(
      {
        name: { field: 'passengerName', value: body.passengerName },
        phone: { field: 'passengerPhone', value: body.passengerPhone },
        email: { field: 'passengerEmail', value: email },
        paymentMethod: body.paymentMethod ?? 'pay_driver',
        flightNumber: { field: 'flightNumber', value: body.flightNumber },
        notes: { field: 'notes', value: body.notes },
      },
      verified,
    );
    const passengers = body.passengers ?? 1;
    return bookTrip(s, {
      source: 'v1_direct',
      fields: { pickup: 'pickup', dropoff: 'dropoff', departAt: 'departAt' },
      pickup: body.pickup,
      dropoff: body.dropoff,
      departAt: body.departAt,
      passengers,
      vehicleType: chooseVehicle(v1VehicleType(body.vehicleType), passengers, 'vehicleType'),
      meetAndGreet: false,
      passenger,
      apiKey: apiKeyOf(request),
      agreedFarePence: body.fareGBP === undefined ? undefined : Math.round(body.fareGBP * 100),
      pickupMayBePast: false,
      awaitEmailConfirmation: !verified,
    });
  }

  for (const url of ['/api/public/v1/booking', '/api/public/v1/bookings']) {
    r.post(url, {
      schema: {
        operationId: url.endsWith('s') ? 'createBookingPlural' : 'createBooking',
        tags: ['bookings'],
        summary: 'Create a ride (direct form, or redeeming a quote_id) and dispatch it to the nearest licensed driver',
        description:
          'Both forms are accepted on both paths. A confirmation link is emailed to the passenger: a booking from an email not verified before is held until that link is opened, then dispatched; a verified email is dispatched at once. One ride per trip (same phone, places and pickup time), whatever Idempotency-Key each request carries; an Idempotency-Key makes retries return the first reply exactly.',
        body: V1BookingRequest,
        response: { 201: V1BookingResponse, ...problemResponses(400, 401, 403, 404, 409, 410, 422, 429, 503) },
      },
      config: { rateLimit: app.rateLimits.booking },
      handler: async (request, reply) => {
        const res = await idempotent(app, request, 'v1-bookings', async () => {
          const b = await bookV1(request, request.body);
          const links = createdBookingLinks(b, s.config);
          return {
            status: 201,
            body: {
              ...links,
              pay_driver_url: `${links.status_url}#pay`,
              email_confirmation: b.state.status === 'awaiting_confirmation' ? 'required' : 'not_required',
            },
          };
        });
        return reply.code(res.status as 201).send(res.body as never);
      },
    });
  }

  r.get('/api/public/v1/booking/:ref', {
    schema: {
      operationId: 'getBooking',
      tags: ['bookings'],
      summary: 'Booking status, pickup time, assigned driver and payment state',
      description: "Give the passenger's email on the booking, or the booking's manage_token.",
      params: BookingRefParams,
      querystring: BookingLookupQuery,
      response: { 200: BookingView, ...problemResponses(400, 401, 403, 404, 429) },
    },
    config: { rateLimit: app.rateLimits.lookup },
    handler: async (request) =>
      presentBooking(await bookingForHolder(s, request.params.ref, proofOf(request.query, 'querystring')), s.config.PUBLIC_BASE_URL),
  });

  r.post('/api/public/v1/booking/:ref', {
    schema: {
      operationId: 'cancelBooking',
      tags: ['bookings'],
      summary: 'Cancel a booking (idempotent: cancelling again answers 200 with the same booking)',
      description:
        "Give the passenger's email on the booking, or the booking's manage_token. A completed journey cannot be cancelled (409 booking_closed), nor one with the passenger on board (409 trip_in_progress).",
      params: BookingRefParams,
      body: BookingCancelRequest,
      response: { 200: BookingView, ...problemResponses(400, 401, 403, 404, 409, 429, 503) },
    },
    config: { rateLimit: app.rateLimits.lookup },
    handler: async (request) => {
      const row = await cancelBooking(s, {
        ref: request.params.ref,
        proof: proofOf(request.body, 'body'),
        reason: request.body.reason ?? null,
        by: 'passenger',
      });
      return presentBooking(row, s.config.PUBLIC_BASE_URL);
    },
  });
}
