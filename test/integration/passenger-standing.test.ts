// One passenger standing on every route (issue 20): staff block a mailbox or a phone, and no
// spelling of either (+tags, Gmail's dots, googlemail.com, national or international phone
// formats) books, prices or signs in through any door: agent routes, v1, email verification,
// sign-in for assistants, and a partner's job naming the passenger. Through HTTP on the real stack.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/auth/api-keys.js';
import { createStaff } from '../../src/auth/staff.js';
import { createPartner } from '../../src/partners/store.js';
import { startStack, type TestStack } from '../support/stack.js';

let stack: TestStack;
let staff: string;
beforeAll(async () => {
  stack = await startStack({ BOOKING_RATE_LIMIT_PER_HOUR: '1000', QUOTE_RATE_LIMIT_PER_HOUR: '1000' });
  staff = (await createStaff(stack.sql, { name: 'Standing ops', role: 'operator' })).key;
});
afterAll(async () => stack?.close());

let n = 0;
const from = () => `192.0.2.${(n++ % 250) + 1}`;
const later = (h: number) => new Date(Date.now() + h * 3600_000).toISOString();
const run = randomUUID().replace(/\D/g, '').padEnd(4, '5').slice(0, 3);
let phones = 0;
const phone = () => `+447400${run}${String(phones++).padStart(3, '0')}`;

const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
  stack.app.inject({ method: 'POST', url, payload: payload as object, headers, remoteAddress: from() });

async function block(body: Record<string, string>, action: 'block' | 'unblock' = 'block') {
  const res = await post(
    '/api/ops/passengers',
    { ...body, action, reason: 'chargebacks and no-shows' },
    { authorization: `Bearer ${staff}` },
  );
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ identifier: string; blocked: boolean }>();
}

const v1 = (email: string, passengerPhone = phone()) => ({
  pickup: '221B Baker Street, London NW1 6XE',
  dropoff: 'Paddington station',
  departAt: later(30),
  passengerName: 'Ada Lovelace',
  passengerEmail: email,
  passengerPhone,
});
const instant = (over: Record<string, unknown>) => ({
  pickup_address: '221B Baker Street, London NW1 6XE',
  dropoff_address: 'Paddington station',
  passenger_name: 'Ada Lovelace',
  passenger_phone_whatsapp: phone(),
  depart_at: later(31),
  ...over,
});

describe('a blocked mailbox', () => {
  it('is refused in every spelling on the agent routes, v1 (both forms), email verification and partner jobs', async () => {
    const local = `ada.lovelace.${run}`;
    expect(await block({ email: `${local}@gmail.com` })).toEqual({
      identifier: `email:${local.replace(/\./g, '')}@gmail.com`,
      blocked: true,
    });
    const spellings: [string, string, string] = [
      `${local.replace(/\./g, '')}+taxi@googlemail.com`,
      `${local.toUpperCase()}@Gmail.com`,
      `${local.replace(/\./g, '').split('').join('.')}@gmail.com`,
    ];

    for (const email of spellings) {
      const booked = await post('/api/public/v1/booking', v1(email));
      expect(booked.statusCode, `${email}: ${booked.body}`).toBe(403);
      expect(booked.json().code).toBe('passenger_blocked');
      const agent = await post('/api/public/bookings/instant', instant({ passenger_email: email }));
      expect(agent.statusCode, `${email}: ${agent.body}`).toBe(403);
      expect((await post('/api/public/v1/passenger-verify', { email })).statusCode).toBe(403);
    }

    const quote = (
      await post('/api/public/quotes/estimate', {
        pickup_address: 'Paddington station',
        dropoff_address: 'Heathrow Airport',
        passenger_count: 1,
      })
    ).json();
    const create = await post('/api/public/bookings/create', {
      quote_id: quote.quote_id,
      passenger_name: 'Ada Lovelace',
      passenger_phone_whatsapp: phone(),
      payment_method: 'cash_to_driver',
      passenger_email: spellings[0],
    });
    expect(create.statusCode, create.body).toBe(403);
    const quoteForm = await post('/api/public/v1/booking', {
      quote_id: quote.quote_id,
      passenger_name: 'Ada Lovelace',
      passenger_phone: phone(),
      passenger_email: spellings[1],
    });
    expect(quoteForm.statusCode).toBe(403);

    const partnerId = `std-${randomUUID().slice(0, 8)}`;
    await createPartner(stack.sql, {
      id: partnerId,
      name: 'Standing Partner',
      kind: 'partner',
      liveIntakeApproved: true,
    });
    const { key } = await createApiKey(stack.sql, { name: partnerId, partnerId });
    const jobs = await post(
      '/api/public/v1/jobs',
      [
        {
          jobRef: `blk-${run}`,
          pickup: 'Paddington station',
          dropoff: 'Heathrow Airport',
          pickupTime: later(32),
          passengerName: 'Ada',
          passengerEmail: spellings[2],
        },
        {
          jobRef: `ok-${run}`,
          pickup: 'Paddington station',
          dropoff: 'Heathrow Airport',
          pickupTime: later(33),
          passengerName: 'Grace',
          passengerEmail: `grace.${run}@example.com`,
        },
      ],
      { authorization: `Bearer ${key}` },
    );
    expect(jobs.statusCode, jobs.body).toBe(207);
    const results = jobs.json<{ results: { jobRef: string; outcome: string; code: string | null }[] }>().results;
    expect(results.find((r) => r.jobRef === `blk-${run}`)).toMatchObject({
      outcome: 'rejected',
      code: 'passenger_blocked',
    });
    expect(results.find((r) => r.jobRef === `ok-${run}`)?.outcome).not.toBe('rejected');

    // Unblocked, the same passenger books again.
    await block({ email: spellings[1] }, 'unblock');
    expect((await post('/api/public/v1/booking', v1(spellings[0]))).statusCode).toBe(201);
  });
});

describe('a blocked phone', () => {
  it('is refused however it is written, whatever email comes with it (sign-in: sign-in-codes.test.ts)', async () => {
    const blocked = phone();
    const national = `0${blocked.slice(3, 7)} ${blocked.slice(7)}`;
    expect(await block({ phone: national })).toEqual({ identifier: `phone:${blocked}`, blocked: true });
    const spaced = `+44 ${blocked.slice(3, 7)} ${blocked.slice(7)}`;
    const booked = await post('/api/public/v1/booking', v1(`fresh.${run}.${n}@example.com`, spaced));
    expect(booked.statusCode, booked.body).toBe(403);
    expect(
      (await post('/api/public/bookings/instant', instant({ passenger_phone_whatsapp: blocked }))).statusCode,
    ).toBe(403);

    const rides = await stack.sql`select 1 from bookings where passenger_phone = ${blocked}`;
    expect(rides).toHaveLength(0);
  });
});
