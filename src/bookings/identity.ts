import { createHash, randomBytes } from 'node:crypto';
import type { PlaceSnapshot } from '../model/bookings.js';

// How a booking request is recognised when it comes again, and how its reference is made.
//
// A request's identity is a hash of what it means: the passenger's normalised phone, the places the
// geocoder resolved (not the words typed) and the pickup instant (not its spelling: 10:00:00Z,
// 10:00:00.000Z and 11:00:00+01:00 are one time). src/bookings/store.ts maps each identity to one
// random reference under a primary key, so retries and concurrent duplicates land on one ride.

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const REF_CHARS = 10;

/**
 * "TX" + 10 Crockford base32 characters from a CSPRNG (50 bits): short enough to read out on the
 * phone, and not derivable from anything a stranger might know about the passenger or the trip.
 * What a reference may look like is BOOKING_REF_PATTERN in src/model/bookings.ts.
 */
export function newBookingRef(): string {
  const bytes = randomBytes(REF_CHARS);
  let out = 'TX';
  for (const b of bytes) out += CROCKFORD[b & 31];
  return out;
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

export interface RequestIdentity {
  /** What the request names: a trip priced on the spot, a quote redeemed, or a sender's job. */
  kind: 'trip' | 'quote' | 'partner-job';
  /** sha256 hex of the request's meaning. */
  key: string;
  /**
   * True for a booking "for now": it has no time of its own to tell two rides apart, so the same
   * request is that ride for as long as the ride is open, and a new one once it has ended (completed,
   * cancelled, no-show: issue 37). Otherwise only a cancelled booking frees its identity.
   */
  endsWithRide: boolean;
}

/** Rounded to about a metre: the same resolved place always hashes the same. */
const placeKey = (p: Pick<PlaceSnapshot, 'lat' | 'lon'>) => `${p.lat.toFixed(5)},${p.lon.toFixed(5)}`;

/**
 * The sandbox and the live service never meet (issue 33, docs/partners.md "Sandbox keys"): a
 * request made with a sandbox key names another ride than the same trip asked for live, so neither
 * ever joins, blocks (409) or texts about the other. Live identities are as they always were.
 */
const side = (sandbox: boolean | undefined): string[] => (sandbox ? ['sandbox'] : []);

/**
 * A priced-on-the-spot booking: the same phone going between the same resolved places at the same
 * instant is one ride, whatever Idempotency-Key each request carries. A booking without a pickup
 * time is "now": identical ones are one ride until it has ended, however long after.
 */
export function tripIdentity(t: {
  phone: string;
  pickup: Pick<PlaceSnapshot, 'lat' | 'lon'>;
  dropoff: Pick<PlaceSnapshot, 'lat' | 'lon'>;
  departAt: Date | null;
  /** Asked with a sandbox key (or a key of a sandbox partner). */
  sandbox?: boolean | undefined;
}): RequestIdentity {
  const when = t.departAt ? String(t.departAt.getTime()) : 'now';
  return {
    kind: 'trip',
    key: sha256([...side(t.sandbox), 'trip', t.phone, placeKey(t.pickup), placeKey(t.dropoff), when].join('|')),
    endsWithRide: !t.departAt,
  };
}

/** A quote is redeemed once, so the passenger's phone and the quote identify the request for good. */
export function quoteIdentity(q: { phone: string; quoteId: string; sandbox?: boolean | undefined }): RequestIdentity {
  return {
    kind: 'quote',
    key: sha256([...side(q.sandbox), 'quote', q.phone, q.quoteId.toLowerCase()].join('|')),
    endsWithRide: false,
  };
}

/** A sender's job reference is one ride for good: its intake workflow decides new, amend and cancel. */
export function partnerJobIdentity(j: { partnerId: string; jobRef: string }): RequestIdentity {
  return { kind: 'partner-job', key: sha256(['partner-job', j.partnerId, j.jobRef].join('|')), endsWithRide: false };
}
