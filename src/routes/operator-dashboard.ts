import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { DateTime } from 'luxon';
import { z } from 'zod';
import { ApiKeyStore } from '../auth/api-keys.js';
import { problemResponses } from '../http/problem.js';
import {
  answerFleetRequest,
  fleetRequestsFor,
  removeFleetDriver,
  type OperatorActor,
} from '../drivers/fleet-membership.js';
import { authenticateSender } from '../partners/auth.js';
import { assignOperatorJob, fleetDrivers, operatorJobsOn } from '../partners/operator-fleet.js';
import { operatorDashboard } from '../ops/operator-week.js';
import { renderOperatorPage } from '../pages/operator-page.js';
import { sendPage } from '../pages/send-page.js';
import { text } from '../schemas/common.js';
import { BOOKING_REF_PATTERN, BOOKING_STATUSES } from '../model/bookings.js';

// The operator's dashboard (/operator) and the API behind it: the operator bridge key is the
// credential, and an operator sees and assigns only its own jobs and drivers. Who is in its fleet
// is its own say: it answers drivers' requests to join and can take a driver out.

const OperatorJobSchema = z
  .object({
    ref: z.string(),
    jobRef: z.string().nullable(),
    status: z.enum(BOOKING_STATUSES),
    pickupAt: z.string().describe('UTC'),
    pickupLocal: z.string().describe('HH:mm, Europe/London'),
    pickup: z.string(),
    dropoff: z.string(),
    passengers: z.number().int(),
    vehicleType: z.string(),
    passengerName: z.string(),
    notes: z.string().nullable(),
    driverId: z.string().nullable(),
    driverName: z.string().nullable(),
    offeredTo: z.string().nullable(),
  })
  .meta({ id: 'OperatorJob' });

const FleetDriverSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    vehicle: z.string(),
    plate: z.string(),
    seats: z.number().int(),
    wheelchairAccessible: z.boolean(),
    online: z.boolean(),
  })
  .meta({ id: 'FleetDriver' });

const FleetRequestSchema = z
  .object({
    id: z.string(),
    driverId: z.string(),
    name: z.string(),
    phone: z.string(),
    driverStatus: z
      .enum(['applicant', 'approved', 'rejected', 'suspended'])
      .describe('Only an approved driver can be given jobs'),
    tier: z.enum(['local', 'national', 'partner']),
    vehicle: z.string(),
    registration: z.string().nullable(),
    seats: z.number().int(),
    wheelchairAccessible: z.boolean(),
    licensingAuthority: z.string().nullable(),
    requestedAt: z.string(),
  })
  .meta({ id: 'FleetRequest' });

const FleetRequestAnswerSchema = z
  .object({ id: z.string(), driverId: z.string(), status: z.enum(['granted', 'refused']), decidedAt: z.string() })
  .meta({ id: 'FleetRequestAnswer' });

const driverIdParam = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, 'must be a driver id');

const security: Record<string, string[]>[] = [{ bearer: [] }, { apiKeyHeader: [] }];

export async function operatorDashboardRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const s = app.services;
  const keys = new ApiKeyStore(s.sql);
  const operatorOf = (request: FastifyRequest) =>
    authenticateSender(s, request, Buffer.alloc(0), { kinds: ['operator'], idHeaders: [], keys });
  const actorOf = async (request: FastifyRequest): Promise<OperatorActor> => ({
    operator: await operatorOf(request),
    keyId: request.caller.kind === 'key' ? request.caller.key.id : null,
  });

  app.get('/operator', {
    schema: { hide: true },
    config: { rateLimit: app.rateLimits.staff },
    handler: async (_request, reply) => sendPage(reply, renderOperatorPage()),
  });

  r.get('/api/operator/dashboard', {
    schema: {
      operationId: 'getOperatorDashboard',
      tags: ['operators'],
      summary:
        "Everything the operator's dashboard shows, in one request: a week of the operator's own jobs (seven London days from `from`, each job on its pickup day), its fleet and the drivers asking to join",
      description: 'The dashboard polls this one request to stay current.',
      querystring: z.object({
        from: z.iso
          .date('must be a date, e.g. 2026-12-24')
          .optional()
          .describe('The first of the seven days (Europe/London). Default: today'),
      }),
      security,
      response: {
        200: z
          .object({
            operator: z.string(),
            today: z.string().describe('Today in Europe/London'),
            from: z.string(),
            days: z.array(
              z.object({ date: z.string(), label: z.string().describe('e.g. Thu 26 Nov'), today: z.boolean() }),
            ),
            jobs: z.array(
              OperatorJobSchema.extend({ day: z.string().describe('The London day of the pickup') }).meta({
                id: 'OperatorWeekJob',
              }),
            ),
            drivers: z.array(FleetDriverSchema),
            requests: z.array(FleetRequestSchema),
          })
          .meta({ id: 'OperatorDashboard' }),
        ...problemResponses(400, 401, 429),
      },
    },
    config: { rateLimit: app.rateLimits.staff },
    handler: async (request) => operatorDashboard(s, await operatorOf(request), request.query.from),
  });

  r.get('/api/operator/jobs', {
    schema: {
      operationId: 'listOperatorJobs',
      tags: ['operators'],
      summary: "The operator's own jobs picking up on a day (Europe/London), by pickup time",
      querystring: z.object({
        day: z.iso.date('must be a date, e.g. 2026-12-24').optional().describe('Default: today in Europe/London'),
      }),
      security,
      response: {
        200: z.object({ operator: z.string(), day: z.string(), jobs: z.array(OperatorJobSchema) }),
        ...problemResponses(400, 401, 429),
      },
    },
    config: { rateLimit: app.rateLimits.staff },
    handler: async (request) => {
      const operator = await operatorOf(request);
      const day = request.query.day ?? DateTime.now().setZone('Europe/London').toISODate()!;
      return { operator: operator.name, day, jobs: await operatorJobsOn(s, operator, day) };
    },
  });

  r.get('/api/operator/drivers', {
    schema: {
      operationId: 'listOperatorFleet',
      tags: ['operators'],
      summary: "The drivers of the operator's own fleet",
      security,
      response: { 200: z.object({ drivers: z.array(FleetDriverSchema) }), ...problemResponses(400, 401, 429) },
    },
    config: { rateLimit: app.rateLimits.staff },
    handler: async (request) => ({ drivers: await fleetDrivers(s, await operatorOf(request)) }),
  });

  r.post('/api/operator/jobs/:ref/assign', {
    schema: {
      operationId: 'assignOperatorJob',
      tags: ['operators'],
      summary: 'Offer one of your jobs to a driver of your fleet (the job card goes out by SMS and WhatsApp)',
      params: z.object({ ref: z.string().regex(BOOKING_REF_PATTERN, 'must be a booking reference') }),
      body: z.object({ driverId: driverIdParam }),
      security,
      response: { 200: OperatorJobSchema, ...problemResponses(400, 401, 404, 409, 429) },
    },
    config: { rateLimit: app.rateLimits.staff },
    handler: async (request) =>
      assignOperatorJob(s, await operatorOf(request), request.params.ref, request.body.driverId),
  });

  r.get('/api/operator/fleet-requests', {
    schema: {
      operationId: 'listOperatorFleetRequests',
      tags: ['operators'],
      summary: 'Drivers asking to join your fleet, oldest first: none of them is in it until you accept',
      security,
      response: { 200: z.object({ requests: z.array(FleetRequestSchema) }), ...problemResponses(400, 401, 429) },
    },
    config: { rateLimit: app.rateLimits.staff },
    handler: async (request) => ({ requests: await fleetRequestsFor(s, await operatorOf(request)) }),
  });

  r.post('/api/operator/fleet-requests/:requestId/decision', {
    schema: {
      operationId: 'answerOperatorFleetRequest',
      tags: ['operators'],
      summary: 'Accept a driver into your fleet, or refuse them (recorded with your key and the time)',
      params: z.object({ requestId: z.string().regex(/^\d{1,18}$/, 'must be a request id') }),
      body: z.object({
        decision: z.enum(['accept', 'refuse']),
        reason: text(500).trim().min(3, 'say why').nullable().default(null),
      }),
      security,
      response: { 200: FleetRequestAnswerSchema, ...problemResponses(400, 401, 404, 409, 429) },
    },
    config: { rateLimit: app.rateLimits.staff },
    handler: async (request) =>
      answerFleetRequest(
        s,
        await actorOf(request),
        request.params.requestId,
        request.body.decision,
        request.body.reason,
      ),
  });

  r.delete('/api/operator/drivers/:driverId', {
    schema: {
      operationId: 'removeOperatorFleetDriver',
      tags: ['operators'],
      summary: 'Take a driver out of your fleet (recorded); jobs already with them stay with them',
      params: z.object({ driverId: driverIdParam }),
      security,
      response: { 204: z.null().describe('No content'), ...problemResponses(400, 401, 404, 429) },
    },
    config: { rateLimit: app.rateLimits.staff },
    handler: async (request, reply) => {
      await removeFleetDriver(s, await actorOf(request), request.params.driverId, null);
      return reply.code(204).send(null);
    },
  });
}
