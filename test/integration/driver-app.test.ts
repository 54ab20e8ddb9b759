// The driver's side through HTTP on the real stack: apply with documents, an operator approves (on
// the record), the driver signs in with a texted code, goes online with a location, sees an offer
// in their feed, accepts, sees the passenger, drives the trip and confirms cash; the booking and
// the driver's dashboard show it. A driver sees only their own; staff routes need a staff key.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaff } from '../../src/auth/staff.js';
import { eventually, STACK_WAIT_MS, startStack, type TestStack } from '../support/stack.js';
import { bookingTrail } from '../support/drivers.js';

let stack: TestStack;
let operator: string;
let admin: string;
beforeAll(async () => {
  stack = await startStack({ OFFER_TIMEOUT_SECONDS: '30' });
  operator = (await createStaff(stack.sql, { name: 'Olu (ops)', role: 'operator' })).key;
  admin = (await createStaff(stack.sql, { name: 'Ana (admin)', role: 'admin' })).key;
});
// Drivers stay in the shared database: offline, no later test file's booking is offered to them.
afterAll(async () => {
  if (stack) await stack.sql`update drivers set online = false where id like 'drv_%'`;
  await stack?.close();
});

let n = 0;
const ip = () => `10.96.${Math.floor(n / 250) % 250}.${n++ % 250}`;
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF').toString('base64');
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]).toString('base64');
let phoneN = 0;
const driverPhone = () => `+4474005${String(10000 + ((Date.now() + phoneN++) % 89999)).padStart(5, '0')}`;

function call(method: 'GET' | 'POST' | 'PUT', url: string, o: { body?: unknown; bearer?: string } = {}) {
  return stack.app.inject({
    method,
    url,
    remoteAddress: ip(),
    ...(o.body === undefined ? {} : { payload: o.body as object }),
    headers: o.bearer ? { authorization: `Bearer ${o.bearer}` } : {},
  });
}

function application(phone: string, over: Record<string, unknown> = {}) {
  return {
    name: 'Jo Driver',
    phone,
    email: 'jo.driver@example.com',
    licensing_authority: 'Northumberland County Council',
    driver_licence_number: 'NCC-D-1234',
    driver_licence_expires: '2030-01-31',
    vehicle_licence_number: 'NCC-V-99',
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
      { kind: 'vehicle_licence', content_type: 'image/png', data_base64: PNG },
    ],
    ...over,
  };
}

async function signIn(phone: string): Promise<string> {
  expect((await call('POST', '/api/driver/sign-in', { body: { phone } })).statusCode).toBe(202);
  const code = await eventually(
    async () => {
      const [m] = await stack.sql<
        { body: string }[]
      >`select body from outbox where recipient = ${phone} and body like '%sign-in code%' order by id desc limit 1`;
      return m ? /(\d{6})/.exec(m.body)?.[1] : undefined;
    },
    STACK_WAIT_MS,
    'the sign-in code',
  );
  const verified = await call('POST', '/api/driver/sign-in/verify', { body: { phone, code } });
  expect(verified.statusCode).toBe(200);
  return verified.json<{ token: string }>().token;
}

async function approvedDriver(lat: number, lon: number) {
  const phone = driverPhone();
  const applied = await call('POST', '/api/drivers/applications', { body: application(phone) });
  expect(applied.statusCode, applied.body).toBe(201);
  const { driver_id: id } = applied.json<{ driver_id: string }>();
  expect(
    (
      await call('POST', `/api/ops/drivers/${id}/decision`, {
        body: { action: 'approve', reason: null },
        bearer: operator,
      })
    ).statusCode,
  ).toBe(200);
  const token = await signIn(phone);
  expect((await call('POST', '/api/driver/availability', { body: { online: true }, bearer: token })).json()).toEqual({
    online: true,
  });
  expect((await call('POST', '/api/driver/location', { body: { lat, lon }, bearer: token })).statusCode).toBe(204);
  return { id, phone, token };
}

describe('driver onboarding and the driver app', () => {
  it('takes an applicant through approval to a paid trip, each step visible to the passenger', async () => {
    const phone = driverPhone();
    const applied = await call('POST', '/api/drivers/applications', { body: application(phone) });
    expect(applied.statusCode, applied.body).toBe(201);
    const { driver_id: id } = applied.json<{ driver_id: string }>();
    // An applicant cannot sign in or be offered work.
    expect((await call('POST', '/api/driver/sign-in', { body: { phone } })).statusCode).toBe(202);
    expect(await stack.sql`select 1 from outbox where recipient = ${phone}`).toHaveLength(0);
    const list = await call('GET', '/api/ops/drivers?status=applicant', { bearer: operator });
    expect(list.json<{ drivers: { id: string }[] }>().drivers.map((d) => d.id)).toContain(id);
    const detail = (await call('GET', `/api/ops/drivers/${id}`, { bearer: operator })).json<{
      documents: { id: string; kind: string }[];
    }>();
    expect(detail.documents.map((d) => d.kind)).toEqual(['driver_licence', 'vehicle_licence']);
    const file = await call('GET', `/api/ops/drivers/${id}/documents/${detail.documents[0]!.id}`, { bearer: operator });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-disposition']).toMatch(/^attachment/);
    expect(file.rawPayload.subarray(0, 4).toString()).toBe('%PDF');
    // Documents are never public.
    expect((await call('GET', `/api/ops/drivers/${id}/documents/${detail.documents[0]!.id}`)).statusCode).toBe(401);

    const approved = await call('POST', `/api/ops/drivers/${id}/decision`, {
      body: { action: 'approve', reason: 'licences checked with the council' },
      bearer: operator,
    });
    expect(approved.json()).toMatchObject({ driver: { status: 'approved' } });
    const actions = (await call('GET', `/api/ops/drivers/${id}`, { bearer: operator })).json<{ actions: unknown[] }>()
      .actions;
    expect(actions).toEqual([
      expect.objectContaining({
        action: 'driver.approve',
        by: 'Olu (ops)',
        reason: 'licences checked with the council',
      }),
    ]);

    const token = await signIn(phone);
    const me = await call('GET', '/api/driver/me', { bearer: token });
    expect(me.json()).toMatchObject({
      driver: { id, status: 'approved', online: false },
      completed_rides: 0,
      earnings_pence: 0,
    });
    await eventually(
      async () =>
        (await call('GET', '/api/driver/me', { bearer: token })).json<{ subscription: unknown }>().subscription ??
        undefined,
      STACK_WAIT_MS,
      'the subscription',
    );
    expect((await call('GET', '/api/driver/me', { bearer: token })).json()).toMatchObject({
      subscription: { state: 'trial', trial_days_remaining: 90 },
    });
    await call('POST', '/api/driver/availability', { body: { online: true }, bearer: token });
    await call('POST', '/api/driver/location', { body: { lat: 55.2, lon: -1.6 }, bearer: token });

    const booked = await call('POST', '/api/public/bookings/instant', {
      body: {
        pickup_address: 'Morpeth station',
        dropoff_address: 'Morpeth',
        passenger_name: 'Ada Byron',
        passenger_phone_whatsapp: '+447400123411',
      },
    });
    expect(booked.statusCode).toBe(200);
    const { booking_reference: ref, manage_token: manage } = booked.json<{
      booking_reference: string;
      manage_token: string;
    }>();
    const feed = async () =>
      (await call('GET', '/api/public/v1/jobs', { bearer: token })).json<{ jobs: Array<Record<string, unknown>> }>()
        .jobs;
    const offered = await eventually(
      async () => (await feed()).find((j) => j.booking_reference === ref),
      STACK_WAIT_MS,
      'the offer in the feed',
      () => bookingTrail(stack.sql, ref),
    );
    expect(offered).toMatchObject({
      offer: 'offered',
      pickup: expect.stringContaining('Morpeth'),
      passenger: null,
      passengers: 1,
    });
    const offerId = offered.offer_id as string;
    expect(
      (
        await call('POST', `/api/driver/jobs/${encodeURIComponent(offerId)}/respond`, {
          body: { decision: 'accept' },
          bearer: token,
        })
      ).json(),
    ).toMatchObject({ result: 'accepted' });
    expect((await feed()).find((j) => j.booking_reference === ref)).toMatchObject({
      offer: 'accepted',
      passenger: { name: 'Ada Byron', phone: '+447400123411' },
      next_steps: ['en_route', 'arrived'],
    });

    for (const event of ['en_route', 'arrived', 'on_board', 'completed']) {
      const res = await call('POST', `/api/driver/jobs/${encodeURIComponent(offerId)}/trip`, {
        body: { event },
        bearer: token,
      });
      expect(res.statusCode, res.body).toBe(202);
      expect((await call('GET', `/api/public/v1/booking/${ref}?token=${manage}`)).json()).toMatchObject({
        status: event,
      });
    }
    expect((await feed()).find((j) => j.booking_reference === ref)).toMatchObject({ awaiting_payment: true });
    const paid = await call('POST', `/api/driver/jobs/${encodeURIComponent(offerId)}/payment`, {
      body: { method: 'cash' },
      bearer: token,
    });
    expect(paid.statusCode, paid.body).toBe(200);
    expect((await call('GET', `/api/public/v1/booking/${ref}?token=${manage}`)).json()).toMatchObject({
      payment: { state: 'paid', received: { method: 'cash' } },
    });
    expect((await feed()).find((j) => j.booking_reference === ref)).toBeUndefined();
    const after = (await call('GET', '/api/driver/me', { bearer: token })).json<{
      completed_rides: number;
      earnings_pence: number;
      dead_mileage_miles: number;
    }>();
    expect(after.completed_rides).toBe(1);
    expect(after.earnings_pence).toBe(Math.round(paid.json<{ payment: { amount: number } }>().payment.amount * 100));
    expect(after.dead_mileage_miles).toBeGreaterThan(0);

    // Signing out ends the session.
    expect((await call('POST', '/api/driver/sign-out', { bearer: token })).statusCode).toBe(204);
    expect((await call('GET', '/api/public/v1/jobs', { bearer: token })).statusCode).toBe(401);
  });

  it('shows a driver only their own jobs, and lets nobody else act on them', async () => {
    const a = await approvedDriver(55.17, -1.69);
    const b = await approvedDriver(40, 0).catch(() => null); // out of the UK: the location is refused
    expect(b).toBeNull();
    const other = await approvedDriver(51.0, -0.5);
    const booked = await call('POST', '/api/public/bookings/instant', {
      body: {
        pickup_address: 'Morpeth station',
        dropoff_address: 'Alnwick',
        passenger_name: 'Mary Seacole',
        passenger_phone_whatsapp: '+447400123412',
      },
    });
    const ref = booked.json<{ booking_reference: string }>().booking_reference;
    const offer = await eventually(
      async () =>
        (await call('GET', '/api/public/v1/jobs', { bearer: a.token }))
          .json<{ jobs: { booking_reference: string; offer_id: string }[] }>()
          .jobs.find((j) => j.booking_reference === ref),
      STACK_WAIT_MS,
      'the offer',
      () => bookingTrail(stack.sql, ref),
    );
    expect(
      (await call('GET', '/api/public/v1/jobs', { bearer: other.token })).json<{ jobs: unknown[] }>().jobs,
    ).toEqual([]);
    const stolen = await call('POST', `/api/driver/jobs/${encodeURIComponent(offer.offer_id)}/respond`, {
      body: { decision: 'accept' },
      bearer: other.token,
    });
    expect(stolen.statusCode).toBe(404);
    // A driver's session is not a staff key, and an operator is not an admin.
    expect((await call('GET', '/api/ops/drivers', { bearer: a.token })).statusCode).toBe(401);
    expect(
      (
        await call('POST', `/api/ops/drivers/${a.id}/trial`, {
          body: { days: 7, reason: 'goodwill' },
          bearer: operator,
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (await call('POST', `/api/ops/drivers/${a.id}/trial`, { body: { days: 7, reason: 'goodwill' }, bearer: admin }))
        .statusCode,
    ).toBe(200);
    expect((await call('GET', '/api/public/v1/jobs')).statusCode).toBe(401);
  });

  it('refuses bad applications with reasons, and a suspended driver can no longer sign in or go online', async () => {
    const bad = await call('POST', '/api/drivers/applications', {
      body: application(driverPhone(), {
        documents: [
          { kind: 'driver_licence', content_type: 'application/pdf', data_base64: PNG },
          { kind: 'vehicle_licence', content_type: 'image/png', data_base64: PNG },
        ],
      }),
    });
    expect(bad.statusCode).toBe(415);
    const expired = await call('POST', '/api/drivers/applications', {
      body: application(driverPhone(), { driver_licence_expires: '2020-01-01' }),
    });
    expect(expired.json()).toMatchObject({ status: 400, code: 'licence_expired' });
    const notADay = await call('POST', '/api/drivers/applications', {
      body: application(driverPhone(), { vehicle_licence_expires: '2029-02-30' }),
    });
    expect(notADay.statusCode).toBe(400);
    const nul = await call('POST', '/api/drivers/applications', {
      body: application(driverPhone(), { name: 'Jo\u0000' }),
    });
    expect(nul.statusCode).toBe(400);
    // Found by the OpenAPI fuzzer: an empty date was a 500.
    const empty = await call('POST', '/api/drivers/applications', {
      body: application(driverPhone(), { vehicle_licence_expires: '' }),
    });
    expect(empty.statusCode).toBe(400);
    // And a method no route takes, even one that expects a body, is a 405 naming the ones it does.
    const query = await stack.app.inject({ method: 'QUERY' as 'GET', url: '/api/public/v1/jobs' });
    expect(query.statusCode).toBe(405);
    expect(query.headers.allow).toBe('GET, HEAD, POST');

    const d = await approvedDriver(55.0, -1.6);
    const twice = await call('POST', '/api/drivers/applications', { body: application(d.phone) });
    expect(twice.statusCode).toBe(409);
    expect(
      (
        await call('POST', `/api/ops/drivers/${d.id}/decision`, {
          body: { action: 'suspend', reason: null },
          bearer: operator,
        })
      ).statusCode,
    ).toBe(400);
    expect(
      (
        await call('POST', `/api/ops/drivers/${d.id}/decision`, {
          body: { action: 'suspend', reason: 'complaint under review' },
          bearer: operator,
        })
      ).json(),
    ).toMatchObject({ driver: { status: 'suspended' } });
    expect((await call('GET', '/api/driver/me', { bearer: d.token })).statusCode).toBe(401);
    expect(
      (
        await stack.sql<
          { online: boolean; approved: boolean }[]
        >`select online, approved from drivers where id = ${d.id}`
      )[0],
    ).toEqual({ online: false, approved: false });
    expect(
      (
        await call('POST', `/api/ops/drivers/${d.id}/decision`, {
          body: { action: 'approve', reason: null },
          bearer: operator,
        })
      ).statusCode,
    ).toBe(409);
    expect(
      (
        await call('POST', `/api/ops/drivers/${d.id}/decision`, {
          body: { action: 'reinstate', reason: 'cleared' },
          bearer: operator,
        })
      ).json(),
    ).toMatchObject({ driver: { status: 'approved' } });
  });

  it('records who approved a driver rate override and when, and who blocked a passenger and why', async () => {
    const d = await approvedDriver(54.9, -1.6);
    const override = await call('POST', '/api/ops/rate-overrides', {
      body: {
        scope: 'driver',
        subject_id: d.id,
        adjustment_basis_points: -1000,
        reason: 'agreed 10% below tariff for the airport run',
        vehicle_types: ['saloon'],
      },
      bearer: operator,
    });
    expect(override.statusCode, override.body).toBe(201);
    expect(override.json()).toMatchObject({ approved_by: 'Olu (ops)', adjustment_basis_points: -1000 });
    expect(Date.now() - Date.parse(override.json<{ approved_at: string }>().approved_at)).toBeLessThan(60_000);
    const history = (await call('GET', `/api/ops/drivers/${d.id}`, { bearer: operator })).json<{
      actions: { action: string }[];
    }>().actions;
    expect(history.map((a) => a.action)).toEqual(['driver.approve', 'rate_override.approve']);
    expect(
      (
        await call('POST', '/api/ops/rate-overrides', {
          body: { scope: 'driver', subject_id: 'drv_nobody', adjustment_basis_points: 0, reason: 'x y z' },
          bearer: operator,
        })
      ).statusCode,
    ).toBe(404);

    const blocked = await call('POST', '/api/ops/passengers', {
      body: { email: 'Troublesome@Example.com', action: 'block', reason: 'repeated no-shows' },
      bearer: operator,
    });
    expect(blocked.json()).toEqual({ identifier: 'email:troublesome@example.com', blocked: true });
    const refused = await call('POST', '/api/public/v1/booking', {
      body: {
        pickup: 'Morpeth station',
        dropoff: 'Alnwick',
        departAt: new Date(Date.now() + 3600_000).toISOString(),
        passengerName: 'T Some',
        passengerPhone: '+447400123413',
        passengerEmail: 'troublesome@example.com',
      },
    });
    expect(refused.statusCode, refused.body).toBe(403);
    expect(refused.json().code).toBe('passenger_blocked');
    await call('POST', '/api/ops/passengers', {
      body: { email: 'troublesome@example.com', action: 'unblock', reason: 'appeal upheld' },
      bearer: operator,
    });
    const [log] = await stack.sql<
      { n: number }[]
    >`select count(*)::int as n from staff_actions where subject_kind = 'passenger' and subject_id = 'email:troublesome@example.com'`;
    expect(log!.n).toBe(2);
  });
});
