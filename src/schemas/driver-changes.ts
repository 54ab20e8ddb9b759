import { z } from 'zod';
import { VEHICLE_TYPES } from '../pricing/types.js';
import { MAX_DOCUMENT_BASE64_CHARS } from '../drivers/application-limits.js';
import { text } from './common.js';
import { DriverApplicationRequest, SignInRequest } from './drivers.js';

// A driver keeping their papers current (issue 24, item 5): a renewed licence, a changed vehicle
// or a new phone, each checked with the application form's own rules and words, then waiting for
// staff (src/drivers/changes.ts).

const form = DriverApplicationRequest.shape;
const upload = form.documents.element.shape;

const RenewedLicence = z.object({
  expires: form.driver_licence_expires,
  document: z.object({ content_type: upload.content_type, data_base64: upload.data_base64 }),
});

export const LicenceRenewalRequest = z
  .object({
    driver_licence: RenewedLicence.nullable()
      .default(null)
      .describe('The renewed driver licence: its new expiry date and a photo or scan of it'),
    vehicle_licence: RenewedLicence.nullable()
      .default(null)
      .describe('The renewed vehicle licence: its new expiry date and a photo or scan of it'),
  })
  .refine((b) => b.driver_licence !== null || b.vehicle_licence !== null, {
    message: 'send the renewed driver licence, the renewed vehicle licence, or both',
    path: ['driver_licence'],
  })
  .meta({ id: 'LicenceRenewal' });

export const VehicleChangeRequest = z
  .object({
    vehicle_registration: form.vehicle_registration,
    vehicle_colour: form.vehicle_colour,
    vehicle_type: z.enum(VEHICLE_TYPES, { error: `must be one of: ${VEHICLE_TYPES.join(', ')}` }),
    seats: z
      .number({ error: 'must be a number from 1 to 16' })
      .int('must be a whole number')
      .min(1, 'must be 1 to 16')
      .max(16, 'must be 1 to 16'),
    wheelchair_accessible: z.boolean({ error: 'must be true or false' }),
  })
  .meta({ id: 'VehicleChange' });

export const PhoneCodeRequest = z.object({ phone: SignInRequest.shape.phone });
export const PhoneChangeRequest = z.object({
  phone: SignInRequest.shape.phone,
  code: z.string().regex(/^\d{6}$/, 'must be the 6-digit code'),
});

const ChangeDocument = z.object({
  id: z.string(),
  kind: z.enum(['driver_licence', 'vehicle_licence']),
  content_type: z.string(),
  size_bytes: z.number().int(),
});

export const DriverChange = z
  .object({
    id: z.string(),
    kind: z.enum(['licences', 'vehicle', 'phone']),
    status: z.enum(['pending', 'approved', 'refused', 'replaced']),
    details: z
      .record(z.string(), z.unknown())
      .describe('What was sent: new expiry dates, the vehicle, or the new phone'),
    summary: z.string().describe('What was sent, in words'),
    documents: z.array(ChangeDocument),
    submitted_at: z.string(),
    decided_at: z.string().nullable(),
    reason: z.string().nullable().describe('Why staff refused it'),
  })
  .meta({ id: 'DriverChange' });

export const DriverChangeReply = z.object({
  change: DriverChange,
  replaced: z.boolean().describe('A change of this kind was already waiting for review: this one replaces it'),
  message: z.string(),
});
export const DriverChangesReply = z.object({ changes: z.array(DriverChange) });
export const PhoneCodeReply = z.object({ status: z.literal('code_sent'), phone: z.string() });

export const OpsDriverChange = DriverChange.extend({
  driver_id: z.string(),
  driver_name: z.string(),
  driver_phone: z.string(),
  driver_status: z.string(),
  current: z.record(z.string(), z.unknown()).describe('The same fields as they are on record now'),
}).meta({ id: 'OpsDriverChange' });
export const OpsDriverChangesReply = z.object({ changes: z.array(OpsDriverChange) });

export const ChangeIdParams = z.object({ changeId: text(20).regex(/^\d{1,18}$/, 'must be a change id') });
export const ChangeDocumentParams = ChangeIdParams.extend({
  documentId: text(20).regex(/^\d{1,18}$/, 'must be a document id'),
});
export const ChangeDecisionRequest = z.object({
  action: z.enum(['approve', 'refuse'], { error: 'must be approve or refuse' }),
  reason: text(500).trim().nullable().default(null).describe('Required to refuse: the driver is told it'),
});

/** Two renewed licences at most, and the fields around them. */
export const LICENCE_RENEWAL_BODY_LIMIT = 2 * MAX_DOCUMENT_BASE64_CHARS + 16 * 1024;
