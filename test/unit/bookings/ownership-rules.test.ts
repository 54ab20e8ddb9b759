// Issue 33: a confirmation link names the booking, the mailbox it was sent to, the claim generation
// and an expiry; a repeated request under a shared API key gets a token only as the request that
// made the booking; a sandbox trip is another ride than the same trip asked for live.
import { describe, expect, it } from 'vitest';
import { CONFIRM_LINK_DAYS, confirmToken, confirmUrl, verifyConfirmToken } from '../../../src/bookings/confirm-link.js';
import { quoteIdentity, tripIdentity } from '../../../src/bookings/identity.js';
import { CLAIMED_PRINCIPAL, repeatedBy, requestOwner } from '../../../src/bookings/request-owner.js';

const SECRET = 'x'.repeat(40);
const DAY = 24 * 3600_000;
const made = new Date('2030-05-01T10:00:00Z');
const booking = {
  ref: 'TX0123456789',
  passenger_email: 'Mallory@example.com',
  pickup_at: new Date(made.getTime() + 30 * DAY),
  created_at: made,
  claim_generation: 0,
};

describe('the confirmation link', () => {
  it('opens only the booking, mailbox and claim generation it was made for, until it expires', () => {
    const t = confirmToken(SECRET, booking);
    expect(t).toMatch(/^[\w-]+$/);
    expect(confirmUrl('https://taxi.example', SECRET, booking)).toBe(
      `https://taxi.example/confirm/TX0123456789?t=${t}`,
    );
    const soon = new Date(made.getTime() + DAY);
    expect(verifyConfirmToken(SECRET, booking, t, soon)).toBe(true);
    // The mailbox is compared as stored, case aside.
    expect(verifyConfirmToken(SECRET, { ...booking, passenger_email: 'mallory@EXAMPLE.com' }, t, soon)).toBe(true);
    // Another mailbox on the booking (a claim replaced it), no mailbox, a claim since, another booking:
    expect(verifyConfirmToken(SECRET, { ...booking, passenger_email: 'ada@example.com' }, t, soon)).toBe(false);
    expect(verifyConfirmToken(SECRET, { ...booking, passenger_email: null }, t, soon)).toBe(false);
    expect(verifyConfirmToken(SECRET, { ...booking, claim_generation: 1 }, t, soon)).toBe(false);
    expect(verifyConfirmToken(SECRET, { ...booking, ref: 'TX0123456788' }, t, soon)).toBe(false);
    expect(verifyConfirmToken('y'.repeat(40), booking, t, soon)).toBe(false);
    // Expired: CONFIRM_LINK_DAYS after it was issued.
    expect(verifyConfirmToken(SECRET, booking, t, new Date(made.getTime() + CONFIRM_LINK_DAYS * DAY - 1000))).toBe(
      true,
    );
    expect(verifyConfirmToken(SECRET, booking, t, new Date(made.getTime() + CONFIRM_LINK_DAYS * DAY + 1000))).toBe(
      false,
    );
  });

  it('never outlives the day after pickup, and cannot be stretched by editing its expiry', () => {
    const soonTrip = { ...booking, pickup_at: new Date(made.getTime() + 2 * 3600_000) };
    const t = confirmToken(SECRET, soonTrip);
    expect(verifyConfirmToken(SECRET, soonTrip, t, new Date(made.getTime() + DAY))).toBe(true);
    expect(verifyConfirmToken(SECRET, soonTrip, t, new Date(made.getTime() + DAY + 3 * 3600_000))).toBe(false);
    const raw = Buffer.from(t, 'base64url');
    raw.writeUInt32BE(raw.readUInt32BE(0) + 30 * 86_400, 0);
    expect(verifyConfirmToken(SECRET, soonTrip, raw.toString('base64url'), new Date(made.getTime() + 3600_000))).toBe(
      false,
    );
  });

  it('refuses the links of the old form (an HMAC of the reference alone) and garbage', () => {
    const now = new Date(made.getTime() + 1000);
    for (const given of ['', 'forged', 'a'.repeat(43), 'not base64!', confirmToken(SECRET, booking) + 'A']) {
      expect(verifyConfirmToken(SECRET, booking, given, now)).toBe(false);
    }
  });

  it('is the same link however often the booking emails are written (a retried activity)', () => {
    expect(confirmToken(SECRET, booking)).toBe(confirmToken(SECRET, { ...booking }));
    // A claim's link is issued when it is sent.
    expect(confirmToken(SECRET, booking, new Date(made.getTime() + DAY))).not.toBe(confirmToken(SECRET, booking));
  });
});

describe('a repeated request', () => {
  const idem = (key: string) => ({ scope: 'bookings:key:k1', key });
  it('under an API key is the owner only with the Idempotency-Key that made the booking', () => {
    const first = requestOwner({ apiKeyId: 'k1', idempotency: idem('a') });
    expect(repeatedBy(first, requestOwner({ apiKeyId: 'k1', idempotency: idem('a') }))).toBe('owner');
    expect(repeatedBy(first, requestOwner({ apiKeyId: 'k1', idempotency: idem('b') }))).toBe('same_caller');
    expect(repeatedBy(first, requestOwner({ apiKeyId: 'k1' }))).toBe('same_caller');
    // A booking made without an Idempotency-Key: no later request is its maker.
    expect(repeatedBy(requestOwner({ apiKeyId: 'k1' }), requestOwner({ apiKeyId: 'k1' }))).toBe('same_caller');
    expect(repeatedBy(first, requestOwner({ apiKeyId: 'k2', idempotency: idem('a') }))).toBe('stranger');
  });

  it('by one party (a signed-in passenger, a partner, an anonymous Idempotency-Key) is the owner as before', () => {
    expect(repeatedBy(requestOwner({ accountId: 'p1' }), requestOwner({ accountId: 'p1' }))).toBe('owner');
    expect(repeatedBy(requestOwner({ partnerId: 'acme' }), requestOwner({ partnerId: 'acme' }))).toBe('owner');
    const anon = { scope: 'bookings:anonymous:abc', key: 'k' };
    expect(repeatedBy(requestOwner({ idempotency: anon }), requestOwner({ idempotency: anon }))).toBe('owner');
    expect(repeatedBy(requestOwner({}), requestOwner({}))).toBe('stranger');
  });

  it('of a claimed booking is never the owner, whoever asks', () => {
    const claimed = { principal: CLAIMED_PRINCIPAL, mailbox: 'ada@example.com', request: null };
    expect(repeatedBy(claimed, { principal: CLAIMED_PRINCIPAL, mailbox: null, request: null })).toBe('stranger');
    expect(repeatedBy(claimed, requestOwner({ apiKeyId: 'k1', email: 'mallory@example.com' }))).toBe('stranger');
    expect(repeatedBy(claimed, requestOwner({ email: 'ada@example.com' }))).toBe('same_email');
  });

  it('that is the first one’s very body is the same caller for its quote anywhere, for a trip from its address within the window (issue 37)', () => {
    const first = requestOwner({ bodyHash: 'b1', address: '203.0.113.7' });
    const trip = { quote: false, ageSeconds: 60, sameAddressSeconds: 600 };
    expect(repeatedBy(first, requestOwner({ bodyHash: 'b1', address: '203.0.113.7' }), trip)).toBe('same_request');
    expect(repeatedBy(first, requestOwner({ bodyHash: 'b1', address: '203.0.113.8' }), trip)).toBe('stranger');
    expect(repeatedBy(first, requestOwner({ bodyHash: 'b2', address: '203.0.113.7' }), trip)).toBe('stranger');
    expect(
      repeatedBy(first, requestOwner({ bodyHash: 'b1', address: '203.0.113.7' }), { ...trip, ageSeconds: 601 }),
    ).toBe('stranger');
    const quote = { ...trip, quote: true, ageSeconds: 86_400 };
    expect(repeatedBy(first, requestOwner({ bodyHash: 'b1', address: '198.51.100.1' }), quote)).toBe('same_request');
    expect(repeatedBy(first, requestOwner({ bodyHash: 'b2', address: '203.0.113.7' }), quote)).toBe('stranger');
    // A claimed booking keeps nothing of the booker's request.
    const claimed = { principal: CLAIMED_PRINCIPAL, mailbox: null, request: null, bodyHash: null, address: null };
    expect(repeatedBy(claimed, requestOwner({ bodyHash: 'b1', address: '203.0.113.7' }), quote)).toBe('stranger');
  });
});

describe('a sandbox trip', () => {
  const trip = {
    phone: '+447400123456',
    pickup: { lat: 53.45, lon: -2.22 },
    dropoff: { lat: 53.36, lon: -2.27 },
    departAt: made,
  };
  it('is another ride than the same trip asked for live, and live identities are as they were', () => {
    expect(tripIdentity({ ...trip, sandbox: true }).key).not.toBe(tripIdentity(trip).key);
    expect(tripIdentity({ ...trip, sandbox: false }).key).toBe(tripIdentity(trip).key);
    expect(quoteIdentity({ phone: trip.phone, quoteId: 'q1', sandbox: true }).key).not.toBe(
      quoteIdentity({ phone: trip.phone, quoteId: 'q1' }).key,
    );
  });
});
