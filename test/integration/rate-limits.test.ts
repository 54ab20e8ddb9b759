// Every route that costs something is limited per caller (API key, else client IP: IPv6 by its /64,
// src/http/address.ts), and the per-email allowance counts variants of one mailbox as one address.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/auth/api-keys.js';
import { loadConfig } from '../../src/config.js';
import { startStack, type TestStack } from '../support/stack.js';

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack({
    BOOKING_RATE_LIMIT_PER_HOUR: '3',
    LOOKUP_RATE_LIMIT_PER_MINUTE: '5',
    UNVERIFIED_EMAIL_BOOKINGS_PER_HOUR: '2',
    // The published figures (spec 4.4/8), as a fresh `npm start` has them (test/support/stack.ts raises them).
    QUOTE_RATE_LIMIT_PER_HOUR: String(loadConfig({ DATABASE_URL: 'postgres://x/y' }).QUOTE_RATE_LIMIT_PER_HOUR),
    KEYED_RATE_LIMIT_PER_IP_PER_MINUTE: '6',
  });
});
afterAll(async () => stack?.close());

let n = 0;
const freshIp = () => `10.91.${Math.floor(n / 250) % 250}.${n++ % 250}`;
const phone = () => `+4474003${String(10000 + Math.floor(Math.random() * 89999))}`;
const later = (h: number) => new Date(Date.now() + h * 3600_000).toISOString();

function v1Booking(email: string, hoursAhead: number) {
  return {
    pickup: 'Hexham station',
    dropoff: 'Hexham',
    departAt: later(hoursAhead),
    passengerName: 'Rate Limited',
    passengerEmail: email,
    passengerPhone: phone(),
  };
}

describe('rate limits', () => {
  it('limits v1 bookings per IP for anonymous callers and per key for key holders', async () => {
    const ip = freshIp();
    const statuses = [];
    for (let i = 0; i < 4; i++) {
      const res = await stack.app.inject({
        method: 'POST',
        url: '/api/public/v1/booking',
        remoteAddress: ip,
        payload: v1Booking(`limit.${randomUUID().slice(0, 8)}@example.com`, 2 + i),
      });
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([201, 201, 201, 429]);
    // Another address is another caller; a key is its own caller wherever it calls from.
    const { key } = await createApiKey(stack.sql, { name: `limits-${randomUUID()}` });
    const keyed = [];
    for (let i = 0; i < 4; i++) {
      const res = await stack.app.inject({
        method: 'POST',
        url: '/api/public/bookings/instant',
        remoteAddress: freshIp(),
        headers: { 'x-api-key': key },
        payload: {
          pickup_address: 'Hexham station',
          dropoff_address: 'Hexham',
          passenger_name: 'Keyed',
          passenger_phone_whatsapp: phone(),
          depart_at: later(2 + i),
        },
      });
      keyed.push(res.statusCode);
    }
    expect(keyed).toEqual([200, 200, 200, 429]);
    const limited = await stack.app.inject({
      method: 'POST',
      url: '/api/public/bookings/create',
      remoteAddress: freshIp(),
      headers: { 'x-api-key': key },
      payload: {},
    });
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
  });

  it('counts every address of one IPv6 /64 as one caller, and an IPv4-mapped address as its IPv4 (issue 33)', async () => {
    const book = (remoteAddress: string, i: number) =>
      stack.app.inject({
        method: 'POST',
        url: '/api/public/v1/booking',
        remoteAddress,
        payload: v1Booking(`prefix.${randomUUID().slice(0, 8)}@example.com`, 2 + i),
      });
    // Each booking from another address of one /64, as a phone's privacy addresses or a script's would be.
    const prefix = '2001:db8:33:64';
    const statuses = [];
    for (let i = 0; i < 4; i++)
      statuses.push((await book(`${prefix}:${(0x1000 + i * 7).toString(16)}::${i + 1}`, i)).statusCode);
    expect(statuses).toEqual([201, 201, 201, 429]);
    expect(await stack.sql`select hits from rate_limit_counters where key = ${`booking:ip:${prefix}::/64`}`).toEqual([
      { hits: 4 },
    ]);
    // The next /64 is another subscriber, with an allowance of its own.
    expect((await book('2001:db8:33:65::1', 5)).statusCode).toBe(201);
    // A dual-stack socket's ::ffff:a.b.c.d is the IPv4 peer it names: one allowance, not two.
    const v4 = freshIp();
    const mixed = [];
    for (let i = 0; i < 4; i++) mixed.push((await book(i % 2 === 0 ? v4 : `::ffff:${v4}`, 6 + i)).statusCode);
    expect(mixed).toEqual([201, 201, 201, 429]);
  });

  it('limits tracking pages and lookups, so references cannot be guessed by trying them', async () => {
    const ip = freshIp();
    const statuses = [];
    for (let i = 0; i < 6; i++) {
      statuses.push(
        (await stack.app.inject({ method: 'GET', url: `/track/TX${String(i).padStart(10, '0')}`, remoteAddress: ip }))
          .statusCode,
      );
    }
    expect(statuses.slice(0, 5)).toEqual([404, 404, 404, 404, 404]);
    expect(statuses[5]).toBe(429);
    const status = await stack.app.inject({ method: 'GET', url: '/track/TX0000000000/status.json', remoteAddress: ip });
    expect(status.statusCode).toBe(429);
    const lookup = await stack.app.inject({
      method: 'GET',
      url: '/api/public/v1/booking/TX0000000000?email=a@example.com',
      remoteAddress: ip,
    });
    expect(lookup.statusCode).toBe(429);
  });

  it('counts plus-tags, dots and case of one Gmail mailbox as one address for the per-email limit', async () => {
    const local = `ada${randomUUID().slice(0, 6)}`;
    const variants = [
      `${local}@gmail.com`,
      `${local[0]}.${local.slice(1)}+taxi@googlemail.com`,
      `${local.toUpperCase()}+work@gmail.com`,
    ];
    const statuses = [];
    for (const [i, email] of variants.entries()) {
      statuses.push(
        (
          await stack.app.inject({
            method: 'POST',
            url: '/api/public/v1/booking',
            remoteAddress: freshIp(),
            payload: v1Booking(email, 3 + i),
          })
        ).statusCode,
      );
    }
    expect(statuses).toEqual([201, 201, 429]);
  });

  describe('quotes as spec 4.4 publishes them (issue 37)', () => {
    const quote = (remoteAddress: string, key?: string) =>
      stack.app.inject({
        method: 'POST',
        url: '/api/public/v1/quote',
        remoteAddress,
        ...(key ? { headers: { 'x-api-key': key } } : {}),
        payload: { pickup: 'Hexham station', dropoff: 'Hexham', departAt: later(3) },
      });

    it('answers 30 v1 quotes an hour per caller, the 31st 429, and the home form still prices from that address', async () => {
      expect(loadConfig({ DATABASE_URL: 'postgres://x/y' }).QUOTE_RATE_LIMIT_PER_HOUR).toBe(30);
      const ip = freshIp();
      const statuses: number[] = [];
      for (let i = 0; i < 31; i++) statuses.push((await quote(ip)).statusCode);
      expect(statuses.slice(0, 30)).toEqual(Array(30).fill(200));
      expect(statuses[30]).toBe(429);
      // The front door's form is an allowance of its own: a household on that address still gets a price.
      const form = await stack.app.inject({
        method: 'POST',
        url: '/',
        remoteAddress: ip,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ pickup: 'Hexham station', dropoff: 'Hexham', passengers: '1' }).toString(),
      });
      expect(form.statusCode).not.toBe(429);
    });

    it('gives a key the allowance set for it (api-key:create --quotes-per-hour)', async () => {
      const { key } = await createApiKey(stack.sql, { name: `quotes-${randomUUID()}`, quotesPerHour: 2 });
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await quote(freshIp(), key)).statusCode);
      expect(statuses).toEqual([200, 200, 429]);
    });

    it('limits keyed callers per address too: many keys from one address share a ceiling, another address is free', async () => {
      const ip = freshIp();
      const keys = await Promise.all(
        [1, 2, 3].map(async (i) => (await createApiKey(stack.sql, { name: `per-ip-${i}-${randomUUID()}` })).key),
      );
      const statuses = [];
      for (let i = 0; i < 7; i++) statuses.push((await quote(ip, keys[i % 3])).statusCode);
      expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429]);
      const refused = await quote(ip, keys[0]);
      expect(refused.json().code).toBe('rate_limited');
      expect(refused.headers['retry-after']).toBeDefined();
      // The same key from elsewhere is within its own allowance.
      expect((await quote(freshIp(), keys[0])).statusCode).toBe(200);
    });
  });
});
