import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { dashboardFor, jobsFor } from '../drivers/app.js';
import { confirmPayment, reportTrip, respondToOffer } from '../drivers/offers.js';
import { applyAsDriver } from '../drivers/onboarding.js';
import { requestSignInCode, verifySignInCode } from '../drivers/sign-in.js';
import { revokeSession } from '../drivers/session-store.js';
import { setAvailability, setLocation, setPaymentOptions } from '../drivers/store.js';
import { signedInDriver } from '../http/auth.js';
import { ProblemError, problemResponses } from '../http/problem.js';
import { normaliseInternationalPhone } from '../passengers/phone.js';
import { OfferResponseReply, SettlementReply, TripEventReply } from '../schemas/booking.js';
import {
  AvailabilityReply,
  AvailabilityRequest,
  DriverDashboard,
  DriverApplicationReply,
  DriverApplicationRequest,
  DriverJobParams,
  DriverJobsReply,
  DriverPaymentRequest,
  DriverRespondRequest,
  DriverTripRequest,
  LocationRequest,
  NoContent,
  PaymentOptionsRequest,
  SignInReply,
  SignInRequest,
  SignInVerifyReply,
  SignInVerifyRequest,
} from '../schemas/drivers.js';

// The driver app's API: applying, signing in with a texted code, going online, sharing location,
// the job feed (spec 4.9) and answering and driving jobs. A signed-in driver sends their session
// as `Authorization: Bearer drs_...` and sees and touches only their own jobs.

const APPLICATION_BODY_LIMIT = 48 * 1024 * 1024;

function phoneOrProblem(input: string, field = 'body.phone'): string {
  const p = normaliseInternationalPhone(input);
  if (!p.ok) throw new ProblemError(400, 'validation_failed', p.reason, { errors: [{ field, message: p.reason }] });
  return p.e164;
}

export async function driverAppRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const s = app.services;
  const tags = ['driver app'];
  const limited = { rateLimit: app.rateLimits.driver };

  r.post('/api/drivers/applications', {
    bodyLimit: APPLICATION_BODY_LIMIT,
    schema: {
      operationId: 'applyAsDriver',
      tags,
      summary: 'Apply to drive: licensing details and documents; an operator reviews the application',
      body: DriverApplicationRequest,
      response: { 201: DriverApplicationReply, ...problemResponses(400, 409, 413, 415, 422, 429, 503) },
    },
    config: { rateLimit: app.rateLimits.booking },
    handler: async (request, reply) => {
      const b = request.body;
      const result = await applyAsDriver(
        s,
        {
          name: b.name,
          phone: phoneOrProblem(b.phone),
          email: b.email.toLowerCase(),
          licensingAuthority: b.licensing_authority,
          driverLicenceNumber: b.driver_licence_number,
          driverLicenceExpires: b.driver_licence_expires,
          vehicleLicenceNumber: b.vehicle_licence_number,
          vehicleLicenceExpires: b.vehicle_licence_expires,
          vehicleMake: b.vehicle_make,
          vehicleModel: b.vehicle_model,
          vehicleRegistration: b.vehicle_registration.toUpperCase(),
          vehicleType: b.vehicle_type,
          seats: b.seats,
          wheelchairAccessible: b.wheelchair_accessible,
          homeArea: b.home_area,
          tier: b.tier,
          partnerFleetId: b.partner_fleet_id,
        },
        b.documents.map((d) => ({ kind: d.kind, contentType: d.content_type, base64: d.data_base64 })),
      );
      return reply.code(201).send({ driver_id: result.driverId, status: 'applicant' as const });
    },
  });

  r.post('/api/driver/sign-in', {
    schema: {
      operationId: 'driverSignIn',
      tags,
      summary: 'Text a one-time sign-in code to an approved driver’s phone (the reply is the same for any number)',
      body: SignInRequest,
      response: { 202: SignInReply, ...problemResponses(400, 429) },
    },
    config: limited,
    handler: async (request, reply) => {
      await requestSignInCode(s, phoneOrProblem(request.body.phone));
      return reply.code(202).send({ status: 'code_sent_if_registered' as const });
    },
  });

  r.post('/api/driver/sign-in/verify', {
    schema: {
      operationId: 'driverSignInVerify',
      tags,
      summary: 'Exchange the texted code for a session token (five tries per code, ten minutes)',
      body: SignInVerifyRequest,
      response: { 200: SignInVerifyReply, ...problemResponses(400, 401, 429) },
    },
    config: limited,
    handler: async (request) => {
      const { token, driverId } = await verifySignInCode(s, phoneOrProblem(request.body.phone), request.body.code);
      return { token, driver_id: driverId };
    },
  });

  r.post('/api/driver/sign-out', {
    schema: { operationId: 'driverSignOut', tags, summary: 'End this session', response: { 204: NoContent, ...problemResponses(401, 429) } },
    config: limited,
    handler: async (request, reply) => {
      const me = await signedInDriver(s, request);
      await revokeSession(s.sql, me.tokenHash);
      return reply.code(204).send(null);
    },
  });

  r.get('/api/driver/me', {
    schema: { operationId: 'driverDashboard', tags, summary: 'The signed-in driver: status, rides, earnings, dead mileage, weeks, subscription, invoices', response: { 200: DriverDashboard, ...problemResponses(401, 429) } },
    config: limited,
    handler: async (request) => {
      const me = await signedInDriver(s, request);
      const dashboard = await dashboardFor(s, me.driverId);
      if (!dashboard) throw new ProblemError(401, 'not_signed_in', 'Sign in again.');
      return dashboard;
    },
  });

  r.post('/api/driver/availability', {
    schema: { operationId: 'driverAvailability', tags, summary: 'Go online or offline', body: AvailabilityRequest, response: { 200: AvailabilityReply, ...problemResponses(400, 401, 403, 429) } },
    config: limited,
    handler: async (request) => {
      const me = await signedInDriver(s, request);
      if (!(await setAvailability(s.sql, me.driverId, request.body.online))) {
        throw new ProblemError(403, 'not_approved', 'Only an approved driver can go online.');
      }
      return { online: request.body.online };
    },
  });

  r.post('/api/driver/location', {
    schema: { operationId: 'driverLocation', tags, summary: 'Where the driver is (browser geolocation, or a native app)', body: LocationRequest, response: { 204: NoContent, ...problemResponses(400, 401, 429) } },
    config: limited,
    handler: async (request, reply) => {
      const me = await signedInDriver(s, request);
      await setLocation(s.sql, me.driverId, request.body.lat, request.body.lon);
      return reply.code(204).send(null);
    },
  });

  r.put('/api/driver/payment-options', {
    schema: { operationId: 'driverPaymentOptions', tags, summary: 'How the driver takes payment (shown to their passengers)', body: PaymentOptionsRequest, response: { 200: PaymentOptionsRequest, ...problemResponses(400, 401, 429) } },
    config: limited,
    handler: async (request) => {
      const me = await signedInDriver(s, request);
      await setPaymentOptions(s.sql, me.driverId, request.body);
      return request.body;
    },
  });

  r.get('/api/public/v1/jobs', {
    schema: {
      operationId: 'getDriverJobs',
      tags,
      summary: 'The signed-in driver’s feed: offers open to them and the jobs they hold',
      response: { 200: DriverJobsReply, ...problemResponses(401, 429) },
    },
    config: limited,
    handler: async (request) => {
      const me = await signedInDriver(s, request);
      return { jobs: await jobsFor(s, me.driverId) };
    },
  });

  r.post('/api/driver/jobs/:offerId/respond', {
    schema: { operationId: 'driverRespond', tags, summary: 'Accept or decline an offer', params: DriverJobParams, body: DriverRespondRequest, response: { 200: OfferResponseReply, ...problemResponses(400, 401, 404, 409, 410, 429, 503) } },
    config: limited,
    handler: async (request) => {
      const me = await signedInDriver(s, request);
      const { result, ref } = await respondToOffer(s, { offerId: request.params.offerId, driverId: me.driverId, decision: request.body.decision });
      return { result, booking_reference: ref };
    },
  });

  r.post('/api/driver/jobs/:offerId/trip', {
    schema: { operationId: 'driverTrip', tags, summary: 'Report the trip’s next step, or give the job back', params: DriverJobParams, body: DriverTripRequest, response: { 202: TripEventReply, ...problemResponses(400, 401, 404, 409, 429, 503) } },
    config: limited,
    handler: async (request, reply) => {
      const me = await signedInDriver(s, request);
      const { ref, status } = await reportTrip(s, { offerId: request.params.offerId, driverId: me.driverId, event: request.body.event });
      return reply.code(202).send({ booking_reference: ref, event: request.body.event, status });
    },
  });

  r.post('/api/driver/jobs/:offerId/payment', {
    schema: { operationId: 'driverPayment', tags, summary: 'Confirm what the passenger paid (once; an immutable payment record)', params: DriverJobParams, body: DriverPaymentRequest, response: { 200: SettlementReply, ...problemResponses(400, 401, 403, 404, 409, 429, 503) } },
    config: limited,
    handler: async (request) => {
      const me = await signedInDriver(s, request);
      const { amount, method, reason } = request.body;
      const { ref, payment } = await confirmPayment(s, {
        offerId: request.params.offerId,
        driverId: me.driverId,
        method,
        reason,
        ...(amount === undefined ? {} : { amountPence: Math.round(amount * 100) }),
      });
      return { booking_reference: ref, payment: { amount: payment.amountPence / 100, method: payment.method, recorded_at: payment.recordedAt, recorded_by: payment.recordedBy } };
    },
  });
}
