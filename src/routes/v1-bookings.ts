import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { AppDeps } from '../app.js';
import { bookQuote, bookTrip, type CreatedBooking } from '../bookings/create-booking.js';
import { readIdempotencyKey, withIdempotencyKey } from '../bookings/idempotency.js';
import { quoteFingerprint, tripFingerprint } from '../bookings/identity.js';
import { verifyConfirmToken } from '../bookings/confirm-link.js';
import { readPassenger } from '../bookings/passenger-input.js';
import { v1VehicleType } from '../bookings/v1-vehicle.js';
import { loadBookingRow, statusUrl } from '../bookings/view-booking.js';
import { ProblemError, problemResponses } from '../http/problem.js';
import { hitCounter } from '../http/pg-rate-limit-store.js';
import { checkPassengerEmail } from '../passengers/email.js';
import { emailStanding, markVerified, sendVerificationCode, verifyCode } from '../passengers/verification.js';
import { html } from '../pages/escape-html.js';
import { messagePage } from '../pages/layout.js';
import { z as zod } from 'zod';
import { priceTrip } from '../quotes/create-quote.js';
import { chooseVehicle } from '../quotes/vehicle-choice.js';
import {
  PassengerVerifyRequest,
  PassengerVerifyResponse,
  V1BookingRequest,
  V1BookingResponse,
  type V1DirectBookingRequest,
  type V1QuoteBookingRequest,
} from '../schemas/booking.js';
import { gbp } from '../schemas/common.js';

type DirectBody = z.infer<typeof V1DirectBookingRequest>;
type QuoteBody = z.infer<typeof V1QuoteBookingRequest>;
const isQuoteForm = (b: DirectBody | QuoteBody): b is QuoteBody => 'quote_id' in b;

const HOUR_MS = 3600_000;

export async function v1BookingRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { config, sql } = deps;
  const base = config.PUBLIC_BASE_URL;
  const bookingDeps = { sql, temporal: deps.temporal, config };

  /**
   * Per-email allowance: an unconfirmed email gets a few price checks an hour (spec section 8), a
   * verified one more; a blocked account none.
   */
  async function admitEmail(email: string): Promise<{ verified: boolean }> {
    const standing = await emailStanding(sql, email);
    if (standing.blocked) throw new ProblemError(403, 'passenger_blocked', 'This passenger account is blocked. Contact support.');
    const max = standing.verified ? config.VERIFIED_EMAIL_BOOKINGS_PER_HOUR : config.UNVERIFIED_EMAIL_BOOKINGS_PER_HOUR;
    const { current, ttl } = await hitCounter(sql, `email:${email}`, HOUR_MS);
    if (current > max) {
      throw new ProblemError(429, 'email_rate_limited', `Too many bookings or price checks from this email; retry in ${Math.ceil(ttl / 1000)} s.`, {
        headers: { 'retry-after': String(Math.ceil(ttl / 1000)) },
      });
    }
    return { verified: standing.verified };
  }

  function emailOrError(field: string, value: string): string {
    const e = checkPassengerEmail(value);
    if (!e.ok) throw new ProblemError(400, e.code, e.reason, { errors: [{ field: `body.${field}`, message: e.reason }] });
    return e.email;
  }

  async function book(request: FastifyRequest, body: DirectBody | QuoteBody): Promise<CreatedBooking> {
    const caller = request.caller;
    const scope = `v1-bookings:${caller.kind === 'key' ? caller.key.id : 'anonymous'}`;
    const key = readIdempotencyKey(request.headers['idempotency-key']);
    if (isQuoteForm(body)) {
      const email = emailOrError('passenger_email', body.passenger_email);
      const { verified } = await admitEmail(email);
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
      const identity = key ? `idem:${scope}:${key}` : `fp:${quoteFingerprint({ phone: passenger.phone, quoteId: body.quote_id })}`;
      return bookQuote(bookingDeps, { identity, quoteId: body.quote_id, source: 'v1_quote', passenger, awaitEmailConfirmation: !verified });
    }

    const email = emailOrError('passengerEmail', body.passengerEmail);
    if (body.fareGBP !== undefined && !(caller.kind === 'key' && caller.key.partnerId)) {
      throw new ProblemError(403, 'fare_not_allowed', 'Only partner keys may supply fareGBP; omit it to be priced on the published tariff.');
    }
    if (Date.parse(body.departAt) < Date.now()) {
      throw new ProblemError(400, 'depart_at_in_past', 'The pickup time is in the past.', {
        errors: [{ field: 'body.departAt', message: 'must not be in the past' }],
      });
    }
    const { verified } = await admitEmail(email);
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
    const vehicleType = chooseVehicle(v1VehicleType(body.vehicleType), passengers, 'vehicleType');
    const trip = await priceTrip(
      { sql, geocoder: deps.geo.geocoder, router: deps.geo.router, now: deps.now },
      {
        fields: { pickup: 'pickup', dropoff: 'dropoff', departAt: 'departAt' },
        pickup: body.pickup,
        dropoff: body.dropoff,
        departAt: body.departAt,
        vehicleType,
        passengers,
        meetAndGreet: false,
        worldwide: false,
        apiKey: caller.kind === 'key' ? caller.key : null,
      },
    );
    const fingerprint = tripFingerprint({ phone: passenger.phone, pickup: body.pickup, dropoff: body.dropoff, departAt: body.departAt });
    const identity = key ? `idem:${scope}:${key}` : `fp:${fingerprint}`;
    return bookTrip(bookingDeps, {
      identity,
      fingerprint,
      source: 'v1_direct',
      trip,
      query: { pickup: body.pickup, dropoff: body.dropoff },
      passengers,
      vehicleType,
      passenger,
      ...(body.fareGBP !== undefined ? { farePence: Math.round(body.fareGBP * 100) } : {}),
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
          'Both forms are accepted on both paths. A confirmation link is emailed to the passenger: a booking from an email not verified before is held until that link is opened, then dispatched; a verified email is dispatched at once. Honours Idempotency-Key; identical requests make one booking.',
        body: V1BookingRequest,
        response: { 201: V1BookingResponse, ...problemResponses(400, 401, 403, 404, 409, 410, 422, 429) },
      },
      handler: async (request, reply) => {
        const key = readIdempotencyKey(request.headers['idempotency-key']);
        const scope = `v1-bookings:${request.caller.kind === 'key' ? request.caller.key.id : 'anonymous'}`;
        const res = await withIdempotencyKey(sql, { scope, key, body: request.body }, async () => {
          const b = await book(request, request.body);
          return {
            status: 201,
            body: {
              booking_reference: b.ref,
              status: b.state.status,
              status_url: statusUrl(base, b.ref),
              pay_driver_url: `${statusUrl(base, b.ref)}#pay`,
              fare: gbp(b.farePence),
              currency: 'GBP',
              email_confirmation: b.state.status === 'awaiting_confirmation' ? 'required' : 'not_required',
            },
          };
        });
        return reply.code(res.status as 201).send(res.body as never);
      },
    });
  }

  r.post('/api/public/v1/passenger-verify', {
    schema: {
      operationId: 'verifyPassenger',
      tags: ['bookings'],
      summary: 'Verify a passenger email: send {email} to get a code, then {email, code} to confirm it',
      description: 'Disposable and role addresses are refused. Bookings held for this email are dispatched once it is verified.',
      body: PassengerVerifyRequest,
      response: { 200: PassengerVerifyResponse, ...problemResponses(400, 403, 410, 429) },
    },
    config: { rateLimit: deps.quoteRateLimit },
    handler: async (request) => {
      const email = emailOrError('email', request.body.email);
      const standing = await emailStanding(sql, email);
      if (standing.blocked) throw new ProblemError(403, 'passenger_blocked', 'This passenger account is blocked. Contact support.');
      if (!request.body.code) {
        if (standing.verified) return { email, status: 'verified' as const };
        await sendVerificationCode({ sql, notifier: deps.notifier }, email);
        return { email, status: 'code_sent' as const };
      }
      const result = await verifyCode({ sql, temporal: deps.temporal }, email, request.body.code);
      if (result === 'verified') return { email, status: 'verified' as const };
      if (result === 'wrong_code') throw new ProblemError(400, 'wrong_code', 'That code is not right.', { errors: [{ field: 'body.code', message: 'does not match' }] });
      if (result === 'too_many_attempts') throw new ProblemError(429, 'too_many_attempts', 'Too many wrong codes; ask for a new one.');
      throw new ProblemError(410, 'code_expired', 'The code has expired; ask for a new one.');
    },
  });

  // The link in the booking confirmation email: proves the passenger reads that mailbox, which
  // releases every booking held for it.
  r.get('/confirm/:ref', {
    schema: { hide: true, params: zod.object({ ref: zod.string().max(20) }), querystring: zod.object({ t: zod.string().max(100).default('') }) },
    handler: async (request, reply) => {
      const { ref } = request.params;
      const row = verifyConfirmToken(config.JOB_LINK_SECRET, ref, request.query.t) ? await loadBookingRow(sql, ref) : null;
      const page =
        row?.passenger_email
          ? (await markVerified({ sql, temporal: deps.temporal }, row.passenger_email.toLowerCase()),
            messagePage(200, 'Booking confirmed', html`<p>Thank you. Booking <strong>${ref}</strong> is confirmed and is being sent to a driver.</p><p><a href="/track/${ref}">Track your taxi</a></p>`))
          : messagePage(403, 'Link not valid', html`<p>This confirmation link is not valid. Please use the link from your email.</p>`);
      return reply.code(page.status).header('content-security-policy', page.csp).type('text/html; charset=utf-8').send(page.html);
    },
  });
}
