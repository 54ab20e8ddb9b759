// A booking belongs to whoever made it (issue 20): a passenger's phone and trip are no key to her
// booking. Only the caller that made it gets it again with a manage token; a stranger gets 409 and
// nothing of hers; the passenger takes charge of a booking made in her name through a link texted
// to her phone, which revokes every token handed out before; every cancel texts her; and tokens
// stop working a day after pickup. Through HTTP on the real stack, texts counted in the outbox.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/auth/api-keys.js';
import { eventually, startStack, type TestStack } from '../support/stack.js';

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack({ LOOKUP_RATE_LIMIT_PER_MINUTE: '1000', BOOKING_RATE_LIMIT_PER_HOUR: '1000' });
});
afterAll(async () => stack?.close());

let n = 0;
const address = () => `198.51.100.${(n++ % 250) + 1}`;
const run = randomUUID().replace(/\D/g, '').padEnd(5, '3').slice(0, 3);
let phones = 0;
/** A UK mobile, and its E.164 form as the outbox records it. */
const mobile = () => {
  const digits = `7400${run}${String(phones++).padStart(3, '0')}`;
  return { typed: `+44 ${digits.slice(0, 4)} ${digits.slice(4)}`, e164: `+44${digits}` };
};
/** A pickup two days ahead, on the hour (the kind of time a stranger could guess). */
const airportRun = (hoursAhead: number) => {
  const t = new Date(Date.now() + hoursAhead * 3600_000);
  t.setUTCMinutes(0, 0, 0);
  return t.toISOString();
};

function post(url: string, payload: unknown, opts: { headers?: Record<string, string>; from?: string } = {}) {
  return stack.app.inject({ method: 'POST', url, payload: payload as object, headers: opts.headers ?? {}, remoteAddress: opts.from ?? address() });
}
const get = (url: string) => stack.app.inject({ method: 'GET', url, remoteAddress: address() });

function v1(phone: string, email: string, departAt: string, name = 'Ada Lovelace') {
  return { pickup: '14 Wilmslow Road, Rusholme', dropoff: 'Manchester Airport', departAt, passengerName: name, passengerEmail: email, passengerPhone: phone, passengers: 1 };
}
function instant(phone: string, departAt: string, name = 'Ada Lovelace') {
  return { pickup_address: '14 Wilmslow Road, Rusholme', dropoff_address: 'Manchester Airport', passenger_name: name, passenger_phone_whatsapp: phone, depart_at: departAt };
}

async function textsTo(phone: string, like: string): Promise<string[]> {
  const rows = await stack.sql<{ body: string }[]>`select body from outbox where recipient = ${phone} and channel = 'sms' and body like ${like} order by id`;
  return rows.map((r) => r.body);
}
const claimLink = (body: string) => /\/claim\/(bcl_[A-Za-z0-9_-]+)/.exec(body)?.[1];

describe('who gets a booking when the same trip is asked for again', () => {
  it('gives a stranger with the passenger’s phone and trip neither her token nor her booking, and texts her a way to take charge', async () => {
    const phone = mobile();
    const when = airportRun(50);
    const hers = await post('/api/public/bookings/instant', instant(phone.typed, when), { headers: { 'idempotency-key': randomUUID() } });
    expect(hers.statusCode, hers.body).toBe(200);
    const { booking_reference: ref, manage_token: token } = hers.json();
    expect(token).toMatch(/^bmt_/);

    for (const attempt of [
      post('/api/public/bookings/instant', instant(phone.typed, when, 'Mallory')),
      post('/api/public/bookings/instant', instant(phone.typed, when, 'Mallory'), { headers: { 'idempotency-key': randomUUID() } }),
      post('/api/public/bookings/instant', instant(phone.typed, when, 'Mallory'), { headers: { 'x-api-key': (await createApiKey(stack.sql, { name: `stranger-${randomUUID()}` })).key } }),
    ]) {
      const res = await attempt;
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json().code).toBe('booking_exists');
      expect(res.body).not.toContain(ref);
      expect(res.body).not.toContain('bmt_');
      expect(res.body).not.toContain('Ada');
    }
    // Her phone is told, and how to take charge; the limits hold however often the stranger asks.
    const texts = await eventually(async () => {
      const t = await textsTo(phone.e164, '%/claim/%');
      return t.length > 0 ? t : undefined;
    });
    expect(texts[0]).toContain(ref);
    expect(texts.length).toBeLessThanOrEqual(3);
    // Her own token still works.
    expect((await get(`/api/public/v1/booking/${ref}?token=${token}`)).statusCode).toBe(200);
  });

  it('gives the caller that made it the same booking with a fresh token, and an exact replay for the same Idempotency-Key', async () => {
    const { key } = await createApiKey(stack.sql, { name: `owner-${randomUUID()}` });
    const phone = mobile();
    const when = airportRun(52);
    const first = await post('/api/public/bookings/instant', instant(phone.typed, when), { headers: { 'x-api-key': key } });
    const again = await post('/api/public/bookings/instant', instant(phone.typed, when), { headers: { 'x-api-key': key } });
    expect(again.statusCode).toBe(200);
    expect(again.json().booking_reference).toBe(first.json().booking_reference);
    expect(again.json().manage_token).not.toBe(first.json().manage_token);
    for (const t of [first.json().manage_token, again.json().manage_token]) {
      expect((await get(`/api/public/v1/booking/${first.json().booking_reference}?token=${t}`)).statusCode).toBe(200);
    }

    const anonymousKey = randomUUID();
    const body = instant(mobile().typed, airportRun(53));
    const once = await post('/api/public/bookings/instant', body, { headers: { 'idempotency-key': anonymousKey } });
    const replay = await post('/api/public/bookings/instant', body, { headers: { 'idempotency-key': anonymousKey } });
    expect(replay.json()).toEqual(once.json());
  });

  it('answers a repeat giving the booking’s own email with the booking but no token', async () => {
    const phone = mobile();
    const email = `ada.${randomUUID().slice(0, 6)}@example.com`;
    const when = airportRun(54);
    const first = await post('/api/public/v1/booking', v1(phone.typed, email, when));
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json().manage_token).toMatch(/^bmt_/);
    const repeat = await post('/api/public/v1/booking', v1(phone.typed, email, when));
    expect(repeat.statusCode).toBe(201);
    expect(repeat.json().booking_reference).toBe(first.json().booking_reference);
    expect(repeat.json().manage_token).toBeNull();
  });
});

describe('a booking made in someone else’s name', () => {
  it('is taken over by the passenger through her phone: his token and email stop working, hers work, and every cancel texts her', async () => {
    const phone = mobile();
    const when = airportRun(56);
    const his = await post('/api/public/v1/booking', v1(phone.typed, `mallory.${randomUUID().slice(0, 6)}@example.com`, when, 'Mallory'));
    expect(his.statusCode, his.body).toBe(201);
    const ref = his.json().booking_reference as string;
    const hisToken = his.json().manage_token as string;

    // Her own request: refused, and her phone gets the link.
    const herEmail = `ada.${randomUUID().slice(0, 6)}@example.com`;
    const mine = await post('/api/public/v1/booking', v1(phone.typed, herEmail, when));
    expect(mine.statusCode).toBe(409);
    const link = claimLink((await eventually(async () => (await textsTo(phone.e164, '%/claim/%'))[0])));
    expect(link).toBeDefined();

    const page = await get(`/claim/${link}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(ref);
    expect(page.body).not.toContain('mallory');
    const claimed = await stack.app.inject({
      method: 'POST',
      url: `/claim/${link}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ name: 'Ada Lovelace', email: herEmail }).toString(),
      remoteAddress: address(),
    });
    expect(claimed.statusCode, claimed.body).toBe(200);
    const herToken = /<code>(bmt_[A-Za-z0-9_-]+)<\/code>/.exec(claimed.body)?.[1];
    expect(herToken).toBeDefined();

    expect((await get(`/api/public/v1/booking/${ref}?token=${hisToken}`)).statusCode).toBe(403);
    expect((await post(`/api/public/v1/booking/${ref}`, { action: 'cancel', token: hisToken })).statusCode).toBe(403);
    expect((await get(`/api/public/v1/booking/${ref}?email=${encodeURIComponent(herEmail)}`)).statusCode).toBe(200);
    expect((await get(`/api/public/v1/booking/${ref}?token=${herToken}`)).statusCode).toBe(200);
    // The link worked once.
    expect((await get(`/claim/${link}`)).statusCode).toBe(410);

    // She cancels from the page she landed on; her phone is told.
    const cancelled = await stack.app.inject({
      method: 'POST',
      url: `/manage/${ref}/cancel`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ token: herToken!, reason: 'Plans changed' }).toString(),
      remoteAddress: address(),
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect((await get(`/api/public/v1/booking/${ref}?token=${herToken}`)).json().status).toBe('cancelled');
    await eventually(async () => ((await textsTo(phone.e164, '%has been cancelled%')).length === 1 ? true : undefined));
  });

  it('texts the passenger when someone holding her booking cancels it', async () => {
    const phone = mobile();
    const booked = await post('/api/public/bookings/instant', instant(phone.typed, airportRun(58), 'Mallory'));
    const { booking_reference: ref, manage_token: token } = booked.json();
    expect((await post(`/api/public/v1/booking/${ref}`, { action: 'cancel', token })).statusCode).toBe(200);
    const [text] = await eventually(async () => {
      const t = await textsTo(phone.e164, '%has been cancelled%');
      return t.length > 0 ? t : undefined;
    });
    expect(text).toContain(ref);
  });

  it('sends the claim link on request only to the booking’s own phone, written as people write it', async () => {
    const phone = mobile();
    const { booking_reference: ref } = (await post('/api/public/bookings/instant', instant(phone.typed, airportRun(60)))).json();
    const wrong = mobile();
    expect((await post(`/api/public/v1/booking/${ref}/claim`, { passenger_phone: wrong.typed })).statusCode).toBe(202);
    expect(await textsTo(wrong.e164, '%/claim/%')).toEqual([]);
    const national = `0${phone.e164.slice(3, 7)} ${phone.e164.slice(7)}`;
    const asked = await post(`/api/public/v1/booking/${ref}/claim`, { passenger_phone: national });
    expect(asked.statusCode).toBe(202);
    expect(asked.json()).toEqual({ status: 'link_sent_if_booking_phone' });
    const texts = await textsTo(phone.e164, '%/claim/%');
    expect(texts).toHaveLength(1);
    expect(texts[0]).toContain(ref);
  });
});

describe('manage tokens', () => {
  it('stop working a day after the pickup time', async () => {
    const { booking_reference: ref, manage_token: token } = (await post('/api/public/bookings/instant', instant(mobile().typed, airportRun(62)))).json();
    expect((await get(`/api/public/v1/booking/${ref}?token=${token}`)).statusCode).toBe(200);
    // The trip is 25 hours in the past (the test moves the booking's pickup, as time would).
    await stack.sql`update bookings set pickup_at = now() - interval '25 hours' where ref = ${ref}`;
    const expired = await get(`/api/public/v1/booking/${ref}?token=${token}`);
    expect(expired.statusCode).toBe(403);
    expect(expired.json().code).toBe('token_mismatch');
  });
});
