// The partner sandbox (issue 22, item 8; docs/partners.md, "Sandbox keys"): jobs and bookings made
// under a sandbox partner or key are priced and acknowledged as usual, but only sandbox (test)
// drivers are ever offered them, and no text about them leaves the service; a sandbox driver never
// gets a live booking; and a sandbox request never joins, blocks or texts about a live booking, nor
// the reverse (issue 33). Whitby, North Yorkshire: no other file dispatches there.
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/auth/api-keys.js';
import { claimOffer } from '../../src/dispatch/store.js';
import { DeliveringNotifier } from '../../src/notify/delivering-notifier.js';
import { createPartner } from '../../src/partners/store.js';
import { createDriver, takeDriversOffline, waitForJobCard, type TestDriver } from '../support/drivers.js';
import { eventually, startStack, type TestStack } from '../support/stack.js';

let stack: TestStack;
const created: TestDriver[] = [];
beforeAll(async () => {
  stack = await startStack({ OFFER_TIMEOUT_SECONDS: '30' });
});
afterEach(async () => takeDriversOffline(stack.sql, created.splice(0)));
afterAll(async () => stack?.close());

let n = 0;
const ip = () => `10.96.${Math.floor(n / 250) % 250}.${n++ % 250}`;
const WHITBY = { lat: 54.4846, lon: -0.6154 };
const uniquePhone = () => `+4474003${String(10000 + Math.floor(Math.random() * 89999))}`;

async function newPartner(sandbox: boolean) {
  const id = `sbx-${randomUUID().slice(0, 8)}`;
  await createPartner(stack.sql, { id, name: `Partner ${id}`, kind: 'partner', sandbox });
  const { key } = await createApiKey(stack.sql, { name: id, partnerId: id });
  return { id, key };
}

/** A driver at `metres` north of Whitby station, live or a sandbox (test) driver. */
async function driverAt(metres: number, sandbox: boolean): Promise<TestDriver> {
  const d = await createDriver(stack.sql, {
    lat: WHITBY.lat + metres / 111_195,
    lon: WHITBY.lon,
    homeArea: 'national-default',
  });
  if (sandbox) await stack.sql`update drivers set sandbox = true where id = ${d.id}`;
  created.push(d);
  return d;
}

const send = (p: { key: string }, jobRef: string, passengerPhone: string) =>
  stack.app.inject({
    method: 'POST',
    url: '/api/public/v1/jobs',
    remoteAddress: ip(),
    headers: { authorization: `Bearer ${p.key}`, 'content-type': 'application/json' },
    payload: JSON.stringify({
      jobRef,
      pickup: 'Whitby station',
      dropoff: 'Whitby',
      pickupTime: new Date(Date.now() + 60_000).toISOString(),
      passengerName: 'Grace Hopper',
      passengerPhone,
    }),
  });

const offersTo = async (driverId: string) =>
  (await stack.sql<{ booking_ref: string }[]>`select booking_ref from offers where driver_id = ${driverId}`).map(
    (r) => r.booking_ref,
  );

describe('the partner sandbox', () => {
  it("prices and acknowledges a sandbox partner's job, and offers it only to a sandbox driver, never to the nearer real one", async () => {
    const real = await driverAt(200, false);
    const test = await driverAt(3_000, true);
    const p = await newPartner(true);
    const phone = uniquePhone();
    const res = await send(p, 'SBX-1', phone);
    expect(res.statusCode, res.body).toBe(200);
    const result = res.json().results[0];
    expect(result).toMatchObject({ outcome: 'accepted', code: 'created' });
    // The integrator is told where its jobs went.
    expect(res.json().sandbox).toBe(true);
    const ref = result.bookingReference as string;
    expect(ref).toMatch(/^TX/);
    const [row] = await stack.sql<
      { sandbox: boolean; fare_pence: number }[]
    >`select sandbox, fare_pence from bookings where ref = ${ref}`;
    expect(row!.sandbox).toBe(true);
    expect(row!.fare_pence).toBeGreaterThan(0);

    const card = await waitForJobCard(stack.sql, test, ref);
    expect(card.body).toContain('Whitby');
    expect(await offersTo(real.id)).toEqual([]);
    // Neither read for it nor logged: the live driver is not in its decision log at all.
    const logged =
      await stack.sql`select 1 from dispatch_decisions where booking_ref = ${ref} and driver_id = ${real.id}`;
    expect(logged).toHaveLength(0);
    // No text about it leaves the service: the test driver's job card is recorded as withheld.
    const texts = await stack.sql<
      { provider: string }[]
    >`select provider from outbox where booking_ref = ${ref} and channel in ('sms', 'whatsapp')`;
    expect(texts.length).toBeGreaterThan(0);
    expect(new Set(texts.map((t) => t.provider))).toEqual(new Set(['sandbox']));

    // The live notifier withholds them too: its provider is never called for a sandbox booking.
    let delivered = 0;
    const live = new DeliveringNotifier({
      sql: stack.sql,
      transport: {
        name: 'twilio',
        channels: ['sms', 'whatsapp', 'email'],
        deliver: async () => ({ providerMessageId: `SM${++delivered}` }),
      },
    });
    const text = {
      channel: 'sms' as const,
      to: phone,
      body: 'Your driver is on the way',
      idempotencyKey: `sbx-test:${ref}`,
      bookingRef: ref,
    };
    await expect(live.send(text)).resolves.toEqual({ provider: 'sandbox', providerMessageId: null, duplicate: false });
    await expect(live.send(text)).resolves.toEqual({ provider: 'sandbox', providerMessageId: null, duplicate: true });
    // Ops are not emailed about it either; only the booking's own passenger email goes.
    await expect(
      live.send({ ...text, channel: 'email', to: 'ops@example.com', idempotencyKey: `sbx-test-ops:${ref}` }),
    ).resolves.toMatchObject({ provider: 'sandbox' });
    await stack.sql`update bookings set passenger_email = 'integrator@example.com' where ref = ${ref}`;
    await expect(
      live.send({ ...text, channel: 'email', to: 'Integrator@example.com', idempotencyKey: `sbx-test-email:${ref}` }),
    ).resolves.toMatchObject({ provider: 'twilio' });
    expect(delivered).toBe(1);

    // Even asked directly, the real driver cannot be given it.
    const claim = await claimOffer(stack.sql, {
      offerId: `${ref}:9:${real.id}`,
      ref,
      driverId: real.id,
      round: 9,
      tier: 'local',
      expiresAt: new Date(Date.now() + 60_000).toISOString(),
    });
    expect(claim).toBe('taken');
    expect(await offersTo(real.id)).toEqual([]);
  });

  it('never offers a live job to a sandbox driver, however near', async () => {
    const test = await driverAt(100, true);
    const real = await driverAt(2_500, false);
    const p = await newPartner(false);
    const res = await send(p, 'LIVE-1', uniquePhone());
    expect(res.json()).not.toHaveProperty('sandbox');
    const ref = res.json().results[0].bookingReference as string;
    await waitForJobCard(stack.sql, real, ref);
    expect(await offersTo(test.id)).toEqual([]);
    const [row] = await stack.sql<{ sandbox: boolean }[]>`select sandbox from bookings where ref = ${ref}`;
    expect(row!.sandbox).toBe(false);
  });

  it('puts a v1 booking made with a sandbox key (of no partner) in the sandbox, and one with a live key not', async () => {
    const { key: sandboxKey } = await createApiKey(stack.sql, {
      name: `sbx-key-${randomUUID().slice(0, 6)}`,
      sandbox: true,
    });
    const { key: liveKey } = await createApiKey(stack.sql, { name: `live-key-${randomUUID().slice(0, 6)}` });
    const book = (key: string) =>
      stack.app.inject({
        method: 'POST',
        url: '/api/public/v1/booking',
        remoteAddress: ip(),
        headers: { authorization: `Bearer ${key}` },
        payload: {
          pickup: 'Whitby station',
          dropoff: 'Whitby',
          departAt: new Date(Date.now() + 26 * 3600_000).toISOString(),
          passengerName: 'Mary Seacole',
          passengerEmail: `rider.${randomUUID().slice(0, 8)}@example.com`,
          passengerPhone: uniquePhone(),
        },
      });
    const sandboxed = await book(sandboxKey);
    expect(sandboxed.statusCode, sandboxed.body).toBe(201);
    const live = await book(liveKey);
    expect(live.statusCode, live.body).toBe(201);
    const flags = await eventually(async () => {
      const rows = await stack.sql<{ ref: string; sandbox: boolean }[]>`
        select ref, sandbox from bookings where ref in ${stack.sql([sandboxed.json().booking_reference, live.json().booking_reference])}`;
      return rows.length === 2 ? Object.fromEntries(rows.map((r) => [r.ref, r.sandbox])) : undefined;
    });
    expect(flags).toEqual({ [sandboxed.json().booking_reference]: true, [live.json().booking_reference]: false });
  });
});

describe('sandbox and live bookings never meet (issue 33)', () => {
  const departAt = () => {
    const t = new Date(Date.now() + 40 * 3600_000 + Math.floor(Math.random() * 400) * 60_000);
    t.setUTCSeconds(0, 0);
    return t.toISOString();
  };
  const trip = (phone: string, when: string, email = `rider.${randomUUID().slice(0, 8)}@example.com`) => ({
    pickup: 'Whitby station',
    dropoff: 'Whitby',
    departAt: when,
    passengerName: 'Mary Seacole',
    passengerEmail: email,
    passengerPhone: phone,
  });
  const book = (body: object, key?: string) =>
    stack.app.inject({
      method: 'POST',
      url: '/api/public/v1/booking',
      remoteAddress: ip(),
      headers: key ? { authorization: `Bearer ${key}` } : {},
      payload: body,
    });
  const claimTexts = async (phone: string) =>
    stack.sql<
      { provider: string; booking_ref: string }[]
    >`select provider, booking_ref from outbox where recipient = ${phone} and body like '%/claim/%'`;
  const sandboxOf = async (ref: string) =>
    eventually(
      async () =>
        (await stack.sql<{ sandbox: boolean }[]>`select sandbox from bookings where ref = ${ref}`)[0]?.sandbox,
    );

  it('lets a real passenger book the trip a sandbox key asked for first: her ride is live, with her own links', async () => {
    const { key } = await createApiKey(stack.sql, { name: `sbx-first-${randomUUID().slice(0, 6)}`, sandbox: true });
    const phone = uniquePhone();
    const when = departAt();
    const test = await book(trip(phone, when), key);
    expect(test.statusCode, test.body).toBe(201);
    expect(await sandboxOf(test.json().booking_reference)).toBe(true);

    const hers = await book(trip(phone, when));
    expect(hers.statusCode, hers.body).toBe(201);
    expect(hers.json().booking_reference).not.toBe(test.json().booking_reference);
    expect(hers.json().manage_token).toMatch(/^bmt_/);
    expect(await sandboxOf(hers.json().booking_reference)).toBe(false);
    expect(await claimTexts(phone)).toEqual([]);
  });

  it('gives a sandbox key repeating a live trip a sandbox ride of its own, and texts the live passenger nothing', async () => {
    const { key } = await createApiKey(stack.sql, { name: `sbx-second-${randomUUID().slice(0, 6)}`, sandbox: true });
    const phone = uniquePhone();
    const when = departAt();
    const live = await book(trip(phone, when));
    expect(live.statusCode, live.body).toBe(201);
    const test = await book(trip(phone, when), key);
    expect(test.statusCode, test.body).toBe(201);
    expect(test.json().booking_reference).not.toBe(live.json().booking_reference);
    expect(await sandboxOf(test.json().booking_reference)).toBe(true);
    // Asking by the live booking's reference with the sandbox key texts nobody either.
    const asked = await stack.app.inject({
      method: 'POST',
      url: `/api/public/v1/booking/${live.json().booking_reference}/claim`,
      remoteAddress: ip(),
      headers: { authorization: `Bearer ${key}` },
      payload: { passenger_phone: phone },
    });
    expect(asked.statusCode).toBe(202);
    // A live request by reference is texted (after its reply), so the sandbox one has had its turn.
    const other = uniquePhone();
    const otherLive = await book(trip(other, when));
    await stack.app.inject({
      method: 'POST',
      url: `/api/public/v1/booking/${otherLive.json().booking_reference}/claim`,
      remoteAddress: ip(),
      payload: { passenger_phone: other },
    });
    await eventually(async () => ((await claimTexts(other)).length > 0 ? true : undefined));
    expect(await claimTexts(phone)).toEqual([]);
  });

  it('records a claim link between two sandbox requests as withheld, once per booking, spending no real allowance', async () => {
    const [a, b] = await Promise.all(
      [1, 2].map(
        async (i) =>
          (await createApiKey(stack.sql, { name: `sbx-${i}-${randomUUID().slice(0, 6)}`, sandbox: true })).key,
      ),
    );
    const phone = uniquePhone();
    const when = departAt();
    const first = await book(trip(phone, when), a);
    expect(first.statusCode, first.body).toBe(201);
    await sandboxOf(first.json().booking_reference);
    for (let i = 0; i < 3; i++) expect((await book(trip(phone, when), b)).statusCode).toBe(409);
    const texts = await claimTexts(phone);
    expect(texts).toEqual([{ provider: 'sandbox', booking_ref: first.json().booking_reference }]);
    // The phone's code allowances (claim links are limited like sign-in codes) were never touched.
    expect(
      await stack.sql`select key from rate_limit_counters where key like 'codes:%' and key like ${`%${phone.slice(1)}%`}`,
    ).toHaveLength(0);
  });
});
