// The operator bridge on the real stack (spec 4.10, 4.11): the guide is generated from the intake's
// own schema; jobs from an operator never reach central dispatch but the operator's dashboard,
// where the operator assigns each to a driver of its own fleet, who gets the job card as usual.
// The dashboard is driven in headless Chromium.
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { type Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../dev/free-port.js';
import { createApiKey } from '../../src/auth/api-keys.js';
import { createStaff } from '../../src/auth/staff.js';
import { signPartnerRequest } from '../../src/partners/signature.js';
import { createPartner, issueSigningSecret } from '../../src/partners/store.js';
import { PartnerJobSchema } from '../../src/schemas/partner-job.js';
import { seriousA11yProblems } from '../support/axe.js';
import {
  createDriver,
  respond,
  takeDriversOffline,
  waitForJobCard,
  waitForStatus,
  type TestDriver,
} from '../support/drivers.js';
import { startStack, type TestStack } from '../support/stack.js';
import { launchChromium } from '../support/browser-stack.js';

const CHROMIUM = '/usr/bin/chromium';

let stack: TestStack;
let base: string;
const created: TestDriver[] = [];
beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  stack = await startStack({ OFFER_TIMEOUT_SECONDS: '60', PUBLIC_BASE_URL: base });
  await stack.app.listen({ port, host: '127.0.0.1' });
});
afterEach(async () => takeDriversOffline(stack.sql, created.splice(0)));
afterAll(async () => stack?.close());

let n = 0;
const ip = () => `10.99.${Math.floor(n / 250) % 250}.${n++ % 250}`;
const soon = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();

async function newOperator(opts: { approved?: boolean; dailyJobLimit?: number } = {}) {
  const id = `opr-${randomUUID().slice(0, 8)}`;
  const operator = await createPartner(stack.sql, {
    id,
    name: `Cabs ${id}`,
    kind: 'operator',
    liveIntakeApproved: opts.approved ?? true,
    ...(opts.dailyJobLimit ? { dailyJobLimit: opts.dailyJobLimit } : {}),
  });
  const { key } = await createApiKey(stack.sql, { name: id, partnerId: id });
  const secret = await issueSigningSecret(stack.sql, stack.config.PARTNER_SECRETS_KEY, id);
  return { id, key, secret, fleetId: operator.fleetId! };
}
const job = (jobRef: string, extra: object = {}) => ({
  jobRef,
  pickup: 'Morpeth station',
  dropoff: 'Morpeth',
  pickupTime: soon(2),
  passengerName: 'Grace Hopper',
  ...extra,
});
const send = (key: string, payload: unknown) =>
  stack.app.inject({
    method: 'POST',
    url: '/api/public/v1/operator/jobs',
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    payload: JSON.stringify(payload),
    remoteAddress: ip(),
  });
const api = (key: string, method: 'GET' | 'POST', url: string, payload?: object) =>
  stack.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${key}` },
    ...(payload ? { payload } : {}),
    remoteAddress: ip(),
  });

describe('the operator bridge', () => {
  it('publishes a guide generated from the intake schema, whose example the live endpoint accepts', async () => {
    const res = await stack.app.inject({ method: 'GET', url: '/api/public/v1/operator/jobs', remoteAddress: ip() });
    expect(res.statusCode).toBe(200);
    const guide = res.json();
    expect(guide.endpoint).toBe(`${base}/api/public/v1/operator/jobs`);
    expect(Object.keys(guide.acceptedFields).sort()).toEqual(Object.keys(PartnerJobSchema.shape).sort());
    expect(guide.requiredFields).toEqual(expect.arrayContaining(['jobRef', 'pickup', 'dropoff', 'pickupTime']));
    for (const j of guide.examplePayload.jobs) expect(PartnerJobSchema.safeParse(j).success).toBe(true);
    // Posted back as the guide says, by an approved operator: every job of it accepted, for the future.
    expect(Date.parse(guide.examplePayload.jobs[0].pickupTime)).toBeGreaterThan(Date.now());
    const op = await newOperator();
    const sent = await send(op.key, guide.examplePayload);
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().results[0]).toMatchObject({ jobRef: 'OPS-2026-000123', outcome: 'accepted', code: 'created' });
  });

  it('refuses a bad key, an unapproved operator, a paused bridge and jobs past the daily limit', async () => {
    expect((await send('ntk_not-a-real-key-at-all', job('R-1'))).statusCode).toBe(401);
    const pending = await newOperator({ approved: false });
    const refused = await send(pending.key, job('R-1'));
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('operator_not_approved');

    const op = await newOperator({ dailyJobLimit: 1 });
    // Ops pause and resume the bridge through their API, and each change is on record.
    const { key: staffKey } = await createStaff(stack.sql, { name: 'Bridge Desk', role: 'operator' });
    const bridge = (action: string, reason = 'Operator asked us to stop while they move offices', id = op.id) =>
      stack.app.inject({
        method: 'POST',
        url: `/api/ops/partners/${id}/bridge`,
        headers: { authorization: `Bearer ${staffKey}` },
        payload: { action, reason },
        remoteAddress: ip(),
      });
    const paused = await bridge('pause');
    expect(paused.statusCode, paused.body).toBe(200);
    expect(paused.json()).toMatchObject({ partner_id: op.id, bridge_paused: true, changed: true });
    expect((await send(op.key, job('R-1'))).json().code).toBe('bridge_paused');
    expect((await bridge('pause')).json()).toMatchObject({ bridge_paused: true, changed: false });
    const resumed = await bridge('resume', 'Moved; they are sending again');
    expect(resumed.json()).toMatchObject({ bridge_paused: false, changed: true });
    expect(
      resumed
        .json<{ actions: { action: string; reason: string; by: string }[] }>()
        .actions.map((a) => `${a.action} by ${a.by}: ${a.reason}`),
    ).toEqual([
      'bridge.pause by Bridge Desk: Operator asked us to stop while they move offices',
      'bridge.resume by Bridge Desk: Moved; they are sending again',
    ]);
    expect((await bridge('pause', 'no')).statusCode).toBe(400);
    expect((await bridge('pause', 'A reason given', 'opr-nobody-here')).json().code).toBe('partner_not_found');
    const partner = await createPartner(stack.sql, {
      id: `ptn-${randomUUID().slice(0, 8)}`,
      name: 'P',
      kind: 'partner',
    });
    expect((await bridge('pause', 'A reason given', partner.id)).json().code).toBe('not_an_operator');
    // {"jobs": [...]} is the bridge's third shape; signed deliveries name the operator in x-operator.
    const body = JSON.stringify({ jobs: [job('R-1', { pickupTime: soon(600) })] });
    const signed = await stack.app.inject({
      method: 'POST',
      url: '/api/public/v1/operator/jobs',
      payload: body,
      remoteAddress: ip(),
      headers: {
        'content-type': 'application/json',
        'x-operator': op.id,
        'x-signature': signPartnerRequest(op.secret, Math.floor(Date.now() / 1000), {
          method: 'POST',
          target: '/api/public/v1/operator/jobs',
          body,
        }),
      },
    });
    expect(signed.statusCode).toBe(200);
    const over = await send(op.key, job('R-2'));
    expect(over.statusCode).toBe(429);
    expect(over.json().code).toBe('daily_limit_reached');
  });

  it("keeps an operator's job out of central dispatch until the operator gives it to a driver of its own fleet", async () => {
    const op = await newOperator();
    const other = await newOperator();
    // A central driver right at the pickup, and the operator's own driver a little further away.
    const central = await createDriver(stack.sql, { lat: 55.1634, lon: -1.683, homeArea: 'national-default' });
    const own = await createDriver(stack.sql, { lat: 55.17, lon: -1.69, tier: 'partner', name: 'Fleet Driver' });
    await stack.sql`update drivers set partner_fleet_id = ${op.fleetId} where id = ${own.id}`;
    created.push(central, own);

    const sent = await send(op.key, [job('F-1')]);
    expect(sent.statusCode).toBe(200);
    const ref = sent.json().results[0].bookingReference as string;
    await waitForStatus(stack.sql, ref, 'scheduled');
    // Long enough for central dispatch to have sent a card, had it been central.
    await new Promise((r) => setTimeout(r, 1500));
    expect(await stack.sql`select id from offers where booking_ref = ${ref}`).toEqual([]);

    // Only this operator sees and assigns it, and only to its own drivers.
    const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London' }).format(
      new Date(Date.now() + 2 * 60_000),
    );
    expect((await api(other.key, 'GET', `/api/operator/jobs?day=${day}`)).json().jobs).toEqual([]);
    expect((await api(other.key, 'POST', `/api/operator/jobs/${ref}/assign`, { driverId: own.id })).statusCode).toBe(
      404,
    );
    expect((await api(op.key, 'POST', `/api/operator/jobs/${ref}/assign`, { driverId: central.id })).json().code).toBe(
      'driver_not_in_fleet',
    );
    const listed = (await api(op.key, 'GET', `/api/operator/jobs?day=${day}`)).json();
    expect(listed.jobs.map((j: { ref: string; jobRef: string }) => [j.ref, j.jobRef])).toEqual([[ref, 'F-1']]);
    expect((await api(op.key, 'GET', '/api/operator/drivers')).json().drivers.map((d: { id: string }) => d.id)).toEqual(
      [own.id],
    );
    // The dashboard's one request: the week's jobs on their London day, the fleet; another operator's is empty.
    const week = (await api(op.key, 'GET', '/api/operator/dashboard')).json();
    expect(week.jobs.map((j: { ref: string; day: string }) => [j.ref, j.day])).toEqual([[ref, day]]);
    expect(week.drivers.map((d: { id: string }) => d.id)).toEqual([own.id]);
    expect((await api(other.key, 'GET', '/api/operator/dashboard')).json()).toMatchObject({
      jobs: [],
      drivers: [],
      requests: [],
    });

    const assigned = await api(op.key, 'POST', `/api/operator/jobs/${ref}/assign`, { driverId: own.id });
    expect(assigned.statusCode).toBe(200);
    expect(assigned.json()).toMatchObject({ ref, status: 'offered', offeredTo: own.id });
    const again = await api(op.key, 'POST', `/api/operator/jobs/${ref}/assign`, { driverId: own.id });
    expect(again.json().code).toBe('already_assigned');
    const card = await waitForJobCard(stack.sql, own, ref);
    expect((await respond(stack.app, card, 'accept')).statusCode).toBe(200);
    await waitForStatus(stack.sql, ref, 'assigned');
    expect(await stack.sql`select driver_id from offers where booking_ref = ${ref}`).toEqual([{ driver_id: own.id }]);
    expect(await stack.sql`select 1 from outbox where recipient = ${central.phone} and booking_ref = ${ref}`).toEqual(
      [],
    );
  });

  describe.skipIf(!existsSync(CHROMIUM) && !process.env.CI)('the dashboard in headless Chromium', () => {
    let browser: Browser;
    beforeAll(async () => {
      browser = await launchChromium();
    });
    afterAll(async () => browser?.close());

    it('signs the operator in, lists the day’s jobs and assigns one to a fleet driver', async () => {
      const op = await newOperator();
      const own = await createDriver(stack.sql, { lat: 55.17, lon: -1.69, tier: 'partner', name: 'Dana Fleet' });
      await stack.sql`update drivers set partner_fleet_id = ${op.fleetId} where id = ${own.id}`;
      created.push(own);
      const pickupTime = soon(90);
      const ref = (await send(op.key, job('P-7', { pickupTime }))).json().results[0].bookingReference as string;
      await waitForStatus(stack.sql, ref, 'scheduled');

      const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      page.on('console', (m) => {
        if (m.type() === 'error' && /Content Security Policy|Refused to/i.test(m.text())) errors.push(m.text());
      });
      // Signs in and opens the pickup's day: the page opens on today (UK time), and late in the
      // evening a pickup 90 minutes ahead is tomorrow's.
      const signInOnPickupDay = async (p: typeof page) => {
        await p.fill('#key', op.key);
        await p.click('#key-form button[type=submit]');
        await expect.poll(async () => p.locator('#operator-name').textContent()).not.toBe('');
        await p.fill(
          '#day',
          new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London' }).format(new Date(pickupTime)),
        );
      };
      await page.goto(`${base}/operator`);
      await signInOnPickupDay(page);
      const row = page.locator(`tr[data-ref="${ref}"]`);
      await row.waitFor();
      expect(await row.textContent()).toContain('P-7');
      await row.locator('select').selectOption(own.id);
      await row.locator('button').click();
      await page.waitForSelector('#message.ok');
      await expect
        .poll(async () => page.locator(`tr[data-ref="${ref}"] .job-status`).textContent())
        .toContain('offered to Dana Fleet');
      await waitForJobCard(stack.sql, own, ref);
      expect(errors).toEqual([]);
      expect(
        await seriousA11yProblems(browser, `${base}/operator`, {
          ready: `tr[data-ref="${ref}"]`,
          before: signInOnPickupDay,
        }),
      ).toEqual([]);
    });
  });
});
