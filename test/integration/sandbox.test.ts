// The partner sandbox (issue 22, item 8; docs/partners.md, "Sandbox keys"): jobs and bookings made
// under a sandbox partner or key are priced and acknowledged as usual, but only sandbox (test)
// drivers are ever offered them, and no text about them leaves the service; a sandbox driver never
// gets a live booking. Whitby, North Yorkshire: no other file dispatches there.
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
  const d = await createDriver(stack.sql, { lat: WHITBY.lat + metres / 111_195, lon: WHITBY.lon, homeArea: 'national-default' });
  if (sandbox) await stack.sql`update drivers set sandbox = true where id = ${d.id}`;
  created.push(d);
  return d;
}

const send = (p: { key: string }, jobRef: string, passengerPhone: string) =>
  stack.app.inject({
    method: 'POST', url: '/api/public/v1/jobs', remoteAddress: ip(),
    headers: { authorization: `Bearer ${p.key}`, 'content-type': 'application/json' },
    payload: JSON.stringify({ jobRef, pickup: 'Whitby station', dropoff: 'Whitby', pickupTime: new Date(Date.now() + 60_000).toISOString(), passengerName: 'Grace Hopper', passengerPhone }),
  });

const offersTo = async (driverId: string) =>
  (await stack.sql<{ booking_ref: string }[]>`select booking_ref from offers where driver_id = ${driverId}`).map((r) => r.booking_ref);

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
    const [row] = await stack.sql<{ sandbox: boolean; fare_pence: number }[]>`select sandbox, fare_pence from bookings where ref = ${ref}`;
    expect(row!.sandbox).toBe(true);
    expect(row!.fare_pence).toBeGreaterThan(0);

    const card = await waitForJobCard(stack.sql, test, ref);
    expect(card.body).toContain('Whitby');
    expect(await offersTo(real.id)).toEqual([]);
    // Neither read for it nor logged: the live driver is not in its decision log at all.
    const logged = await stack.sql`select 1 from dispatch_decisions where booking_ref = ${ref} and driver_id = ${real.id}`;
    expect(logged).toHaveLength(0);
    // No text about it leaves the service: the test driver's job card is recorded as withheld.
    const texts = await stack.sql<{ provider: string }[]>`select provider from outbox where booking_ref = ${ref} and channel in ('sms', 'whatsapp')`;
    expect(texts.length).toBeGreaterThan(0);
    expect(new Set(texts.map((t) => t.provider))).toEqual(new Set(['sandbox']));

    // The live notifier withholds them too: its provider is never called for a sandbox booking.
    let delivered = 0;
    const live = new DeliveringNotifier({ sql: stack.sql, transport: { name: 'twilio', channels: ['sms', 'whatsapp', 'email'], deliver: async () => ({ providerMessageId: `SM${++delivered}` }) } });
    const text = { channel: 'sms' as const, to: phone, body: 'Your driver is on the way', idempotencyKey: `sbx-test:${ref}`, bookingRef: ref };
    await expect(live.send(text)).resolves.toEqual({ provider: 'sandbox', providerMessageId: null, duplicate: false });
    await expect(live.send(text)).resolves.toEqual({ provider: 'sandbox', providerMessageId: null, duplicate: true });
    // Ops are not emailed about it either; only the booking's own passenger email goes.
    await expect(live.send({ ...text, channel: 'email', to: 'ops@example.com', idempotencyKey: `sbx-test-ops:${ref}` })).resolves.toMatchObject({ provider: 'sandbox' });
    await stack.sql`update bookings set passenger_email = 'integrator@example.com' where ref = ${ref}`;
    await expect(live.send({ ...text, channel: 'email', to: 'Integrator@example.com', idempotencyKey: `sbx-test-email:${ref}` })).resolves.toMatchObject({ provider: 'twilio' });
    expect(delivered).toBe(1);

    // Even asked directly, the real driver cannot be given it.
    const claim = await claimOffer(stack.sql, { offerId: `${ref}:9:${real.id}`, ref, driverId: real.id, round: 9, tier: 'local', expiresAt: new Date(Date.now() + 60_000).toISOString() });
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
    const { key: sandboxKey } = await createApiKey(stack.sql, { name: `sbx-key-${randomUUID().slice(0, 6)}`, sandbox: true });
    const { key: liveKey } = await createApiKey(stack.sql, { name: `live-key-${randomUUID().slice(0, 6)}` });
    const book = (key: string) =>
      stack.app.inject({
        method: 'POST', url: '/api/public/v1/booking', remoteAddress: ip(), headers: { authorization: `Bearer ${key}` },
        payload: {
          pickup: 'Whitby station', dropoff: 'Whitby', departAt: new Date(Date.now() + 26 * 3600_000).toISOString(), passengerName: 'Mary Seacole',
          passengerEmail: `rider.${randomUUID().slice(0, 8)}@example.com`, passengerPhone: uniquePhone(),
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
