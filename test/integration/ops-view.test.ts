// The ops view on the real stack: the API's /metrics after real requests (route templates, never
// raw URLs; who may scrape), the worker's counters through a real cascade, the live board, a
// booking's story and its decision log by driver (including a driver the log never mentions), the
// unassigned-near-pickup alert against Postgres (once per booking), staff keys required, and the
// page in headless Chromium with axe.
import { randomUUID } from 'node:crypto';
import { Validator } from '@seriousme/openapi-schema-validator';
import { existsSync } from 'node:fs';
import { type Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { nearPickupOutboxKey, createOpsActivities } from '../../activities/ops.js';
import { createStaff } from '../../src/auth/staff.js';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { activityDeps } from '../../src/services.js';
import { createWorkerMetrics } from '../../src/ops/metrics.js';
import { OpsWatchClient } from '../../src/ops/watch-client.js';
import { opsWatchStateQuery } from '../../workflows/ops/definitions.js';
import { freePort } from '../../dev/free-port.js';
import { seriousA11yProblems } from '../support/axe.js';
import {
  createDriver,
  respond,
  takeDriversOffline,
  waitForJobCard,
  waitForStatus,
  type TestDriver,
} from '../support/drivers.js';
import { STACK_WAIT_MS, startStack, type TestStack } from '../support/stack.js';
import { launchChromium } from '../support/browser-stack.js';

const CHROMIUM = '/usr/bin/chromium';
// Inverness: no other test file's drivers are near.
const PICKUP = { lat: 57.4797, lon: -4.2233 };

let stack: TestStack;
let staffKey: string;
let base: string;
const drivers: TestDriver[] = [];
beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  stack = await startStack({
    OFFER_TIMEOUT_SECONDS: '30',
    PUBLIC_BASE_URL: base,
    LOOKUP_RATE_LIMIT_PER_MINUTE: '1000',
    TEMPORAL_UI_URL: 'http://temporal-ui.test:8233/',
  });
  await stack.app.listen({ port, host: '127.0.0.1' });
  staffKey = (await createStaff(stack.sql, { name: 'Priya (ops)', role: 'operator' })).key;
});
afterEach(async () => takeDriversOffline(stack.sql, drivers.splice(0)));
afterAll(async () => stack?.close());

let ipN = 1;
const ip = () => `10.88.${ipN >> 8}.${ipN++ & 255}`;
const ops = (url: string, bearer: string | null = staffKey, remoteAddress = ip()) =>
  stack.app.inject({ method: 'GET', url, remoteAddress, headers: bearer ? { authorization: `Bearer ${bearer}` } : {} });

async function book(): Promise<string> {
  const from = ip();
  const q = await stack.app.inject({
    method: 'POST',
    url: '/api/public/v1/quote',
    remoteAddress: from,
    payload: { pickup: 'Inverness station', dropoff: 'Inverness Airport' },
  });
  expect(q.statusCode, q.body).toBe(200);
  const res = await stack.app.inject({
    method: 'POST',
    url: '/api/public/bookings/create',
    remoteAddress: from,
    payload: {
      quote_id: q.json().quote_id,
      passenger_name: 'Morag Ross',
      passenger_phone_whatsapp: '+44 7400 123456',
      passenger_email: 'morag.ross@example.com',
      payment_method: 'cash_to_driver',
    },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ booking_reference: string }>().booking_reference;
}

/** A booking row written directly, for the alert's timing cases. */
async function bookingRow(o: {
  status: string;
  pickupInMinutes: number;
  createdMinutesAgo: number;
  driverId?: string;
}): Promise<string> {
  const ref = `TX${randomUUID().replace(/-/g, '').slice(0, 10).toUpperCase()}`;
  const place = stack.sql.json({ label: 'Inverness station', kind: 'place', lat: PICKUP.lat, lon: PICKUP.lon });
  await stack.sql`
    insert into bookings (ref, status, source, passenger_name, passenger_phone, payment_method, pickup_query, dropoff_query,
                          pickup, dropoff, pickup_area, pickup_at, passengers, vehicle_type, fare_pence, fare_source,
                          distance_m, duration_s, driver_id, created_at)
    values (${ref}, ${o.status}, 'agent_instant', 'Ada', '+447400123456', 'cash', 'a', 'b', ${place}, ${place}, 'national-default',
            now() + make_interval(mins => ${o.pickupInMinutes}), 1, 'saloon', 2450, 'tariff', 5000, 900, ${o.driverId ?? null},
            now() - make_interval(mins => ${o.createdMinutesAgo}))`;
  return ref;
}

const counter = async (m: TestStack['metrics'], name: string, labels: Record<string, string> = {}) => {
  const metric = (await m.registry.getMetricsAsJSON()).find((x) => x.name === name);
  const values = (metric?.values ?? []) as {
    value: number;
    labels: Record<string, string | number>;
    metricName?: string;
  }[];
  return values
    .filter(
      (v) =>
        (v.metricName === undefined || v.metricName === name || v.metricName === `${name}_count`) &&
        Object.entries(labels).every(([k, want]) => String(v.labels[k]) === want),
    )
    .reduce((sum, v) => sum + v.value, 0);
};

describe('API metrics', () => {
  it('counts requests by route template and status with latency, and serves them only to this machine without a token', async () => {
    const unknown = `TXZZ${randomUUID().replace(/-/g, '').slice(0, 8).toUpperCase()}`;
    expect((await stack.app.inject({ method: 'GET', url: `/track/${unknown}`, remoteAddress: ip() })).statusCode).toBe(
      404,
    );
    expect(
      (await stack.app.inject({ method: 'GET', url: `/no/such/${unknown}`, remoteAddress: ip() })).statusCode,
    ).toBe(404);
    expect((await ops('/api/ops/bookings', null)).statusCode).toBe(401);

    const res = await stack.app.inject({ method: 'GET', url: '/metrics' }); // inject's own address is 127.0.0.1
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.body).toMatch(/taxi_http_requests_total\{method="GET",route="\/track\/:ref",status="404"\} [1-9]/);
    expect(res.body).toMatch(/taxi_http_requests_total\{method="GET",route="unmatched",status="404"\} [1-9]/);
    expect(res.body).toMatch(
      /taxi_http_requests_total\{method="GET",route="\/api\/ops\/bookings",status="401"\} [1-9]/,
    );
    expect(res.body).toMatch(
      /taxi_http_request_duration_seconds_bucket\{le="0.5",method="GET",route="\/track\/:ref",status="404"\} [1-9]/,
    );
    expect(res.body).toMatch(/^taxi_bookings_unassigned \d+$/m);
    expect(res.body).toMatch(/^taxi_bookings_unassigned_near_pickup \d+$/m);
    // Bounded cardinality: the URL asked for never becomes a label.
    expect(res.body).not.toContain(unknown);

    // No token configured: only a loopback socket, and not through a proxy.
    expect((await stack.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '10.1.2.3' })).statusCode).toBe(
      403,
    );
    expect(
      (await stack.app.inject({ method: 'GET', url: '/metrics', headers: { 'x-forwarded-for': '203.0.113.9' } }))
        .statusCode,
    ).toBe(403);
  });

  it('asks for the METRICS_TOKEN when one is set, from anywhere', async () => {
    const token = `mt_${randomUUID().replace(/-/g, '')}`;
    const config = loadConfig({
      DATABASE_URL: stack.config.DATABASE_URL,
      TEMPORAL_ADDRESS: stack.config.TEMPORAL_ADDRESS,
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      METRICS_TOKEN: token,
    });
    const app = await buildApp({ config, sql: stack.sql, temporal: stack.client, logger: false });
    try {
      const get = (headers: Record<string, string>) =>
        app.inject({ method: 'GET', url: '/metrics', remoteAddress: '10.9.8.7', headers });
      const none = await get({});
      expect(none.statusCode).toBe(401);
      expect(none.headers['www-authenticate']).toBe('Bearer');
      expect((await get({ authorization: `Bearer ${token}x` })).statusCode).toBe(401);
      expect((await get({ authorization: `Bearer ${token}` })).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });
});

describe('the ops view in the OpenAPI document', () => {
  it('documents the three ops operations with their staff-key problems, and not /metrics', async () => {
    const doc = (await stack.app.inject({ method: 'GET', url: '/api/public/openapi.json' })).json();
    expect((await new Validator().validate(doc)).valid).toBe(true);
    expect(doc.paths['/api/ops/bookings'].get.operationId).toBe('opsListBookings');
    expect(doc.paths['/api/ops/bookings/{ref}'].get.operationId).toBe('opsGetBookingStory');
    expect(doc.paths['/api/ops/bookings/{ref}/decisions'].get.operationId).toBe('opsGetBookingDecisions');
    for (const path of ['/api/ops/bookings', '/api/ops/bookings/{ref}', '/api/ops/bookings/{ref}/decisions']) {
      expect(Object.keys(doc.paths[path].get.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '429']));
    }
    expect(doc.paths['/metrics']).toBeUndefined();
  });
});

describe('the ops view through a real cascade', () => {
  let ref: string;
  let near: TestDriver;
  let second: TestDriver;
  let far: TestDriver;
  let offline: TestDriver;

  it('counts offers, answers and the time to assignment where they are recorded', async () => {
    const before = {
      sent: await counter(stack.metrics, 'taxi_offers_sent_total', { tier: 'local' }),
      declined: await counter(stack.metrics, 'taxi_offer_outcomes_total', { outcome: 'declined' }),
      accepted: await counter(stack.metrics, 'taxi_offer_outcomes_total', { outcome: 'accepted' }),
      assigned: await counter(stack.metrics, 'taxi_time_to_assignment_seconds'),
    };
    near = await createDriver(stack.sql, {
      lat: PICKUP.lat + 0.001,
      lon: PICKUP.lon,
      homeArea: 'national-default',
      name: 'Near Nessa',
    });
    second = await createDriver(stack.sql, {
      lat: PICKUP.lat + 0.01,
      lon: PICKUP.lon,
      homeArea: 'national-default',
      name: 'Second Sandy',
    });
    // 40 km away: outside the local tier's reach, so never read.
    far = await createDriver(stack.sql, {
      lat: PICKUP.lat + 0.36,
      lon: PICKUP.lon,
      homeArea: 'national-default',
      name: 'Far Fergus',
    });
    offline = await createDriver(stack.sql, {
      lat: PICKUP.lat + 0.002,
      lon: PICKUP.lon,
      homeArea: 'national-default',
      name: 'Off Olive',
    });
    await stack.sql`update drivers set online = false where id = ${offline.id}`;
    drivers.push(near, second, far, offline);

    ref = await book();
    expect((await respond(stack.app, await waitForJobCard(stack.sql, near, ref), 'decline')).statusCode).toBe(200);
    expect((await respond(stack.app, await waitForJobCard(stack.sql, second, ref), 'accept')).statusCode).toBe(200);
    await waitForStatus(stack.sql, ref, 'assigned');

    await expect
      .poll(() => counter(stack.metrics, 'taxi_offer_outcomes_total', { outcome: 'accepted' }), {
        timeout: STACK_WAIT_MS,
      })
      .toBe(before.accepted + 1);
    expect(await counter(stack.metrics, 'taxi_offers_sent_total', { tier: 'local' })).toBe(before.sent + 2);
    expect(await counter(stack.metrics, 'taxi_offer_outcomes_total', { outcome: 'declined' })).toBe(
      before.declined + 1,
    );
    expect(await counter(stack.metrics, 'taxi_time_to_assignment_seconds')).toBe(before.assigned + 1);
    const text = await stack.metrics.registry.metrics();
    expect(text).toContain('taxi_time_to_assignment_seconds_bucket');
    expect(text).toContain('taxi_notifier_failures_total');
  }, 60_000);

  it('lists the booking on the board, tells its story and answers why each driver was or was not offered it', async () => {
    const board = await ops('/api/ops/bookings?hours_back=1&hours_ahead=2&limit=500');
    expect(board.statusCode, board.body).toBe(200);
    const item = board
      .json<{ bookings: { ref: string; status: string; links: { workflow: string } }[] }>()
      .bookings.find((b) => b.ref === ref);
    expect(item).toMatchObject({
      status: 'assigned',
      links: {
        workflow: `http://temporal-ui.test:8233/namespaces/${stack.config.TEMPORAL_NAMESPACE}/workflows/booking:${ref}`,
      },
    });

    const story = await ops(`/api/ops/bookings/${ref}`);
    expect(story.statusCode, story.body).toBe(200);
    const s = story.json<{
      booking: { ref: string; driver: { id: string } | null; fare_pence: number; pickup_at_london: string };
      status_changes: { status: string }[];
      offers: { driver_id: string; status: string }[];
      messages: { key: string; channel: string }[];
      rounds: { tier: string }[];
      payments: unknown[];
    }>();
    expect(s.booking).toMatchObject({ ref, driver: { id: second.id } });
    expect(Number.isInteger(s.booking.fare_pence)).toBe(true);
    expect(s.booking.pickup_at_london).toMatch(/G[M]T|BST/);
    expect(s.status_changes.map((c) => c.status)).toEqual(
      expect.arrayContaining(['dispatching', 'offered', 'assigned']),
    );
    expect(s.offers.map((o) => [o.driver_id, o.status])).toEqual([
      [near.id, 'declined'],
      [second.id, 'accepted'],
    ]);
    expect(s.messages.some((m) => m.key.startsWith('jobcard:') && m.channel === 'sms')).toBe(true);
    expect(JSON.stringify(s)).not.toMatch(/\?t=/); // no job-card link (the driver's signed token) is shown
    expect(s.rounds[0]).toMatchObject({ tier: 'local' });
    expect(s.payments).toEqual([]);

    const all = await ops(`/api/ops/bookings/${ref}/decisions`);
    expect(all.statusCode).toBe(200);
    const ids = all.json<{ decisions: { driver_id: string }[] }>().decisions.map((d) => d.driver_id);
    expect(ids).toEqual(expect.arrayContaining([near.id, second.id]));
    expect(ids).not.toContain(far.id);

    const why = async (driverId: string) => {
      const r = await ops(`/api/ops/bookings/${ref}/decisions?driver_id=${driverId}`);
      expect(r.statusCode, r.body).toBe(200);
      return r.json<{
        decisions: { skip_reason: string | null; eligible: boolean }[];
        offers: { status: string }[];
        driver: { considered: boolean; offered: boolean; explanation: string; now: { distance_now_m: number } };
      }>();
    };
    // Offline near the pickup: in the log as skipped, or (when rounds read only online drivers) not read at all; either way said.
    const o = await why(offline.id);
    expect(o.driver.offered).toBe(false);
    if (o.driver.considered) expect(o.decisions.map((d) => d.skip_reason)).toContain('offline');
    else expect(o.driver.explanation).toMatch(/^Not considered: .*They are offline now\./);
    expect((await why(near.id)).offers.map((x) => x.status)).toEqual(['declined']);
    const f = await why(far.id);
    expect(f.decisions).toEqual([]);
    expect(f.driver.considered).toBe(false);
    expect(f.driver.explanation).toMatch(/^Not considered: .*within 15 km.* beyond 15 km\./);
    expect(f.driver.now.distance_now_m).toBeGreaterThan(35_000);

    expect(
      (await ops(`/api/ops/bookings/${ref}/decisions?driver_id=nobody-${randomUUID().slice(0, 8)}`)).statusCode,
    ).toBe(404);
    expect((await ops(`/api/ops/bookings/TX00000000ZZ`)).statusCode).toBe(404);
    expect((await ops(`/api/ops/bookings/${ref}/decisions?driver_id=a%00b`)).statusCode).toBe(400);
    expect((await ops(`/api/ops/bookings/not-a-ref`)).statusCode).toBe(400);
  });

  it('refuses every ops view route without a valid staff key', async () => {
    for (const url of ['/api/ops/bookings', `/api/ops/bookings/${ref}`, `/api/ops/bookings/${ref}/decisions`]) {
      for (const bearer of [null, 'stf_notARealKeyAtAllButLongEnough', `${staffKey}x`]) {
        const r = await ops(url, bearer);
        expect(r.statusCode, `${url} ${bearer}`).toBe(401);
        expect(r.body).not.toContain(ref === undefined ? '' : 'Morag');
      }
    }
  });
});

describe('the unassigned-near-pickup alert (activity against Postgres)', () => {
  it('emails ops once per booking without a driver inside the window, and sends a claimed alert whose email was lost', async () => {
    const due = await bookingRow({ status: 'unassigned', pickupInMinutes: 10, createdMinutesAgo: 60 });
    const later = await bookingRow({ status: 'scheduled', pickupInMinutes: 40, createdMinutesAgo: 60 });
    const justMade = await bookingRow({ status: 'dispatching', pickupInMinutes: 0, createdMinutesAgo: 1 });
    const d = await createDriver(stack.sql, { lat: PICKUP.lat, lon: PICKUP.lon, homeArea: 'national-default' });
    drivers.push(d);
    const assigned = await bookingRow({
      status: 'assigned',
      pickupInMinutes: 5,
      createdMinutesAgo: 60,
      driverId: d.id,
    });
    const cancelled = await bookingRow({ status: 'cancelled', pickupInMinutes: 5, createdMinutesAgo: 60 });
    // Claimed by a worker that died before the email went out.
    const interrupted = await bookingRow({ status: 'offered', pickupInMinutes: 3, createdMinutesAgo: 60 });
    await stack.sql`insert into ops_alerts (booking_ref, kind, pickup_at) select ref, 'unassigned_near_pickup', pickup_at from bookings where ref = ${interrupted}`;

    const metrics = createWorkerMetrics();
    const deps = activityDeps(
      { ...stack.config, OPS_ALERT_EMAIL: 'night-desk@example.com', OPS_UNASSIGNED_ALERT_MINUTES: 15 },
      stack.sql,
      undefined,
      metrics,
    );
    const activities = createOpsActivities(deps);
    const alertUnassignedNearPickup = () => activities.alertUnassignedNearPickup();

    const first = await alertUnassignedNearPickup();
    expect(first.alerted).toContain(due);
    for (const ref of [later, justMade, assigned, cancelled, interrupted]) expect(first.alerted).not.toContain(ref);
    const second = await alertUnassignedNearPickup();
    expect(second.alerted).not.toContain(due);
    expect(await counter(metrics, 'taxi_ops_unassigned_alerts_total')).toBe(
      first.alerted.length + second.alerted.length,
    );

    const mails = await stack.sql<{ booking_ref: string; recipient: string; subject: string; body: string }[]>`
      select booking_ref, recipient, subject, body from outbox where idempotency_key in ${stack.sql([due, interrupted, later, justMade, assigned, cancelled].map(nearPickupOutboxKey))}`;
    expect(mails.map((m) => m.booking_ref).sort()).toEqual([due, interrupted].sort());
    const mail = mails.find((m) => m.booking_ref === due)!;
    expect(mail.recipient).toBe('night-desk@example.com');
    expect(mail.subject).toContain(due);
    expect(mail.body).toContain(
      `http://temporal-ui.test:8233/namespaces/${stack.config.TEMPORAL_NAMESPACE}/workflows/booking:${due}`,
    );
    expect(mail.body).toMatch(/\(Europe\/London\)/);

    // A third look later sends nothing new.
    await alertUnassignedNearPickup();
    const [{ n }] =
      (await stack.sql`select count(*)::int as n from outbox where idempotency_key = ${nearPickupOutboxKey(due)}`) as unknown as [
        { n: number },
      ];
    expect(n).toBe(1);

    // The board puts it first among those without a driver, with when ops were told.
    const board = (await ops('/api/ops/bookings?hours_back=1&hours_ahead=2&limit=500')).json<{
      bookings: { ref: string; without_driver: boolean; alerted_at: string | null }[];
    }>().bookings;
    const firstWithDriver = board.findIndex((b) => !b.without_driver);
    const dueAt = board.findIndex((b) => b.ref === due);
    expect(dueAt).toBeGreaterThanOrEqual(0);
    expect(firstWithDriver === -1 || dueAt < firstWithDriver).toBe(true);
    expect(board[dueAt]!.alerted_at).not.toBeNull();
    await stack.sql`update bookings set status = 'cancelled' where ref in ${stack.sql([due, later, justMade, interrupted])}`;
  });
});

describe('the ops watcher on the real server', () => {
  it('is started once however many workers start it, and looks at once', async () => {
    // A test id of its own: the service's one id (OPS_WATCH_WORKFLOW_ID) is left to real workers.
    const id = `ops-watch:test-${randomUUID()}`;
    await new OpsWatchClient(stack.client, stack.taskQueue).ensure(id);
    const first = await stack.client.workflow.getHandle(id).describe();
    await new OpsWatchClient(stack.client, stack.taskQueue).ensure(id);
    const second = await stack.client.workflow.getHandle(id).describe();
    expect(second.runId).toBe(first.runId);
    expect(second.status.name).toBe('RUNNING');
    await expect
      .poll(async () => (await stack.client.workflow.getHandle(id).query(opsWatchStateQuery)).checks, {
        timeout: STACK_WAIT_MS,
      })
      .toBeGreaterThanOrEqual(1);
    await stack.client.workflow.getHandle(id).terminate('test over');
  });
});

describe.skipIf(!existsSync(CHROMIUM) && !process.env.CI)('the ops page in headless Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => browser?.close());

  it('signs in with the staff key, finds a booking by reference and says why a driver was not offered it', async () => {
    const d = await createDriver(stack.sql, {
      lat: PICKUP.lat + 0.001,
      lon: PICKUP.lon,
      homeArea: 'national-default',
      name: 'Page Pat',
    });
    const far = await createDriver(stack.sql, {
      lat: PICKUP.lat + 0.5,
      lon: PICKUP.lon,
      homeArea: 'national-default',
      name: 'Distant Dan',
    });
    drivers.push(d, far);
    const ref = await book();
    await waitForJobCard(stack.sql, d, ref);

    const problems: string[] = [];
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    page.on('pageerror', (err) => problems.push(err.message));
    page.on('console', (msg) => {
      if (msg.type() === 'error') problems.push(msg.text());
    });
    await page.goto(`${base}/ops/bookings`);
    await page.fill('#key', staffKey);
    await page.click('#key-form button[type=submit]');
    await page.waitForSelector('#board table');
    // Found on the board by its reference, typed in lower case (other files' bookings share the board).
    await page.fill('#board-q', ref.toLowerCase());
    await page.click('#board-search button[type=submit]');
    await page.waitForSelector(`#board-count:has-text("matching “${ref.toLowerCase()}”")`);
    await page.waitForSelector(`#board button[data-ref="${ref}"]`);
    expect(page.url()).toBe(`${base}/ops/bookings?q=${ref.toLowerCase()}`);
    await page.fill('#board-q', '');
    await page.click('#board-search button[type=submit]');
    await page.fill('#ref', ref.toLowerCase());
    await page.click('#find-form button[type=submit]');
    await page.waitForSelector(`#story-title:has-text("Booking ${ref}")`);
    await page.waitForSelector(`#decisions td:has-text("${d.id}")`);
    expect(await page.getAttribute('#story-body a[href*="/workflows/booking:"]', 'href')).toBe(
      `http://temporal-ui.test:8233/namespaces/${stack.config.TEMPORAL_NAMESPACE}/workflows/booking:${ref}`,
    );
    await page.fill('#driver-filter', far.id);
    await page.click('#driver-form button[type=submit]');
    await page.waitForSelector('#driver-answer');
    expect(await page.textContent('#driver-answer')).toMatch(/^Not considered/);
    expect(page.url()).toBe(`${base}/ops/bookings?ref=${ref}`);
    // The link in the alert email: a new tab asks for the key (kept per tab), then opens the story.
    const again = await context.newPage();
    await again.goto(`${base}/ops/bookings?ref=${ref}`);
    await again.fill('#key', staffKey);
    await again.click('#key-form button[type=submit]');
    await again.waitForSelector(`#story-title:has-text("Booking ${ref}")`);
    expect(problems).toEqual([]);

    const signIn = async (p: import('playwright-core').Page) => {
      await p.fill('#key', staffKey);
      await p.click('#key-form button[type=submit]');
    };
    expect(
      await seriousA11yProblems(browser, `${base}/ops/bookings?ref=${ref}`, {
        before: signIn,
        ready: '#decisions table',
      }),
    ).toEqual([]);
    expect(await seriousA11yProblems(browser, `${base}/ops/bookings`, { ready: '#key' })).toEqual([]);
    await context.close();
    await stack.client.workflow
      .getHandle(`booking:${ref}`)
      .terminate('test over')
      .catch(() => {});
    await stack.sql`update bookings set status = 'cancelled' where ref = ${ref}`;
  }, 90_000);
});
