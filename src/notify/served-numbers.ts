import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

// Which numbers the service texts at all. A text is paid for by the sender, and some numbers pay
// whoever texts them (premium-rate 09, personal 070, shared-cost and satellite ranges) or cost
// several times a UK text (foreign networks): the classic SMS-pumping targets. So every text and
// WhatsApp message, whatever it is for, goes only to mobiles of the countries the service serves
// (SIGN_IN_CODE_COUNTRIES, by default the UK numbering plan: GB, Guernsey, Jersey and the Isle of
// Man, which share +44 7). libphonenumber's metadata decides what is a mobile.

/** Mobile ranges only: premium-rate, personal (070), shared-cost, VoIP and pager numbers can cost the sender. */
const SERVED_TYPES = new Set(['MOBILE', 'FIXED_LINE_OR_MOBILE']);

export type ServedCheck = { ok: true } | { ok: false; reason: string };

/** Ofcom's mobile numbers for drama (07700 900000-900999): never a handset, so the demo fleet and benches use them. */
const DRAMA_MOBILE = /^\+447700900\d{3}$/;

/**
 * May this E.164 number be texted? Only mobiles of the countries we serve. `dramaRange`: Ofcom's
 * drama mobiles count as served, for a deployment whose messages go no further than the outbox
 * (the demo fleet's drivers have them); a live deployment never texts them.
 */
export function servedMobile(
  e164: string,
  countries: readonly string[],
  opts: { dramaRange?: boolean; what?: string } = {},
): ServedCheck {
  if (opts.dramaRange && DRAMA_MOBILE.test(e164) && countries.includes('GB')) return { ok: true };
  const { country, type } = numberFacts(e164);
  // What is refused, in the words the caller shows ("codes": "we can only text codes to ...").
  const texting = opts.what ? `text ${opts.what} to` : 'text';
  if (!country || !countries.includes(country)) {
    return { ok: false, reason: `we can only ${texting} mobile numbers in ${describeCountries(countries)}` };
  }
  if (!SERVED_TYPES.has(type)) {
    return {
      ok: false,
      reason: `we can only ${texting} a mobile number (not a landline, premium-rate or personal number)`,
    };
  }
  return { ok: true };
}

/**
 * A valid number's country and type (neither, for one that is not valid), remembered: every text a
 * booking sends asks of the same few numbers, and libphonenumber's parse with its full metadata
 * was a large share of a message's CPU in the worker's profile.
 */
const facts = new Map<string, { country: string | undefined; type: string }>();
function numberFacts(e164: string): { country: string | undefined; type: string } {
  let f = facts.get(e164);
  if (!f) {
    const phone = parsePhoneNumberFromString(e164);
    f = phone?.isValid() ? { country: phone.country, type: phone.getType() ?? '' } : { country: undefined, type: '' };
    // Bounded: the numbers of the day's bookings, not every number ever asked about.
    if (facts.size >= 10_000) facts.clear();
    facts.set(e164, f);
  }
  return f;
}

function describeCountries(countries: readonly string[]): string {
  const uk = ['GB', 'GG', 'IM', 'JE'];
  const rest = countries.filter((c) => !uk.includes(c));
  const names = countries.some((c) => uk.includes(c)) ? ['the UK', ...rest] : rest;
  return names.join(', ') || 'no country (SIGN_IN_CODE_COUNTRIES is empty)';
}
