import { hitCounter } from '../http/pg-rate-limit-store.js';
import { Refusal } from '../refusal.js';
import type { Services } from '../services.js';

// How big a driver application may be and how often one may be sent (docs/security/onboarding.md).
// The body limit is derived from the document limits, so the three cannot drift apart.

export const MAX_DOCUMENTS = 4;
/** Each document, decoded: a phone photo or a scanned PDF of a licence fits comfortably. */
export const MAX_DOCUMENT_BYTES = 3 * 1024 * 1024;
/** The same in base64, as the JSON form carries it (4 characters per 3 bytes, padded). */
export const MAX_DOCUMENT_BASE64_CHARS = 4 * Math.ceil(MAX_DOCUMENT_BYTES / 3);
/** Everything but the documents' data: the text fields (about 1 KB at their limits) and JSON's punctuation. */
const FIELDS_ALLOWANCE_BYTES = 64 * 1024;
/** 16.06 MiB: the largest application that can be valid, refused by Content-Length beyond it. */
export const APPLICATION_BODY_LIMIT = MAX_DOCUMENTS * MAX_DOCUMENT_BASE64_CHARS + FIELDS_ALLOWANCE_BYTES;

const HOUR_MS = 3600_000;

/**
 * May this applicant apply from this address now? Counted once the body is read and valid, one
 * applicant (a phone number) first: someone retrying their own application runs out of their own
 * allowance long before the address's, so one person cannot use up an office's. Only attempts within
 * their applicant's allowance count against the address. (A cheaper ceiling on every attempt, by
 * address and before the body is read, is the route's rate-limit group.)
 */
export async function admitApplication(
  s: Pick<Services, 'sql' | 'config'>,
  who: { phone: string; rateKey: string; exempt: boolean },
): Promise<void> {
  const refuse = (what: string, ttl: number): never => {
    const retry = Math.ceil(ttl / 1000);
    throw Refusal.tooMany(
      'too_many_applications',
      `Too many applications ${what}; try again in ${Math.ceil(retry / 60)} minutes.`,
      { retryAfterSeconds: retry },
    );
  };
  const applicant = await hitCounter(s.sql, `application-phone:${who.phone}`, HOUR_MS);
  if (applicant.current > s.config.APPLICATIONS_PER_PHONE_PER_HOUR) refuse('for this phone number', applicant.ttl);
  if (who.exempt) return;
  const address = await hitCounter(s.sql, `application-address:${who.rateKey}`, HOUR_MS);
  if (address.current > s.config.APPLICATIONS_PER_ADDRESS_PER_HOUR) refuse('from this address', address.ttl);
}
