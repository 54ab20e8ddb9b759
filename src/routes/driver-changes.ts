import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { staffMember, signedInDriver } from '../plugins/auth.js';
import { ProblemError, problemResponses } from '../http/problem.js';
import { applicationUploadSlots } from '../http/upload-slots.js';
import {
  changeDocumentForStaff,
  changesForDriver,
  decideDriverChange,
  pendingChangesForStaff,
  requestPhoneCode,
  submitLicenceRenewal,
  submitPhoneChange,
  submitVehicleChange,
} from '../drivers/changes.js';
import { normalisePhone } from '../passengers/phone.js';
import {
  ChangeDecisionRequest,
  ChangeDocumentParams,
  ChangeIdParams,
  DriverChange,
  DriverChangeReply,
  DriverChangesReply,
  LICENCE_RENEWAL_BODY_LIMIT,
  LicenceRenewalRequest,
  OpsDriverChangesReply,
  PhoneChangeRequest,
  PhoneCodeReply,
  PhoneCodeRequest,
  VehicleChangeRequest,
} from '../schemas/driver-changes.js';

// Drivers keep their papers current (issue 24, item 5; src/drivers/changes.ts): the driver app
// sends a renewed licence, a changed vehicle or a new phone; staff review them in the ops console.

function phoneOrProblem(input: string): string {
  const p = normalisePhone(input);
  if (!p.ok)
    throw new ProblemError(400, 'validation_failed', `The phone number is not right: ${p.reason}.`, {
      errors: [{ field: 'body.phone', message: p.reason }],
    });
  return p.e164;
}

export async function driverChangeRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const s = app.services;
  const tags = ['driver app'];
  const limited = { rateLimit: app.rateLimits.driver };

  // Megabytes of licence held in memory while read: the same bound on uploads at once as applications,
  // taken and kept the same way (a slot once bytes arrive, only while they keep coming).
  const slots = applicationUploadSlots(s.config);

  r.get('/api/driver/changes', {
    schema: {
      operationId: 'driverChanges',
      tags,
      summary: 'The changes the signed-in driver sent: waiting for review, or decided in the last 30 days',
      response: { 200: DriverChangesReply, ...problemResponses(400, 401, 429) },
    },
    config: limited,
    handler: async (request) => {
      const me = await signedInDriver(s, request);
      return { changes: await changesForDriver(s, me.driverId) };
    },
  });

  r.post('/api/driver/changes/licences', {
    bodyLimit: LICENCE_RENEWAL_BODY_LIMIT,
    onRequest: slots.declared,
    preParsing: slots.admit,
    schema: {
      operationId: 'driverRenewLicences',
      tags,
      summary: `Send a renewed driver licence and/or vehicle licence: new expiry dates and the documents (PDF, JPEG or PNG, 3 MB each), for staff to review. Replaces one already waiting. At most ${LICENCE_RENEWAL_BODY_LIMIT} bytes`,
      body: LicenceRenewalRequest,
      response: { 201: DriverChangeReply, ...problemResponses(400, 401, 403, 408, 413, 429, 503) },
    },
    config: limited,
    handler: async (request, reply) => {
      const me = await signedInDriver(s, request);
      const b = request.body;
      const renewed = (x: typeof b.driver_licence) =>
        x && { expires: x.expires, document: { contentType: x.document.content_type, base64: x.document.data_base64 } };
      return reply.code(201).send(
        await submitLicenceRenewal(s, me.driverId, {
          driverLicence: renewed(b.driver_licence),
          vehicleLicence: renewed(b.vehicle_licence),
        }),
      );
    },
  });

  r.post('/api/driver/changes/vehicle', {
    schema: {
      operationId: 'driverChangeVehicle',
      tags,
      summary: 'Send a changed vehicle (registration, colour, class, seats, wheelchair access) for staff to review',
      body: VehicleChangeRequest,
      response: { 201: DriverChangeReply, ...problemResponses(400, 401, 403, 429) },
    },
    config: limited,
    handler: async (request, reply) => {
      const me = await signedInDriver(s, request);
      const b = request.body;
      return reply.code(201).send(
        await submitVehicleChange(s, me.driverId, {
          vehicleRegistration: b.vehicle_registration,
          vehicleColour: b.vehicle_colour || null,
          vehicleType: b.vehicle_type,
          seats: b.seats,
          wheelchairAccessible: b.wheelchair_accessible,
        }),
      );
    },
  });

  r.post('/api/driver/changes/phone/code', {
    schema: {
      operationId: 'driverPhoneCode',
      tags,
      summary:
        'Text a code to the new phone number, to prove it is the driver’s (counted and capped as sign-in codes are)',
      description:
        'Answered the same whether or not another driver uses the number: the code is texted and counted either way, and a number in use is refused (409 phone_in_use) only when its code is confirmed at POST /api/driver/changes/phone, so only whoever holds the phone learns it.',
      body: PhoneCodeRequest,
      response: { 202: PhoneCodeReply, ...problemResponses(400, 401, 403, 429, 503) },
    },
    config: limited,
    handler: async (request, reply) => {
      const me = await signedInDriver(s, request);
      const phone = phoneOrProblem(request.body.phone);
      await requestPhoneCode(s, me.driverId, phone, { address: request.ip });
      return reply.code(202).send({ status: 'code_sent' as const, phone });
    },
  });

  r.post('/api/driver/changes/phone', {
    schema: {
      operationId: 'driverChangePhone',
      tags,
      summary: 'The code texted to the new phone: the change goes to staff to review',
      body: PhoneChangeRequest,
      response: { 201: DriverChangeReply, ...problemResponses(400, 401, 403, 409, 429) },
    },
    config: limited,
    handler: async (request, reply) => {
      const me = await signedInDriver(s, request);
      return reply.code(201).send(
        await submitPhoneChange(s, me.driverId, phoneOrProblem(request.body.phone), request.body.code, {
          address: request.ip,
        }),
      );
    },
  });

  const ops = ['ops'];
  const staffLimited = { rateLimit: app.rateLimits.staff };

  r.get('/api/ops/driver-changes', {
    schema: {
      operationId: 'opsDriverChanges',
      tags: ops,
      summary: 'Changes drivers sent that wait for review, oldest first, each beside the driver as on record',
      response: { 200: OpsDriverChangesReply, ...problemResponses(400, 401, 429) },
    },
    config: staffLimited,
    handler: async (request) => {
      await staffMember(s, request);
      return { changes: await pendingChangesForStaff(s) };
    },
  });

  r.get('/api/ops/driver-changes/:changeId/documents/:documentId', {
    schema: {
      operationId: 'opsDriverChangeDocument',
      tags: ops,
      summary: 'A document sent with a change, to staff only (downloaded, never rendered inline)',
      params: ChangeDocumentParams,
      response: problemResponses(400, 401, 404, 429),
    },
    config: staffLimited,
    handler: async (request, reply) => {
      await staffMember(s, request);
      const doc = await changeDocumentForStaff(s, request.params.changeId, request.params.documentId);
      if (!doc) throw new ProblemError(404, 'document_not_found', 'No such document.');
      const ext = doc.content_type === 'application/pdf' ? 'pdf' : doc.content_type === 'image/png' ? 'png' : 'jpg';
      return reply
        .header('content-type', doc.content_type)
        .header('content-disposition', `attachment; filename="${doc.driver_id}-renewed-${doc.kind}.${ext}"`)
        .header('cache-control', 'no-store')
        .header('x-content-type-options', 'nosniff')
        .send(doc.data as never);
    },
  });

  r.post('/api/ops/driver-changes/:changeId/decision', {
    schema: {
      operationId: 'opsDecideDriverChange',
      tags: ops,
      summary:
        'Approve a driver’s change (written onto their record; a renewed licence restarts the licence watch) or refuse it saying why; the driver is told by text and in the app (recorded)',
      params: ChangeIdParams,
      body: ChangeDecisionRequest,
      response: { 200: z.object({ change: DriverChange }), ...problemResponses(400, 401, 404, 409, 429, 503) },
    },
    config: staffLimited,
    handler: async (request) => {
      const staff = await staffMember(s, request);
      return {
        change: await decideDriverChange(
          s,
          staff,
          request.params.changeId,
          request.body.action,
          request.body.reason || null,
        ),
      };
    },
  });
}
