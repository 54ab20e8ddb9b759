import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { DateTime } from 'luxon';
import { z } from 'zod';
import { ApiKeyStore } from '../auth/api-keys.js';
import { problemResponses } from '../http/problem.js';
import { EXCHANGE_HOP_HEADER } from '../exchange/client.js';
import { authenticateSender, type SenderCredentials } from '../partners/auth.js';
import { submitJobs, type IntakeOptions } from '../partners/intake.js';
import { lookUpJob } from '../partners/job-lookup.js';
import { parseJsonBytes, rawBody, readJsonAsBytes } from '../partners/raw-body.js';
import type { PartnerKind } from '../partners/store.js';
import {
  JobBatchResultSchema,
  JobLookupParams,
  JobLookupSchema,
  MAX_JOB_BATCH_BYTES,
  MAX_JOBS_PER_REQUEST,
  OperatorJobBatchSchema,
  PartnerJobBatchSchema,
  PartnerJobSchema,
  type PartnerJob,
} from '../schemas/partner-job.js';

// Job intake (spec 4.8, 4.10, 4.11, 4.13): partners, the operator bridge and supplier hooks. Every
// intake reads the body as bytes (signatures cover the exact bytes), authenticates the sender,
// then hands the jobs to src/partners/intake.ts. A sender is refused before its body is read.
// These POSTs are the only routes that take spec 5's body-only signature (v1): a job body says
// everything the request does. v2 (method, target and body) is taken everywhere.

/**
 * The operator guide's example, as it is sent today: a job for tomorrow at 06:30 (London), with a
 * number the live endpoint takes (not one of Ofcom's drama ranges, which passenger numbers refuse).
 * Checked against the schema on every call, so it cannot drift from it; a test posts it back.
 */
function exampleJob(now: Date): PartnerJob {
  const tomorrow = DateTime.fromJSDate(now, { zone: 'Europe/London' })
    .plus({ days: 1 })
    .set({ hour: 6, minute: 30, second: 0, millisecond: 0 });
  return PartnerJobSchema.parse({
    jobRef: 'OPS-2026-000123',
    action: 'new',
    pickup: 'Manchester Piccadilly station',
    dropoff: 'Manchester Airport',
    pickupTime: tomorrow.toUTC().toISO({ suppressMilliseconds: true }),
    passengerName: 'Sam Patel',
    passengerPhone: '+447400123456',
    passengerEmail: 'sam.patel@example.com',
    passengers: 2,
    vehicleType: 'saloon',
    flightNumber: 'BA1387',
    notes: 'Two large cases',
  });
}

/** How a signed intake POST is signed (src/partners/signature.ts; src/partners/README.md). */
const SIGNATURE_FORMS =
  '`x-signature: t=<unix seconds>,v2=<hex HMAC-SHA256(signing secret, "<t>\\n<METHOD>\\n<path and query as sent>\\n" + raw body bytes)>`, covering the method, the target and the body bytes; on the job intake POSTs the body-only form `t=<unix seconds>,v1=<hex HMAC-SHA256(signing secret, "<t>." + raw body bytes)>` is also taken (spec 5). Five minutes tolerance; each signed request is accepted once, whichever and however many secrets signed it.';

type Security = Record<string, string[]>[];
const signedSecurity = (idHeader: string): Security => [
  { bearer: [] },
  { apiKeyHeader: [] },
  { [idHeader === 'x-operator' ? 'operatorSignature' : 'partnerSignature']: [] },
];

export async function partnerIntakeRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const s = app.services;
  const keys = new ApiKeyStore(s.sql);
  readJsonAsBytes(app);
  // The body is documented from the schema, but checked job by job (one bad job is a 207 line, not a 400).
  const documentedOnly = () => (data: unknown) => ({ value: data });

  async function intake(
    request: FastifyRequest,
    reply: FastifyReply,
    kinds: PartnerKind[],
    creds: Omit<SenderCredentials, 'kinds' | 'keys'>,
    opts: IntakeOptions,
  ) {
    const raw = rawBody(request);
    const partner = await authenticateSender(s, request, raw, {
      kinds,
      keys,
      bodyOnlySignatures: true,
      idempotent: true,
      ...creds,
    });
    const body = parseJsonBytes(raw);
    // Jobs an exchange handed us (another instance of this service says so): never handed on.
    const { status, result } = await submitJobs(s, partner, body, {
      ...opts,
      handedOver: request.headers[EXCHANGE_HOP_HEADER] === '1',
    });
    request.log.info({ partner: partner.id, accepted: result.accepted, rejected: result.rejected }, 'jobs received');
    return reply.code(status).send(result);
  }

  const intakeResponses = {
    200: JobBatchResultSchema.describe('Every job accepted'),
    207: JobBatchResultSchema.describe('Mixed result: see each job’s outcome and code'),
    ...problemResponses(400, 401, 403, 413, 429),
  };
  // 100 of the largest valid jobs fit (src/schemas/partner-job.ts, MAX_JOB_BATCH_BYTES); more is a 413 naming the limit.
  const bodyLimit = MAX_JOB_BATCH_BYTES;

  r.post('/api/public/v1/jobs', {
    schema: {
      operationId: 'submitPartnerJobs',
      tags: ['partners'],
      summary: 'Partner intake: new, amend and cancel jobs, matched on your jobRef',
      description: `One PartnerJob or an array of at most 100. Credentials (one kind per request): a partner API key (Authorization: Bearer or x-api-key), or \`x-partner: <partner id>\` with ${SIGNATURE_FORMS} 200 when every job is accepted; 207 with per-job outcomes otherwise; 429 when the daily limit of new jobs is reached. \`${EXCHANGE_HOP_HEADER}: 1\` says the jobs were handed over by an exchange (an instance of this service sends it with every job it hands to another fleet): they are booked as usual and never handed on to an exchange fleet.`,
      body: PartnerJobBatchSchema,
      security: signedSecurity('x-partner'),
      response: intakeResponses,
    },
    validatorCompiler: documentedOnly,
    bodyLimit,
    config: { rateLimit: app.rateLimits.partner },
    handler: (request, reply) =>
      intake(request, reply, ['partner', 'supplier'], { idHeaders: ['x-partner'] }, { acceptJobsKey: false }),
  });

  r.get('/api/public/v1/partner/jobs/:jobRef', {
    schema: {
      operationId: 'getPartnerJob',
      tags: ['partners'],
      summary: 'One of your jobs, by your own jobRef: what became of it',
      description:
        'For a job answered `processing`, or one whose reply was lost. Percent-encode `/` and `#` in the jobRef. Credentials as for the sender routes: your API key, or x-partner (x-operator) with a v2 signature of this GET. Another sender’s jobRef is a 404.',
      params: JobLookupParams,
      security: [{ bearer: [] }, { apiKeyHeader: [] }, { partnerSignature: [] }, { operatorSignature: [] }],
      response: { 200: JobLookupSchema, ...problemResponses(400, 401, 404, 429) },
    },
    config: { rateLimit: app.rateLimits.partner },
    handler: async (request) => {
      const partner = await authenticateSender(s, request, rawBody(request), {
        kinds: ['partner', 'operator', 'supplier'],
        idHeaders: ['x-partner', 'x-operator'],
        // A lookup changes nothing: asking twice with one signature is harmless.
        idempotent: true,
        keys,
      });
      return lookUpJob(s, partner, request.params.jobRef);
    },
  });

  r.get('/api/public/v1/operator/jobs', {
    schema: {
      operationId: 'getOperatorBridgeGuide',
      tags: ['operators'],
      summary: 'How to connect existing dispatch software to the operator bridge',
      response: {
        200: z
          .object({
            endpoint: z.url(),
            method: z.literal('POST'),
            authentication: z.array(z.string()),
            body: z.string(),
            maxJobsPerRequest: z.number().int(),
            acceptedFields: z.record(z.string(), z.unknown()).describe('JSON Schema of a PartnerJob'),
            requiredFields: z.array(z.string()),
            examplePayload: z.unknown(),
            responses: z.record(z.string(), z.string()),
          })
          .meta({ id: 'OperatorBridgeGuide' }),
      },
    },
    config: { rateLimit: app.rateLimits.lookup },
    handler: async () => {
      type ObjectSchema = {
        properties?: Record<string, unknown>;
        required?: string[];
        $ref?: string;
        $defs?: Record<string, ObjectSchema>;
      };
      const doc = z.toJSONSchema(PartnerJobSchema, { io: 'input' }) as ObjectSchema;
      // The schema's registered id makes the generator answer with a $ref to its definition.
      const schema = doc.$ref ? (doc.$defs?.[doc.$ref.split('/').pop()!] ?? doc) : doc;
      return {
        endpoint: `${s.config.PUBLIC_BASE_URL}/api/public/v1/operator/jobs`,
        method: 'POST' as const,
        authentication: [
          'Authorization: Bearer <OPERATOR_BRIDGE_KEY>',
          'x-api-key: <OPERATOR_BRIDGE_KEY>',
          'x-operator: <operator id> with x-signature: t=<unix seconds>,v2=<hex HMAC-SHA256(signing secret, "<t>\\n<METHOD>\\n<path and query as sent>\\n" + raw body bytes)> (method, target and body; five minutes tolerance; each request accepted once)',
          'or, on this POST only, the body-only form: x-signature: t=<unix seconds>,v1=<hex HMAC-SHA256(signing secret, "<t>." + raw body bytes)>',
        ],
        body: `One PartnerJob, an array of at most ${MAX_JOBS_PER_REQUEST}, or {"jobs": [...]}`,
        maxJobsPerRequest: MAX_JOBS_PER_REQUEST,
        acceptedFields: schema.properties ?? {},
        requiredFields: schema.required ?? [],
        examplePayload: { jobs: [exampleJob(s.now())] },
        responses: {
          '200': 'every job accepted',
          '207': 'mixed result: one outcome per job (jobRef, outcome, code, bookingReference)',
          '400': 'invalid body or job fields',
          '401': 'missing or invalid operator bridge key or signature',
          '403': 'bridge paused, or operator not approved for live intake',
          '429': 'daily operator bridge limit reached',
        },
      };
    },
  });

  r.post('/api/public/v1/operator/jobs', {
    schema: {
      operationId: 'sendOperatorDispatchJobs',
      tags: ['operators'],
      summary: "Operator bridge: jobs into the operator's own dashboard, calendar and fleet dispatch",
      description:
        'One PartnerJob, an array of at most 100, or {"jobs": [...]}. Jobs go to the operator’s own dashboard (/operator) and are assigned by the operator to drivers of its own fleet, never to central dispatch. Credentials (one kind per request): the operator bridge key (Bearer or x-api-key), or x-operator with x-signature as for partners (v2, or the body-only v1 on this POST).',
      body: OperatorJobBatchSchema,
      security: signedSecurity('x-operator'),
      response: intakeResponses,
    },
    validatorCompiler: documentedOnly,
    bodyLimit,
    config: { rateLimit: app.rateLimits.partner },
    handler: (request, reply) =>
      intake(request, reply, ['operator'], { idHeaders: ['x-operator'] }, { acceptJobsKey: true }),
  });

  r.post('/api/public/hooks/supplier-a-booking', {
    schema: {
      operationId: 'supplierABooking',
      tags: ['suppliers'],
      summary: 'Corporate supplier intake (supplier A): PartnerJob, single or batch',
      description:
        'The payload is a PartnerJob (or an array of at most 100, or {"jobs": [...]}); this shape is the service’s own decision, as the specification leaves it open. Authenticated by the per-supplier shared secret in x-supplier-a-secret. Idempotent by jobRef; new, amend and cancel.',
      body: OperatorJobBatchSchema,
      security: [{ supplierSecret: [] }],
      response: intakeResponses,
    },
    validatorCompiler: documentedOnly,
    bodyLimit,
    config: { rateLimit: app.rateLimits.partner },
    handler: (request, reply) =>
      intake(
        request,
        reply,
        ['supplier'],
        { idHeaders: [], secretHeader: 'x-supplier-a-secret' },
        { acceptJobsKey: true },
      ),
  });

  r.post('/api/public/hooks/aggregator-booking', {
    schema: {
      operationId: 'aggregatorBooking',
      tags: ['suppliers'],
      summary: 'Booking aggregator intake: PartnerJob, single or batch',
      description:
        'The payload is a PartnerJob, an array of at most 100, or {"jobs": [...]} (the service’s own decision). Authenticated (one kind per request) by x-partner with x-signature (as for partner intake: v2, or the body-only v1 on this POST), or by the aggregator’s shared secret in x-aggregator-secret, Authorization: Bearer or x-api-key. Idempotent by jobRef.',
      body: OperatorJobBatchSchema,
      security: [...signedSecurity('x-partner'), { aggregatorSecret: [] }],
      response: intakeResponses,
    },
    validatorCompiler: documentedOnly,
    bodyLimit,
    config: { rateLimit: app.rateLimits.partner },
    handler: (request, reply) =>
      intake(
        request,
        reply,
        ['partner', 'supplier'],
        { idHeaders: ['x-partner'], secretHeader: 'x-aggregator-secret' },
        { acceptJobsKey: true },
      ),
  });
}
