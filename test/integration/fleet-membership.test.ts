// Issue 20 (5), through HTTP on the real stack: naming an operator's fleet when applying is a
// request, not a membership. The operator sees it, accepts or refuses it (on the record), and only
// a driver it accepted can be given its jobs; it can take a driver out again. Another operator can
// neither see nor answer the request. Staff see the fleet asked for and grant it only by naming it.
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { type Browser, type Page } from 'playwright-core';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/auth/api-keys.js';
import { createStaff } from '../../src/auth/staff.js';
import { freePort } from '../../dev/free-port.js';
import { createPartner } from '../../src/partners/store.js';
import { seriousA11yProblems } from '../support/axe.js';
import { waitForJobCard, waitForStatus } from '../support/drivers.js';
import { eventually, STACK_WAIT_MS, startStack, type TestStack } from '../support/stack.js';
import { launchChromium } from '../support/browser-stack.js';

const CHROMIUM = '/usr/bin/chromium';

let stack: TestStack;
let staffKey: string;
let adminKey: string;
beforeAll(async () => {
  stack = await startStack({ OFFER_TIMEOUT_SECONDS: '60' });
  staffKey = (await createStaff(stack.sql, { name: 'Sam (ops)', role: 'operator' })).key;
  adminKey = (await createStaff(stack.sql, { name: 'Ada (admin)', role: 'admin' })).key;
});
// Drivers stay in the shared database: offline, no later test file's booking is offered to them.
afterAll(async () => {
  if (stack) await stack.sql`update drivers set online = false where id like 'drv_%'`;
  await stack?.close();
});

let n = 0;
const ip = () => `10.97.${Math.floor(n / 250) % 250}.${n++ % 250}`;
let phoneN = Math.floor(Math.random() * 50_000);
const driverPhone = () => `+4474006${String(10000 + (phoneN++ % 89999)).padStart(5, '0')}`;
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF').toString('base64');
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]).toString('base64');

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (method: Method, url: string, o: { body?: object; bearer?: string } = {}) =>
  stack.app.inject({
    method,
    url,
    remoteAddress: ip(),
    ...(o.body ? { payload: o.body } : {}),
    headers: o.bearer ? { authorization: `Bearer ${o.bearer}` } : {},
  });

async function newOperator() {
  const id = `opf-${randomUUID().slice(0, 8)}`;
  const operator = await createPartner(stack.sql, {
    id,
    name: `Cabs ${id}`,
    kind: 'operator',
    liveIntakeApproved: true,
  });
  const { key, apiKey } = await createApiKey(stack.sql, { name: id, partnerId: id });
  return { id, key, keyId: apiKey.id, fleetId: operator.fleetId! };
}

/** An application naming a fleet, as anyone on the internet can send it. */
async function apply(fleetId: string | null, name = 'Pat Applicant') {
  const phone = driverPhone();
  const res = await call('POST', '/api/drivers/applications', {
    body: {
      name,
      phone,
      email: 'pat@example.com',
      licensing_authority: 'Northumberland County Council',
      driver_licence_number: 'NCC-D-777',
      driver_licence_expires: '2030-01-31',
      vehicle_licence_number: 'NCC-V-7',
      vehicle_licence_expires: '2029-06-30',
      vehicle_make: 'Skoda',
      vehicle_model: 'Octavia',
      vehicle_registration: 'nd21 abc',
      vehicle_type: 'saloon',
      seats: 4,
      tier: 'partner',
      partner_fleet_id: fleetId,
      documents: [
        { kind: 'driver_licence', content_type: 'application/pdf', data_base64: PDF },
        { kind: 'vehicle_licence', content_type: 'image/png', data_base64: PNG },
      ],
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return { id: res.json<{ driver_id: string }>().driver_id, phone, reply: res.json() };
}

const operatorJob = async (key: string) => {
  const res = await stack.app.inject({
    method: 'POST',
    url: '/api/public/v1/operator/jobs',
    remoteAddress: ip(),
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    payload: JSON.stringify([
      {
        jobRef: `J-${randomUUID().slice(0, 6)}`,
        pickup: 'Morpeth station',
        dropoff: 'Morpeth',
        pickupTime: new Date(Date.now() + 120_000).toISOString(),
        passengerName: 'Grace Hopper',
      },
    ]),
  });
  expect(res.statusCode, res.body).toBe(200);
  const ref = res.json().results[0].bookingReference as string;
  await waitForStatus(stack.sql, ref, 'scheduled');
  return ref;
};

const membership = async (driverId: string) =>
  (
    await stack.sql<{ partner_fleet_id: string | null }[]>`select partner_fleet_id from drivers where id = ${driverId}`
  )[0]!.partner_fleet_id;

describe('fleet membership', () => {
  it('lets an applicant only ask to join; the operator accepts, and only then can give the driver its jobs', async () => {
    const op = await newOperator();
    const applicant = await apply(op.fleetId);
    expect(applicant.reply).toMatchObject({
      status: 'applicant',
      fleet_request: { fleet_id: op.fleetId, status: 'pending' },
    });
    expect(await membership(applicant.id)).toBeNull();

    // Staff approve the driver and see the fleet asked for; approving alone grants no fleet.
    const approved = await call('POST', `/api/ops/drivers/${applicant.id}/decision`, {
      body: { action: 'approve', reason: null },
      bearer: staffKey,
    });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().driver).toMatchObject({
      status: 'approved',
      fleet_id: null,
      requested_fleet_id: op.fleetId,
    });
    expect(await membership(applicant.id)).toBeNull();

    // Not in the fleet yet: the operator cannot give it a job.
    const ref = await operatorJob(op.key);
    expect(
      (await call('GET', '/api/operator/drivers', { bearer: op.key })).json().drivers.map((d: { id: string }) => d.id),
    ).not.toContain(applicant.id);
    const early = await call('POST', `/api/operator/jobs/${ref}/assign`, {
      body: { driverId: applicant.id },
      bearer: op.key,
    });
    expect(early.statusCode).toBe(404);
    expect(early.json().code).toBe('driver_not_in_fleet');

    // The operator sees the request and accepts it.
    const requests = (await call('GET', '/api/operator/fleet-requests', { bearer: op.key })).json().requests as Array<{
      id: string;
      driverId: string;
    }>;
    const request = requests.find((q) => q.driverId === applicant.id)!;
    expect(request).toMatchObject({
      driverId: applicant.id,
      name: 'Pat Applicant',
      phone: applicant.phone,
      driverStatus: 'approved',
    });
    const accepted = await call('POST', `/api/operator/fleet-requests/${request.id}/decision`, {
      body: { decision: 'accept' },
      bearer: op.key,
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json()).toMatchObject({ id: request.id, driverId: applicant.id, status: 'granted' });
    // The same answer again is a retry; the request is no longer open.
    expect(
      (
        await call('POST', `/api/operator/fleet-requests/${request.id}/decision`, {
          body: { decision: 'accept' },
          bearer: op.key,
        })
      ).statusCode,
    ).toBe(200);
    expect((await call('GET', '/api/operator/fleet-requests', { bearer: op.key })).json().requests).toEqual([]);
    expect(await membership(applicant.id)).toBe(op.fleetId);

    const assigned = await call('POST', `/api/operator/jobs/${ref}/assign`, {
      body: { driverId: applicant.id },
      bearer: op.key,
    });
    expect(assigned.statusCode, assigned.body).toBe(200);
    expect(assigned.json()).toMatchObject({ ref, status: 'offered', offeredTo: applicant.id });
    await waitForJobCard(stack.sql, applicant, ref);

    // Staff see who let the driver in, and when; the approval's record names the fleet asked for.
    const detail = (await call('GET', `/api/ops/drivers/${applicant.id}`, { bearer: staffKey })).json();
    expect(detail.driver).toMatchObject({ fleet_id: op.fleetId, requested_fleet_id: null });
    expect(detail.fleet.requests).toEqual([
      expect.objectContaining({ fleet_id: op.fleetId, status: 'granted', decided_at: expect.any(String) }),
    ]);
    expect(detail.fleet.history).toEqual([
      expect.objectContaining({ event: 'granted', fleet_id: op.fleetId, by_kind: 'operator', by: `Cabs ${op.id}` }),
    ]);
    expect(detail.actions).toEqual([
      expect.objectContaining({
        action: 'driver.approve',
        details: { requested_fleet_id: op.fleetId, fleet_granted: false },
      }),
    ]);

    // The operator takes the driver out: on the record, and no more of its jobs for them.
    expect((await call('DELETE', `/api/operator/drivers/${applicant.id}`, { bearer: op.key })).statusCode).toBe(204);
    expect(await membership(applicant.id)).toBeNull();
    expect((await call('DELETE', `/api/operator/drivers/${applicant.id}`, { bearer: op.key })).statusCode).toBe(404);
    const next = await operatorJob(op.key);
    expect(
      (
        await call('POST', `/api/operator/jobs/${next}/assign`, { body: { driverId: applicant.id }, bearer: op.key })
      ).json().code,
    ).toBe('driver_not_in_fleet');
    const events = await stack.sql<{ event: string; by_id: string; by_key: string | null }[]>`
      select event, by_id, by_key from driver_fleet_events where driver_id = ${applicant.id} order by id`;
    expect(events).toEqual([
      { event: 'granted', by_id: op.id, by_key: op.keyId },
      { event: 'removed', by_id: op.id, by_key: op.keyId },
    ]);
  });

  it('keeps each operator to its own fleet: another operator neither sees, answers nor removes', async () => {
    const op = await newOperator();
    const other = await newOperator();
    const applicant = await apply(op.fleetId);
    const request = (await call('GET', '/api/operator/fleet-requests', { bearer: op.key }))
      .json()
      .requests.find((q: { driverId: string }) => q.driverId === applicant.id);
    expect(request).toBeDefined();

    expect((await call('GET', '/api/operator/fleet-requests', { bearer: other.key })).json().requests).toEqual([]);
    const stolen = await call('POST', `/api/operator/fleet-requests/${request.id}/decision`, {
      body: { decision: 'accept' },
      bearer: other.key,
    });
    expect(stolen.statusCode).toBe(404);
    expect(stolen.json().code).toBe('fleet_request_not_found');
    expect(
      (
        await call('POST', `/api/operator/fleet-requests/${request.id}/decision`, {
          body: { decision: 'refuse' },
          bearer: other.key,
        })
      ).statusCode,
    ).toBe(404);
    expect(await membership(applicant.id)).toBeNull();
    // A request needs the operator's own key.
    expect(
      (await call('POST', `/api/operator/fleet-requests/${request.id}/decision`, { body: { decision: 'accept' } }))
        .statusCode,
    ).toBe(401);
    expect(
      (
        await call('POST', `/api/operator/fleet-requests/${request.id}/decision`, {
          body: { decision: 'accept' },
          bearer: staffKey,
        })
      ).statusCode,
    ).toBe(401);

    // The operator refuses: recorded, and an acceptance afterwards comes too late.
    const refused = await call('POST', `/api/operator/fleet-requests/${request.id}/decision`, {
      body: { decision: 'refuse', reason: 'not one of ours' },
      bearer: op.key,
    });
    expect(refused.json()).toMatchObject({ status: 'refused' });
    const late = await call('POST', `/api/operator/fleet-requests/${request.id}/decision`, {
      body: { decision: 'accept' },
      bearer: op.key,
    });
    expect(late.statusCode).toBe(409);
    expect(late.json().code).toBe('fleet_request_decided');
    expect(await membership(applicant.id)).toBeNull();
    expect(
      await stack.sql`select event, by_kind, by_id, reason from driver_fleet_events where driver_id = ${applicant.id}`,
    ).toEqual([{ event: 'refused', by_kind: 'operator', by_id: op.id, reason: 'not one of ours' }]);

    // A member of one fleet is out of another's reach.
    const member = await apply(op.fleetId);
    const q = (await call('GET', '/api/operator/fleet-requests', { bearer: op.key }))
      .json()
      .requests.find((x: { driverId: string }) => x.driverId === member.id);
    expect(
      (
        await call('POST', `/api/operator/fleet-requests/${q.id}/decision`, {
          body: { decision: 'accept' },
          bearer: op.key,
        })
      ).statusCode,
    ).toBe(200);
    expect((await call('DELETE', `/api/operator/drivers/${member.id}`, { bearer: other.key })).statusCode).toBe(404);
    expect(await membership(member.id)).toBe(op.fleetId);
  });

  it('shows staff the fleet asked for, and grants it only when they name it', async () => {
    const op = await newOperator();
    const other = await newOperator();
    const applicant = await apply(op.fleetId);

    const listed = (await call('GET', '/api/ops/drivers?status=applicant', { bearer: staffKey }))
      .json()
      .drivers.find((d: { id: string }) => d.id === applicant.id);
    expect(listed).toMatchObject({ fleet_id: null, requested_fleet_id: op.fleetId });
    const detail = (await call('GET', `/api/ops/drivers/${applicant.id}`, { bearer: staffKey })).json();
    expect(detail.fleet.requests).toEqual([
      expect.objectContaining({ fleet_id: op.fleetId, fleet_name: `Cabs ${op.id}`, status: 'pending' }),
    ]);

    // Naming a fleet the driver did not ask for changes nothing.
    const wrong = await call('POST', `/api/ops/drivers/${applicant.id}/decision`, {
      body: { action: 'approve', reason: null, grant_fleet_id: other.fleetId },
      bearer: staffKey,
    });
    expect(wrong.statusCode).toBe(409);
    expect(wrong.json().code).toBe('no_such_fleet_request');
    expect((await call('GET', `/api/ops/drivers/${applicant.id}`, { bearer: staffKey })).json().driver).toMatchObject({
      status: 'applicant',
      fleet_id: null,
    });

    const granted = await call('POST', `/api/ops/drivers/${applicant.id}/decision`, {
      body: { action: 'approve', reason: 'fleet confirmed by phone', grant_fleet_id: op.fleetId },
      bearer: staffKey,
    });
    expect(granted.statusCode, granted.body).toBe(200);
    expect(granted.json().driver).toMatchObject({ status: 'approved', fleet_id: op.fleetId, requested_fleet_id: null });
    const after = (await call('GET', `/api/ops/drivers/${applicant.id}`, { bearer: staffKey })).json();
    expect(after.actions).toEqual([
      expect.objectContaining({
        action: 'driver.approve',
        by: 'Sam (ops)',
        details: { requested_fleet_id: op.fleetId, fleet_granted: true },
      }),
    ]);
    expect(after.fleet.history).toEqual([
      expect.objectContaining({
        event: 'granted',
        by_kind: 'staff',
        by: 'Sam (ops)',
        reason: 'fleet confirmed by phone',
      }),
    ]);
    expect(
      (await call('GET', '/api/operator/drivers', { bearer: op.key })).json().drivers.map((d: { id: string }) => d.id),
    ).toContain(applicant.id);
    expect((await call('GET', '/api/operator/fleet-requests', { bearer: op.key })).json().requests).toEqual([]);

    // Approved earlier without the fleet: naming it later grants it, as its own entry on the record.
    const later = await apply(op.fleetId);
    expect(
      (
        await call('POST', `/api/ops/drivers/${later.id}/decision`, {
          body: { action: 'approve', reason: null },
          bearer: staffKey,
        })
      ).json().driver,
    ).toMatchObject({ fleet_id: null });
    const lateGrant = await call('POST', `/api/ops/drivers/${later.id}/decision`, {
      body: { action: 'approve', reason: 'operator asked us to', grant_fleet_id: op.fleetId },
      bearer: staffKey,
    });
    expect(lateGrant.json().driver).toMatchObject({ status: 'approved', fleet_id: op.fleetId });
    expect(
      (await call('GET', `/api/ops/drivers/${later.id}`, { bearer: staffKey }))
        .json()
        .actions.map((a: { action: string }) => a.action),
    ).toEqual(['driver.approve', 'driver.fleet_grant']);
    // A grant with any other decision is refused.
    expect(
      (
        await call('POST', `/api/ops/drivers/${later.id}/decision`, {
          body: { action: 'suspend', reason: 'complaint', grant_fleet_id: op.fleetId },
          bearer: staffKey,
        })
      ).statusCode,
    ).toBe(400);

    // A rejected applicant's request is closed: the operator no longer sees it.
    const rejected = await apply(op.fleetId);
    expect(
      (
        await call('POST', `/api/ops/drivers/${rejected.id}/decision`, {
          body: { action: 'reject', reason: 'licence not on the council register' },
          bearer: staffKey,
        })
      ).statusCode,
    ).toBe(200);
    expect((await call('GET', '/api/operator/fleet-requests', { bearer: op.key })).json().requests).toEqual([]);
  });

  it('offers central partner-tier work only on a granted fleet, never on one merely asked for', async () => {
    const op = await newOperator();
    const applicant = await apply(op.fleetId, 'Thurso Partner');
    expect(
      (
        await call('POST', `/api/ops/drivers/${applicant.id}/decision`, {
          body: { action: 'approve', reason: null },
          bearer: staffKey,
        })
      ).statusCode,
    ).toBe(200);
    expect((await call('POST', '/api/driver/sign-in', { body: { phone: applicant.phone } })).statusCode).toBe(202);
    const code = await eventually(
      async () => {
        const [m] = await stack.sql<
          { body: string }[]
        >`select body from outbox where recipient = ${applicant.phone} and body like '%sign-in code%' order by id desc limit 1`;
        return m ? /(\d{6})/.exec(m.body)?.[1] : undefined;
      },
      STACK_WAIT_MS,
      'the sign-in code',
    );
    const token = (await call('POST', '/api/driver/sign-in/verify', { body: { phone: applicant.phone, code } })).json()
      .token as string;
    expect((await call('POST', '/api/driver/availability', { body: { online: true }, bearer: token })).statusCode).toBe(
      200,
    );
    // Thurso: no other test dispatches there, so the cascade reaches the partner tier.
    expect(
      (await call('POST', '/api/driver/location', { body: { lat: 58.595, lon: -3.521 }, bearer: token })).statusCode,
    ).toBe(204);
    const book = async (passengerPhone: string) => {
      const res = await call('POST', '/api/public/bookings/instant', {
        body: {
          pickup_address: 'Thurso',
          dropoff_address: 'Scrabster Ferry Terminal',
          passenger_name: 'Ida Wells',
          passenger_phone_whatsapp: passengerPhone,
        },
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().booking_reference as string;
    };

    const asked = await book('+447400123498');
    const passedOver = await eventually(
      async () => {
        const rows = await stack.sql<{ tier: string; skip_reason: string | null }[]>`
        select tier, skip_reason from dispatch_decisions where booking_ref = ${asked} and driver_id = ${applicant.id}`;
        return rows.length > 0 ? rows : undefined;
      },
      STACK_WAIT_MS,
      'the dispatch decision on the applicant',
    );
    expect(passedOver).toEqual([{ tier: 'partner', skip_reason: 'fleet_not_approved' }]);
    expect(await stack.sql`select 1 from offers where booking_ref = ${asked} and driver_id = ${applicant.id}`).toEqual(
      [],
    );

    const request = (await call('GET', '/api/operator/fleet-requests', { bearer: op.key }))
      .json()
      .requests.find((q: { driverId: string }) => q.driverId === applicant.id);
    expect(
      (
        await call('POST', `/api/operator/fleet-requests/${request.id}/decision`, {
          body: { decision: 'accept' },
          bearer: op.key,
        })
      ).statusCode,
    ).toBe(200);
    await stack.client.workflow
      .getHandle(`booking:${asked}`)
      .terminate('test over')
      .catch(() => undefined);
    // A member now, but our booking would be sub-contracted to the operator, whose licence is not on file.
    const unlicensed = await book('+447400123497');
    expect(
      await eventually(
        async () => {
          const rows = await stack.sql<{ skip_reason: string | null }[]>`
            select skip_reason from dispatch_decisions where booking_ref = ${unlicensed} and driver_id = ${applicant.id}`;
          return rows.length > 0 ? rows : undefined;
        },
        STACK_WAIT_MS,
        'the dispatch decision on the unlicensed fleet driver',
      ),
    ).toEqual([{ skip_reason: 'operator_licence_missing' }]);
    await stack.client.workflow
      .getHandle(`booking:${unlicensed}`)
      .terminate('test over')
      .catch(() => undefined);
    // An operator may read the licences on file; only an administrator may put one there.
    const licence = {
      authority: 'The Highland Council',
      number: 'PHO-0427',
      kind: 'private_hire',
      expires_on: new Date(Date.now() + 90 * 24 * 3600_000).toISOString().slice(0, 10),
    };
    const path = `/api/ops/operator-licences/partner_fleet/${op.fleetId}`;
    expect((await call('PUT', path, { body: licence, bearer: staffKey })).statusCode).toBe(403);
    const put = await call('PUT', path, { body: licence, bearer: adminKey });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toMatchObject({
      holder_name: `Cabs ${op.id}`,
      licences: [{ ...licence, in_date: true, recorded_by: 'Ada (admin)' }],
    });
    expect((await call('GET', path, { bearer: staffKey })).json().licences).toHaveLength(1);
    expect(
      (await call('PUT', path, { body: { ...licence, expires_on: '2027-02-30' }, bearer: adminKey })).json().code,
    ).toBe('validation_failed');
    expect(
      (await call('PUT', '/api/ops/operator-licences/partner_fleet/fleet-nobody', { body: licence, bearer: adminKey }))
        .statusCode,
    ).toBe(404);

    const granted = await book('+447400123499');
    expect(granted).not.toBe(asked);
    await eventually(
      async () =>
        (await stack.sql`select 1 from offers where booking_ref = ${granted} and driver_id = ${applicant.id}`).length >
        0
          ? true
          : undefined,
      STACK_WAIT_MS,
      'the offer to the fleet driver',
    );
    // Accepted: the passenger is told the fleet provides the ride, under the licence on file.
    const [offer] = await stack.sql<{ id: string }[]>`
      select id from offers where booking_ref = ${granted} and driver_id = ${applicant.id}`;
    const accepted = await call('POST', `/api/driver/jobs/${encodeURIComponent(offer!.id)}/respond`, {
      body: { decision: 'accept' },
      bearer: token,
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    const told = await eventually(
      async () => {
        const [m] = await stack.sql<{ body: string }[]>`
          select body from outbox where booking_ref = ${granted} and idempotency_key like 'assigned:%'`;
        return m?.body;
      },
      STACK_WAIT_MS,
      "the passenger's text naming the driver",
    );
    expect(told).toContain(
      `Your ride is provided by Cabs ${op.id}, a licensed operator we work with (The Highland Council private hire operator licence PHO-0427, valid to ${licence.expires_on}).`,
    );
    // And the booking record names the fleet and its licence beside the driver.
    expect(
      await stack.sql`select operator, operator_licence from booking_record_entries where ref = ${granted} and kind = 'allocated'`,
    ).toEqual([
      {
        operator: `Cabs ${op.id}`,
        operator_licence: `The Highland Council private hire operator licence PHO-0427, valid to ${licence.expires_on}`,
      },
    ]);
    await stack.client.workflow
      .getHandle(`booking:${granted}`)
      .terminate('test over')
      .catch(() => undefined);
  });

  it('publishes the operator and staff side of it in a valid OpenAPI document', async () => {
    const doc = (await stack.app.inject({ method: 'GET', url: '/api/public/openapi.json' })).json();
    expect(doc.paths['/api/operator/fleet-requests'].get.operationId).toBe('listOperatorFleetRequests');
    expect(doc.paths['/api/operator/fleet-requests/{requestId}/decision'].post.operationId).toBe(
      'answerOperatorFleetRequest',
    );
    expect(doc.paths['/api/operator/drivers/{driverId}'].delete.operationId).toBe('removeOperatorFleetDriver');
    expect(Object.keys(doc.components.schemas.OpsDriver.properties)).toEqual(
      expect.arrayContaining(['fleet_id', 'requested_fleet_id']),
    );
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
  });

  describe.skipIf(!existsSync(CHROMIUM) && !process.env.CI)('on the dashboards, in headless Chromium', () => {
    let browser: Browser;
    let base: string;
    const problems: string[] = [];
    beforeAll(async () => {
      const port = await freePort();
      base = `http://127.0.0.1:${port}`;
      await stack.app.listen({ port, host: '127.0.0.1' });
      browser = await launchChromium();
    });
    afterAll(async () => browser?.close());

    const open = async (path: string, key: string) => {
      const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
      page.on('pageerror', (e) => problems.push(e.message));
      page.on('console', (m) => {
        if (m.type() === 'error' && /Content Security Policy|Refused to/i.test(m.text())) problems.push(m.text());
      });
      await page.goto(`${base}${path}`);
      await signIn(key)(page);
      return page;
    };
    const signIn = (key: string) => async (page: Page) => {
      await page.fill('#key', key);
      await page.click('#key-form button[type=submit]');
    };

    it('lets the operator accept a request on its dashboard, and staff grant one only by ticking the fleet', async () => {
      const op = await newOperator();
      const asking = await apply(op.fleetId, 'Ada Asking');
      const dashboard = await open('/operator', op.key);
      const request = dashboard.locator('tr[data-request]', { hasText: 'Ada Asking' });
      await request.waitFor();
      expect(
        await seriousA11yProblems(browser, `${base}/operator`, { before: signIn(op.key), ready: 'tr[data-request]' }),
      ).toEqual([]);
      await request.locator('button', { hasText: 'Accept' }).click();
      // An applicant joins the fleet now; the operator can give them jobs once staff approve them.
      await dashboard.waitForSelector('#message.ok >> text=Ada Asking joined your fleet.');
      await dashboard.locator('tr[data-request]', { hasText: 'Ada Asking' }).waitFor({ state: 'detached' });
      expect(await membership(asking.id)).toBe(op.fleetId);

      const granted = await apply(op.fleetId, 'Gil Granted');
      const ops = await open('/ops', staffKey);
      const card = ops.locator(`article[data-driver="${granted.id}"]`);
      await card.waitFor();
      expect(await card.textContent()).toContain(`Asks to join fleet${op.fleetId}`);
      expect(
        await seriousA11yProblems(browser, `${base}/ops`, {
          before: signIn(staffKey),
          ready: `article[data-driver="${granted.id}"]`,
        }),
      ).toEqual([]);
      await card.locator('input[type=checkbox]').check();
      await card.locator('button', { hasText: 'Approve' }).click();
      await ops.waitForSelector(`text=Driver ${granted.id}: approve recorded.`);
      expect(await membership(granted.id)).toBe(op.fleetId);
      expect(problems).toEqual([]);
    });
  });
});
