import { ProblemError, type FieldError } from '../http/problem.js';
import { checkPassengerEmail } from '../passengers/email.js';
import { normaliseInternationalPhone } from '../passengers/phone.js';
import { normaliseFlightNumber } from '../screening/flight-number.js';
import { screenFreeText } from '../screening/free-text.js';

/** A passenger as every booking use case takes it: checked, normalised and screened. */
export interface Passenger {
  name: string;
  /** E.164 */
  phone: string;
  email: string | null;
  emailVerified: boolean;
  paymentMethod: string;
  flightNumber: string | null;
  notes: string | null;
  agent: string | null;
}

export interface RawPassenger {
  name: { field: string; value: string };
  phone: { field: string; value: string };
  email?: { field: string; value: string | undefined };
  paymentMethod: string;
  flightNumber?: { field: string; value: string | undefined };
  notes?: { field: string; value: string | undefined };
  agent?: { field: string; value: string | undefined };
}

/**
 * Checks and normalises everything a passenger typed before it reaches the booking engine or a
 * driver's job card: names and notes are screened for injected instructions, the phone must be
 * international, the email a real person's. All problems are reported together as one 400.
 */
export function readPassenger(raw: RawPassenger, emailVerified: boolean): Passenger {
  const errors: FieldError[] = [];
  let suspicious = false;
  const text = (f: { field: string; value: string | undefined } | undefined, maxLength: number, multiline = false): string | null => {
    if (!f || f.value === undefined || f.value.trim() === '') return null;
    const r = screenFreeText(f.field, f.value, { maxLength, multiline });
    if (r.ok) return r.value;
    if (r.code === 'suspicious_content') suspicious = true;
    errors.push({ field: `body.${f.field}`, message: r.message });
    return null;
  };
  const name = text(raw.name, 100);
  const notes = text(raw.notes, 500, true);
  const agent = text(raw.agent, 100);

  let phone = '';
  const p = normaliseInternationalPhone(raw.phone.value);
  if (p.ok) phone = p.e164;
  else errors.push({ field: `body.${raw.phone.field}`, message: p.reason });

  let email: string | null = null;
  if (raw.email?.value) {
    const e = checkPassengerEmail(raw.email.value);
    if (e.ok) email = e.email;
    else errors.push({ field: `body.${raw.email.field}`, message: e.reason });
  }

  let flightNumber: string | null = null;
  if (raw.flightNumber?.value) {
    const f = normaliseFlightNumber(raw.flightNumber.value);
    if (f.ok) flightNumber = f.value;
    else errors.push({ field: `body.${raw.flightNumber.field}`, message: f.reason });
  }

  if (errors.length > 0 || name === null) {
    if (name === null && !errors.some((e) => e.field === `body.${raw.name.field}`)) {
      errors.push({ field: `body.${raw.name.field}`, message: 'is required' });
    }
    throw new ProblemError(400, suspicious ? 'rejected_content' : 'validation_failed', 'The booking has invalid fields.', { errors });
  }
  return { name, phone, email, emailVerified, paymentMethod: raw.paymentMethod, flightNumber, notes, agent };
}
