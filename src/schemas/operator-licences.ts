import { z } from 'zod';
import { calendarDate, text } from './common.js';
import { OPERATOR_LICENCE_HOLDERS, OPERATOR_LICENCE_KINDS } from '../model/operator-licences.js';

// An operator licence put on file (docs/records.md, "Sub-contracting"): by the ops API and by
// `npm run operator-licence:record`, read the same way.

export const OperatorLicenceHolderParams = z
  .object({
    holder_kind: z
      .enum(OPERATOR_LICENCE_HOLDERS)
      .describe('partner_fleet (its drivers are ours to dispatch) or exchange_fleet (an operator running this API)'),
    holder_id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be a fleet id'),
  })
  .strict();

export const OperatorLicenceRequest = z
  .object({
    authority: text(120).trim().min(2, 'must name the licensing authority').describe('e.g. Manchester City Council'),
    number: text(60).trim().min(1, 'must be the licence number').describe('As printed on the licence, e.g. PHO-0042'),
    kind: z
      .enum(OPERATOR_LICENCE_KINDS)
      .describe("private_hire: a council's private hire operator licence; psv: a PSV operator licence (9+ seats)"),
    expires_on: calendarDate.describe('The last day it is valid (a renewal under the same number moves it)'),
  })
  .strict();
export type OperatorLicenceRequest = z.infer<typeof OperatorLicenceRequest>;
