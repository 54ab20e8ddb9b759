// Status delivery to senders on the real stack (Postgres trigger, event pump, delivery workflow,
// HTTP to a real receiver): a receiver that is down for a while still gets every event of a
// partner booking, in order, once it recovers, each verified with the standardwebhooks library;
// senders list and replay only their own events; a partner fleet drives the booking through the
// signed booking-status hook.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { Validator } from '@seriousme/openapi-schema-validator';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { createApiKey } from '../../src/auth/api-keys.js';
import { PartnerDeliveryClient } from '../../src/partners/delivery-client.js';
import { startEventPump, type EventPump } from '../../src/partners/event-pump.js';
import { signPartnerRequest } from '../../src/partners/signature.js';
import { createPartner, issueSigningSecret } from '../../src/partners/store.js';
import type { DeliveryPolicy } from '../../src/model/partners.js';
import { createDriver, takeDriversOffline, type TestDriver } from '../support/drivers.js';
import {
  killAllWorkerProcesses,
  startApiOnly,
  startWorkerProcess,
  type ApiOnlyStack,
  type WorkerProcess,
} from '../support/processes.js';
import { eventually, STACK_WAIT_MS, startStack, type TestStack } from '../support/stack.js';
import { licenseFleet } from '../support/operator-licences.js';

// Seconds instead of minutes, so "down for a while" fits in a test.
const POLICY: DeliveryPolicy = { initialRetrySeconds: 1, maxRetrySeconds: 2, giveUpAfterSeconds: 600, idleSeconds: 5 };

interface Delivery {
  headers: Record<string, string>;
  body: string;
  answered: number;
}

/** A partner's receiving end: answers 503 while down, 200 once up, and keeps every request. */
async function startReceiver() {
  const deliveries: Delivery[] = [];
  let up = false;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const answered = up ? 200 : 503;
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter((e): e is [string, string] => typeof e[1] === 'string'),
      );
      deliveries.push({ headers, body: Buffer.concat(chunks).toString('utf8'), answered });
      res.writeHead(answered, { 'content-type': 'text/plain' }).end(up ? 'ok' : 'down for maintenance');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/taxi`,
    deliveries,
    setUp: (v: boolean) => {
      up = v;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let stack: TestStack;
let pump: EventPump;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
const drivers: TestDriver[] = [];
beforeAll(async () => {
  stack = await startStack({ OFFER_TIMEOUT_SECONDS: '120' });
  // The worker process starts its own pump (src/worker.ts); the test stack's worker is in-process.
  pump = await startEventPump({
    sql: stack.sql,
    deliveries: new PartnerDeliveryClient(stack.client, stack.taskQueue, POLICY),
    sweepEveryMs: 1000,
    sweepAfterSeconds: 2,
  });
  receiver = await startReceiver();
});
afterEach(async () => takeDriversOffline(stack.sql, drivers.splice(0)));
afterAll(async () => {
  await pump?.stop();
  await receiver?.close();
  await stack?.close();
});

let n = 0;
const ip = () => `10.97.${Math.floor(n / 250) % 250}.${n++ % 250}`;

interface TestPartner {
  id: string;
  key: string;
  secret: string;
}
async function newPartner(prefix = 'dlv', fleetId: string | null = null): Promise<TestPartner> {
  const id = `${prefix}-${randomUUID().slice(0, 8)}`;
  await createPartner(stack.sql, { id, name: `Partner ${id}`, kind: 'partner', fleetId });
  const { key } = await createApiKey(stack.sql, { name: id, partnerId: id });
  const secret = await issueSigningSecret(stack.sql, stack.config.PARTNER_SECRETS_KEY, id);
  return { id, key, secret };
}

/** A partner fleet with one driver online at the pickup, and nobody else near it. */
async function newFleet(): Promise<TestPartner & { driver: TestDriver }> {
  const fleetId = `fleet-dlv-${randomUUID().slice(0, 8)}`;
  await stack.sql`insert into partner_fleets (id, name, approved) values (${fleetId}, 'Highland Cars', true)`;
  await licenseFleet(stack.sql, 'partner_fleet', fleetId);
  const fleet = await newPartner('dlv-f', fleetId);
  const driver = await createDriver(stack.sql, { lat: 56.412, lon: -5.4735, tier: 'partner', name: 'Morag Fleet' });
  await stack.sql`update drivers set partner_fleet_id = ${fleetId} where id = ${driver.id}`;
  drivers.push(driver);
  return { ...fleet, driver };
}

const api = (p: TestPartner | null, method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, body?: unknown) =>
  stack.app.inject({
    method,
    url,
    headers: {
      ...(p ? { authorization: `Bearer ${p.key}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { payload: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
    remoteAddress: ip(),
  });

// A signature is accepted once, so two identical reports need two timestamps (within the
// tolerance). Taken from a record of those used: a now-minus-a-counter could repeat one when two
// calls straddle a second (it did, under CI load: a repeated report answered 401).
const signedAt = new Set<string>();
function uniqueTimestamp(body: string): number {
  let t = Math.floor(Date.now() / 1000);
  while (signedAt.has(`${t}:${body}`)) t--;
  signedAt.add(`${t}:${body}`);
  return t;
}
function signedHook(p: TestPartner, body: string, opts: { secret?: string; at?: number } = {}) {
  const t = opts.at ?? uniqueTimestamp(body);
  return stack.app.inject({
    method: 'POST',
    url: '/api/public/hooks/booking-status',
    headers: {
      'x-partner': p.id,
      'x-signature': signPartnerRequest(opts.secret ?? p.secret, t, {
        method: 'POST',
        target: '/api/public/hooks/booking-status',
        body,
      }),
      'content-type': 'application/json',
    },
    payload: body,
    remoteAddress: ip(),
  });
}
const report = (fleet: TestPartner, bookingReference: string, status: string) =>
  signedHook(fleet, JSON.stringify({ bookingReference, status }));

async function sendJob(p: TestPartner, jobRef: string): Promise<string> {
  const res = await api(p, 'POST', '/api/public/v1/jobs', {
    jobRef,
    pickup: 'Oban station',
    dropoff: 'Fort William station',
    pickupTime: new Date(Date.now() + 10 * 60_000).toISOString(),
    passengerName: 'Ada Lovelace',
    passengerPhone: '+447400123456',
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().results[0].bookingReference as string;
}

async function events(ref: string) {
  return stack.sql<{ id: string; seq: number; status: string; delivery: string; attempts: number }[]>`
    select id, seq, status, delivery, attempts from partner_events where booking_ref = ${ref} order by seq`;
}

const offeredTo = (ref: string, driverId: string) =>
  eventually(
    async () =>
      (
        await stack.sql`select 1 from offers where booking_ref = ${ref} and driver_id = ${driverId} and status = 'offered'`
      ).length > 0 || undefined,
    STACK_WAIT_MS,
    `an offer of ${ref} to ${driverId}`,
  );

describe('partner status delivery', () => {
  let sender: TestPartner;
  let whsec: string;
  let ref: string;

  it('delivers every event of a booking to a receiver that was down, in order and once each, verified with standardwebhooks', async () => {
    sender = await newPartner();
    const fleet = await newFleet();
    const registered = await api(sender, 'PUT', '/api/public/v1/partner/webhook', { url: receiver.url });
    expect(registered.statusCode, registered.body).toBe(200);
    expect(registered.json()).toMatchObject({
      url: receiver.url,
      signingSecret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]+=*$/),
    });
    whsec = registered.json().signingSecret;
    // Registering again keeps the secret, and does not show it again.
    const again = await api(sender, 'PUT', '/api/public/v1/partner/webhook', { url: receiver.url });
    expect(again.json().signingSecret).toBeUndefined();
    expect((await api(sender, 'GET', '/api/public/v1/partner/webhook')).json()).toMatchObject({
      url: receiver.url,
      secretIssuedAt: expect.any(String),
    });

    receiver.setUp(false);
    ref = await sendJob(sender, `DLV-${randomUUID().slice(0, 6)}`);
    await offeredTo(ref, fleet.driver.id);

    // The fleet's own system drives the trip through the booking-status hook.
    const accepted = await report(fleet, ref, 'accepted');
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json()).toEqual({ bookingReference: ref, status: 'assigned', driverId: fleet.driver.id });
    expect((await report(fleet, ref, 'accepted')).json()).toMatchObject({ status: 'assigned' });
    expect((await report(fleet, ref, 'on_the_way')).json()).toMatchObject({ status: 'en_route' });
    expect((await report(fleet, ref, 'arrived')).json()).toMatchObject({ status: 'arrived' });
    expect((await report(fleet, ref, 'completed')).json()).toMatchObject({ status: 'completed' });
    const late = await report(fleet, ref, 'on_the_way');
    expect(late.statusCode).toBe(409);

    // The receiver is down: the first event is retried, nothing after it is tried.
    await eventually(
      async () => (receiver.deliveries.length >= 3 ? true : undefined),
      STACK_WAIT_MS,
      'three refused attempts',
    );
    expect(receiver.deliveries.every((d) => d.answered === 503)).toBe(true);
    expect(new Set(receiver.deliveries.map((d) => d.headers['webhook-id'])).size).toBe(1);
    receiver.setUp(true);

    const recorded = await eventually(
      async () => {
        const rows = await events(ref);
        return rows.length > 0 && rows.every((r) => r.delivery === 'delivered') ? rows : undefined;
      },
      STACK_WAIT_MS,
      'every event delivered',
    );
    expect(recorded.map((r) => r.status)).toEqual([
      'dispatching',
      'offered',
      'assigned',
      'en_route',
      'arrived',
      'on_board',
      'completed',
    ]);
    expect(recorded[0]!.attempts).toBeGreaterThanOrEqual(3);

    const mine = receiver.deliveries.filter((d) => recorded.some((r) => r.id === d.headers['webhook-id']));
    // In order: no event was ever sent before the one before it was taken.
    const seqOf = (d: Delivery) => recorded.find((r) => r.id === d.headers['webhook-id'])!.seq;
    expect(mine.map(seqOf)).toEqual([...mine.map(seqOf)].sort((a, b) => a - b));
    // Exactly once each, once the receiver was up.
    const taken = mine.filter((d) => d.answered === 200);
    expect(taken.map((d) => d.headers['webhook-id'])).toEqual(recorded.map((r) => r.id));
    const verifier = new Webhook(whsec);
    const payloads = taken.map(
      (d) => verifier.verify(d.body, d.headers) as { id: string; type: string; data: Record<string, unknown> },
    );
    expect(payloads.map((p) => [p.id, p.type, p.data.sequence, p.data.status, p.data.bookingReference])).toEqual(
      recorded.map((r) => [r.id, 'booking.status_changed', r.seq, r.status, ref]),
    );
    expect(payloads[0]!.data).toMatchObject({
      previousStatus: null,
      driver: null,
      jobRef: expect.stringMatching(/^DLV-/),
    });
    expect(payloads[2]!.data).toMatchObject({
      previousStatus: 'offered',
      driver: { name: 'Morag Fleet', vehicle: 'Skoda Octavia' },
    });
    // Another secret does not verify it.
    expect(() =>
      new Webhook('whsec_' + Buffer.from('x'.repeat(32)).toString('base64')).verify(taken[0]!.body, taken[0]!.headers),
    ).toThrow();
  });

  it('lists a sender its own events with their delivery, page by page, and replays one under the same webhook-id', async () => {
    const all = await api(sender, 'GET', '/api/public/v1/partner/events?limit=200');
    expect(all.statusCode, all.body).toBe(200);
    const listed = all.json().events as {
      event: { id: string; data: { bookingReference: string; sequence: number } };
      delivery: { state: string; attempts: number };
    }[];
    expect(listed.map((e) => e.event.data.sequence)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(listed.every((e) => e.event.data.bookingReference === ref && e.delivery.state === 'delivered')).toBe(true);

    const page1 = (await api(sender, 'GET', '/api/public/v1/partner/events?limit=3')).json();
    expect(page1.events).toHaveLength(3);
    expect(page1.hasMore).toBe(true);
    const page2 = (await api(sender, 'GET', `/api/public/v1/partner/events?limit=10&after=${page1.nextAfter}`)).json();
    expect([...page1.events, ...page2.events].map((e: { event: { id: string } }) => e.event.id)).toEqual(
      listed.map((e) => e.event.id),
    );
    expect(page2).toMatchObject({ hasMore: false, nextAfter: listed.at(-1)!.event.id });
    expect(
      (await api(sender, 'GET', `/api/public/v1/partner/events?bookingReference=${ref}`)).json().events,
    ).toHaveLength(7);

    // Rotating the secret: both sign until the old one expires, so a receiver holding either verifies.
    const rotated = await api(sender, 'POST', '/api/public/v1/partner/webhook/secret');
    expect(rotated.statusCode).toBe(200);
    const newSecret = rotated.json().signingSecret as string;
    expect(newSecret).not.toBe(whsec);

    const target = listed[2]!.event;
    const before = receiver.deliveries.length;
    const replay = await api(sender, 'POST', `/api/public/v1/partner/events/${target.id}/replay`);
    expect(replay.statusCode, replay.body).toBe(202);
    expect(replay.json()).toEqual({ id: target.id, replay: 'queued' });
    const again = await eventually(
      async () => receiver.deliveries.slice(before).find((d) => d.headers['webhook-id'] === target.id),
      STACK_WAIT_MS,
      'the replay',
    );
    const original = receiver.deliveries.find((d) => d.headers['webhook-id'] === target.id && d.answered === 200)!;
    expect(again.body).toBe(original.body);
    expect(new Webhook(whsec).verify(again.body, again.headers)).toEqual(JSON.parse(original.body));
    expect(new Webhook(newSecret).verify(again.body, again.headers)).toEqual(JSON.parse(original.body));
    await eventually(
      async () =>
        (await api(sender, 'GET', `/api/public/v1/partner/events?limit=200`)).json().events[2].delivery
          .replayRequested === false
          ? true
          : undefined,
      STACK_WAIT_MS,
      'the replay recorded as done',
    );
  });

  it('never shows or replays one sender’s events to another', async () => {
    const other = await newPartner();
    const theirs = (await api(sender, 'GET', '/api/public/v1/partner/events?limit=1')).json().events[0].event
      .id as string;
    expect((await api(other, 'GET', '/api/public/v1/partner/events?limit=200')).json()).toEqual({
      events: [],
      nextAfter: null,
      hasMore: false,
    });
    const replay = await api(other, 'POST', `/api/public/v1/partner/events/${theirs}/replay`);
    expect(replay.statusCode).toBe(404);
    expect(replay.json().code).toBe('event_not_found');
    const cursor = await api(other, 'GET', `/api/public/v1/partner/events?after=${theirs}`);
    expect(cursor.statusCode).toBe(400);
    expect(cursor.json().code).toBe('invalid_cursor');
    expect((await api(other, 'GET', `/api/public/v1/partner/events?bookingReference=${ref}`)).json().events).toEqual(
      [],
    );
    // Without credentials, nothing at all.
    expect((await api(null, 'GET', '/api/public/v1/partner/events')).statusCode).toBe(401);
    expect((await api(null, 'POST', `/api/public/v1/partner/events/${theirs}/replay`)).statusCode).toBe(401);
    // An unknown event is a 404 like another's; a malformed id a 400.
    expect((await api(other, 'POST', `/api/public/v1/partner/events/evt_${'0'.repeat(32)}/replay`)).statusCode).toBe(
      404,
    );
    expect((await api(other, 'POST', '/api/public/v1/partner/events/not-an-event/replay')).statusCode).toBe(400);
  });

  it('records events of a sender without a callback URL, and delivers none of them', async () => {
    const quiet = await newPartner();
    const fleet = await newFleet();
    const before = receiver.deliveries.length;
    const quietRef = await sendJob(quiet, `Q-${randomUUID().slice(0, 6)}`);
    await offeredTo(quietRef, fleet.driver.id);
    expect((await report(fleet, quietRef, 'cancelled')).statusCode).toBe(200);
    const rows = await eventually(
      async () => ((await events(quietRef)).length >= 2 ? events(quietRef) : undefined),
      STACK_WAIT_MS,
      'events recorded',
    );
    expect(rows.every((r) => r.delivery === 'unregistered' && r.attempts === 0)).toBe(true);
    const listed = (await api(quiet, 'GET', '/api/public/v1/partner/events')).json();
    expect(listed.events.map((e: { delivery: { state: string } }) => e.delivery.state)).toEqual(
      rows.map(() => 'unregistered'),
    );
    const replay = await api(quiet, 'POST', `/api/public/v1/partner/events/${rows[0]!.id}/replay`);
    expect(replay.statusCode).toBe(409);
    expect(replay.json().code).toBe('no_callback_url');
    await pump.sweep();
    expect(receiver.deliveries.length).toBe(before);
    await stack.client.workflow
      .getHandle(`booking:${quietRef}`)
      .terminate('test over')
      .catch(() => undefined);
  });

  it('refuses callback URLs the service must not call, naming the field', async () => {
    const p = await newPartner();
    for (const url of [
      'ftp://hooks.example.com/x',
      'https://user:secret@hooks.example.com/x',
      'hooks.example.com/x',
      'https://hooks.example.com/#top',
    ]) {
      const res = await api(p, 'PUT', '/api/public/v1/partner/webhook', { url });
      expect(res.statusCode, url).toBe(400);
      expect(res.json()).toMatchObject({ code: 'invalid_callback_url', errors: [{ field: 'body.url' }] });
    }
    const nul = await api(p, 'PUT', '/api/public/v1/partner/webhook', '{"url":"https://hooks.example.com/\\u0000"}');
    expect(nul.statusCode).toBe(400);
    expect((await api(p, 'PUT', '/api/public/v1/partner/webhook', '{"url":')).json().code).toBe('invalid_json');
    expect((await api(p, 'PUT', '/api/public/v1/partner/webhook', { link: receiver.url })).json()).toMatchObject({
      code: 'validation_failed',
      errors: [{ field: 'body.url' }],
    });
    expect((await api(null, 'PUT', '/api/public/v1/partner/webhook', { url: receiver.url })).statusCode).toBe(401);
    const removed = await api(p, 'DELETE', '/api/public/v1/partner/webhook');
    expect(removed.json()).toEqual({ url: null, secretIssuedAt: null });
  });
});

describe('the booking-status hook', () => {
  it('takes only fresh, valid signatures from a fleet whose driver has the job', async () => {
    const sender = await newPartner();
    const fleet = await newFleet();
    const ref = await sendJob(sender, `H-${randomUUID().slice(0, 6)}`);
    await offeredTo(ref, fleet.driver.id);
    const body = JSON.stringify({ bookingReference: ref, status: 'accepted' });

    // Wrong secret, stale, an API key instead of a signature, nothing at all: one 401.
    expect((await signedHook(fleet, body, { secret: 'pss_not-the-secret' })).statusCode).toBe(401);
    expect((await signedHook(fleet, body, { at: Math.floor(Date.now() / 1000) - 3600 })).statusCode).toBe(401);
    expect((await api(fleet, 'POST', '/api/public/hooks/booking-status', body)).statusCode).toBe(401);
    expect((await api(null, 'POST', '/api/public/hooks/booking-status', body)).statusCode).toBe(401);

    // Another fleet's driver does not have this job: as good as not there.
    const stranger = await newFleet();
    const notTheirs = await report(stranger, ref, 'accepted');
    expect(notTheirs.statusCode).toBe(404);
    expect(notTheirs.json().code).toBe('booking_not_found');
    // A sender with no fleet cannot report at all.
    expect((await report(sender, ref, 'accepted')).statusCode).toBe(403);
    // Not accepted yet: no trip steps.
    expect((await report(fleet, ref, 'arrived')).json().code).toBe('not_accepted');
    // Bad bodies are 400s, control characters included.
    expect((await signedHook(fleet, JSON.stringify({ bookingReference: ref, status: 'teleported' }))).statusCode).toBe(
      400,
    );
    expect(
      (await signedHook(fleet, JSON.stringify({ bookingReference: `${ref}\u0000`, status: 'accepted' }))).statusCode,
    ).toBe(400);
    expect((await signedHook(fleet, '{"bookingReference":')).json().code).toBe('invalid_json');

    const t = Math.floor(Date.now() / 1000);
    const first = await signedHook(fleet, body, { at: t });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ bookingReference: ref, status: 'assigned', driverId: fleet.driver.id });
    // The same signed request again is a replay: refused, whatever it says.
    expect((await signedHook(fleet, body, { at: t })).statusCode).toBe(401);
    const [row] = await stack.sql<
      { status: string; driver_id: string }[]
    >`select status, driver_id from bookings where ref = ${ref}`;
    expect(row).toEqual({ status: 'assigned', driver_id: fleet.driver.id });

    // Cancelled by the fleet: its driver gives the job back and the booking goes looking again.
    const dropped = await report(fleet, ref, 'cancelled');
    expect(dropped.statusCode, dropped.body).toBe(200);
    expect(dropped.json().driverId).toBeNull();
    expect((await report(fleet, ref, 'on_the_way')).statusCode).toBe(404);
    await stack.client.workflow
      .getHandle(`booking:${ref}`)
      .terminate('test over')
      .catch(() => undefined);
  });
});

describe('the published contract', () => {
  it('documents every route, the event a receiver gets and the hook in a valid OpenAPI 3.1 document', async () => {
    const doc = (await stack.app.inject({ method: 'GET', url: '/api/public/openapi.json' })).json();
    const op = (path: string, method: string) => doc.paths[path]?.[method]?.operationId as string | undefined;
    expect(op('/api/public/v1/partner/webhook', 'get')).toBe('getPartnerWebhook');
    expect(op('/api/public/v1/partner/webhook', 'put')).toBe('registerPartnerWebhook');
    expect(op('/api/public/v1/partner/webhook', 'delete')).toBe('deletePartnerWebhook');
    expect(op('/api/public/v1/partner/webhook/secret', 'post')).toBe('rotatePartnerWebhookSecret');
    expect(op('/api/public/v1/partner/events', 'get')).toBe('listPartnerEvents');
    expect(op('/api/public/v1/partner/events/{id}/replay', 'post')).toBe('replayPartnerEvent');
    expect(op('/api/public/hooks/booking-status', 'post')).toBe('bookingStatusHook');
    // A status change, an amendment or a job refused after its reply, told apart by type; a status
    // change's shape as it always was.
    expect(doc.components.schemas.PartnerEvent.oneOf).toEqual([
      { $ref: '#/components/schemas/PartnerStatusEvent' },
      { $ref: '#/components/schemas/PartnerAmendmentEvent' },
      { $ref: '#/components/schemas/PartnerJobRejectedEvent' },
    ]);
    expect(doc.components.schemas.PartnerJobRejectedEvent.properties.type.const).toBe('job.rejected');
    expect(doc.components.schemas.PartnerStatusEvent.required).toEqual(['id', 'type', 'timestamp', 'data']);
    expect(doc.components.schemas.PartnerAmendmentEvent.properties.type.const).toBe('booking.amended');
    expect(doc.components.schemas.BookingStatusHookRequest.properties.status.enum).toEqual([
      'accepted',
      'on_the_way',
      'arrived',
      'on_board',
      'completed',
      'cancelled',
    ]);
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
  });
});

describe('the worker process', () => {
  let api: ApiOnlyStack | undefined;
  let worker: WorkerProcess | undefined;
  beforeAll(async () => {
    // From here on only the worker process's own pump (src/worker.ts) may start deliveries.
    await pump.stop();
  });
  afterAll(async () => {
    await killAllWorkerProcesses();
    await api?.close();
  });

  it('delivers through its own pump, and after being SIGKILLed finds on restart what changed while it was down', async () => {
    const stack = (api = await startApiOnly());
    worker = await startWorkerProcess(stack.workerEnv);
    onTestFailed(() => console.error(`--- worker output ---\n${worker?.output() ?? ''}`));
    const sender = await newPartner();
    const registered = await callApi(stack, sender, 'PUT', '/api/public/v1/partner/webhook', { url: receiver.url });
    const secret = registered.json().signingSecret as string;
    receiver.setUp(true);
    const before = receiver.deliveries.length;
    const sent = await callApi(stack, sender, 'POST', '/api/public/v1/jobs', {
      jobRef: `W-${randomUUID().slice(0, 6)}`,
      pickup: 'Oban station',
      dropoff: 'Fort William station',
      pickupTime: new Date(Date.now() + 3 * 3600_000).toISOString(),
      passengerName: 'Ada Lovelace',
      passengerPhone: '+447400123456',
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const wref = sent.json().results[0].bookingReference as string;
    const delivered = async (count: number) =>
      eventually(
        async () => {
          const rows = await events(wref);
          return rows.length >= count && rows.every((r) => r.delivery === 'delivered') ? rows : undefined;
        },
        STACK_WAIT_MS,
        `${count} events of ${wref} delivered`,
      );
    expect((await delivered(1)).map((r) => r.status)).toEqual(['scheduled']);

    expect(await worker.crash()).toEqual({ code: null, signal: 'SIGKILL' });
    // A change while no pump listens: its notification reaches nobody.
    await stack.sql`update bookings set status = 'cancelled' where ref = ${wref}`;
    worker = await startWorkerProcess(stack.workerEnv);
    const rows = await delivered(2);
    expect(rows.map((r) => r.status)).toEqual(['scheduled', 'cancelled']);
    // This booking's deliveries only: an earlier test's booking may still be delivering to the same receiver.
    const got = receiver.deliveries
      .slice(before)
      .filter(
        (d) =>
          d.answered === 200 &&
          (JSON.parse(d.body) as { data?: { bookingReference?: string } }).data?.bookingReference === wref,
      );
    expect(got.map((d) => d.headers['webhook-id'])).toEqual(rows.map((r) => r.id));
    for (const d of got)
      expect(new Webhook(secret).verify(d.body, d.headers)).toMatchObject({ data: { bookingReference: wref } });
    await stack.client.workflow
      .getHandle(`booking:${wref}`)
      .terminate('test over')
      .catch(() => undefined);
    await worker.stop();
  }, 120_000);
});

function callApi(stack: ApiOnlyStack, p: TestPartner, method: 'PUT' | 'POST', url: string, body: unknown) {
  return stack.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${p.key}`, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
    remoteAddress: ip(),
  });
}
