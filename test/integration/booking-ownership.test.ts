// A booking belongs to whoever made it (issue 20): a passenger's phone and trip are no key to her
// booking. Only the request that made it gets it again with a manage token (under a shared API key,
// the same key and Idempotency-Key: issue 33); a stranger gets 409 and nothing of hers; the
// passenger takes charge of a booking made in her name through a link texted to her phone, which is
// final: every token, confirmation link, email and note of the other party ends (issue 33); every
// cancel texts her; and tokens stop working a day after pickup. Through HTTP on the real stack,
// texts counted in the outbox.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/auth/api-keys.js';
import { issueManageToken } from '../../src/bookings/ownership.js';
import type { Notifier, OutboundMessage } from '../../src/notify/notifier.js';
import { eventually, STACK_WAIT_MS, startStack, type TestStack } from '../support/stack.js';

/** While set, claim-link texts wait at the notifier until released (the claim-by-reference test). */
let hold: { entered: (msg: OutboundMessage) => void; released: Promise<void> } | null = null;
const holding = (real: Notifier): Notifier => ({
  async send(msg) {
    const h = hold;
    if (h && msg.purpose === 'claim_link') {
      h.entered(msg);
      await h.released;
    }
    return real.send(msg);
  },
});
function holdClaimTexts() {
  let entered!: (msg: OutboundMessage) => void;
  let release!: () => void;
  const sending = new Promise<OutboundMessage>((r) => (entered = r));
  const released = new Promise<void>((r) => (release = r));
  hold = { entered, released };
  return {
    sending,
    release: () => {
      hold = null;
      release();
    },
  };
}

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack(
    { LOOKUP_RATE_LIMIT_PER_MINUTE: '1000', BOOKING_RATE_LIMIT_PER_HOUR: '1000' },
    { wrapNotifier: holding },
  );
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
  return stack.app.inject({
    method: 'POST',
    url,
    payload: payload as object,
    headers: opts.headers ?? {},
    remoteAddress: opts.from ?? address(),
  });
}
const get = (url: string) => stack.app.inject({ method: 'GET', url, remoteAddress: address() });

function v1(phone: string, email: string, departAt: string, name = 'Ada Lovelace') {
  return {
    pickup: '14 Wilmslow Road, Rusholme M14 5TP',
    dropoff: 'Manchester Airport',
    departAt,
    passengerName: name,
    passengerEmail: email,
    passengerPhone: phone,
    passengers: 1,
  };
}
function instant(phone: string, departAt: string, name = 'Ada Lovelace') {
  return {
    pickup_address: '14 Wilmslow Road, Rusholme M14 5TP',
    dropoff_address: 'Manchester Airport',
    passenger_name: name,
    passenger_phone_whatsapp: phone,
    depart_at: departAt,
  };
}

async function textsTo(phone: string, like: string): Promise<string[]> {
  const rows = await stack.sql<
    { body: string }[]
  >`select body from outbox where recipient = ${phone} and channel = 'sms' and body like ${like} order by id`;
  return rows.map((r) => r.body);
}
const claimLink = (body: string) => /\/claim\/(bcl_[A-Za-z0-9_-]+)/.exec(body)?.[1];
/** The confirmation link in the newest email to `email` that has one, as a path. */
async function confirmLinkTo(email: string): Promise<string> {
  return eventually(
    async () => {
      const rows = await stack.sql<
        { body: string }[]
      >`select body from outbox where recipient = ${email} and channel = 'email' and body like '%/confirm/%' order by id desc`;
      const m = rows[0] && /\/confirm\/TX[0-9A-Z]{8,10}\?t=[\w-]+/.exec(rows[0].body);
      return m ? m[0] : undefined;
    },
    STACK_WAIT_MS,
    `a confirmation link to ${email}`,
  );
}
const manageTokenOf = (location: unknown) => decodeURIComponent(/#t=(bmt_[\w%-]+)$/.exec(String(location))?.[1] ?? '');
const form = (url: string, fields: Record<string, string>) =>
  stack.app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(fields).toString(),
    remoteAddress: address(),
  });
const mailboxVerified = async (email: string) =>
  (
    await stack.sql<
      { v: boolean }[]
    >`select verified_at is not null as v from passenger_emails where email = ${email.toLowerCase()}`
  )[0]?.v ?? false;

describe('who gets a booking when the same trip is asked for again', () => {
  it('gives a stranger with the passenger’s phone and trip neither her token nor her booking, and texts her a way to take charge', async () => {
    const phone = mobile();
    const when = airportRun(50);
    const hers = await post('/api/public/bookings/instant', instant(phone.typed, when), {
      headers: { 'idempotency-key': randomUUID() },
    });
    expect(hers.statusCode, hers.body).toBe(200);
    const { booking_reference: ref, manage_token: token } = hers.json();
    expect(token).toMatch(/^bmt_/);

    for (const attempt of [
      post('/api/public/bookings/instant', instant(phone.typed, when, 'Mallory')),
      post('/api/public/bookings/instant', instant(phone.typed, when, 'Mallory'), {
        headers: { 'idempotency-key': randomUUID() },
      }),
      post('/api/public/bookings/instant', instant(phone.typed, when, 'Mallory'), {
        headers: { 'x-api-key': (await createApiKey(stack.sql, { name: `stranger-${randomUUID()}` })).key },
      }),
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

  it('gives the request that made it the same booking with a fresh token, and an exact replay for the same Idempotency-Key', async () => {
    const { key } = await createApiKey(stack.sql, { name: `owner-${randomUUID()}` });
    const phone = mobile();
    const when = airportRun(52);
    const idem = randomUUID();
    const headers = { 'x-api-key': key, 'idempotency-key': idem };
    const first = await post('/api/public/bookings/instant', instant(phone.typed, when), { headers });
    expect(first.statusCode, first.body).toBe(200);
    const ref = first.json().booking_reference as string;
    expect((await post('/api/public/bookings/instant', instant(phone.typed, when), { headers })).json()).toEqual(
      first.json(),
    );
    // Its first reply lost (the attempt died before it was stored): the same request, retried, is still its maker.
    await stack.sql`delete from idempotency_keys where key = ${idem}`;
    const again = await post('/api/public/bookings/instant', instant(phone.typed, when), { headers });
    expect(again.statusCode).toBe(200);
    expect(again.json().booking_reference).toBe(ref);
    expect(again.json().manage_token).toMatch(/^bmt_/);
    expect(again.json().manage_token).not.toBe(first.json().manage_token);
    for (const t of [first.json().manage_token, again.json().manage_token]) {
      expect((await get(`/api/public/v1/booking/${ref}?token=${t}`)).statusCode).toBe(200);
    }
    // A retry without its Idempotency-Key still gets its booking back (spec 1), without a token.
    const bare = await post('/api/public/bookings/instant', instant(phone.typed, when), {
      headers: { 'x-api-key': key },
    });
    expect(bare.statusCode).toBe(200);
    expect(bare.json().booking_reference).toBe(ref);
    expect(bare.json().manage_token).toBeNull();

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
    const his = await post(
      '/api/public/v1/booking',
      v1(phone.typed, `mallory.${randomUUID().slice(0, 6)}@example.com`, when, 'Mallory'),
    );
    expect(his.statusCode, his.body).toBe(201);
    const ref = his.json().booking_reference as string;
    const hisToken = his.json().manage_token as string;

    // Her own request: refused, and her phone gets the link.
    const herEmail = `ada.${randomUUID().slice(0, 6)}@example.com`;
    const mine = await post('/api/public/v1/booking', v1(phone.typed, herEmail, when));
    expect(mine.statusCode).toBe(409);
    const link = claimLink(await eventually(async () => (await textsTo(phone.e164, '%/claim/%'))[0]));
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
    const { booking_reference: ref } = (
      await post('/api/public/bookings/instant', instant(phone.typed, airportRun(60)))
    ).json();
    const wrong = mobile();
    expect((await post(`/api/public/v1/booking/${ref}/claim`, { passenger_phone: wrong.typed })).statusCode).toBe(202);
    expect(await textsTo(wrong.e164, '%/claim/%')).toEqual([]);
    const national = `0${phone.e164.slice(3, 7)} ${phone.e164.slice(7)}`;
    const asked = await post(`/api/public/v1/booking/${ref}/claim`, { passenger_phone: national });
    expect(asked.statusCode).toBe(202);
    expect(asked.json()).toEqual({ status: 'link_sent_if_booking_phone' });
    // Sent after the reply (issue 33): the reply is the same, at once, whatever the phone.
    const texts = await eventually(async () => {
      const t = await textsTo(phone.e164, '%/claim/%');
      return t.length > 0 ? t : undefined;
    });
    expect(texts).toHaveLength(1);
    expect(texts[0]).toContain(ref);
    expect(await textsTo(wrong.e164, '%/claim/%')).toEqual([]);
  });
});

describe('manage tokens', () => {
  it('stop working a day after the pickup time', async () => {
    const { booking_reference: ref, manage_token: token } = (
      await post('/api/public/bookings/instant', instant(mobile().typed, airportRun(62)))
    ).json();
    expect((await get(`/api/public/v1/booking/${ref}?token=${token}`)).statusCode).toBe(200);
    // The trip is 25 hours in the past (the test moves the booking's pickup, as time would).
    await stack.sql`update bookings set pickup_at = now() - interval '25 hours' where ref = ${ref}`;
    const expired = await get(`/api/public/v1/booking/${ref}?token=${token}`);
    expect(expired.statusCode).toBe(403);
    expect(expired.json().code).toBe('token_mismatch');
  });
});

describe('a shared API key (issue 33)', () => {
  it('gives another holder of the key, who knows the phone and trip, the booking but never a token, and so no cancel', async () => {
    const { key } = await createApiKey(stack.sql, { name: `desk-${randomUUID()}` });
    const phone = mobile();
    const when = airportRun(64);
    const guest = await post(
      '/api/public/v1/booking',
      v1(phone.typed, `guest.${randomUUID().slice(0, 6)}@example.com`, when),
      {
        headers: { 'x-api-key': key, 'idempotency-key': randomUUID() },
      },
    );
    expect(guest.statusCode, guest.body).toBe(201);
    const ref = guest.json().booking_reference as string;
    // Tokens issued to callers: the one in the passenger's "booked" text (holder 'phone') is minted by
    // the workflow's message activity, in its own time, and is not what a caller is given.
    const tokenCount = async () =>
      (await stack.sql`select 1 from booking_manage_tokens where booking_ref = ${ref} and holder <> 'phone'`).length;
    const before = await tokenCount();

    // Someone else at the desk, with the same key, another (or no) Idempotency-Key and another email.
    const others: Record<string, string>[] = [
      { 'x-api-key': key, 'idempotency-key': randomUUID() },
      { 'x-api-key': key },
    ];
    for (const headers of others) {
      for (const route of ['/api/public/v1/booking', '/api/public/bookings/instant'] as const) {
        const body =
          route === '/api/public/v1/booking'
            ? v1(phone.typed, `other.${randomUUID().slice(0, 6)}@example.com`, when, 'Mallory')
            : instant(phone.typed, when, 'Mallory');
        const res = await post(route, body, { headers });
        expect(res.statusCode, res.body).toBeLessThan(300);
        expect(res.json().booking_reference).toBe(ref);
        expect(res.json().manage_token).toBeNull();
        expect(res.body).not.toContain('bmt_');
      }
    }
    expect(await tokenCount()).toBe(before);
    expect((await get(`/api/public/v1/booking/${ref}?token=${guest.json().manage_token}`)).json().status).not.toBe(
      'cancelled',
    );
  });
});

describe('a claim is final (issue 33)', () => {
  it('leaves the stranger nothing: his confirmation link, token, email and retries are dead, and her email is verified only by her own link', async () => {
    const phone = mobile();
    const when = airportRun(66);
    const hisEmail = `mallory.${randomUUID().slice(0, 6)}@example.com`;
    const { key } = await createApiKey(stack.sql, { name: `stranger-${randomUUID()}` });
    const hisIdem = randomUUID();
    const his = await post(
      '/api/public/v1/booking',
      { ...v1(phone.typed, hisEmail, when, 'Mallory'), notes: 'Ring the back door' },
      {
        headers: { 'x-api-key': key, 'idempotency-key': hisIdem },
      },
    );
    expect(his.statusCode, his.body).toBe(201);
    const ref = his.json().booking_reference as string;
    const hisLink = await confirmLinkTo(hisEmail);

    // She asks for the claim link by reference and takes the booking, with her email.
    expect((await post(`/api/public/v1/booking/${ref}/claim`, { passenger_phone: phone.typed })).statusCode).toBe(202);
    const link = claimLink(await eventually(async () => (await textsTo(phone.e164, '%/claim/%'))[0]));
    const herEmail = `ada.${randomUUID().slice(0, 6)}@example.com`;
    const claimed = await form(`/claim/${link}`, { name: 'Ada Lovelace', email: herEmail });
    expect(claimed.statusCode, claimed.body).toBe(200);

    // His emailed link confirms nothing and opens nothing, however often.
    for (let i = 0; i < 2; i++) {
      const opened = await get(hisLink);
      expect(opened.statusCode).toBe(403);
      expect(String(opened.headers.location ?? '')).not.toContain('bmt_');
    }
    expect(await mailboxVerified(herEmail)).toBe(false);
    expect((await get(`/api/public/v1/booking/${ref}?token=${his.json().manage_token}`)).statusCode).toBe(403);
    expect((await get(`/api/public/v1/booking/${ref}?email=${encodeURIComponent(hisEmail)}`)).statusCode).toBe(403);
    expect((await post(`/api/public/v1/booking/${ref}`, { action: 'cancel', email: hisEmail })).statusCode).toBe(403);
    // His notes are off the driver's card.
    const [row] = await stack.sql<{ notes: string | null; passenger_email: string | null; email_verified: boolean }[]>`
      select notes, passenger_email, email_verified from bookings where ref = ${ref}`;
    expect(row).toEqual({ notes: null, passenger_email: herEmail, email_verified: false });
    // Retrying his own request (its reply lost, so it reaches the booking again) gets no token: the booking is not his request's any more.
    await stack.sql`delete from idempotency_keys where key = ${hisIdem}`;
    const retry = await post(
      '/api/public/v1/booking',
      { ...v1(phone.typed, hisEmail, when, 'Mallory'), notes: 'Ring the back door' },
      {
        headers: { 'x-api-key': key, 'idempotency-key': hisIdem },
      },
    );
    expect(retry.statusCode).toBe(409);
    expect(retry.body).not.toContain('bmt_');
    // Nor does any request that passed its ownership check before the claim, asking for its token after.
    const hisPrincipal = `key:${(await stack.sql<{ id: string }[]>`select id from api_keys where key_prefix = ${key.slice(0, 10)}`)[0]!.id}`;
    expect(await issueManageToken(stack.sql, ref, hisPrincipal)).toBeNull();

    // Her own email got the booking's link, of the claim: opening it verifies her mailbox and manages the booking.
    expect(claimed.body).toContain(`We have emailed ${herEmail} a link to confirm your address`);
    const herLink = await confirmLinkTo(herEmail);
    const opened = await get(herLink);
    expect(opened.statusCode).toBe(303);
    const herToken = manageTokenOf(opened.headers.location);
    expect(herToken).toMatch(/^bmt_/);
    expect(await mailboxVerified(herEmail)).toBe(true);
    expect((await get(`/api/public/v1/booking/${ref}?token=${herToken}`)).statusCode).toBe(200);
  });

  it('takes his email off the booking when she gives none, so his email is no proof any more', async () => {
    const phone = mobile();
    const when = airportRun(68);
    const hisEmail = `mallory.${randomUUID().slice(0, 6)}@example.com`;
    const his = await post('/api/public/v1/booking', v1(phone.typed, hisEmail, when, 'Mallory'));
    expect(his.statusCode, his.body).toBe(201);
    const ref = his.json().booking_reference as string;
    const hisLink = await confirmLinkTo(hisEmail);
    expect((await post(`/api/public/v1/booking/${ref}/claim`, { passenger_phone: phone.typed })).statusCode).toBe(202);
    const link = claimLink(await eventually(async () => (await textsTo(phone.e164, '%/claim/%'))[0]));
    const claimed = await form(`/claim/${link}`, {});
    expect(claimed.statusCode, claimed.body).toBe(200);
    const herToken = /<code>(bmt_[A-Za-z0-9_-]+)<\/code>/.exec(claimed.body)?.[1];

    expect((await get(`/api/public/v1/booking/${ref}?email=${encodeURIComponent(hisEmail)}`)).statusCode).toBe(403);
    expect((await post(`/api/public/v1/booking/${ref}`, { action: 'cancel', email: hisEmail })).statusCode).toBe(403);
    expect((await get(hisLink)).statusCode).toBe(403);
    expect(await mailboxVerified(hisEmail)).toBe(false);
    // A repeat with his email is a stranger's now: 409, nothing of hers.
    const repeat = await post('/api/public/v1/booking', v1(phone.typed, hisEmail, when, 'Mallory'));
    expect(repeat.statusCode).toBe(409);
    expect(repeat.body).not.toContain(ref);
    const view = await get(`/api/public/v1/booking/${ref}?token=${herToken}`);
    expect(view.statusCode).toBe(200);
    expect(view.body).not.toContain(hisEmail);
  });
});

describe('a claim racing a request that passed its ownership check (issue 33)', () => {
  it('leaves that request no token, whether the claim commits while it asks or before', async () => {
    const { key, apiKey } = await createApiKey(stack.sql, { name: `racer-${randomUUID()}` });
    const booked = await post('/api/public/bookings/instant', instant(mobile().typed, airportRun(74)), {
      headers: { 'x-api-key': key },
    });
    expect(booked.statusCode, booked.body).toBe(200);
    const ref = booked.json().booking_reference as string;
    // A claim's transaction has rewritten the request's owner and not yet committed (as takeCharge does first).
    let rewritten!: () => void;
    let commit!: () => void;
    const rewrittenNow = new Promise<void>((r) => (rewritten = r));
    const committing = new Promise<void>((r) => (commit = r));
    const claim = stack.sql.begin(async (tx) => {
      await tx`update booking_requests set owner = 'claimed', owner_request = null where ref = ${ref}`;
      rewritten();
      await committing;
      await tx`update booking_manage_tokens set revoked_at = now() where booking_ref = ${ref} and revoked_at is null`;
    });
    await rewrittenNow;
    // The request asks while the claim is under way: reading the owner from before the claim, it
    // would store a token the claim's revoke (already past) never sees. It waits for the claim instead...
    const asking = issueManageToken(stack.sql, ref, `key:${apiKey.id}`);
    await eventually(
      async () => {
        const waiting =
          await stack.sql`select 1 from pg_stat_activity where wait_event_type = 'Lock' and query like '%insert into booking_manage_tokens%'`;
        return waiting.length > 0 ? true : undefined;
      },
      STACK_WAIT_MS,
      'the token request to wait for the claim',
    );
    commit();
    await claim;
    // ...and, the claim committed, stores nothing, and the token the booking's reply gave is revoked.
    // (The passenger's "booked" text, holder 'phone', is minted by the workflow in its own time, and
    // may land after the claim: it goes to the phone that claimed, and is not the request's.)
    expect(await asking).toBeNull();
    expect(
      (
        await stack.sql`select 1 from booking_manage_tokens
          where booking_ref = ${ref} and revoked_at is null and holder <> 'phone'`
      ).length,
    ).toBe(0);
    // The one the reply gave the key is there, revoked by the claim.
    const replied = await stack.sql<{ revoked: boolean }[]>`
      select revoked_at is not null as revoked from booking_manage_tokens
       where booking_ref = ${ref} and holder = ${`key:${apiKey.id}`}`;
    expect(replied).toEqual([{ revoked: true }]);
  });
});

describe('the confirmation link (issue 33)', () => {
  it('opens the same manage token however often it is opened, storing it once', async () => {
    const email = `ada.${randomUUID().slice(0, 6)}@example.com`;
    const booked = await post('/api/public/v1/booking', v1(mobile().typed, email, airportRun(70)));
    expect(booked.statusCode, booked.body).toBe(201);
    const ref = booked.json().booking_reference as string;
    const link = await confirmLinkTo(email);
    const tokens = [];
    for (let i = 0; i < 3; i++) {
      const opened = await get(link);
      expect(opened.statusCode).toBe(303);
      tokens.push(manageTokenOf(opened.headers.location));
    }
    expect(new Set(tokens).size).toBe(1);
    expect(
      (await stack.sql`select 1 from booking_manage_tokens where booking_ref = ${ref} and holder = 'email'`).length,
    ).toBe(1);
    expect((await get(`/api/public/v1/booking/${ref}?token=${tokens[0]}`)).statusCode).toBe(200);
  });
});

describe('the claim link by reference (issue 33)', () => {
  it('is answered before its text is sent, the same for the booking’s phone as for any other', async () => {
    const phone = mobile();
    const booked = await post('/api/public/bookings/instant', instant(phone.typed, airportRun(72)));
    const ref = booked.json().booking_reference as string;
    const held = holdClaimTexts();
    try {
      const right = post(`/api/public/v1/booking/${ref}/claim`, { passenger_phone: phone.typed });
      // The text to her phone is on its way, and held at the notifier until released...
      const sending = await held.sending;
      expect(sending.to).toBe(phone.e164);
      // ...yet the reply has come (a reply that waited on the send would never come: the guard says so).
      const guard = new Promise<'still waiting'>((r) => setTimeout(() => r('still waiting'), 20_000).unref());
      const reply = await Promise.race([right, guard]);
      expect(reply).not.toBe('still waiting');
      const res = reply as Awaited<typeof right>;
      expect(res.statusCode).toBe(202);
      expect(await textsTo(phone.e164, '%/claim/%')).toEqual([]);
      const wrong = await post(`/api/public/v1/booking/${ref}/claim`, { passenger_phone: mobile().typed });
      expect({ status: wrong.statusCode, body: wrong.json() }).toEqual({ status: res.statusCode, body: res.json() });
    } finally {
      held.release();
    }
    await eventually(async () => ((await textsTo(phone.e164, '%/claim/%')).length === 1 ? true : undefined));
  });
});
