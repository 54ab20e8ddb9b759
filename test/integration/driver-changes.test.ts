// Drivers keep their papers current (issue 24, item 5) on the real stack: a driver whose licence
// lapsed sends the renewed one from the app, staff approve it in the ops console (recorded), the
// driver record changes, the licence watch starts again and the driver gets jobs again at once; a
// refusal says why; a new phone is proved by a code texted to it; bad input is a 400 in plain words.
import { licenceStateQuery, licenceWorkflowId } from '../../workflows/drivers/definitions.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaff } from '../../src/auth/staff.js';
import { MAX_DOCUMENT_BASE64_CHARS } from '../../src/drivers/application-limits.js';
import { textedCode, testMobile } from '../support/drivers.js';
import { eventually, STACK_WAIT_MS, startStack, type TestStack } from '../support/stack.js';

let stack: TestStack;
let operator: string;
beforeAll(async () => {
  stack = await startStack();
  operator = (await createStaff(stack.sql, { name: 'Priya (ops)', role: 'operator' })).key;
});
afterAll(async () => {
  if (stack) await stack.sql`update drivers set online = false where id like 'drv_%'`;
  await stack?.close();
});

let n = 0;
const ip = () => `10.97.${Math.floor(n / 250) % 250}.${n++ % 250}`;
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF').toString('base64');
const PNG_BYTES = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
const PNG = PNG_BYTES.toString('base64');
const day = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

function call(method: 'GET' | 'POST', url: string, o: { body?: unknown; bearer?: string } = {}) {
  return stack.app.inject({
    method,
    url,
    remoteAddress: ip(),
    ...(o.body === undefined ? {} : { payload: o.body as object }),
    headers: o.bearer ? { authorization: `Bearer ${o.bearer}` } : {},
  });
}

async function approvedDriver() {
  const phone = testMobile();
  const applied = await call('POST', '/api/drivers/applications', {
    body: {
      name: 'Sam Renew',
      phone,
      email: 'sam.renew@example.com',
      licensing_authority: 'Northumberland County Council',
      driver_licence_number: 'NCC-D-5678',
      driver_licence_expires: day(400),
      vehicle_licence_number: 'NCC-V-77',
      vehicle_licence_expires: day(200),
      vehicle_make: 'Skoda',
      vehicle_model: 'Octavia',
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
    },
  });
  expect(applied.statusCode, applied.body).toBe(201);
  const id = applied.json<{ driver_id: string }>().driver_id;
  expect(
    (
      await call('POST', `/api/ops/drivers/${id}/decision`, {
        body: { action: 'approve', reason: null },
        bearer: operator,
      })
    ).statusCode,
  ).toBe(200);
  expect((await call('POST', '/api/driver/sign-in', { body: { phone } })).statusCode).toBe(202);
  const code = await textedCode(stack.sql, phone, '%sign-in code%');
  const token = (await call('POST', '/api/driver/sign-in/verify', { body: { phone, code } })).json<{ token: string }>()
    .token;
  return { id, phone, token };
}

type Me = {
  receiving_jobs: { yes: boolean; reason: string | null; message: string | null };
  licence_notice: string | null;
};
type Change = {
  id: string;
  status: string;
  summary: string;
  reason: string | null;
  documents: { id: string; kind: string }[];
};

describe('drivers keeping their papers current', () => {
  it('takes a lapsed driver from a renewed licence through staff approval back to getting jobs, the licence watch started again', async () => {
    const { id, phone, token } = await approvedDriver();
    const watch = stack.client.workflow.getHandle(licenceWorkflowId(id));
    await eventually(
      async () => ((await watch.describe()).status.name === 'RUNNING' ? true : undefined),
      STACK_WAIT_MS,
      'the licence watch',
    );
    // The vehicle licence ran out yesterday and the watch, having waited past its last day, ended.
    await stack.sql`update drivers set vehicle_licence_expires = ${day(-1)} where id = ${id}`;
    await watch.terminate('the licence lapsed (the watch ends itself after the last valid day)');
    await call('POST', '/api/driver/availability', { body: { online: true }, bearer: token });
    await call('POST', '/api/driver/location', { body: { lat: 55.17, lon: -1.69 }, bearer: token });
    const lapsed = (await call('GET', '/api/driver/me', { bearer: token })).json<Me>();
    expect(lapsed.receiving_jobs).toMatchObject({ yes: false, reason: 'licence_expired' });
    expect(lapsed.receiving_jobs.message).toContain('send the renewed one');

    const renewal = (expires: string) => ({
      vehicle_licence: { expires, document: { content_type: 'image/png', data_base64: PNG } },
    });
    const first = await call('POST', '/api/driver/changes/licences', { body: renewal(day(300)), bearer: token });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json()).toMatchObject({
      replaced: false,
      message: 'Your renewed licence is waiting for review.',
      change: { status: 'pending' },
    });
    // A second one replaces it, and says so; only the second waits.
    const second = await call('POST', '/api/driver/changes/licences', { body: renewal(day(365)), bearer: token });
    expect(second.json()).toMatchObject({
      replaced: true,
      change: { status: 'pending', summary: `Vehicle licence to ${day(365)}` },
    });
    expect(second.json<{ message: string }>().message).toContain('replaces the renewed licence you sent before');
    const mine = (await call('GET', '/api/driver/changes', { bearer: token })).json<{ changes: Change[] }>().changes;
    expect(mine.map((c) => c.status)).toEqual(['pending']);
    const changeId = second.json<{ change: Change }>().change.id;

    // Staff only: the list, the document, the decision.
    expect((await call('GET', '/api/ops/driver-changes')).statusCode).toBe(401);
    expect(
      (
        await call('POST', `/api/ops/driver-changes/${changeId}/decision`, {
          body: { action: 'approve' },
          bearer: token,
        })
      ).statusCode,
    ).toBe(401);
    const pending = (await call('GET', '/api/ops/driver-changes', { bearer: operator })).json<{
      changes: Array<Change & { driver_id: string; current: Record<string, unknown> }>;
    }>().changes;
    const listed = pending.find((c) => c.id === changeId)!;
    expect(listed).toMatchObject({
      driver_id: id,
      driver_name: 'Sam Renew',
      current: { vehicleLicenceExpires: day(-1) },
    });
    expect(pending.some((c) => c.id === first.json<{ change: Change }>().change.id)).toBe(false);
    const file = await call('GET', `/api/ops/driver-changes/${changeId}/documents/${listed.documents[0]!.id}`, {
      bearer: operator,
    });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-disposition']).toMatch(/^attachment/);
    expect(file.rawPayload.equals(PNG_BYTES)).toBe(true);

    const approved = await call('POST', `/api/ops/driver-changes/${changeId}/decision`, {
      body: { action: 'approve', reason: null },
      bearer: operator,
    });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json()).toMatchObject({ change: { status: 'approved' } });
    const [row] = await stack.sql<
      { v: string }[]
    >`select vehicle_licence_expires::text as v from drivers where id = ${id}`;
    expect(row!.v).toBe(day(365));
    expect(
      await stack.sql`select action from staff_actions where subject_id = ${id} and action = 'driver.change_approve'`,
    ).toHaveLength(1);
    expect(
      await stack.sql`select 1 from driver_documents where driver_id = ${id} and kind = 'vehicle_licence'`,
    ).toHaveLength(2);
    const texts = await stack.sql<
      { body: string }[]
    >`select body from outbox where recipient = ${phone} and body like '%renewed licence is approved%'`;
    expect(texts).toHaveLength(1);
    // Offered jobs again at once, and the licence watch is running again, on the new dates.
    expect((await call('GET', '/api/driver/me', { bearer: token })).json<Me>().receiving_jobs).toMatchObject({
      yes: true,
      reason: null,
    });
    const restarted = stack.client.workflow.getHandle(licenceWorkflowId(id));
    expect((await restarted.describe()).status.name).toBe('RUNNING');
    expect(await restarted.query(licenceStateQuery)).toMatchObject({
      vehicleLicenceExpires: day(365),
      expires: day(365),
    });
    // Approving again is a retry: nothing twice.
    expect(
      (
        await call('POST', `/api/ops/driver-changes/${changeId}/decision`, {
          body: { action: 'approve', reason: null },
          bearer: operator,
        })
      ).statusCode,
    ).toBe(200);
    expect(
      await stack.sql`select 1 from outbox where recipient = ${phone} and body like '%renewed licence is approved%'`,
    ).toHaveLength(1);
    expect(
      (
        await call('POST', `/api/ops/driver-changes/${changeId}/decision`, {
          body: { action: 'refuse', reason: 'changed my mind' },
          bearer: operator,
        })
      ).statusCode,
    ).toBe(409);
    expect(
      (await call('GET', '/api/driver/changes', { bearer: token })).json<{ changes: Change[] }>().changes[0],
    ).toMatchObject({ id: changeId, status: 'approved' });
  });

  it('refuses a vehicle change with a reason the driver is told, leaving the record as it was', async () => {
    const { id, phone, token } = await approvedDriver();
    const sent = await call('POST', '/api/driver/changes/vehicle', {
      body: {
        vehicle_registration: 'ma19xyz',
        vehicle_colour: 'Silver',
        vehicle_type: 'estate',
        seats: 5,
        wheelchair_accessible: false,
      },
      bearer: token,
    });
    expect(sent.statusCode, sent.body).toBe(201);
    const change = sent.json<{ change: Change }>().change;
    expect(change.summary).toBe('MA19 XYZ, silver, estate, 5 seats');
    const noReason = await call('POST', `/api/ops/driver-changes/${change.id}/decision`, {
      body: { action: 'refuse', reason: '' },
      bearer: operator,
    });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json<{ detail: string }>().detail).toContain('Say why');
    const refused = await call('POST', `/api/ops/driver-changes/${change.id}/decision`, {
      body: { action: 'refuse', reason: 'The V5C photo is unreadable.' },
      bearer: operator,
    });
    expect(refused.statusCode, refused.body).toBe(200);
    const [d] = await stack.sql<
      { vehicle_registration: string; vehicle_type: string; seats: number }[]
    >`select vehicle_registration, vehicle_type, seats from drivers where id = ${id}`;
    expect(d).toEqual({ vehicle_registration: 'AB12 CDE', vehicle_type: 'saloon', seats: 4 });
    expect(
      (await call('GET', '/api/driver/changes', { bearer: token })).json<{ changes: Change[] }>().changes[0],
    ).toMatchObject({ status: 'refused', reason: 'The V5C photo is unreadable.' });
    const [text] = await stack.sql<
      { body: string }[]
    >`select body from outbox where recipient = ${phone} and body like '%not approved%'`;
    expect(text!.body).toContain('The V5C photo is unreadable.');
    expect(
      await stack.sql`select reason from staff_actions where subject_id = ${id} and action = 'driver.change_refuse'`,
    ).toEqual([{ reason: 'The V5C photo is unreadable.' }]);
  });

  it('changes the phone once the new number has proved itself with a texted code and staff approve', async () => {
    const { id, token } = await approvedDriver();
    const newPhone = testMobile();
    const asked = await call('POST', '/api/driver/changes/phone/code', {
      body: { phone: `0${newPhone.slice(3, 7)} ${newPhone.slice(7)}` },
      bearer: token,
    });
    expect(asked.statusCode, asked.body).toBe(202);
    const code = await textedCode(stack.sql, newPhone, '%new driver phone%');
    const wrong = await call('POST', '/api/driver/changes/phone', {
      body: { phone: newPhone, code: code === '000000' ? '111111' : '000000' },
      bearer: token,
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json<{ detail: string }>().detail).toContain('That code is not right');
    const sent = await call('POST', '/api/driver/changes/phone', { body: { phone: newPhone, code }, bearer: token });
    expect(sent.statusCode, sent.body).toBe(201);
    expect(await stack.sql`select phone from drivers where id = ${id}`).not.toEqual([{ phone: newPhone }]);
    const changeId = sent.json<{ change: Change }>().change.id;
    expect(
      (
        await call('POST', `/api/ops/driver-changes/${changeId}/decision`, {
          body: { action: 'approve', reason: null },
          bearer: operator,
        })
      ).statusCode,
    ).toBe(200);
    expect(await stack.sql`select phone from drivers where id = ${id}`).toEqual([{ phone: newPhone }]);
    expect(
      await stack.sql`select 1 from outbox where recipient = ${newPhone} and body like '%new phone number is approved%'`,
    ).toHaveLength(1);
  });

  it('answers a code for another driver’s phone exactly as for a free number, counted the same, and refuses it only when its code comes back', async () => {
    const { token } = await approvedDriver();
    const other = await approvedDriver();
    const free = testMobile();
    // From one address, as a driver's phone would ask: the same answers and the same allowance for both numbers.
    const from = '10.97.250.1';
    const ask = (phone: string) =>
      stack.app.inject({
        method: 'POST',
        url: '/api/driver/changes/phone/code',
        remoteAddress: from,
        payload: { phone },
        headers: { authorization: `Bearer ${token}` },
      });
    const answers = {
      taken: [] as { status: number; body: unknown }[],
      free: [] as { status: number; body: unknown }[],
    };
    for (let i = 0; i < 4; i++) {
      const t = await ask(other.phone);
      const f = await ask(free);
      answers.taken.push({
        status: t.statusCode,
        body: t.statusCode === 202 ? { ...t.json<object>(), phone: 'x' } : t.json<{ code: string }>().code,
      });
      answers.free.push({
        status: f.statusCode,
        body: f.statusCode === 202 ? { ...f.json<object>(), phone: 'x' } : f.json<{ code: string }>().code,
      });
    }
    expect(answers.taken.map((a) => a.status)).toEqual([202, 202, 202, 429]);
    expect(answers.taken).toEqual(answers.free);
    // The code goes to the number either way (a driver's one pending phone code is the last asked for,
    // so a driver of its own asks here); whoever holds the phone learns, on confirming, that another driver uses it.
    const holder = await approvedDriver();
    const bearer = { authorization: `Bearer ${holder.token}` };
    expect(
      (
        await stack.app.inject({
          method: 'POST',
          url: '/api/driver/changes/phone/code',
          remoteAddress: '10.97.250.2',
          payload: { phone: other.phone },
          headers: bearer,
        })
      ).statusCode,
    ).toBe(202);
    const code = await textedCode(stack.sql, other.phone, '%new driver phone%');
    const confirmed = await stack.app.inject({
      method: 'POST',
      url: '/api/driver/changes/phone',
      remoteAddress: '10.97.250.2',
      payload: { phone: other.phone, code },
      headers: bearer,
    });
    expect(confirmed.statusCode, confirmed.body).toBe(409);
    expect(confirmed.json().code).toBe('phone_in_use');
    expect((await call('GET', '/api/driver/changes', { bearer: holder.token })).json()).toEqual({ changes: [] });
  });

  it('answers bad input with a 400 naming every field in plain words', async () => {
    const { token } = await approvedDriver();
    const control = await call('POST', '/api/driver/changes/vehicle', {
      body: {
        vehicle_registration: 'MA19\u0007XYZ',
        vehicle_colour: 'silver',
        vehicle_type: 'saloon',
        seats: 4,
        wheelchair_accessible: false,
      },
      bearer: token,
    });
    expect(control.statusCode).toBe(400);
    expect(control.json()).toMatchObject({
      errors: [{ field: 'body.vehicle_registration', message: 'must not contain control characters' }],
    });

    const vehicle = await call('POST', '/api/driver/changes/vehicle', {
      body: {
        vehicle_registration: 'MA19-XYZ!',
        vehicle_colour: 'silver 2',
        vehicle_type: 'spaceship',
        seats: 40,
        wheelchair_accessible: false,
      },
      bearer: token,
    });
    expect(vehicle.statusCode).toBe(400);
    expect(vehicle.json<{ errors: { field: string; message: string }[] }>().errors).toEqual([
      { field: 'body.vehicle_registration', message: 'must be a UK registration' },
      { field: 'body.vehicle_colour', message: 'may contain only letters, spaces and hyphens' },
      {
        field: 'body.vehicle_type',
        message: 'must be one of: saloon, estate, executive, luxury, 5seater, 6seater, 7seater, mpv, wav',
      },
      { field: 'body.seats', message: 'must be 1 to 16' },
    ]);

    const oversize = await call('POST', '/api/driver/changes/licences', {
      body: {
        driver_licence: {
          expires: day(300),
          document: { content_type: 'application/pdf', data_base64: 'A'.repeat(MAX_DOCUMENT_BASE64_CHARS + 4) },
        },
      },
      bearer: token,
    });
    expect(oversize.statusCode).toBe(400);
    expect(oversize.json<{ errors: { field: string; message: string }[] }>().errors).toEqual([
      {
        field: 'body.driver_licence.document.data_base64',
        message: 'must be at most 3 MB (4194304 base64 characters)',
      },
    ]);

    // Past the schema: every rule the use case checks, said at once.
    const wrong = await call('POST', '/api/driver/changes/licences', {
      body: {
        driver_licence: { expires: day(-3), document: { content_type: 'application/pdf', data_base64: PNG } },
        vehicle_licence: { expires: day(10), document: { content_type: 'image/png', data_base64: PNG } },
      },
      bearer: token,
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json<{ errors: { field: string; message: string }[] }>().errors).toEqual([
      { field: 'body.driver_licence.expires', message: 'is in the past: send the renewed licence' },
      {
        field: 'body.driver_licence.document.content_type',
        message: 'must be a PDF, JPEG or PNG, and be what it says it is',
      },
      { field: 'body.vehicle_licence.expires', message: `must be later than the expiry date we hold (${day(200)})` },
    ]);
    const nothing = await call('POST', '/api/driver/changes/licences', { body: {}, bearer: token });
    expect(nothing.json<{ errors: { message: string }[] }>().errors[0]!.message).toBe(
      'send the renewed driver licence, the renewed vehicle licence, or both',
    );
    expect((await call('GET', '/api/driver/changes', { bearer: token })).json()).toEqual({ changes: [] });
  });
});
