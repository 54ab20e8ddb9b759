import type { PassengerNeeds } from '../model/bookings.js';
import { checkPassengerEmail } from '../passengers/email.js';
import { normalisePassengerPhone } from '../passengers/phone.js';
import { Refusal, type RefusedField } from '../refusal.js';
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
  /** An assistance dog, help finding the vehicle (docs/accessibility.md): never priced, never a reason to refuse. */
  needs: PassengerNeeds;
}

/** What a check of a phone, an email or a flight number answers. */
type Check = { ok: true } | { ok: false; reason: string };

/** A body's fields that hold text. */
export type TextField<B> = { [K in keyof B]-?: NonNullable<B[K]> extends string ? K : never }[keyof B] & string;

/**
 * Where a contract puts what it says about the passenger: its own field names, stated once per
 * contract (passenger_name, passengerName, ...). The values are read from the body by these names,
 * and refusals name the fields so.
 */
export interface PassengerFields<B> {
  name: TextField<B>;
  phone: TextField<B>;
  email: TextField<B>;
  flightNumber: TextField<B>;
  notes: TextField<B>;
  /** Only the contracts that take one: the assistant booking for the passenger. */
  agent?: TextField<B>;
}

/**
 * Checks and normalises everything a passenger typed before it reaches the booking engine or a
 * driver's job card: names and notes are screened for injected instructions, the phone must be
 * a real number (national UK or international; kept in E.164), the email a real person's. All
 * problems are refused together, as invalid. `body` holds the values under the contract's names
 * (with any the caller settled elsewhere, such as an admitted email, put in their place).
 */
export function readPassenger<B extends object>(
  body: B,
  fields: PassengerFields<NoInfer<B>>,
  paymentMethod: string,
  emailVerified: boolean,
  needs: Partial<PassengerNeeds> = {},
): Passenger {
  const value = (field: TextField<B> | undefined) =>
    field === undefined ? undefined : (body[field] as string | undefined);
  const refused: RefusedField[] = [];
  let suspicious = false;
  const text = (field: TextField<B> | undefined, maxLength: number, multiline = false): string | null => {
    const v = value(field);
    if (field === undefined || v === undefined || v.trim() === '') return null;
    const r = screenFreeText(field, v, { maxLength, multiline });
    if (r.ok) return r.value;
    if (r.code === 'suspicious_content') suspicious = true;
    refused.push({ name: field, message: r.message });
    return null;
  };
  const name = text(fields.name, 100);
  const notes = text(fields.notes, 500, true);
  const agent = text(fields.agent, 100);

  /** A field checked: what the check made of it, or undefined when it was refused (or, unless required, not given). */
  const checked = <C extends Check>(
    field: TextField<B>,
    check: (v: string) => C,
    required = false,
  ): Extract<C, { ok: true }> | undefined => {
    const v = value(field) ?? '';
    if (!v && !required) return undefined;
    const r: Check = check(v);
    if (r.ok) return r as Extract<C, { ok: true }>;
    refused.push({ name: field, message: r.reason });
    return undefined;
  };
  const phone = checked(fields.phone, (v) => normalisePassengerPhone(v), true)?.e164 ?? '';
  const email = checked(fields.email, checkPassengerEmail)?.email ?? null;
  const flightNumber = checked(fields.flightNumber, normaliseFlightNumber)?.value ?? null;

  if (refused.length > 0 || name === null) {
    if (name === null && !refused.some((e) => e.name === fields.name))
      refused.push({ name: fields.name, message: 'is required' });
    throw Refusal.invalid(suspicious ? 'rejected_content' : 'validation_failed', 'The booking has invalid fields.', {
      fields: refused,
    });
  }
  return {
    name,
    phone,
    email,
    emailVerified,
    paymentMethod,
    flightNumber,
    notes,
    agent,
    needs: { assistanceDog: needs.assistanceDog ?? false, helpFindingVehicle: needs.helpFindingVehicle ?? false },
  };
}
