// Partner intake on the real stack (spec 2.4, 4.8): senders retry, duplicate, reorder and batch, and
// none of it may create a second ride or lose a cancel. Credentials, tenant isolation and daily
// limits answer their statuses; an accepted job is an ordinary booking that reaches a driver.
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/auth/api-keys.js';
import { signPartnerRequest } from '../../src/partners/signature.js';
import { createPartner, issueSigningSecret, updatePartner } from '../../src/partners/store.js';
import { createDriver, takeDriversOffline, waitForJobCard, type TestDriver } from '../support/drivers.js';
import { startStack, type TestStack } from '../support/stack.js';

let stack: TestStack;
const created: TestDriver[] = [];
beforeAll(async () => {
  stack = await startStack({ OFFER_TIMEOUT_SECONDS: '30' });
});
afterEach(async () => takeDriversOffline(stack.sql, created.splice(0)));
afterAll(async () => stack?.close());

let n = 0;
const ip = () => `10.98.${Math.floor(n / 250) % 250}.${n++ % 250}`;
// One base time for the file: a job built twice must be the same job.
const BASE = Math.floor(Date.now() / 60_000) * 60_000 + 26 * 3600_000;
const tomorrow = (minutes: number) => new Date(BASE + minutes * 60_000).toISOString();

interface TestPartner {
  id: string;
  key: string;
  secret: string;
}
async function newPartner(
  kind: 'partner' | 'operator' | 'supplier' = 'partner',
  opts: { dailyJobLimit?: number; approved?: boolean } = {},
): Promise<TestPartner> {
  const id = `itk-${randomUUID().slice(0, 8)}`;
  await createPartner(stack.sql, {
    id,
    name: `Partner ${id}`,
    kind,
    liveIntakeApproved: opts.approved ?? true,
    ...(opts.dailyJobLimit !== undefined ? { dailyJobLimit: opts.dailyJobLimit } : {}),
  });
  const { key } = await createApiKey(stack.sql, { name: id, partnerId: id });
  const secret = await issueSigningSecret(stack.sql, stack.config.PARTNER_SECRETS_KEY, id);
  return { id, key, secret };
}

const send = (p: TestPartner, payload: unknown, url = '/api/public/v1/jobs') =>
  stack.app.inject({
    method: 'POST',
    url,
    headers: { authorization: `Bearer ${p.key}`, 'content-type': 'application/json' },
    payload: JSON.stringify(payload),
    remoteAddress: ip(),
  });

function signed(
  p: TestPartner,
  body: string,
  opts: { at?: number; secret?: string; idHeader?: string; url?: string } = {},
) {
  const t = opts.at ?? Math.floor(Date.now() / 1000);
  const signature = signPartnerRequest(opts.secret ?? p.secret, t, {
    method: 'POST',
    target: opts.url ?? '/api/public/v1/jobs',
    body,
  });
  return { [opts.idHeader ?? 'x-partner']: p.id, 'x-signature': signature, 'content-type': 'application/json' };
}

const job = (jobRef: string, extra: object = {}) => ({
  jobRef,
  pickup: 'Hexham station',
  dropoff: 'Hexham',
  pickupTime: tomorrow(0),
  passengerName: 'Ada Lovelace',
  passengerPhone: '+447400123456',
  ...extra,
});

async function bookingsOf(partnerId: string) {
  return stack.sql<{ ref: string; partner_job_ref: string; status: string; passengers: number; fare_pence: number }[]>`
    select ref, partner_job_ref, status, passengers, fare_pence from bookings where partner_id = ${partnerId} order by partner_job_ref`;
}

/** A deterministic shuffle, so a failure can be replayed. */
function shuffled<T>(items: T[], seed: number): T[] {
  const out = [...items];
  let x = seed;
  for (let i = out.length - 1; i > 0; i--) {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    const j = x % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

describe('partner intake', () => {
  it('ends a shuffled batch of 100 with duplicates, amends and cancels, sent twice at once, with each live job booked once', async () => {
    const p = await newPartner();
    const refs = Array.from({ length: 40 }, (_, i) => `B-${String(i).padStart(3, '0')}`);
    const items: object[] = [
      ...refs.map((r) => job(r)),
      ...refs.slice(0, 30).map((r) => job(r)), // duplicates of the new
      ...refs.slice(0, 15).map((r) => job(r, { action: 'amend', passengers: 3 })),
      ...refs.slice(25).map((r) => job(r, { action: 'cancel' })),
    ];
    expect(items).toHaveLength(100);
    const [a, b] = await Promise.all([send(p, shuffled(items, 7)), send(p, shuffled(items, 11))]);
    for (const res of [a, b]) {
      expect([200, 207], res.body).toContain(res.statusCode);
      const body = res.json<{ results: { jobRef: string; outcome: string; code: string }[] }>();
      expect(body.results).toHaveLength(100);
      // Every rejection is a job_ref_conflict-free, explained refusal: amend after cancel never happens here.
      expect(body.results.filter((r) => r.outcome === 'rejected').map((r) => r.code)).toEqual([]);
    }

    const rows = await bookingsOf(p.id);
    const live = rows.filter((r) => r.status !== 'cancelled');
    // Jobs 0-24 are live, each exactly once; 25-39 were cancelled (booked then cancelled, or never booked).
    expect(live.map((r) => r.partner_job_ref)).toEqual(refs.slice(0, 25));
    expect(new Set(rows.map((r) => r.partner_job_ref)).size).toBe(rows.length);
    for (const r of live) expect(r.passengers, r.partner_job_ref).toBe(refs.indexOf(r.partner_job_ref) < 15 ? 3 : 1);
    expect(rows.filter((r) => refs.indexOf(r.partner_job_ref) >= 25).every((r) => r.status === 'cancelled')).toBe(true);

    // Sent a third time, nothing changes.
    const again = await send(p, items);
    expect(again.statusCode).toBe(200);
    expect(await bookingsOf(p.id)).toEqual(rows);
  });

  it('answers 207 with an outcome per job for a mixed batch, and refuses changes to a cancelled job', async () => {
    const p = await newPartner();
    expect((await send(p, job('M-1', { action: 'cancel' }))).json().results[0]).toMatchObject({
      outcome: 'accepted',
      code: 'cancel_held',
      bookingReference: null,
    });
    const res = await send(p, [
      job('M-2', { fare: 42.5 }),
      job('M-3', { passengers: 9 }),
      job('M-1', { action: 'amend' }),
      job('M-1'),
    ]);
    expect(res.statusCode).toBe(207);
    const body = res.json();
    expect(body).toMatchObject({ accepted: 2, rejected: 2 });
    expect(body.results[0]).toMatchObject({ jobRef: 'M-2', outcome: 'accepted', code: 'created' });
    expect(body.results[0].bookingReference).toMatch(/^TX/);
    expect(body.results[1]).toMatchObject({
      jobRef: 'M-3',
      outcome: 'rejected',
      code: 'invalid_job',
      errors: [{ field: 'body[1].passengers' }],
    });
    expect(body.results[2]).toMatchObject({ jobRef: 'M-1', outcome: 'rejected', code: 'job_cancelled' });
    // The cancel came first: the new is accepted but never booked or dispatched.
    expect(body.results[3]).toMatchObject({
      jobRef: 'M-1',
      outcome: 'accepted',
      code: 'cancelled_before_new',
      bookingReference: null,
    });
    const rows = await bookingsOf(p.id);
    expect(rows.map((r) => [r.partner_job_ref, r.fare_pence])).toEqual([['M-2', 4250]]);

    // An amendment may move the drop-off (the agreed fare sent with it is kept), and the time and passengers.
    const moved = await send(p, job('M-2', { action: 'amend', fare: 42.5, dropoff: 'Corbridge' }));
    expect(moved.json().results[0]).toMatchObject({ outcome: 'accepted', code: 'amended' });
    const amended = await send(p, job('M-2', { action: 'amend', fare: 42.5, passengers: 2, pickupTime: tomorrow(30) }));
    expect(amended.json().results[0]).toMatchObject({ outcome: 'accepted', code: 'amended' });
    await expect.poll(async () => (await bookingsOf(p.id))[0]?.passengers).toBe(2);
  });

  it('answers a replayed signed request as the retry it may be, and refuses bad and stale signatures and missing credentials alike', async () => {
    const p = await newPartner();
    const body = JSON.stringify(job('S-1'));
    const post = (headers: Record<string, string>, payload = body) =>
      stack.app.inject({ method: 'POST', url: '/api/public/v1/jobs', headers, payload, remoteAddress: ip() });
    const good = signed(p, body);
    const first = await post(good);
    expect(first.statusCode).toBe(200);
    // Intake is idempotent by jobRef: the same signed bytes again change nothing and say so.
    const replayed = await post(good);
    expect(replayed.statusCode).toBe(200);
    expect(replayed.json().results[0]).toMatchObject({
      code: 'duplicate',
      bookingReference: first.json().results[0].bookingReference,
    });
    expect(await bookingsOf(p.id)).toHaveLength(1);
    const refusals = [
      await post(signed(p, body, { secret: 'pss_not-the-secret' })),
      await post(signed(p, body, { at: Math.floor(Date.now() / 1000) - 3600 })),
      await post({ ...signed(p, body), 'x-partner': 'itk-nobody' }),
      await post({ 'content-type': 'application/json' }),
      await post(signed(p, body), JSON.stringify(job('S-1', { passengers: 2 }))),
    ];
    for (const r of refusals) {
      expect(r.statusCode).toBe(401);
      // One answer whatever was wrong.
      expect(r.json()).toMatchObject({ code: 'invalid_credentials', detail: 'Missing or invalid credentials.' });
    }
    // A rotated secret: the old one still works during the overlap, alongside the new one.
    const fresh = await issueSigningSecret(stack.sql, stack.config.PARTNER_SECRETS_KEY, p.id, 3600);
    const b2 = JSON.stringify(job('S-2'));
    expect((await post(signed(p, b2), b2)).statusCode).toBe(200);
    const b3 = JSON.stringify(job('S-3'));
    expect((await post(signed(p, b3, { secret: fresh }), b3)).statusCode).toBe(200);
  });

  it('keeps each partner to its own job references, and refuses each job of a partner not allowed to book', async () => {
    const a = await newPartner();
    const b = await newPartner();
    expect((await send(a, job('SHARED-1'))).statusCode).toBe(200);
    // The same reference from another partner is that partner's own job: A's booking is untouched.
    expect((await send(b, job('SHARED-1', { action: 'cancel' }))).json().results[0]).toMatchObject({
      code: 'cancel_held',
    });
    expect((await bookingsOf(a.id)).map((r) => r.status)).not.toContain('cancelled');
    expect(await bookingsOf(b.id)).toEqual([]);
    // An operator's key is not a partner credential.
    const op = await newPartner('operator');
    expect((await send(op, job('X-1'))).statusCode).toBe(401);
    await updatePartner(stack.sql, b.id, { allowedToBook: false });
    // Spec 4.8 lists no 403 for intake: each job is refused, and nothing is booked.
    const refused = await send(b, [job('SHARED-2'), job('SHARED-3')]);
    expect(refused.statusCode).toBe(207);
    expect(refused.json()).toMatchObject({
      accepted: 0,
      rejected: 2,
      results: [
        { jobRef: 'SHARED-2', outcome: 'rejected', code: 'partner_not_allowed' },
        { jobRef: 'SHARED-3', code: 'partner_not_allowed' },
      ],
    });
    expect(await bookingsOf(b.id)).toEqual([]);
  });

  it('stops new jobs at the daily limit with 429, but still takes amends, cancels and repeats of counted jobs', async () => {
    const p = await newPartner('partner', { dailyJobLimit: 2 });
    expect((await send(p, [job('L-1'), job('L-2')])).statusCode).toBe(200);
    const over = await send(p, job('L-3'));
    expect(over.statusCode).toBe(429);
    expect(over.json().code).toBe('daily_limit_reached');
    const mixed = await send(p, [job('L-1'), job('L-4'), job('L-2', { action: 'cancel' })]);
    expect(mixed.statusCode).toBe(207);
    expect(mixed.json().results.map((r: { code: string }) => r.code)).toEqual([
      'duplicate',
      'daily_limit_reached',
      'cancelled',
    ]);
  });

  it('refuses bodies that are not jobs with 400 naming what is wrong', async () => {
    const p = await newPartner();
    const cases: [unknown, string][] = [
      [Array.from({ length: 101 }, (_, i) => job(`T-${i}`)), 'too_many_jobs'],
      ['just a string', 'invalid_body'],
      [[], 'invalid_body'],
      [{ jobs: [job('T-1')] }, 'validation_failed'],
      [job('T-\u0000'), 'validation_failed'],
      [[{ jobRef: 'T-2' }, job('T-3', { pickupTime: 'tomorrow' })], 'validation_failed'],
    ];
    for (const [payload, code] of cases) {
      const res = await send(p, payload);
      expect(res.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
      expect(res.json().code).toBe(code);
    }
    const many = (await send(p, [{ jobRef: 'T-2' }])).json();
    expect(many.errors.map((e: { field: string }) => e.field)).toEqual(
      expect.arrayContaining(['body[0].pickup', 'body[0].pickupTime']),
    );
    const notJson = await stack.app.inject({
      method: 'POST',
      url: '/api/public/v1/jobs',
      headers: { authorization: `Bearer ${p.key}`, 'content-type': 'application/json' },
      payload: '{"jobRef":',
      remoteAddress: ip(),
    });
    expect(notJson.statusCode).toBe(400);
    expect(await bookingsOf(p.id)).toEqual([]);
  });

  it('takes supplier and aggregator jobs by their own secrets or signatures, idempotent by jobRef', async () => {
    const supplier = await newPartner('supplier');
    const hook = (url: string, headers: Record<string, string>, payload: unknown) =>
      stack.app.inject({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/json', ...headers },
        payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
        remoteAddress: ip(),
      });
    const supplierA = '/api/public/hooks/supplier-a-booking';
    expect(
      (await hook(supplierA, { 'x-supplier-a-secret': 'ntk_wrong-secret-wrong-secret' }, job('SA-1'))).statusCode,
    ).toBe(401);
    expect((await hook(supplierA, {}, job('SA-1'))).statusCode).toBe(401);
    const first = await hook(supplierA, { 'x-supplier-a-secret': supplier.key }, job('SA-1'));
    expect(first.statusCode).toBe(200);
    const again = await hook(
      supplierA,
      { 'x-supplier-a-secret': supplier.key },
      { jobs: [job('SA-1'), job('SA-1', { action: 'cancel' })] },
    );
    expect(again.json().results.map((r: { code: string }) => r.code)).toEqual(['duplicate', 'cancelled']);
    expect((await bookingsOf(supplier.id)).map((r) => [r.partner_job_ref, r.status])).toEqual([['SA-1', 'cancelled']]);
    // A partner's key is not a supplier's secret.
    const partner = await newPartner();
    expect((await hook(supplierA, { 'x-supplier-a-secret': partner.key }, job('SA-2'))).statusCode).toBe(401);

    const aggregator = '/api/public/hooks/aggregator-booking';
    const batch = JSON.stringify([job('AG-1'), job('AG-2')]);
    expect((await hook(aggregator, signed(partner, batch, { url: aggregator }), batch)).statusCode).toBe(200);
    expect((await hook(aggregator, { 'x-aggregator-secret': partner.key }, [job('AG-1')])).json().results[0].code).toBe(
      'duplicate',
    );
    expect(
      (await hook(aggregator, { 'x-aggregator-secret': 'ntk_not-the-aggregator-secret' }, [job('AG-3')])).statusCode,
    ).toBe(401);
    expect((await bookingsOf(partner.id)).map((r) => r.partner_job_ref)).toEqual(['AG-1', 'AG-2']);
  });

  it('sends an accepted job through the same cascade to a driver, who gets the job card', async () => {
    const p = await newPartner();
    const d = await createDriver(stack.sql, { lat: 54.9735, lon: -2.0977, homeArea: 'national-default' });
    created.push(d);
    const res = await send(p, job('D-1', { pickupTime: new Date(Date.now() + 60_000).toISOString() }));
    expect(res.statusCode).toBe(200);
    const ref = res.json().results[0].bookingReference as string;
    const card = await waitForJobCard(stack.sql, d, ref);
    expect(card.body).toContain('Hexham');
  });
});
