// Retries always get their booking back, and never a second ride (issue 37, item 2): a quote
// redeemed again for the same passenger, an anonymous byte-identical request again from the same
// address, concurrent requests under one Idempotency-Key, and a "now" booking asked for again
// however long after. Through HTTP on the real stack; texts counted in the outbox.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/auth/api-keys.js';
import { startStack, type TestStack } from '../support/stack.js';

let stack: TestStack;
beforeAll(async () => {
  // The allowances as a public service has them: a few new rides an hour per phone, and per address.
  stack = await startStack({ RECIPIENT_BOOKINGS_PER_HOUR: '6', BOOKING_RATE_LIMIT_PER_HOUR: '5' });
});
afterAll(async () => stack?.close());

const run = randomUUID().replace(/\D/g, '').padEnd(6, '7');
let n = 0;
/** An address of this file's own (the per-address counters live in the database every file shares). */
const address = () => `198.18.${Number(run.slice(0, 2)) % 250}.${(n++ % 250) + 1}`;
let phones = 0;
/** A UK mobile, and its E.164 form as bookings and the outbox record it. */
const mobile = () => {
  const digits = `7401${run.slice(2, 5)}${String(phones++).padStart(3, '0')}`;
  return { typed: `+44 ${digits.slice(0, 4)} ${digits.slice(4)}`, e164: `+44${digits}` };
};
const inHours = (h: number) => {
  const t = new Date(Date.now() + h * 3600_000);
  t.setUTCSeconds(0, 0);
  return t.toISOString();
};

function post(url: string, payload: unknown, opts: { headers?: Record<string, string>; from?: string } = {}) {
  return stack.app.inject({
    method: 'POST',
    url,
    payload: payload as object,
    headers: opts.headers ?? {},
    remoteAddress: opts.from ?? address(),
  });
}
const get = (url: string) => stack.app.inject({ method: 'GET', url, remoteAddress: address() });

/** An agent's instant booking as the spec shows it: no key, no email. */
function instant(phone: string, departAt?: string, name = 'Grace Hopper') {
  return {
    pickup_address: '14 Wilmslow Road, Rusholme M14 5TP',
    dropoff_address: 'Manchester Airport',
    passenger_name: name,
    passenger_phone_whatsapp: phone,
    ...(departAt ? { depart_at: departAt } : {}),
  };
}

const claimTextsTo = async (phone: string) =>
  (
    await stack.sql<{ body: string }[]>`
      select body from outbox where recipient = ${phone} and channel = 'sms' and body like '%/claim/%'`
  ).map((r) => r.body);
const ridesFor = async (phone: string) =>
  (
    await stack.sql<{ ref: string; status: string }[]>`
      select ref, status from bookings where passenger_phone = ${phone} order by created_at`
  ).map((r) => r.ref);

describe('a quote redeemed again', () => {
  it('is the same booking for the same passenger, from wherever it is sent, with no token and no text', async () => {
    const quoted = await post('/api/public/quotes/estimate', {
      pickup_address: '14 Wilmslow Road, Rusholme M14 5TP',
      dropoff_address: 'Manchester Airport',
      passenger_count: 1,
      depart_at: inHours(30),
    });
    expect(quoted.statusCode, quoted.body).toBe(200);
    const phone = mobile();
    const body = {
      quote_id: quoted.json().quote_id as string,
      passenger_name: 'Grace Hopper',
      passenger_phone_whatsapp: phone.typed,
      payment_method: 'cash_to_driver',
    };
    const first = await post('/api/public/bookings/create', body);
    expect(first.statusCode, first.body).toBe(200);
    const ref = first.json().booking_reference as string;
    expect(first.json().manage_token).toMatch(/^bmt_/);

    // The reply was lost; the agent sends the same request again (a serverless agent: from another address).
    const again = await post('/api/public/bookings/create', body);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toMatchObject({ booking_reference: ref, status: first.json().status, manage_token: null });
    expect(await ridesFor(phone.e164)).toEqual([ref]);
    expect(await claimTextsTo(phone.e164)).toEqual([]);

    // Someone else with the quote and her phone but not her request is still refused, and learns nothing.
    const other = await post('/api/public/bookings/create', { ...body, passenger_name: 'Mallory' });
    expect(other.statusCode).toBe(409);
    expect(other.body).not.toContain(ref);
  });
});

describe('an anonymous request sent again, byte for byte', () => {
  it('gets its booking and status back from the same address, without a token, and texts nobody', async () => {
    const phone = mobile();
    const body = instant(phone.typed, inHours(32));
    const from = address();
    const first = await post('/api/public/bookings/instant', body, { from });
    expect(first.statusCode, first.body).toBe(200);
    const { booking_reference: ref, manage_token: token } = first.json();

    const again = await post('/api/public/bookings/instant', body, { from });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toMatchObject({ booking_reference: ref, status: first.json().status, manage_token: null });
    expect(await claimTextsTo(phone.e164)).toEqual([]);
    // The capability stays where it was: the first reply's token works, and nothing else was handed out.
    expect((await get(`/api/public/v1/booking/${ref}?token=${token}`)).statusCode).toBe(200);
    expect(await ridesFor(phone.e164)).toEqual([ref]);

    // The same words from another address are another caller: 409, nothing of hers, and her phone is told.
    const elsewhere = await post('/api/public/bookings/instant', body);
    expect(elsewhere.statusCode).toBe(409);
    expect(elsewhere.body).not.toContain(ref);
    expect(await claimTextsTo(phone.e164)).toHaveLength(1);
  });
});

describe('concurrent requests under one Idempotency-Key', () => {
  it('all get the first one’s answer, never a 429, and cost no allowance', async () => {
    const phone = mobile();
    const from = address();
    const headers = { 'idempotency-key': randomUUID() };
    const body = instant(phone.typed, inHours(34));
    const replies = await Promise.all(
      Array.from({ length: 20 }, () => post('/api/public/bookings/instant', body, { headers, from })),
    );
    const statuses = replies.map((r) => r.statusCode);
    expect(statuses, replies.find((r) => r.statusCode !== 200)?.body).toEqual(Array(20).fill(200));
    const first = replies[0]!.json();
    expect(first.manage_token).toMatch(/^bmt_/);
    for (const r of replies) expect(r.json()).toEqual(first);
    expect(await ridesFor(phone.e164)).toEqual([first.booking_reference]);

    // The address's allowance (5 an hour here) paid for one booking, not twenty.
    const more = [];
    for (let h = 0; h < 4; h++) {
      more.push(
        (await post('/api/public/bookings/instant', instant(mobile().typed, inHours(40 + h)), { from })).statusCode,
      );
    }
    expect(more).toEqual([200, 200, 200, 200]);

    // Spent: a burst under a fresh key gets the first one's refusal, every one of them, and no ride.
    const late = mobile();
    const lateKey = { 'idempotency-key': randomUUID() };
    const refused = await Promise.all(
      Array.from({ length: 5 }, () =>
        post('/api/public/bookings/instant', instant(late.typed, inHours(45)), { headers: lateKey, from }),
      ),
    );
    expect(refused.map((r) => r.statusCode)).toEqual([429, 429, 429, 429, 429]);
    expect(await ridesFor(late.e164)).toEqual([]);
  });

  it('are one request as sent, under an API key too, whatever validation trims', async () => {
    const { key } = await createApiKey(stack.sql, { name: `retries-${randomUUID()}` });
    const headers = { 'x-api-key': key, 'idempotency-key': randomUUID() };
    const phone = mobile();
    const body = instant(phone.typed, inHours(36), '  Grace Hopper ');
    const replies = await Promise.all(
      Array.from({ length: 5 }, () => post('/api/public/bookings/instant', body, { headers })),
    );
    expect(
      replies.map((r) => r.statusCode),
      replies[0]!.body,
    ).toEqual([200, 200, 200, 200, 200]);
    for (const r of replies) expect(r.json()).toEqual(replies[0]!.json());
    expect(await ridesFor(phone.e164)).toEqual([replies[0]!.json().booking_reference]);
  });
});

describe('a "now" booking asked for again', () => {
  it('is the open booking however long after, and a new ride only once that one has ended', async () => {
    const { key } = await createApiKey(stack.sql, { name: `retries-${randomUUID()}`, rateLimitExempt: true });
    const headers = { 'x-api-key': key };
    const phone = mobile();
    const body = instant(phone.typed);
    const first = await post('/api/public/bookings/instant', body, { headers });
    expect(first.statusCode, first.body).toBe(200);
    const { booking_reference: ref, manage_token: token } = first.json();

    // An hour later (the test moves the request back, as time would), the ride is still open.
    await stack.sql`update booking_requests set created_at = created_at - interval '1 hour' where ref = ${ref}`;
    const later = await post('/api/public/bookings/instant', body, { headers });
    expect(later.statusCode, later.body).toBe(200);
    expect(later.json().booking_reference).toBe(ref);
    expect(await ridesFor(phone.e164)).toEqual([ref]);

    // Once it has ended (cancelled here), the same request is a new ride.
    const cancelled = await post(`/api/public/v1/booking/${ref}`, { action: 'cancel', token });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const next = await post('/api/public/bookings/instant', body, { headers });
    expect(next.statusCode, next.body).toBe(200);
    expect(next.json().booking_reference).not.toBe(ref);
    expect(await ridesFor(phone.e164)).toEqual([ref, next.json().booking_reference]);

    // Nobody took that one, and its search is over (the test moves its pickup back, as time would):
    // asked for again, it is a new ride, not the dead one.
    const dead = next.json().booking_reference as string;
    await stack.sql`update bookings set status = 'unassigned', pickup_at = now() - interval '1 hour' where ref = ${dead}`;
    const fresh = await post('/api/public/bookings/instant', body, { headers });
    expect(fresh.statusCode, fresh.body).toBe(200);
    expect(fresh.json().booking_reference).not.toBe(dead);
  });
});
