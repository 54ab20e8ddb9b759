import { z } from 'zod';
import { FieldErrorSchema } from '../http/problem.js';
import { BOOKING_STATUSES } from '../../workflows/bookings/definitions.js';
import { JOB_ACTIONS, JOB_OUTCOME_CODES } from '../../workflows/partners/job-definitions.js';
import { isoDateTime, passengerCount, placeText, text } from './common.js';

// The PartnerJob of spec 2.4, shared by partner intake, the operator bridge (and its guide, so the
// two cannot drift) and the supplier hooks. Every field and constraint of the spec; the limits on
// lengths and the jobRef alphabet are ours.

export const MAX_JOBS_PER_REQUEST = 100;
export const JOB_REF_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:/#-]{0,99}$/;

export const PartnerJobSchema = z
  .object({
    jobRef: z
      .string()
      .regex(JOB_REF_PATTERN, 'must be 1 to 100 letters, digits or . _ : / # - (starting with a letter or digit)')
      .describe("The sender's own unique reference: new, amend and cancel are matched on it"),
    action: z.enum(JOB_ACTIONS).default('new').describe('new (default), amend or cancel'),
    pickup: placeText,
    dropoff: placeText,
    pickupTime: isoDateTime,
    passengerName: text(100).optional(),
    passengerPhone: text(32).optional().describe('International format, e.g. +447400123456'),
    passengerEmail: z.email('must be an email address').max(254).optional(),
    passengers: passengerCount.optional().describe('1 to 8; default 1'),
    vehicleType: text(40).optional().describe('Free string: the v1 vehicle classes and common names (car, minibus, wheelchair) are understood'),
    flightNumber: text(12).optional(),
    fare: z
      .number()
      .positive()
      .max(10_000)
      .refine((f) => Math.abs(f * 100 - Math.round(f * 100)) < 1e-6, 'must be whole pence')
      .optional()
      .describe('Agreed fare in GBP, if the sender prices the job; otherwise the published tariff prices it'),
    notes: text(500).optional(),
  })
  .meta({ id: 'PartnerJob' });
export type PartnerJob = z.infer<typeof PartnerJobSchema>;

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
        `Stable reason code: ${JOB_OUTCOME_CODES.join(', ')}; invalid_job (see errors); or a pricing code (address_not_found, address_uncertain, outside_coverage, ...)`,
      ),
    message: z.string(),
    bookingReference: z.string().nullable(),
    bookingStatus: z.enum(BOOKING_STATUSES).nullable(),
    errors: z.array(FieldErrorSchema).optional(),
  })
  .meta({ id: 'JobResult' });

export const JobBatchResultSchema = z
  .object({
    accepted: z.number().int(),
    rejected: z.number().int(),
    results: z.array(JobResultSchema).describe('One per job sent, in the order sent'),
  })
  .meta({ id: 'JobBatchResult' });
export type JobBatchResult = z.infer<typeof JobBatchResultSchema>;
export type JobResult = z.infer<typeof JobResultSchema>;
