import { backgroundWork } from '../http/background-work.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { bookingForHolder, type BookingProof } from '../bookings/access.js';
import { book, refusePartnerNotAllowed, type BookingCaller, type CreatedBooking } from '../bookings/book.js';
import { requestClaimLink, requestOwner } from '../bookings/ownership.js';
import { normalisePhone } from '../passengers/phone.js';
import { cancelBooking } from '../bookings/cancel.js';
import { createdBookingLinks, presentBooking } from '../bookings/present.js';
import { fromAgentCreate, fromAgentInstant } from '../bookings/request/agent.js';
import { fromV1, v1Email, type V1DirectBody, type V1QuoteBody } from '../bookings/request/v1.js';
import { addressKey } from '../http/address.js';
import {
  bodyDigest,
  idempotentRequest,
  readIdempotencyKey,
  recordFailedAttempt,
  withIdempotencyKey,
  type StoredResponse,
} from '../http/idempotency.js';
import { ProblemError, problemResponses } from '../http/problem.js';
import { admitPassengerEmail } from '../passengers/admission.js';
import { checkPassengerEmail } from '../passengers/email.js';
import {
  AgentBookingResponse,
  AgentCreateBookingRequest,
  AgentInstantBookingRequest,
  BookingCancelRequest,
  BookingClaimReply,
  BookingClaimRequest,
  BookingLookupQuery,
  BookingRefParams,
  BookingView,
  V1BookingRequest,
  V1BookingResponse,
} from '../schemas/booking.js';

// Booking routes (spec 4.2, 4.3, 4.5-4.7): each validates, maps its body to the one booking request
// (src/bookings/request/), calls the booking use case (book) and shapes the reply in its
// contract's field names.

const apiKeyOf = (request: FastifyRequest) => (request.caller.kind === 'key' ? request.caller.key : null);

/** Who is booking, given the passenger email they gave: their API key, else their Idempotency-Key, else nobody known. */
type CallerFor = (email: string | null) => BookingCaller;

/**
 * Replays a stored reply for a repeated Idempotency-Key (waiting for it while another request under
 * the key makes it), else runs the booking and stores its reply. The booking learns who is asking
 * (src/bookings/ownership.ts): a retry with the same key that found no stored reply (the first
 * attempt died) is still the same caller.
 */
function idempotent(
  app: FastifyInstance,
  request: FastifyRequest,
  group: string,
  run: (callerFor: CallerFor) => Promise<StoredResponse>,
) {
  const key = readIdempotencyKey(request.headers['idempotency-key']);
  // As the booking allowance read it before validation, when it did (src/plugins/rate-limits.ts).
  const id = key ? (request.idempotentRequest ?? idempotentRequest(group, request.caller, request.body, key)) : null;
  // Kept on the request for the reply's hook below.
  if (id) request.idempotentRequest = id;
  const scope = id?.scope ?? '';
  const callerFor: CallerFor = (email) => ({
    owner: requestOwner({
      apiKeyId: apiKeyOf(request)?.id ?? null,
      idempotency: key && id ? { scope, key } : null,
      email,
      // What a verbatim retry is recognised by (src/bookings/request-owner.ts, issue 37).
      bodyHash: bodyDigest(request.body),
      address: addressKey(request.ip),
    }),
    address: request.ip,
    sandbox: apiKeyOf(request)?.sandbox ?? false,
  });
  return withIdempotencyKey(app.sql, id, () => run(callerFor));
}

/** The problem a refusal was answered with, as its JSON (null when it is not JSON). */
function problemBody(payload: unknown): unknown {
  if (typeof payload !== 'string') return null;
  try {
    return JSON.parse(payload) as unknown;
  } catch {
    return null;
  }
}

function emailOrError(field: string, value: string): string {
  const e = checkPassengerEmail(value);
  if (!e.ok) throw new ProblemError(400, e.code, e.reason, { errors: [{ field: `body.${field}`, message: e.reason }] });
  return e.email;
}

function proofOf(
  given: { email?: string | undefined; token?: string | undefined },
  where: 'body' | 'querystring',
): BookingProof {
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
  const afterReply = backgroundWork(app, 'claim link by reference');

  // A refused request that held its Idempotency-Key's attempt (refused by the allowance, by
  // validation or by the booking): its answer is the one the requests waiting under the key get.
  app.addHook('onSend', async (request, reply, payload) => {
    const id = request.idempotentRequest;
    if (id?.attempt && reply.statusCode >= 400) {
      // Unrecorded (the database away), the attempt goes silent and a waiting request takes it over.
      await recordFailedAttempt(app.sql, id, { status: reply.statusCode, body: problemBody(payload) }).catch(
        (err: unknown) => request.log.warn({ err }, 'could not record a refused Idempotency-Key attempt'),
      );
    }
    return payload;
  });

  r.post('/api/public/bookings/create', {
    schema: {
      operationId: 'createTaxiBooking',
      tags: ['bookings'],
      summary: 'Redeem a quote and book it; the nearest available licensed driver gets a job card',
      description:
        "The same request retried (the same Idempotency-Key, with the same API key if one was used) returns the same booking with a new manage_token; another request under the same API key, or the same body again (the same quote and passenger, from anywhere), gets the booking with manage_token null; any other caller gets 409 booking_exists and the passenger's phone a link to take charge of it. Honours an Idempotency-Key header: use a random one (a UUID) per booking, it is what proves a retry is yours, and concurrent retries under it wait for the first reply.",
      body: AgentCreateBookingRequest,
      response: {
        200: AgentBookingResponse,
        ...problemResponses(400, 401, 403, 404, 409, 410, 413, 415, 422, 429, 503),
      },
    },
    config: { rateLimit: app.rateLimits.booking, idempotencyGroup: 'bookings' },
    handler: async (request, reply) => {
      const booking = fromAgentCreate(request.body);
      const res = await idempotent(app, request, 'bookings', async (callerFor) => {
        const booked = await book(s, booking, callerFor(booking.passenger.email));
        return { status: 200, body: agentReply(booked) };
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
        'One ride per trip: the same phone between the same places at the same pickup time is one booking, however the request is spelled (without depart_at, identical requests are one while that ride is open). ' +
        "Asking again returns the booking, with a new manage_token, only to the request that made it (the same Idempotency-Key, with the same API key if one was used); another request under the same API key, or the same body again from the same address within minutes, gets the booking with manage_token null; anyone else is answered 409 booking_exists, and the passenger's phone is texted a link to take charge of the booking. An Idempotency-Key (random, one per booking) makes retries return the first reply exactly, concurrent ones included (they wait for it). A sandbox key's bookings are rides of their own: never joined with, nor refused for, the same trip booked live.",
      body: AgentInstantBookingRequest,
      response: { 200: AgentBookingResponse, ...problemResponses(400, 401, 403, 409, 413, 415, 422, 429, 503) },
    },
    config: { rateLimit: app.rateLimits.booking, idempotencyGroup: 'bookings' },
    handler: async (request, reply) => {
      const booking = fromAgentInstant(request.body, apiKeyOf(request));
      const res = await idempotent(app, request, 'bookings', async (callerFor) => {
        const booked = await book(s, booking, callerFor(booking.passenger.email));
        return { status: 200, body: agentReply(booked) };
      });
      return reply.code(res.status as 200).send(res.body as never);
    },
  });

  /** v1 booking, either form (spec 4.5): email admitted first, then mapped and booked. */
  async function bookV1(
    request: FastifyRequest,
    body: V1DirectBody | V1QuoteBody,
    callerFor: CallerFor,
  ): Promise<CreatedBooking> {
    await refusePartnerNotAllowed(s, apiKeyOf(request));
    const given = v1Email(body);
    const email = emailOrError(given.field, given.value);
    const { verified } = await admitPassengerEmail(s, email);
    return book(s, fromV1(body, { email, verified, apiKey: apiKeyOf(request) }), callerFor(email));
  }

  for (const url of ['/api/public/v1/booking', '/api/public/v1/bookings']) {
    r.post(url, {
      schema: {
        operationId: url.endsWith('s') ? 'createBookingPlural' : 'createBooking',
        tags: ['bookings'],
        summary: 'Create a ride (direct form, or redeeming a quote_id) and dispatch it to the nearest licensed driver',
        description:
          'Both forms are accepted on both paths. The ride is created and dispatched at once; a confirmation link is emailed to the passenger, which confirms their address and opens the booking with the right to cancel it. An email not verified before may make 8 bookings an hour. ' +
          "One ride per trip (same phone, places and pickup time). Asked again under the same API key, with the email on the booking, or with the same body (redeeming the same quote, or from the same address within minutes), it is answered with the same booking (manage_token only for the request that made it: the same Idempotency-Key, with the same API key if one was used; null otherwise); with another email, 409 booking_exists, and the passenger's phone is texted a link to take charge of it. An Idempotency-Key (random, one per booking) makes retries return the first reply exactly, concurrent ones included (they wait for it). A sandbox key's bookings are rides of their own: never joined with, nor refused for, the same trip booked live.",
        body: V1BookingRequest,
        response: { 201: V1BookingResponse, ...problemResponses(400, 401, 403, 404, 409, 410, 422, 429, 503) },
      },
      config: { rateLimit: app.rateLimits.booking, idempotencyGroup: 'v1-bookings' },
      handler: async (request, reply) => {
        const res = await idempotent(app, request, 'v1-bookings', async (callerFor) => {
          const b = await bookV1(request, request.body, callerFor);
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
      presentBooking(
        await bookingForHolder(s, request.params.ref, proofOf(request.query, 'querystring')),
        s.config.PUBLIC_BASE_URL,
      ),
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

  r.post('/api/public/v1/booking/:ref/claim', {
    schema: {
      operationId: 'claimBooking',
      tags: ['bookings'],
      summary: 'Text the booking’s phone a link to take charge of the booking',
      description:
        'For a passenger whose number is on a booking someone else made or holds: the link (valid 24 hours, once) shows the booking, puts their own name and email on it (or none), revokes every manage_token and confirmation link given out before and gives them their own. Answered the same, at once, whatever the phone (the text is sent after the reply); limited like sign-in codes (UK mobiles only). A sandbox key never texts about a live booking.',
      params: BookingRefParams,
      body: BookingClaimRequest,
      response: { 202: BookingClaimReply, ...problemResponses(400, 429) },
    },
    config: { rateLimit: app.rateLimits.lookup },
    handler: async (request, reply) => {
      const phone = normalisePhone(request.body.passenger_phone);
      if (!phone.ok)
        throw new ProblemError(400, 'validation_failed', phone.reason, {
          errors: [{ field: 'body.passenger_phone', message: phone.reason }],
        });
      // After the reply, whatever the phone: the answer and its timing say nothing about the booking.
      afterReply(() =>
        requestClaimLink(s, request.params.ref, phone.e164, {
          address: request.ip,
          sandbox: apiKeyOf(request)?.sandbox ?? false,
        }),
      );
      return reply.code(202).send({ status: 'link_sent_if_booking_phone' as const });
    },
  });
}
