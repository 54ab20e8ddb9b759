import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { dashboardFor, jobsFor } from '../drivers/app.js';
import { confirmPayment, offersSeen, reportTrip, respondToOffer } from '../drivers/offers.js';
import { admitApplication, APPLICATION_BODY_LIMIT } from '../drivers/application-limits.js';
import { applyAsDriver } from '../drivers/onboarding.js';
import { assertDriverMayWork } from '../drivers/suspension.js';
import { requestSignInCode, verifySignInCode } from '../drivers/sign-in.js';
import { revokeSession } from '../drivers/session-store.js';
import { setAvailability, setLocation, setPaymentOptions } from '../drivers/store.js';
import { signedInDriver } from '../plugins/auth.js';
import { ProblemError, problemResponses } from '../http/problem.js';
import { applicationUploadSlots } from '../http/upload-slots.js';
import { normalisePhone } from '../passengers/phone.js';
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
  MapServiceRequest,
  MapServiceStatus,
  NoContent,
  PaymentOptionsRequest,
  SignInReply,
  SignInRequest,
  SignInVerifyReply,
  SignInVerifyRequest,
  UpcomingClaimReply,
  UpcomingJobParams,
  UpcomingJobsQuery,
  UpcomingJobsReply,
} from '../schemas/drivers.js';
import { claimUpcomingJob, upcomingJobsFor } from '../drivers/upcoming.js';

// The driver app's API: applying, signing in with a texted code, going online, sharing location,
// the job feed (spec 4.9) and answering and driving jobs. A signed-in driver sends their session
// as `Authorization: Bearer drs_...` and sees and touches only their own jobs; a suspended driver
// none (403 driver_suspended).

function phoneOrProblem(input: string, field = 'body.phone'): string {
  const p = normalisePhone(input);
  if (!p.ok) throw new ProblemError(400, 'validation_failed', p.reason, { errors: [{ field, message: p.reason }] });
  return p.e164;
}

export async function driverAppRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const s = app.services;
  const tags = ['driver app'];
  const limited = { rateLimit: app.rateLimits.driver };

  // An application is up to 16 MB of JSON, held in memory from the first byte read to the row
  // written: how many are in flight, not how many an hour, bounds the process's memory. A body over
  // the limit is refused by its Content-Length (413) and the hourly ceiling counted before a byte of
  // it is read; a slot is taken once its first bytes arrive, and kept only while they keep coming
  // (src/http/upload-slots.ts, docs/security/onboarding.md).
  const applicationSlots = applicationUploadSlots(s.config);
  r.post('/api/drivers/applications', {
    bodyLimit: APPLICATION_BODY_LIMIT,
    onRequest: applicationSlots.declared,
    preParsing: applicationSlots.admit,
    schema: {
      operationId: 'applyAsDriver',
      tags,
      summary: `Apply to drive: licensing details and documents; an operator reviews the application. At most ${APPLICATION_BODY_LIMIT} bytes (413 beyond, by Content-Length); one upload at a time per address, waiting briefly for a free one (503 with Retry-After beyond); a body that stalls or trickles is cut off (408)`,
      body: DriverApplicationRequest,
      response: { 201: DriverApplicationReply, ...problemResponses(400, 408, 409, 413, 415, 422, 429, 503) },
    },
    config: { rateLimit: app.rateLimits.application },
    handler: async (request, reply) => {
      const b = request.body;
      const phone = phoneOrProblem(b.phone);
      const { caller } = request;
      await admitApplication(s, {
        phone,
        rateKey: caller.rateKey,
        exempt: caller.kind === 'key' && caller.key.rateLimitExempt,
      });
      const result = await applyAsDriver(
        s,
        {
          name: b.name,
          phone,
          email: b.email.toLowerCase(),
          licensingAuthority: b.licensing_authority,
          driverLicenceNumber: b.driver_licence_number,
          driverLicenceExpires: b.driver_licence_expires,
          vehicleLicenceNumber: b.vehicle_licence_number,
          vehicleLicenceExpires: b.vehicle_licence_expires,
          vehicleMake: b.vehicle_make,
          vehicleModel: b.vehicle_model,
          vehicleRegistration: b.vehicle_registration.toUpperCase(),
          // Left blank on the form: no colour on file.
          vehicleColour: b.vehicle_colour || null,
          vehicleType: b.vehicle_type,
          seats: b.seats,
          wheelchairAccessible: b.wheelchair_accessible,
          homeArea: b.home_area,
          tier: b.tier,
          requestedFleetId: b.partner_fleet_id,
        },
        b.documents.map((d) => ({ kind: d.kind, contentType: d.content_type, base64: d.data_base64 })),
      );
      return reply.code(201).send({
        driver_id: result.driverId,
        status: 'applicant' as const,
        fleet_request: result.requestedFleetId
          ? { fleet_id: result.requestedFleetId, status: 'pending' as const }
          : null,
      });
    },
  });

  r.post('/api/driver/sign-in', {
    schema: {
      operationId: 'driverSignIn',
      tags,
      summary: 'Text a one-time sign-in code to an approved driver’s phone (the reply is the same for any number)',
      description:
        'UK mobiles only (national 07... or +44 format). One address may have at most SIGN_IN_CODES_PER_HOUR codes an hour (SIGN_IN_CODES_PER_DAY a day) sent to one phone, and ask a limited number of times an hour in all; a phone gets at most SIGN_IN_CODES_PER_RECIPIENT_PER_DAY from all addresses together, except from an address it has signed in from (429 beyond). A code is bound to the address that asked for it: verify from the same network. Codes stop for the day only at the service-wide ceiling (503), which codes to new numbers cannot spend. Sign-in codes are never billed to the driver.',
      body: SignInRequest,
      response: { 202: SignInReply, ...problemResponses(400, 429, 503) },
    },
    config: limited,
    handler: async (request, reply) => {
      await requestSignInCode(s, phoneOrProblem(request.body.phone), { address: request.ip });
      return reply.code(202).send({ status: 'code_sent_if_registered' as const });
    },
  });

  r.post('/api/driver/sign-in/verify', {
    schema: {
      operationId: 'driverSignInVerify',
      tags,
      summary: 'Exchange the texted code for a session token (five tries per code, ten minutes)',
      description:
        'The code checked is the one asked for from this address (IPv6 by /64). Wrong codes count against the phone for the address that sent them, across codes: five in a row lock its sign-in from that address for SIGN_IN_LOCK_MINUTES (15), each further lock twice as long up to SIGN_IN_LOCK_MAX_MINUTES (30), answered 429 with Retry-After until it ends; other addresses are not held.',
      body: SignInVerifyRequest,
      response: { 200: SignInVerifyReply, ...problemResponses(400, 401, 429) },
    },
    config: limited,
    handler: async (request) => {
      const { token, driverId } = await verifySignInCode(s, phoneOrProblem(request.body.phone), request.body.code, {
        address: request.ip,
      });
      return { token, driver_id: driverId };
    },
  });

  r.post('/api/driver/sign-out', {
    schema: {
      operationId: 'driverSignOut',
      tags,
      summary: 'End this session',
      response: { 204: NoContent, ...problemResponses(400, 401, 429) },
    },
    config: limited,
    handler: async (request, reply) => {
      const me = await signedInDriver(s, request);
      await revokeSession(s.sql, me.tokenHash);
      return reply.code(204).send(null);
    },
  });

  r.get('/api/driver/me', {
    schema: {
      operationId: 'driverDashboard',
      tags,
      summary: 'The signed-in driver: status, rides, earnings, dead mileage, weeks, subscription, invoices',
      response: { 200: DriverDashboard, ...problemResponses(400, 401, 429) },
    },
    config: limited,
    handler: async (request) => {
      const me = await signedInDriver(s, request);
      const dashboard = await dashboardFor(s, me.driverId);
      if (!dashboard) throw new ProblemError(401, 'not_signed_in', 'Sign in again.');
      return dashboard;
    },
  });

  r.post('/api/driver/availability', {
    schema: {
      operationId: 'driverAvailability',
      tags,
      summary: 'Go online or offline',
      body: AvailabilityRequest,
      response: { 200: AvailabilityReply, ...problemResponses(400, 401, 403, 429) },
    },
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
    schema: {
      operationId: 'driverLocation',
      tags,
      summary: 'Where the driver is (browser geolocation, or a native app)',
      body: LocationRequest,
      response: { 204: NoContent, ...problemResponses(400, 401, 429) },
    },
    config: limited,
    handler: async (request, reply) => {
      const me = await signedInDriver(s, request);
      await setLocation(s.sql, me.driverId, request.body.lat, request.body.lon);
      return reply.code(204).send(null);
    },
  });

  r.put('/api/driver/payment-options', {
    schema: {
      operationId: 'driverPaymentOptions',
      tags,
      summary: 'How the driver takes payment (shown to their passengers)',
      body: PaymentOptionsRequest,
      response: { 200: PaymentOptionsRequest, ...problemResponses(400, 401, 403, 429) },
    },
    config: limited,
    handler: async (request) => {
      const me = await signedInDriver(s, request);
      // What a passenger on board is shown to pay with: not for a suspended driver to change.
      await assertDriverMayWork(s, me.driverId);
      await setPaymentOptions(s.sql, me.driverId, request.body);
      return request.body;
    },
  });

  r.put('/api/driver/map-service', {
    schema: {
      operationId: 'driverMapServiceSet',
      tags,
      summary: "Keep the driver's own map-service key (Mapbox): their ETAs to pickups are routed and billed on it",
      body: MapServiceRequest,
      response: { 200: MapServiceStatus, ...problemResponses(400, 401, 422, 429, 503) },
    },
    config: limited,
    handler: async (request) => {
      const me = await signedInDriver(s, request);
      return s.driverMaps.setKey(me.driverId, request.body);
    },
  });

  r.delete('/api/driver/map-service', {
    schema: {
      operationId: 'driverMapServiceRemove',
      tags,
      summary: "Forget the driver's map-service key: their ETAs go back to the service's estimate",
      response: { 204: NoContent, ...problemResponses(401, 429) },
    },
    config: limited,
    handler: async (request, reply) => {
      const me = await signedInDriver(s, request);
      await s.driverMaps.removeKey(me.driverId);
      return reply.code(204).send(null);
    },
  });

  r.get('/api/public/v1/jobs', {
    schema: {
      operationId: 'getDriverJobs',
      tags,
      summary: 'The signed-in driver’s feed: offers open to them and the jobs they hold',
      response: { 200: DriverJobsReply, ...problemResponses(400, 401, 403, 429) },
    },
    config: limited,
    handler: async (request) => {
      const me = await signedInDriver(s, request);
      const jobs = await jobsFor(s, me.driverId);
      const open = jobs.filter((j) => j.offer === 'offered').map((j) => j.offer_id);
      await offersSeen(s, me.driverId, open, (err, offerId) =>
        request.log.warn({ err, offerId }, 'job card shown in the app: booking not told'),
      );
      return { jobs };
    },
  });

  r.get('/api/driver/upcoming', {
    schema: {
      operationId: 'driverUpcomingJobs',
      tags,
      summary:
        'The upcoming-jobs board: pre-booked jobs nobody holds yet that you could take ahead, soonest first, a page at a time',
      querystring: UpcomingJobsQuery,
      response: { 200: UpcomingJobsReply, ...problemResponses(400, 401, 403, 429) },
    },
    config: limited,
    handler: async (request) => {
      const me = await signedInDriver(s, request);
      return upcomingJobsFor(s, me.driverId, request.query.page);
    },
  });

  r.post('/api/driver/upcoming/:ref/claim', {
    schema: {
      operationId: 'driverClaimUpcomingJob',
      tags,
      summary:
        'Take a job from the board: it is yours as an accepted offer is (the passenger is told; confirm it on the day). Claiming again answers the same; 409 when another driver has it or you no longer fit',
      params: UpcomingJobParams,
      response: { 200: UpcomingClaimReply, ...problemResponses(400, 401, 403, 404, 409, 429, 503) },
    },
    config: limited,
    handler: async (request) => {
      const me = await signedInDriver(s, request);
      const { ref, offerId } = await claimUpcomingJob(s, me.driverId, request.params.ref);
      return { result: 'claimed' as const, booking_reference: ref, offer_id: offerId };
    },
  });

  r.post('/api/driver/jobs/:offerId/respond', {
    schema: {
      operationId: 'driverRespond',
      tags,
      summary: 'Accept or decline an offer',
      params: DriverJobParams,
      body: DriverRespondRequest,
      response: { 200: OfferResponseReply, ...problemResponses(400, 401, 403, 404, 409, 410, 429, 503) },
    },
    config: limited,
    handler: async (request) => {
      const me = await signedInDriver(s, request);
      const { result, ref } = await respondToOffer(s, {
        offerId: request.params.offerId,
        driverId: me.driverId,
        decision: request.body.decision,
      });
      return { result, booking_reference: ref };
    },
  });

  r.post('/api/driver/jobs/:offerId/trip', {
    schema: {
      operationId: 'driverTrip',
      tags,
      summary: 'Report the trip’s next step, or give the job back',
      params: DriverJobParams,
      body: DriverTripRequest,
      response: { 202: TripEventReply, ...problemResponses(400, 401, 403, 404, 409, 429, 503) },
    },
    config: limited,
    handler: async (request, reply) => {
      const me = await signedInDriver(s, request);
      const { ref, status } = await reportTrip(s, {
        offerId: request.params.offerId,
        driverId: me.driverId,
        event: request.body.event,
      });
      return reply.code(202).send({ booking_reference: ref, event: request.body.event, status });
    },
  });

  r.post('/api/driver/jobs/:offerId/payment', {
    schema: {
      operationId: 'driverPayment',
      tags,
      summary: 'Confirm what the passenger paid (once; an immutable payment record)',
      params: DriverJobParams,
      body: DriverPaymentRequest,
      response: { 200: SettlementReply, ...problemResponses(400, 401, 403, 404, 409, 429, 503) },
    },
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
      return {
        booking_reference: ref,
        payment: {
          amount: payment.amountPence / 100,
          method: payment.method,
          recorded_at: payment.recordedAt,
          recorded_by: payment.recordedBy,
        },
      };
    },
  });
}
