// Issue 20 through HTTP on the real stack. (3) Suspension is immediate: a job card out with the
// driver is withdrawn and the next driver asked at once, a job they hold is taken off them and
// dispatched again (driver and passenger texted, no reason given), a trip on board is left to ops,
// and the suspended driver can neither sign in nor do anything with a job by link or session. (7) A
// trip with the passenger on board cannot be cancelled by anyone; ops end it with a settlement.
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/auth/api-keys.js';
import { hashSecret } from '../../src/auth/secrets.js';
import { createStaff } from '../../src/auth/staff.js';
import { claimOffer } from '../../src/dispatch/store.js';
import { signPartnerRequest } from '../../src/partners/signature.js';
import { createPartner, issueSigningSecret } from '../../src/partners/store.js';
import { deliverJobCard, JOB_CARD_UNDELIVERABLE } from '../../activities/bookings/job-card.js';
import { offerId as offerIdOf } from '../../src/model/bookings.js';
import {
  createDriver,
  respond,
  takeDriversOffline,
  waitForJobCard,
  waitForStatus,
  type JobCard,
  type TestDriver,
} from '../support/drivers.js';
import { eventually, STACK_WAIT_MS, startStack, type TestStack } from '../support/stack.js';
import { licenseFleet } from '../support/operator-licences.js';

let stack: TestStack;
let operator: string;
const created: TestDriver[] = [];
beforeAll(async () => {
  // A long offer window: a next driver asked within seconds was asked because the card was withdrawn.
  stack = await startStack({ OFFER_TIMEOUT_SECONDS: '120' });
  operator = (await createStaff(stack.sql, { name: 'Sam (ops)', role: 'operator' })).key;
});
const booked: Array<{ ref: string; manage: string }> = [];
afterEach(async () => {
  await takeDriversOffline(stack.sql, created.splice(0));
  // A booking still dispatching would offer itself to the next test's drivers: cancelled (one on board refuses, and stays).
  for (const b of booked.splice(0))
    await call('POST', `/api/public/v1/booking/${b.ref}`, { body: { action: 'cancel', token: b.manage } });
});
afterAll(async () => stack?.close());

let n = 0;
const ip = () => `10.120.${Math.floor(n / 250) % 250}.${n++ % 250}`;
let phoneN = Math.floor(Math.random() * 80_000);
const newPhone = () => `+4474006${String(10000 + (phoneN++ % 89999)).padStart(5, '0')}`;

function call(method: 'GET' | 'POST', url: string, o: { body?: unknown; bearer?: string } = {}) {
  return stack.app.inject({
    method,
    url,
    remoteAddress: ip(),
    ...(o.body === undefined ? {} : { payload: o.body as object }),
    headers: o.bearer ? { authorization: `Bearer ${o.bearer}` } : {},
  });
}

/** Hexham station: the first driver at the door, the second a little further out. */
async function twoDrivers(): Promise<[TestDriver, TestDriver]> {
  const a = await createDriver(stack.sql, {
    lat: 54.9735,
    lon: -2.0977,
    homeArea: 'national-default',
    phone: newPhone(),
  });
  const b = await createDriver(stack.sql, { lat: 54.985, lon: -2.11, homeArea: 'national-default', phone: newPhone() });
  created.push(a, b);
  return [a, b];
}

const PASSENGER = { name: 'Grace Hopper', notes: 'Gate code 4321' };
/** A booking for now at Hexham station; a passenger phone of its own, or identical bookings would be one ride. */
async function book(): Promise<{ ref: string; manage: string; phone: string }> {
  const phone = newPhone();
  const res = await call('POST', '/api/public/bookings/instant', {
    body: {
      pickup_address: 'Hexham station',
      dropoff_address: 'Hexham',
      passenger_name: PASSENGER.name,
      passenger_phone_whatsapp: phone,
      notes: PASSENGER.notes,
    },
  });
  expect(res.statusCode, res.body).toBe(200);
  const b = res.json<{ booking_reference: string; manage_token: string }>();
  booked.push({ ref: b.booking_reference, manage: b.manage_token });
  return { ref: b.booking_reference, manage: b.manage_token, phone };
}

const link = (card: JobCard, what: 'trip' | 'payment', body: object) =>
  stack.app.inject({
    method: 'POST',
    url: `/api/driver/offers/${encodeURIComponent(card.offerId)}/${what}`,
    payload: { ...body, token: card.token },
  });
const suspend = (driverId: string) =>
  call('POST', `/api/ops/drivers/${driverId}/decision`, {
    body: { action: 'suspend', reason: 'complaint under review' },
    bearer: operator,
  });
const endTrip = (ref: string, body: unknown, bearer = operator) =>
  call('POST', `/api/ops/bookings/${ref}/end`, { body, bearer });
const messagesTo = (phone: string, ref: string) =>
  stack.sql<
    { body: string }[]
  >`select body from outbox where recipient = ${phone} and booking_ref = ${ref} and channel = 'sms' order by id`.then(
    (r) => r.map((m) => m.body),
  );
const lookup = async (ref: string, manage: string) =>
  (await call('GET', `/api/public/v1/booking/${ref}?token=${manage}`)).json<{
    status: string;
    driver: unknown;
    payment: { state: string; received: unknown };
  }>();

/** A driver with a live session that escaped revocation (the status set by hand in the database, say). */
async function leftoverSession(driverId: string): Promise<string> {
  const token = `drs_${randomBytes(24).toString('base64url')}`;
  await stack.sql`insert into driver_sessions (token_hash, driver_id) values (${hashSecret(token)}, ${driverId})`;
  return token;
}

/** A booking accepted by `a` through their job card and driven to `until`. */
async function acceptedAndDriven(a: TestDriver, until: Array<'en_route' | 'arrived' | 'on_board'>) {
  const { ref, manage, phone } = await book();
  const card = await waitForJobCard(stack.sql, a, ref);
  expect((await respond(stack.app, card, 'accept')).statusCode).toBe(200);
  for (const event of until) expect((await link(card, 'trip', { event })).statusCode).toBe(202);
  return { ref, manage, card, passengerPhone: phone };
}

describe('suspending a driver (issue 20, item 3)', () => {
  it('withdraws their open job card at once and asks the next driver; their link then refuses them and shows nothing of the job', async () => {
    const [a, b] = await twoDrivers();
    const { ref, phone } = await book();
    const card = await waitForJobCard(stack.sql, a, ref);
    expect((await suspend(a.id)).json()).toMatchObject({ driver: { status: 'suspended' } });

    // Well inside the 120 s the card had left: withdrawn, and the next driver's card is out.
    await waitForJobCard(stack.sql, b, ref, STACK_WAIT_MS);
    const [offer] = await stack.sql<{ status: string }[]>`select status from offers where id = ${card.offerId}`;
    expect(offer!.status).toBe('withdrawn');

    const accepted = await respond(stack.app, card, 'accept');
    expect(accepted.statusCode).toBe(403);
    expect(accepted.json()).toMatchObject({ code: 'driver_suspended' });
    expect((await respond(stack.app, card, 'decline')).json()).toMatchObject({ code: 'driver_suspended' });

    const page = await stack.app.inject({
      method: 'GET',
      url: `/driver/jobs/${encodeURIComponent(card.offerId)}?t=${card.token}`,
    });
    expect(page.statusCode).toBe(403);
    expect(page.body).toContain('suspended');
    for (const secret of [PASSENGER.name, phone, PASSENGER.notes, 'Hexham']) expect(page.body).not.toContain(secret);

    // A retried suspension is answered the same and does nothing twice.
    const before = await stack.sql<{ n: number }[]>`select count(*)::int as n from outbox where booking_ref = ${ref}`;
    expect((await suspend(a.id)).json()).toMatchObject({ driver: { status: 'suspended' } });
    const actions = await stack.sql<
      { n: number }[]
    >`select count(*)::int as n from staff_actions where subject_id = ${a.id} and action = 'driver.suspend'`;
    expect(actions[0]!.n).toBe(1);
    const after = await stack.sql<{ n: number }[]>`select count(*)::int as n from outbox where booking_ref = ${ref}`;
    expect(after[0]!.n).toBe(before[0]!.n);
  });

  it('takes a job they hold off them and dispatches it again: they are told it was withdrawn, the passenger that the driver changed (no reason)', async () => {
    const [a, b] = await twoDrivers();
    const { ref, manage, card, passengerPhone } = await acceptedAndDriven(a, ['en_route']);
    expect(await lookup(ref, manage)).toMatchObject({ status: 'en_route', driver: expect.anything() });

    await suspend(a.id);
    await waitForJobCard(stack.sql, b, ref, STACK_WAIT_MS);
    const row = (
      await stack.sql<{ driver_id: string | null }[]>`select driver_id from bookings where ref = ${ref}`
    )[0]!;
    expect(row.driver_id).toBeNull();
    expect((await lookup(ref, manage)).driver).toBeNull();

    const toDriver = await eventually(
      async () => (await messagesTo(a.phone, ref)).find((m) => m.includes('withdrawn')),
      STACK_WAIT_MS,
      'the driver told',
    );
    expect(toDriver).toContain('Do not go to the pickup');
    const toPassenger = await eventually(
      async () =>
        (await messagesTo(passengerPhone, ref)).find((m) => m.includes('your driver can no longer take your trip')),
      STACK_WAIT_MS,
      'the passenger told',
    );
    expect(toPassenger).not.toMatch(/suspen|complaint/i);

    // Nothing more from them on this job, by link.
    for (const res of [
      await link(card, 'trip', { event: 'arrived' }),
      await link(card, 'payment', { method: 'cash' }),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('driver_suspended');
    }
    // The next driver takes it on as usual.
    expect((await respond(stack.app, await waitForJobCard(stack.sql, b, ref), 'accept')).json()).toMatchObject({
      result: 'accepted',
    });
  });

  it('sends a suspended driver no sign-in code and gives them no session; a session that escaped revocation is refused on every job route', async () => {
    const [a] = await twoDrivers();
    expect((await call('POST', '/api/driver/sign-in', { body: { phone: a.phone } })).statusCode).toBe(202);
    const code = await eventually(
      async () => {
        const [m] = await stack.sql<
          { body: string }[]
        >`select body from outbox where recipient = ${a.phone} and body like '%sign-in code%'`;
        return m ? /(\d{6})/.exec(m.body)?.[1] : undefined;
      },
      STACK_WAIT_MS,
      'the sign-in code',
    );
    const { ref, card, passengerPhone } = await acceptedAndDriven(a, []);

    await suspend(a.id);
    // The code sent before the suspension no longer buys a session, and no new code is sent.
    expect((await call('POST', '/api/driver/sign-in/verify', { body: { phone: a.phone, code } })).statusCode).toBe(401);
    expect((await call('POST', '/api/driver/sign-in', { body: { phone: a.phone } })).statusCode).toBe(202);
    const codes = await stack.sql`select 1 from outbox where recipient = ${a.phone} and body like '%sign-in code%'`;
    expect(codes).toHaveLength(1);

    const token = await leftoverSession(a.id);
    const feed = await call('GET', '/api/public/v1/jobs', { bearer: token });
    expect(feed.statusCode).toBe(403);
    expect(feed.json().code).toBe('driver_suspended');
    expect(feed.body).not.toContain(passengerPhone);
    const job = `/api/driver/jobs/${encodeURIComponent(card.offerId)}`;
    for (const [path, body] of [
      ['respond', { decision: 'accept' }],
      ['trip', { event: 'en_route' }],
      ['payment', { method: 'cash' }],
    ] as const) {
      const res = await call('POST', `${job}/${path}`, { body, bearer: token });
      expect(res.statusCode, path).toBe(403);
      expect(res.json().code).toBe('driver_suspended');
    }
    // Nor can they change how the passenger of a trip still on board with them is asked to pay.
    const options = await stack.app.inject({
      method: 'PUT',
      url: '/api/driver/payment-options',
      payload: { paymentLink: 'https://pay.example.com/x' },
      headers: { authorization: `Bearer ${token}` },
      remoteAddress: ip(),
    });
    expect(options.statusCode).toBe(403);
    expect(options.json().code).toBe('driver_suspended');
    await eventually(
      async () =>
        (await stack.sql`select 1 from bookings where ref = ${ref} and driver_id is null`).length ? true : undefined,
      STACK_WAIT_MS,
      'the job taken off them',
    );
  });

  it('leaves a trip with the passenger on board to finish and tells ops; the driver cannot report or settle it, ops end it with nothing due', async () => {
    const [a] = await twoDrivers();
    const { ref, manage, card, passengerPhone } = await acceptedAndDriven(a, ['arrived', 'on_board']);
    await suspend(a.id);

    const alert = await eventually(
      async () => {
        const [m] = await stack.sql<{ subject: string; body: string }[]>`
        select subject, body from outbox where channel = 'email' and recipient = ${stack.config.OPS_ALERT_EMAIL} and booking_ref = ${ref}`;
        return m;
      },
      STACK_WAIT_MS,
      'ops told',
    );
    expect(alert.subject).toContain(ref);
    expect(alert.body).toContain(`/api/ops/bookings/${ref}/end`);
    expect(await lookup(ref, manage)).toMatchObject({ status: 'on_board' });
    expect((await messagesTo(a.phone, ref)).some((m) => m.includes('withdrawn'))).toBe(false);

    const done = await link(card, 'trip', { event: 'completed' });
    expect(done.statusCode).toBe(403);
    expect(done.json().code).toBe('driver_suspended');

    const ended = await endTrip(ref, {
      reason: 'driver suspended mid-trip',
      settlement: { nothing_due: true, reason: 'trip cut short, apology given' },
    });
    expect(ended.statusCode, ended.body).toBe(200);
    expect(ended.json()).toMatchObject({
      booking_reference: ref,
      status: 'completed',
      nothing_due: true,
      ended_now: true,
      payment: { amount: 0, method: 'none', recorded_by: 'ops' },
    });
    expect(await lookup(ref, manage)).toMatchObject({
      status: 'completed',
      payment: { state: 'not_due', received: null },
    });
    const [record] = await stack.sql<
      { amount_pence: number; method: string; recorded_by: string; note: string; driver_id: string }[]
    >`
      select amount_pence, method, recorded_by, note, driver_id from payment_records where booking_ref = ${ref}`;
    expect(record).toEqual({
      amount_pence: 0,
      method: 'none',
      recorded_by: 'ops',
      driver_id: a.id,
      note: 'ended by ops: driver suspended mid-trip; nothing due: trip cut short, apology given',
    });
    const [action] = await stack.sql<{ reason: string; details: { nothing_due: string } }[]>`
      select reason, details from staff_actions where action = 'booking.end_trip' and subject_id = ${ref}`;
    expect(action).toMatchObject({
      reason: 'driver suspended mid-trip',
      details: { nothing_due: 'trip cut short, apology given' },
    });
    const toPassenger = await eventually(
      async () => (await messagesTo(passengerPhone, ref)).find((m) => m.includes('closed by our team')),
      STACK_WAIT_MS,
      'the passenger told',
    );
    expect(toPassenger).toContain('Nothing is due');
    expect(toPassenger).not.toMatch(/suspen/i);
    expect(
      await eventually(
        async () => (await messagesTo(a.phone, ref)).find((m) => m.includes('closed by Direct Taxi')),
        STACK_WAIT_MS,
        'the driver told',
      ),
    ).toContain('take no payment');

    // A repeat (the workflow has closed by now) answers the same record; the driver still cannot settle.
    const again = await endTrip(ref, {
      reason: 'driver suspended mid-trip',
      settlement: { nothing_due: true, reason: 'again' },
    });
    expect(again.json()).toMatchObject({ ended_now: false, payment: { method: 'none' } });
    expect((await link(card, 'payment', { method: 'cash' })).json().code).toBe('driver_suspended');
    expect(
      await stack.sql`select 1 from staff_actions where action = 'booking.end_trip' and subject_id = ${ref}`,
    ).toHaveLength(1);
  });
});

describe('suspension and dispatch (issue 20, item 3)', () => {
  it('never claims a suspended driver for a job card, nor sends them one claimed just before', async () => {
    const [a] = await twoDrivers();
    await takeDriversOffline(stack.sql, [a]); // no cascade of its own: the claim is made here
    const { ref } = await book();
    await stack.sql`update drivers set online = true where id = ${a.id}`;
    await suspend(a.id);
    const offer = {
      offerId: offerIdOf(ref, 99, a.id),
      ref,
      driverId: a.id,
      round: 99,
      tier: 'local' as const,
      expiresAt: new Date(Date.now() + 60_000).toISOString(),
    };
    expect(await claimOffer(stack.sql, offer)).toBe('taken');
    expect(await stack.sql`select 1 from offers where id = ${offer.offerId}`).toHaveLength(0);
    // A card for a claim made before the suspension fails for good: the cascade moves on at once.
    const card = deliverJobCard(
      {
        sql: stack.sql,
        notifier: stack.app.services.notifier,
        publicBaseUrl: 'http://x',
        jobLinkSecret: stack.config.JOB_LINK_SECRET,
      },
      { offerId: offer.offerId, ref, driverId: a.id },
    );
    await expect(card).rejects.toMatchObject({ type: JOB_CARD_UNDELIVERABLE });
    expect(await messagesTo(a.phone, ref)).toEqual([]);
  });

  it("refuses a partner fleet's reports for its suspended driver, and a fleet's cancel with the passenger on board", async () => {
    const fleetId = `fleet-trp-${randomUUID().slice(0, 8)}`;
    await stack.sql`insert into partner_fleets (id, name, approved) values (${fleetId}, 'Tyne Cars', true)`;
    await licenseFleet(stack.sql, 'partner_fleet', fleetId);
    const id = `trpf-${randomUUID().slice(0, 8)}`;
    await createPartner(stack.sql, { id, name: `Fleet ${id}`, kind: 'partner', fleetId });
    const secret = await issueSigningSecret(stack.sql, stack.config.PARTNER_SECRETS_KEY, id);
    const hook = (bookingReference: string, status: string, at: number) => {
      const body = JSON.stringify({ bookingReference, status });
      return stack.app.inject({
        method: 'POST',
        url: '/api/public/hooks/booking-status',
        payload: body,
        remoteAddress: ip(),
        headers: {
          'x-partner': id,
          'x-signature': signPartnerRequest(secret, at, {
            method: 'POST',
            target: '/api/public/hooks/booking-status',
            body,
          }),
          'content-type': 'application/json',
        },
      });
    };
    const now = () => Math.floor(Date.now() / 1000);
    const d = await createDriver(stack.sql, {
      lat: 54.9735,
      lon: -2.0977,
      tier: 'partner',
      name: 'Fleet Driver',
      phone: newPhone(),
    });
    created.push(d);
    await stack.sql`update drivers set partner_fleet_id = ${fleetId} where id = ${d.id}`;

    const { ref } = await book();
    await waitForJobCard(stack.sql, d, ref);
    for (const status of ['accepted', 'arrived', 'on_board'])
      expect((await hook(ref, status, now())).statusCode).toBe(200);
    const cancelled = await hook(ref, 'cancelled', now());
    expect(cancelled.statusCode).toBe(409);
    expect(cancelled.json().code).toBe('trip_in_progress');

    // The fleet speaks for its drivers, but not for a suspended one.
    await suspend(d.id);
    const completed = await hook(ref, 'completed', now());
    expect(completed.statusCode).toBe(403);
    expect(completed.json().code).toBe('driver_suspended');
    expect(
      (await endTrip(ref, { reason: 'fleet driver suspended', settlement: { amount: 9, method: 'card' } })).json(),
    ).toMatchObject({ status: 'completed' });
  });
});

describe('a trip with the passenger on board (issue 20, item 7)', () => {
  it('cannot be cancelled by the passenger; ops end it with what was paid, and the driver and passenger are told', async () => {
    const [a] = await twoDrivers();
    const { ref, manage, card, passengerPhone } = await acceptedAndDriven(a, ['arrived', 'on_board']);
    const cancel = await call('POST', `/api/public/v1/booking/${ref}`, {
      body: { action: 'cancel', token: manage, reason: 'changed my mind' },
    });
    expect(cancel.statusCode).toBe(409);
    expect(cancel.json().code).toBe('trip_in_progress');
    expect(await lookup(ref, manage)).toMatchObject({
      status: 'on_board',
      payment: { state: 'pay_driver_on_completion' },
    });

    // Ops only, with a reason and a settlement that makes sense.
    expect(
      (await endTrip(ref, { reason: 'driver app down', settlement: { amount: 12.5, method: 'cash' } }, 'stf_not-a-key'))
        .statusCode,
    ).toBe(401);
    expect((await endTrip(ref, { reason: 'driver app down' })).statusCode).toBe(400);
    expect(
      (await endTrip(ref, { reason: 'app\u0000down', settlement: { amount: 12.5, method: 'cash' } })).statusCode,
    ).toBe(400);
    expect(
      (await endTrip(ref, { reason: 'driver app down', settlement: { amount: 12.5, method: 'cheque' } })).statusCode,
    ).toBe(400);
    expect((await endTrip(ref, { reason: 'driver app down', settlement: { nothing_due: true } })).statusCode).toBe(400);

    const ended = await endTrip(ref, { reason: 'driver app down', settlement: { amount: 12.5, method: 'cash' } });
    expect(ended.statusCode, ended.body).toBe(200);
    expect(ended.json()).toMatchObject({
      nothing_due: false,
      payment: { amount: 12.5, method: 'cash', recorded_by: 'ops' },
    });
    expect(await lookup(ref, manage)).toMatchObject({
      status: 'completed',
      payment: { state: 'paid', received: { amount: 12.5, method: 'cash' } },
    });
    expect(
      await eventually(
        async () => (await messagesTo(passengerPhone, ref)).find((m) => m.includes('closed by our team')),
        STACK_WAIT_MS,
        'the passenger told',
      ),
    ).toContain('£12.50');
    expect(
      await eventually(
        async () => (await messagesTo(a.phone, ref)).find((m) => m.includes('closed by Direct Taxi')),
        STACK_WAIT_MS,
        'the driver told',
      ),
    ).toContain('£12.50 (cash)');
    // The driver's own confirmation afterwards is answered with the record ops wrote: one record.
    const paid = await link(card, 'payment', { method: 'card', amount: 20 });
    expect(paid.json()).toMatchObject({ payment: { amount: 12.5, method: 'cash', recorded_by: 'ops' } });
    expect(await stack.sql`select 1 from payment_records where booking_ref = ${ref}`).toHaveLength(1);
  });

  it('is ended only when on board (or completed and unsettled)', async () => {
    const [a] = await twoDrivers();
    const { ref } = await acceptedAndDriven(a, ['en_route']);
    const early = await endTrip(ref, { reason: 'testing', settlement: { amount: 5, method: 'cash' } });
    expect(early.statusCode).toBe(409);
    expect(early.json().code).toBe('trip_not_in_progress');
    expect(
      (await endTrip('TXNOSUCHREF1', { reason: 'testing', settlement: { amount: 5, method: 'cash' } })).statusCode,
    ).toBe(404);
  });

  it('cannot be cancelled by a partner: the per-job outcome says trip_in_progress', async () => {
    const [a] = await twoDrivers();
    const id = `trp-${randomUUID().slice(0, 8)}`;
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
    const job = {
      jobRef: 'OB-1',
      pickup: 'Hexham station',
      dropoff: 'Hexham',
      pickupTime: new Date(Date.now() + 60_000).toISOString(),
      passengerName: 'Ada Lovelace',
      passengerPhone: '+447400123456',
    };
    const made = await send(job);
    expect(made.statusCode, made.body).toBe(200);
    const ref = made.json().results[0].bookingReference as string;
    const card = await waitForJobCard(stack.sql, a, ref);
    await respond(stack.app, card, 'accept');
    for (const event of ['arrived', 'on_board']) expect((await link(card, 'trip', { event })).statusCode).toBe(202);

    const cancelled = await send({ ...job, action: 'cancel' });
    expect(cancelled.statusCode).toBe(207);
    expect(cancelled.json().results[0]).toMatchObject({
      outcome: 'rejected',
      code: 'trip_in_progress',
      bookingStatus: 'on_board',
    });
    await waitForStatus(stack.sql, ref, 'on_board');
    // The job stays live: the trip finishes as usual.
    expect((await link(card, 'trip', { event: 'completed' })).statusCode).toBe(202);
  });
});
