import { z } from 'zod';

// Building blocks shared by request schemas. Every string has a length cap: input size limits are
// part of the contract, not an afterthought.

/**
 * C0 controls but tab, LF and CR; DEL; C1 controls. Refused in every text field (a NUL reaching
 * Postgres would be a 500; any of them reaching a job card or an SMS is worse).
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
export const CONTROL_CHARACTER = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
// eslint-disable-next-line no-control-regex -- as above, for the schemas' published pattern
export const NO_CONTROL_CHARACTERS = /^[^\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]*$/;

/** Free text of at most `max` characters, with no control characters. */
export const text = (max: number) =>
  z
    .string()
    .max(max, `must be at most ${max} characters`)
    .regex(NO_CONTROL_CHARACTERS, 'must not contain control characters');

export const placeText = z
  .string()
  .trim()
  .min(2, 'must be at least 2 characters')
  .max(200, 'must be at most 200 characters')
  .regex(NO_CONTROL_CHARACTERS, 'must not contain control characters');

export const isoDateTime = z.iso
  .datetime({ offset: true, message: 'must be an ISO 8601 date-time with a time zone, e.g. 2026-12-24T23:30:00Z' })
  .describe('ISO 8601 date-time; UTC (Z) or with an offset');

export const passengerCount = z
  .number()
  .int('must be a whole number')
  .min(1, 'must be 1 to 8')
  .max(8, 'must be 1 to 8');

export const uuid = z.uuid('must be a uuid');

/** GBP amount from integer pence, rounded to two decimals for the wire. */
export function gbp(pence: number): number {
  return Math.round(pence) / 100;
}

// What a passenger may ask of the ride beyond its class (docs/accessibility.md): never priced, never
// a reason to refuse. A wheelchair user asks for the wav class (the vehicle type).
const assistanceDog = z
  .boolean()
  .optional()
  .describe('An assistance dog travels with the passenger: carried at no extra charge (Equality Act 2010 s.168)');
const helpFindingVehicle = z
  .boolean()
  .optional()
  .describe('The passenger asks the driver to help them find the vehicle (e.g. a visually impaired passenger)');
/** The needs fields of the snake_case contracts (agent routes, v1 quote booking). */
export const snakeNeeds = { assistance_dog: assistanceDog, help_finding_vehicle: helpFindingVehicle };
/** The needs fields of the camelCase contracts (v1 direct booking, partner jobs). */
export const camelNeeds = { assistanceDog, helpFindingVehicle };

/** A calendar day, YYYY-MM-DD, that exists (no 30 February, no year 0), between 2000 and 2099. */
export const calendarDate = z
  .string()
  .regex(/^20\d{2}-\d{2}-\d{2}$/, 'must be a date from 2000 to 2099, YYYY-MM-DD')
  .refine((d) => {
    const t = Date.parse(`${d}T00:00:00Z`);
    return !Number.isNaN(t) && new Date(t).toISOString().slice(0, 10) === d;
  }, 'must be a real date');
