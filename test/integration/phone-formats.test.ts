// Phones as people type them (issue 23): a UK number written as at home ("07400 123456") is taken
// on every form and stored in E.164, next to international numbers; garbage is a 400 naming the
// field. Through HTTP on the real stack: v1 booking, the agent instant route, a partner job, and a
// driver who applied as +44 signing in typing 07....
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/auth/api-keys.js';
import { createStaff } from '../../src/auth/staff.js';
import { createPartner } from '../../src/partners/store.js';
import { eventually, STACK_WAIT_MS, startStack, type TestStack } from '../support/stack.js';

let stack: TestStack;
let operator: string;
beforeAll(async () => {
  stack = await startStack({ OFFER_TIMEOUT_SECONDS: '30' });
  operator = (await createStaff(stack.sql, { name: 'Pat (ops)', role: 'operator' })).key;
});
afterAll(async () => {
  if (stack) await stack.sql`update drivers set online = false where id like 'drv_%'`;
  await stack?.close();
});

let n = 0;
const ip = () => `10.97.${Math.floor(n / 250) % 250}.${n++ % 250}`;
const run = String(Math.floor(Math.random() * 900) + 100);
let phones = 0;
/** A UK mobile of this run: as typed at home, and as stored. */
const mobile = () => {
  const six = `6${run}${String(phones++ % 100).padStart(2, '0')}`;
  return { national: `07400 ${six}`, e164: `+447400${six}`, six };
};
const inHours = (h: number) => new Date(Date.now() + h * 3600_000).toISOString();
const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
  stack.app.inject({ method: 'POST', url, payload: payload as object, headers, remoteAddress: ip() });

async function storedPhone(ref: string): Promise<string | undefined> {
  const [row] = await stack.sql<{ passenger_phone: string }[]>`select passenger_phone from bookings where ref = ${ref}`;
  return row?.passenger_phone;
}

describe('phones as people type them', () => {
  it('v1 booking takes a national number and stores E.164; garbage is a 400 naming passengerPhone', async () => {
    const phone = mobile();
    const body = {
      pickup: 'Durham station',
      dropoff: 'Durham',
      departAt: inHours(3),
      passengerName: 'Mary Seacole',
      passengerEmail: `phone.${randomUUID().slice(0, 8)}@example.com`,
      passengerPhone: phone.national,
      passengers: 1,
      paymentMethod: 'cash',
    };
    const res = await post('/api/public/v1/booking', body);
    expect(res.statusCode, res.body).toBe(201);
    expect(await storedPhone(res.json().booking_reference)).toBe(phone.e164);

    for (const bad of ['7400 123456', 'call me', '07400 12345', '07400\t123456']) {
      const refused = await post('/api/public/v1/booking', { ...body, passengerPhone: bad });
      expect(refused.statusCode, bad).toBe(400);
      expect(refused.json().errors, bad).toEqual([expect.objectContaining({ field: 'body.passengerPhone' })]);
    }
  });

  it('the agent instant route takes "(07400) ..." in passenger_phone_whatsapp and stores E.164', async () => {
    const phone = mobile();
    const typed = `(07400) ${phone.six.slice(0, 3)} ${phone.six.slice(3)}`;
    const res = await post(
      '/api/public/bookings/instant',
      {
        pickup_address: 'Durham station',
        dropoff_address: 'Durham',
        passenger_name: 'Ada Lovelace',
        passenger_phone_whatsapp: typed,
        depart_at: inHours(4),
      },
      { 'idempotency-key': randomUUID() },
    );
    expect(res.statusCode, res.body).toBe(200);
    const { booking_reference: ref, manage_token: token } = res.json();
    expect(await storedPhone(ref)).toBe(phone.e164);
    // Not left for another file's drivers to be offered.
    expect((await post(`/api/public/v1/booking/${ref}`, { action: 'cancel', token })).statusCode).toBe(200);

    const refused = await post('/api/public/bookings/instant', {
      pickup_address: 'Durham station',
      dropoff_address: 'Durham',
      passenger_name: 'Ada Lovelace',
      passenger_phone_whatsapp: '07400 123456 ext 2',
      depart_at: inHours(4),
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors).toEqual([expect.objectContaining({ field: 'body.passenger_phone_whatsapp' })]);
  });

  it('a partner job takes a national passengerPhone and stores E.164; garbage is invalid_job naming the field', async () => {
    const id = `phn-${randomUUID().slice(0, 8)}`;
    await createPartner(stack.sql, { id, name: `Partner ${id}`, kind: 'partner', liveIntakeApproved: true });
    const { key } = await createApiKey(stack.sql, { name: id, partnerId: id });
    const send = (payload: unknown) =>
      stack.app.inject({
        method: 'POST',
        url: '/api/public/v1/jobs',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        payload: JSON.stringify(payload),
        remoteAddress: ip(),
      });
    const phone = mobile();
    const job = (jobRef: string, passengerPhone: string) => ({
      jobRef,
      pickup: 'Hexham station',
      dropoff: 'Hexham',
      pickupTime: inHours(26),
      passengerName: 'Ada Lovelace',
      passengerPhone,
    });

    const res = await send([
      job('PH-1', phone.national),
      job('PH-2', '+44 (0)7400 ' + mobile().six),
      job('PH-3', '0700 FLOWERS'),
    ]);
    expect(res.statusCode, res.body).toBe(207);
    const [national, international, garbage] = res.json().results;
    expect(national).toMatchObject({ jobRef: 'PH-1', outcome: 'accepted', code: 'created' });
    expect(await storedPhone(national.bookingReference)).toBe(phone.e164);
    expect(international).toMatchObject({ jobRef: 'PH-2', outcome: 'accepted', code: 'created' });
    expect(await storedPhone(international.bookingReference)).toMatch(/^\+447400\d{6}$/);
    expect(garbage).toMatchObject({
      jobRef: 'PH-3',
      outcome: 'rejected',
      code: 'invalid_job',
      errors: [expect.objectContaining({ field: 'body[2].passengerPhone' })],
    });
  });

  it('a driver who applied as +44 signs in typing 07...; one who applied as 07... is stored E.164', async () => {
    const phone = mobile();
    const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF').toString('base64');
    const application = (typed: string) => ({
      name: 'Jo Driver',
      phone: typed,
      email: `jo.${randomUUID().slice(0, 8)}@example.com`,
      licensing_authority: 'Durham County Council',
      driver_licence_number: 'DCC-D-1234',
      driver_licence_expires: '2030-01-31',
      vehicle_licence_number: 'DCC-V-99',
      vehicle_licence_expires: '2029-06-30',
      vehicle_make: 'Toyota',
      vehicle_model: 'Corolla',
      vehicle_registration: 'ab12 cde',
      vehicle_type: 'saloon',
      seats: 4,
      wheelchair_accessible: false,
      home_area: 'national-default',
      tier: 'local',
      documents: [
        { kind: 'driver_licence', content_type: 'application/pdf', data_base64: PDF },
        { kind: 'vehicle_licence', content_type: 'application/pdf', data_base64: PDF },
      ],
    });
    const applied = await post('/api/drivers/applications', application(`+44 7400 ${phone.six}`));
    expect(applied.statusCode, applied.body).toBe(201);
    const id = applied.json<{ driver_id: string }>().driver_id;
    const [row] = await stack.sql<{ phone: string }[]>`select phone from drivers where id = ${id}`;
    expect(row?.phone).toBe(phone.e164);
    const decided = await post(
      `/api/ops/drivers/${id}/decision`,
      { action: 'approve', reason: null },
      { authorization: `Bearer ${operator}` },
    );
    expect(decided.statusCode, decided.body).toBe(200);

    expect((await post('/api/driver/sign-in', { phone: phone.national })).statusCode).toBe(202);
    const code = await eventually(
      async () => {
        const [m] = await stack.sql<
          { body: string }[]
        >`select body from outbox where recipient = ${phone.e164} and body like '%sign-in code%' order by id desc limit 1`;
        return m ? /(\d{6})/.exec(m.body)?.[1] : undefined;
      },
      STACK_WAIT_MS,
      'the sign-in code',
    );
    const verified = await post('/api/driver/sign-in/verify', {
      phone: `0${phone.e164.slice(3, 7)}-${phone.six.slice(0, 3)}-${phone.six.slice(3)}`,
      code,
    });
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json()).toMatchObject({ driver_id: id });

    const other = mobile();
    const second = await post('/api/drivers/applications', application(other.national));
    expect(second.statusCode, second.body).toBe(201);
    const [otherRow] = await stack.sql<
      { phone: string }[]
    >`select phone from drivers where id = ${second.json<{ driver_id: string }>().driver_id}`;
    expect(otherRow?.phone).toBe(other.e164);

    const refused = await post('/api/driver/sign-in', { phone: '7400 123456' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors).toEqual([expect.objectContaining({ field: 'body.phone' })]);
  });
});
