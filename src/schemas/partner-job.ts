import { z } from 'zod';
import { FieldErrorSchema, PlaceSuggestionSchema } from '../http/problem.js';
import { BOOKING_STATUSES } from '../model/bookings.js';
import { JOB_ACTIONS, JOB_OUTCOME_CODES } from '../model/partners.js';
import { camelNeeds, isoDateTime, passengerCount, placeText, text } from './common.js';

// The PartnerJob of spec 2.4, shared by partner intake, the operator bridge (and its guide, so the
// two cannot drift) and the supplier hooks. Every field and constraint of the spec; the limits on
// lengths and the jobRef alphabet are ours.

export const MAX_JOBS_PER_REQUEST = 100;
export const JOB_REF_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:/#-]{0,99}$/;

export const PartnerJobSchema = z
  .object({
    jobRef: z
      .string()
      .max(100, 'must be at most 100 characters')
      .regex(JOB_REF_PATTERN, 'must be 1 to 100 letters, digits or . _ : / # - (starting with a letter or digit)')
      .describe("The sender's own unique reference: new, amend and cancel are matched on it"),
    action: z.enum(JOB_ACTIONS).default('new').describe('new (default), amend or cancel'),
    pickup: placeText,
    dropoff: placeText,
    pickupTime: isoDateTime.max(64, 'must be at most 64 characters'),
    passengerName: text(100).optional(),
    passengerPhone: text(32)
      .optional()
      .describe(
        'National UK (07400 123456) or international (+44 7400 123456, +33 6 12 34 56 78); spaces, brackets, dots and hyphens allowed; stored in E.164 (+447400123456)',
      ),
    passengerEmail: z.email('must be an email address').max(254).optional(),
    passengers: passengerCount.optional().describe('1 to 8; default 1'),
    vehicleType: text(40)
      .optional()
      .describe(
        'Free string, never refused: the v1 vehicle classes and everyday names (estate car, people carrier, 8 seater, wheelchair accessible, exec...) are understood; any other name books the class the group gets by default and is shown to the driver',
      ),
    flightNumber: text(12).optional(),
    fare: z
      .number()
      .positive()
      .max(10_000)
      .refine((f) => Math.abs(f * 100 - Math.round(f * 100)) < 1e-6, 'must be whole pence')
      .optional()
      .describe('Agreed fare in GBP, if the sender prices the job; otherwise the published tariff prices it'),
    notes: text(500).optional(),
    ...camelNeeds,
  })
  .meta({ id: 'PartnerJob' });
export type PartnerJob = z.infer<typeof PartnerJobSchema>;

type JsonSchemaField = { type?: string; maxLength?: number; enum?: unknown[] };

/**
 * The most bytes one valid job can be sent as, read off the schema's own limits, so the body limit
 * moves with them: every string at its longest with every character written as a \u escape (6 bytes, the
 * longest JSON spelling of a UTF-16 unit), every number at 32 bytes, each field's name and
 * punctuation, and 512 bytes of whitespace. A string field without a length limit would make this
 * unbounded, so it throws (a unit test loads it).
 */
export function maxJobBytes(): number {
  const doc = z.toJSONSchema(PartnerJobSchema, { io: 'input' }) as {
    properties?: Record<string, JsonSchemaField>;
    $ref?: string;
    $defs?: Record<string, { properties?: Record<string, JsonSchemaField> }>;
  };
  const properties = (doc.$ref ? doc.$defs?.[doc.$ref.split('/').pop()!]?.properties : doc.properties) ?? {};
  let bytes = 2 + 512;
  for (const [name, field] of Object.entries(properties)) {
    let value: number;
    if (field.enum) value = Math.max(...field.enum.map((v) => JSON.stringify(v).length));
    else if (field.type === 'string') {
      if (field.maxLength === undefined)
        throw new Error(`PartnerJob.${name} has no length limit: the intake body limit cannot follow from the schema`);
      value = 6 * field.maxLength + 2;
    } else value = 32;
    bytes += name.length + 4 + value;
  }
  return bytes;
}

/** A body of 100 of the largest valid jobs, in any of the three shapes: the intake routes' body limit. */
export const MAX_JOB_BATCH_BYTES = MAX_JOBS_PER_REQUEST * (maxJobBytes() + 1) + 1024;

export const PartnerJobBatchSchema = z
  .union([PartnerJobSchema, z.array(PartnerJobSchema).min(1).max(MAX_JOBS_PER_REQUEST)])
  .meta({ id: 'PartnerJobBatch', description: 'One PartnerJob, or an array of at most 100' });

export const OperatorJobBatchSchema = z
  .union([
    PartnerJobSchema,
    z.array(PartnerJobSchema).min(1).max(MAX_JOBS_PER_REQUEST),
    z.object({ jobs: z.array(PartnerJobSchema).min(1).max(MAX_JOBS_PER_REQUEST) }),
  ])
  .meta({ id: 'OperatorJobBatch', description: 'One PartnerJob, an array of at most 100, or {"jobs": [...]}' });

export const JobResultSchema = z
  .object({
    jobRef: z.string().nullable().describe('null only when the item had no readable jobRef'),
    action: z.enum(JOB_ACTIONS).nullable(),
    outcome: z.enum(['accepted', 'rejected']),
    code: z
      .string()
      .describe(
        `Stable reason code: ${JOB_OUTCOME_CODES.join(', ')}; from the intake itself: processing (accepted: written to the inbox with its bookingReference, applied in the order sent; follow it at GET /api/public/v1/partner/jobs/{jobRef} or by its status events), try_again (rejected: the database could not take the batch; nothing applied, sending it again is safe), partner_not_allowed (rejected: this sender may not book), invalid_job (see errors); or a pricing code (address_not_found, address_uncertain, outside_coverage, ...)`,
      ),
    message: z.string(),
    bookingReference: z.string().nullable(),
    bookingStatus: z.enum(BOOKING_STATUSES).nullable(),
    errors: z.array(FieldErrorSchema).optional(),
    suggestions: z
      .array(PlaceSuggestionSchema)
      .max(5)
      .optional()
      .describe(
        'With address_uncertain and address_not_found: up to five places the sender may have meant, best first; send the job again with one of them',
      ),
    question: z
      .enum(['postcode'])
      .optional()
      .describe(
        'With address_uncertain: "postcode", a house number on a street we cannot place; send it with its postcode',
      ),
  })
  .meta({ id: 'JobResult' });

export const JobBatchResultSchema = z
  .object({
    accepted: z.number().int(),
    rejected: z.number().int(),
    results: z.array(JobResultSchema).describe('One per job sent, in the order sent'),
    sandbox: z
      .literal(true)
      .optional()
      .describe(
        'Present when the sender is a sandbox partner: jobs are priced and acknowledged but only ever offered to test drivers',
      ),
  })
  .meta({ id: 'JobBatchResult' });
export type JobBatchResult = z.infer<typeof JobBatchResultSchema>;
export type JobResult = z.infer<typeof JobResultSchema>;

export const JobLookupParams = z.object({
  jobRef: z.string().regex(JOB_REF_PATTERN, 'must be 1 to 100 letters, digits or . _ : / # - (percent-encode / and #)'),
});

export const JobLookupSchema = z
  .object({
    jobRef: z.string(),
    state: z
      .enum(['processing', 'held', 'booked', 'cancelled'])
      .describe(
        'processing: taken in, not applied yet; held: an amendment or cancel that arrived before its new; booked; cancelled',
      ),
    bookingReference: z.string().nullable(),
    bookingStatus: z.enum(BOOKING_STATUSES).nullable(),
    pickupAt: z.string().nullable().describe('UTC, ISO 8601'),
    farePence: z.number().int().nullable().describe('The booked fare in pence (integer)'),
    driver: z.object({ name: z.string(), vehicle: z.string(), plate: z.string() }).nullable(),
    lastJob: z
      .object({
        action: z.enum(['new', 'amend', 'cancel']),
        outcome: z.enum(['accepted', 'rejected']).nullable().describe('null while it waits in the inbox'),
        code: z.string().nullable(),
        message: z.string().nullable(),
      })
      .nullable()
      .optional()
      .describe(
        'The last job sent with this jobRef, as applied (outcome and code as a batch reply would give them), or waiting to be',
      ),
  })
  .meta({ id: 'JobLookup' });
export type JobLookup = z.infer<typeof JobLookupSchema>;
