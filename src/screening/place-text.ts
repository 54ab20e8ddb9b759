import { Refusal } from '../refusal.js';
import { screenFreeText } from './free-text.js';

/**
 * A pickup or drop-off as typed, screened as other free text is before it reaches the booking
 * engine (spec 5 rule 1), on every route: control, bidi and markup characters and instructions
 * aimed at an AI are refused (rejected_content), as in names and notes.
 */
export function screenedPlace(field: string, value: string): string {
  const r = screenFreeText(field, value, { maxLength: 200 });
  if (!r.ok)
    throw Refusal.invalid(
      r.code === 'suspicious_content' ? 'rejected_content' : 'validation_failed',
      `${field} was refused.`,
      { field: { name: field, message: r.message } },
    );
  return r.value;
}
