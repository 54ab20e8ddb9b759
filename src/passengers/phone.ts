import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

// Passenger and driver numbers are texted and WhatsApped by Twilio, which needs E.164. Accepting
// only international input means a number is never guessed into the wrong country: "07911 123456"
// is British to us but not to a US travel agent. The 'max' metadata checks each country's real
// number ranges, not only lengths.

export type PhoneCheck = { ok: true; e164: string } | { ok: false; reason: string };

const MAX_LENGTH = 32;
// What people type around digits. Letters (vanity numbers, "ext 12") cannot be texted.
const PHONE_CHARACTERS = /^\+?[\d\s().-]+$/;
// Ofcom reserves 07700 900000-900999 for TV and radio drama; libphonenumber (rightly) calls these
// invalid, as no handset will ever have one.
const DRAMA_MOBILE = /^\+447700900\d{3}$/;

/**
 * `defaultCountry` 'GB' also reads national UK input ("07400 123456"): for forms only UK numbers
 * may use (sign-in codes go to UK mobiles), where asking a Briton for +44 helps nobody.
 */
export function normaliseInternationalPhone(input: string, opts: { allowDramaNumbers?: boolean; defaultCountry?: 'GB' } = {}): PhoneCheck {
  const text = input.trim();
  if (text === '') return { ok: false, reason: 'phone number is empty' };
  if (text.length > MAX_LENGTH) return { ok: false, reason: `phone number is longer than ${MAX_LENGTH} characters` };
  if (!PHONE_CHARACTERS.test(text)) {
    return { ok: false, reason: 'phone number may contain only digits, spaces, brackets, dots, hyphens and a leading +' };
  }

  const digits = text.replace(/[\s().-]/g, '');
  const national = opts.defaultCountry === 'GB' && /^0[1-9]\d+$/.test(digits) ? `+44${digits.slice(1)}` : null;
  const international = text.startsWith('+') ? text : text.startsWith('00') ? `+${text.slice(2)}` : national;
  if (!international) {
    return {
      ok: false,
      reason: text.startsWith('0')
        ? 'phone number must be in international format: for a UK number use +44 and drop the leading 0 (07911 123456 is +44 7911 123456)'
        : 'phone number must be in international format, starting with + (or 00) and the country code, e.g. +44 7911 123456',
    };
  }

  const phone = parsePhoneNumberFromString(international, { extract: false });
  if (!phone) return { ok: false, reason: 'phone number is not a number in international format (+ and the country code, e.g. +44 7911 123456)' };
  if (phone.isValid()) return { ok: true, e164: phone.number };
  if (DRAMA_MOBILE.test(phone.number)) {
    return opts.allowDramaNumbers
      ? { ok: true, e164: phone.number }
      : { ok: false, reason: 'phone number is in the 07700 900xxx range Ofcom reserves for drama, so it cannot be reached' };
  }
  return { ok: false, reason: `phone number is not a valid number for country code +${phone.countryCallingCode}` };
}
