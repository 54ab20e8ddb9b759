// Limits that fit shared addresses (issue 23, item 9): a retry under the same Idempotency-Key costs
// no allowance; one address (a hotel desk, an office, a carrier's CGNAT) books for many passengers,
// while each phone gets few new rides; the public pages, the driver's side and the staff consoles
// are each on their own allowance, and staff (and signed-in drivers, issue 33) are counted per
// person, not per address.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/auth/api-keys.js';
import { hashSecret, newSecret } from '../../src/auth/secrets.js';
import { createStaff } from '../../src/auth/staff.js';
import { buildApp } from '../../src/app.js';
import { createSession } from '../../src/drivers/session-store.js';
import { createDriver } from '../support/drivers.js';
import { startStack, type TestStack } from '../support/stack.js';

let stack: TestStack;
beforeAll(async () => {
  // The per-address booking allowance is left at its default: that default is what is under test.
  stack = await startStack({
    LOOKUP_RATE_LIMIT_PER_MINUTE: '5',
    STAFF_RATE_LIMIT_PER_MINUTE: '5',
    RECIPIENT_BOOKINGS_PER_HOUR: '2',
  });
});
afterAll(async () => stack?.close());

let n = 0;
const freshIp = () => `10.94.${Math.floor(n / 250) % 250}.${n++ % 250}`;
const phone = () => `+4474005${String(10000 + Math.floor(Math.random() * 89999))}`;
const later = (h: number) => new Date(Date.now() + h * 3600_000).toISOString();
const instant = (p: string, hoursAhead: number) => ({
  pickup_address: 'Hexham station',
  dropoff_address: 'Hexham',
  passenger_name: 'Shared Address',
  passenger_phone_whatsapp: p,
  depart_at: later(hoursAhead),
});

async function bookingHits(ip: string): Promise<number> {
  const rows = await stack.sql<{ hits: number }[]>`
    select coalesce(sum(hits), 0)::int as hits from rate_limit_counters where key = ${`booking:ip:${ip}`}`;
  return rows[0]?.hits ?? 0;
}

describe('bookings from a shared address', () => {
  it('answers 20 retries under one Idempotency-Key from the first booking, for one booking’s allowance', async () => {
    const ip = freshIp();
    const body = instant(phone(), 3);
    const key = `retry-${randomUUID()}`;
    const refs = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const res = await stack.app.inject({
        method: 'POST',
        url: '/api/public/bookings/instant',
        remoteAddress: ip,
        headers: { 'idempotency-key': key },
        payload: body,
      });
      expect(res.statusCode, res.body).toBe(200);
      refs.add(res.json().booking_reference);
    }
    expect(refs.size).toBe(1);
    expect(await bookingHits(ip)).toBe(1);

    // Only a key that already has a booking is free: a fresh key, or the same key with another
    // body (for an anonymous caller, another request: a new booking), is counted like any request.
    const other = await stack.app.inject({
      method: 'POST',
      url: '/api/public/bookings/instant',
      remoteAddress: ip,
      headers: { 'idempotency-key': `new-${randomUUID()}` },
      payload: instant(phone(), 4),
    });
    expect(other.statusCode, other.body).toBe(200);
    const reused = await stack.app.inject({
      method: 'POST',
      url: '/api/public/bookings/instant',
      remoteAddress: ip,
      headers: { 'idempotency-key': key },
      payload: instant(phone(), 5),
    });
    expect(reused.statusCode, reused.body).toBe(200);
    expect(reused.json().booking_reference).not.toBe([...refs][0]);
    expect(await bookingHits(ip)).toBe(3);
    // A key holder reusing a key with another body is refused (422), and that costs allowance too.
    const { key: apiKey, apiKey: keyRecord } = await createApiKey(stack.sql, { name: `retries-${randomUUID()}` });
    const keyed = (payload: object) =>
      stack.app.inject({
        method: 'POST',
        url: '/api/public/bookings/instant',
        remoteAddress: freshIp(),
        headers: { 'x-api-key': apiKey, 'idempotency-key': key },
        payload,
      });
    const keyedBody = instant(phone(), 5);
    for (let i = 0; i < 5; i++) expect((await keyed(keyedBody)).statusCode).toBe(200);
    expect((await keyed(instant(phone(), 6))).statusCode).toBe(422);
    const [keyHits] = await stack.sql<{ hits: number }[]>`
      select coalesce(sum(hits), 0)::int as hits from rate_limit_counters where key = ${`booking:key:${keyRecord.id}`}`;
    expect(keyHits?.hits).toBe(2);

    // v1 bookings are retried the same way.
    const v1 = {
      pickup: 'Hexham station',
      dropoff: 'Hexham',
      departAt: later(6),
      passengerName: 'V1 Retry',
      passengerEmail: `retry.${randomUUID().slice(0, 8)}@example.com`,
      passengerPhone: phone(),
    };
    const v1Key = `v1-${randomUUID()}`;
    for (let i = 0; i < 5; i++) {
      const res = await stack.app.inject({
        method: 'POST',
        url: '/api/public/v1/booking',
        remoteAddress: ip,
        headers: { 'idempotency-key': v1Key },
        payload: v1,
      });
      expect(res.statusCode, res.body).toBe(201);
    }
    expect(await bookingHits(ip)).toBe(4);
  });

  it('lets many distinct passengers behind one address book more than the old 30 an hour', async () => {
    const ip = freshIp();
    const statuses: number[] = [];
    for (let i = 0; i < 35; i++) {
      const res = await stack.app.inject({
        method: 'POST',
        url: '/api/public/bookings/instant',
        remoteAddress: ip,
        payload: instant(phone(), 2 + i / 10),
      });
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual(Array(35).fill(200));
  }, 120_000);

  it('gives one phone, and one mailbox, few new rides an hour from callers without a key, wherever they come from; retries and key holders are not held by it', async () => {
    const p = phone();
    const first = instant(p, 7);
    const key = `phone-${randomUUID()}`;
    const post = (payload: object, headers: Record<string, string> = {}) =>
      stack.app.inject({
        method: 'POST',
        url: '/api/public/bookings/instant',
        remoteAddress: freshIp(),
        headers,
        payload,
      });
    expect((await post(first, { 'idempotency-key': key })).statusCode).toBe(200);
    expect((await post(instant(p, 8))).statusCode).toBe(200);
    const third = await post(instant(p, 9));
    expect(third.statusCode).toBe(429);
    expect(third.json().code).toBe('phone_rate_limited');
    // The first booking's retry is still answered.
    expect((await post(first, { 'idempotency-key': key })).statusCode).toBe(200);
    // A partner's key is accounted per key (a hotel desk may book its guests on its own phone).
    const { key: apiKey } = await createApiKey(stack.sql, { name: `phone-cap-${randomUUID()}` });
    expect((await post(instant(p, 10), { 'x-api-key': apiKey })).statusCode).toBe(200);

    // One mailbox the same (each ride emails its confirmation), variants of it counted as one.
    const local = `spam${randomUUID().slice(0, 6)}`;
    const emailed = [];
    for (const [i, email] of [
      `${local}@gmail.com`,
      `${local}+2@gmail.com`,
      `${local.toUpperCase()}@gmail.com`,
    ].entries()) {
      const res = await post({ ...instant(phone(), 11 + i), passenger_email: email });
      emailed.push(res.statusCode === 429 ? res.json().code : res.statusCode);
    }
    expect(emailed).toEqual([200, 200, 'email_rate_limited']);
  });
});

describe('separate allowances for the public, drivers and staff', () => {
  // These allowances count in fixed minutes aligned to the clock (src/http/pg-rate-limit-store.ts):
  // a burst that crosses into the next minute starts a fresh count, and its 6th request is let
  // through (a cluster run of CI lost one so). Each test starts at least 10 s before a minute ends;
  // its requests take well under a second, so none depends on how fast the machine is.
  beforeEach(async () => {
    const left = 60_000 - (Date.now() % 60_000);
    if (left < 10_000) await new Promise((r) => setTimeout(r, left + 200));
  });

  it('staff loading /ops and the driver app from an address leave its tracking-page allowance whole', async () => {
    const ip = freshIp();
    const { key } = await createStaff(stack.sql, { name: `Desk ${randomUUID().slice(0, 6)}`, role: 'operator' });
    for (let i = 0; i < 4; i++) {
      expect((await stack.app.inject({ method: 'GET', url: '/ops', remoteAddress: ip })).statusCode).toBe(200);
      expect(
        (
          await stack.app.inject({
            method: 'GET',
            url: '/api/ops/bookings',
            remoteAddress: ip,
            headers: { authorization: `Bearer ${key}` },
          })
        ).statusCode,
      ).toBe(200);
      expect((await stack.app.inject({ method: 'GET', url: '/driver', remoteAddress: ip })).statusCode).toBe(200);
    }
    const track = [];
    for (let i = 0; i < 6; i++)
      track.push(
        (await stack.app.inject({ method: 'GET', url: `/track/TX${String(i).padStart(10, '0')}`, remoteAddress: ip }))
          .statusCode,
      );
    expect(track).toEqual([404, 404, 404, 404, 404, 429]);
    // And the other way round: the public's allowance spent, staff still work from the address.
    expect(
      (
        await stack.app.inject({
          method: 'GET',
          url: '/api/ops/bookings',
          remoteAddress: ip,
          headers: { authorization: `Bearer ${key}` },
        })
      ).statusCode,
    ).toBe(200);
  });

  it('counts staff per staff member, not per address; a request without a valid key falls back to its address', async () => {
    const { key: a } = await createStaff(stack.sql, { name: `Staff A ${randomUUID().slice(0, 6)}`, role: 'operator' });
    const { key: b } = await createStaff(stack.sql, { name: `Staff B ${randomUUID().slice(0, 6)}`, role: 'operator' });
    const ops = (bearer: string, ip: string) =>
      stack.app.inject({
        method: 'GET',
        url: '/api/ops/bookings',
        remoteAddress: ip,
        headers: { authorization: `Bearer ${bearer}` },
      });
    const office = freshIp();
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await ops(a, office)).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    // Another staff member in the same office has their own allowance.
    expect((await ops(b, office)).statusCode).toBe(200);
    // The first has none left from anywhere else either.
    expect((await ops(a, freshIp())).statusCode).toBe(429);
    // Made-up staff keys cannot buy fresh allowances: they share their address's.
    const stranger = freshIp();
    const guesses = [];
    for (let i = 0; i < 6; i++)
      guesses.push((await ops(`stf_${randomUUID().replaceAll('-', '')}`, stranger)).statusCode);
    expect(guesses).toEqual([401, 401, 401, 401, 401, 429]);
  });

  it('counts signed-in drivers per driver, not per address: drivers behind one carrier address each keep their own (issue 33)', async () => {
    // Each driver app polls four routes every 5 s: at 600 a minute per address, thirteen drivers on
    // one carrier's IPv4 address ran it out. A small allowance here, on an API process of its own.
    const app = await buildApp({
      config: { ...stack.config, DRIVER_RATE_LIMIT_PER_MINUTE: 5 },
      sql: stack.sql,
      temporal: stack.client,
      logger: false,
    });
    try {
      const session = async () => {
        const driver = await createDriver(stack.sql, { lat: 54.97, lon: -2.1 });
        const token = newSecret('drs_');
        await createSession(stack.sql, hashSecret(token), driver.id);
        return token;
      };
      const me = (token: string, ip: string) =>
        app.inject({
          method: 'GET',
          url: '/api/driver/me',
          remoteAddress: ip,
          headers: { authorization: `Bearer ${token}` },
        });
      const [a, b] = [await session(), await session()];
      const carrier = freshIp();
      const statuses = [];
      for (let i = 0; i < 6; i++) statuses.push((await me(a, carrier)).statusCode);
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
      // Another driver on the same address has their own allowance; the first has none left anywhere.
      expect((await me(b, carrier)).statusCode).toBe(200);
      expect((await me(a, freshIp())).statusCode).toBe(429);
      // Made-up session tokens cannot buy fresh allowances: they share their address's.
      const stranger = freshIp();
      const guesses = [];
      for (let i = 0; i < 6; i++) guesses.push((await me(newSecret('drs_'), stranger)).statusCode);
      expect(guesses).toEqual([401, 401, 401, 401, 401, 429]);
    } finally {
      await app.close();
    }
  });
});
