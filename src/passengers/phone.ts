import { parsePhoneNumberFromString, type PhoneNumber } from 'libphonenumber-js/max';

// Passenger and driver numbers are texted and WhatsApped by Twilio, which needs E.164, so that is
// what is stored. People type them as they say them: a number starting with a single 0 is read as
// a UK national number ("07400 123456" is +447400123456), as this is a UK taxi service and a
// Briton should never have to be taught +44; anything else needs + (or 00) and its country code,
// so a foreign number is never guessed into the wrong country. The 'max' metadata checks each
// country's real number ranges, not only lengths. (docs/decisions.md, "Passenger checks".)

export type PhoneCheck = { ok: true; e164: string } | { ok: false; reason: string };

const MAX_LENGTH = 32;
// What people type around digits: spaces (a no-break space too, as pasted from a web page),
// brackets, dots and hyphens. Letters (vanity numbers, "ext 12") cannot be texted; tabs, line
// breaks and other control characters are no part of a number.
const PHONE_CHARACTERS = /^\+?[\d \u00a0().-]+$/;
const SEPARATORS = /[ \u00a0().-]/g;
// Ofcom reserves 07700 900000-900999 for TV and radio drama; libphonenumber (rightly) calls these
// invalid, as no handset will ever have one.
const DRAMA_MOBILE = /^\+447700900\d{3}$/;
const EXAMPLES = 'e.g. 07400 123456 or +44 7400 123456';

/**
 * A phone number as someone typed it, national UK ("07400 123456", "(07400) 123 456") or
 * international ("+44 (0)7400 123456", "0044 7400 123456", "+33 6 12 34 56 78"), to E.164, or
 * why it is not one. Numbers in Ofcom's drama range are refused unless `allowDramaNumbers`.
 */
export function normalisePhone(input: string, opts: { allowDramaNumbers?: boolean } = {}): PhoneCheck {
  const read = readPhone(input, opts);
  return read.ok ? { ok: true, e164: read.e164 } : read;
}

/** normalisePhone's reading, with the parsed number when it is one (so a caller need not parse it again). */
function readPhone(
  input: string,
  opts: { allowDramaNumbers?: boolean },
): { ok: true; e164: string; phone: PhoneNumber } | { ok: false; reason: string } {
  const text = input.trim();
  if (text === '') return { ok: false, reason: 'phone number is empty' };
  if (text.length > MAX_LENGTH) return { ok: false, reason: `phone number is longer than ${MAX_LENGTH} characters` };
  if (!PHONE_CHARACTERS.test(text)) {
    return {
      ok: false,
      reason: 'phone number may contain only digits, spaces, brackets, dots, hyphens and a leading +',
    };
  }

  const digits = text.replace(SEPARATORS, '');
  const international = digits.startsWith('+')
    ? digits
    : digits.startsWith('00')
      ? `+${digits.slice(2)}`
      : /^0[1-9]/.test(digits)
        ? `+44${digits.slice(1)}`
        : null;
  if (!international) {
    return {
      ok: false,
      reason: `phone number must start with 0 (a UK number) or with + (or 00) and the country code, ${EXAMPLES}`,
    };
  }

  // The separators go before parsing: "+44 (0)7400 123456" is +44 07400123456, which
  // libphonenumber reads by dropping the UK's national 0.
  const phone = parsePhoneNumberFromString(international, { extract: false });
  if (!phone) return { ok: false, reason: `phone number is not a phone number, ${EXAMPLES}` };
  if (phone.isValid()) return { ok: true, e164: phone.number, phone };
  if (DRAMA_MOBILE.test(phone.number)) {
    return opts.allowDramaNumbers
      ? { ok: true, e164: phone.number, phone }
      : {
          ok: false,
          reason: 'phone number is in the 07700 900xxx range Ofcom reserves for drama, so it cannot be reached',
        };
  }
  return phone.countryCallingCode === '44'
    ? { ok: false, reason: `phone number is not a valid UK number (a UK mobile has 11 digits, ${EXAMPLES})` }
    : { ok: false, reason: `phone number is not a valid number for country code +${phone.countryCallingCode}` };
}

/**
 * Numbers that charge whoever calls them (libphonenumber's types): a driver rings the passenger's
 * number to find them at the kerb, so a booking must never be made to cost the driver a premium
 * rate. Landlines, freephone and foreign mobiles stay bookable (visitors, a hotel's reception);
 * only the sending policy decides which of them are texted (src/notify/served-numbers.ts).
 */
const CHARGES_THE_CALLER: Record<string, string> = {
  PREMIUM_RATE: 'a premium-rate number (09...)',
  SHARED_COST: 'a shared-cost number (084, 087...)',
  PERSONAL_NUMBER: 'a personal-numbering number (070...), which charges the caller',
  PAGER: 'a pager number',
};

/**
 * A passenger's phone, as a booking takes it: as normalisePhone reads it, and refused when calling
 * it would cost the driver (premium-rate, shared-cost, personal, pager, satellite and other
 * non-geographic international networks such as +881, +882, +883).
 */
export function normalisePassengerPhone(input: string): PhoneCheck {
  const read = readPhone(input, {});
  if (!read.ok) return read;
  const { phone, e164 } = read;
  const costly = CHARGES_THE_CALLER[phone.getType() ?? ''];
  if (costly)
    return {
      ok: false,
      reason: `phone number is ${costly}: give a mobile or landline the driver can call, ${EXAMPLES}`,
    };
  if (!phone.country) {
    return {
      ok: false,
      reason: `phone number is on a satellite or international network (+${phone.countryCallingCode}), which charges the caller: give a mobile or landline, ${EXAMPLES}`,
    };
  }
  return { ok: true, e164 };
}

/**
 * How a stored (E.164) number is shown to people: a UK number as written at home ("07400 123456",
 * "020 7946 0958"), any other internationally ("+33 6 12 34 56 78"). Whatever cannot be parsed is
 * shown as stored.
 */
export function displayPhone(e164: string): string {
  const phone = parsePhoneNumberFromString(e164, { extract: false });
  if (!phone) return e164;
  return phone.countryCallingCode === '44' ? phone.formatNational() : phone.formatInternational();
}
