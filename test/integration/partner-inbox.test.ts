// The partner inbox (issue 37, item 1; docs/partners.md "The inbox"): a request's jobs are written
// in one transaction, each with its booking reference, and answered at once (no reply budget: the
// service's default); the worker's drain then books each exactly once, under the reference the
// reply gave, in the order sent for each jobRef. A rejected item's fields are named where the
// sender wrote them.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/auth/api-keys.js';
import { createPartner } from '../../src/partners/store.js';
import { startStack, type TestStack } from '../support/stack.js';
import { until } from '../support/time-skipping.js';

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack({ INTAKE_REPLY_BUDGET_MS: '0' });
});
afterAll(async () => stack?.close());

const TOMORROW = Math.floor(Date.now() / 60_000) * 60_000 + 26 * 3600_000;
let n = 0;
const ip = () => `10.97.${Math.floor(n / 250) % 250}.${n++ % 250}`;

async function newSender(kind: 'partner' | 'supplier' = 'partner') {
  const id = `inbox-${randomUUID().slice(0, 8)}`;
  await createPartner(stack.sql, { id, name: `Partner ${id}`, kind, dailyJobLimit: 100_000 });
  const { key } = await createApiKey(stack.sql, { name: id, partnerId: id });
  return { id, key };
}

const job = (jobRef: string, i: number, extra: object = {}) => ({
  jobRef,
  pickup: 'Hexham station',
  dropoff: 'Hexham',
  pickupTime: new Date(TOMORROW + i * 60_000).toISOString(),
  passengerName: 'Ada Lovelace',
  passengerPhone: '+447400123456',
  ...extra,
});

const post = (key: string, payload: unknown, url = '/api/public/v1/jobs') =>
  stack.app.inject({
    method: 'POST',
    url,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    payload: JSON.stringify(payload),
    remoteAddress: ip(),
  });

interface Result {
  jobRef: string;
  outcome: string;
  code: string;
  bookingReference: string | null;
  errors?: { field: string; message: string }[];
}

describe('the partner inbox', () => {
  it('answers 100 new jobs 200 with 100 references at once, then books each once under its reference', async () => {
    const p = await newSender();
    const jobs = Array.from({ length: 100 }, (_, i) => job(`IN-${String(i).padStart(3, '0')}`, i));
    const res = await post(p.key, jobs);
    expect(res.statusCode, res.body).toBe(200);
    const results = res.json<{ accepted: number; results: Result[] }>().results;
    expect(results.map((r) => `${r.jobRef} ${r.outcome} ${r.code}`)).toEqual(
      jobs.map((j) => `${j.jobRef} accepted processing`),
    );
    const refs = results.map((r) => r.bookingReference);
    expect(refs.every((r) => typeof r === 'string' && /^TX[0-9A-Z]{10}$/.test(r))).toBe(true);
    expect(new Set(refs).size).toBe(100);

    // Booked by the drain, each once, under the reference the reply gave.
    const rows = await until(
      () => stack.sql<{ ref: string; partner_job_ref: string }[]>`
        select ref, partner_job_ref from bookings where partner_id = ${p.id} order by partner_job_ref`,
      (r) => r.length >= 100,
      'every job booked',
    );
    expect(rows.map((r) => `${r.partner_job_ref} ${r.ref}`)).toEqual(
      results.map((r) => `${r.jobRef} ${r.bookingReference}`),
    );
    const look = await stack.app.inject({
      method: 'GET',
      url: `/api/public/v1/partner/jobs/IN-007`,
      headers: { authorization: `Bearer ${p.key}` },
    });
    expect(look.json()).toMatchObject({ state: 'booked', bookingReference: refs[7] });

    await until(
      () => stack.sql<{ n: number }[]>`
        select count(*)::int as n from partner_inbox where partner_id = ${p.id} and done_at is null`,
      (r) => r[0]?.n === 0,
      'the inbox drained',
    );
    // Sent again: duplicates answered from the record, with the same references; nothing more booked.
    const again = await post(p.key, jobs);
    expect(again.statusCode).toBe(200);
    expect(again.json<{ results: Result[] }>().results.map((r) => `${r.code} ${r.bookingReference}`)).toEqual(
      refs.map((r) => `duplicate ${r}`),
    );
    const [count] = await stack.sql<
      { n: number }[]
    >`select count(*)::int as n from bookings where partner_id = ${p.id}`;
    expect(count?.n).toBe(100);
  });

  it("applies one jobRef's new and amendments in the order sent, after the reply", async () => {
    const p = await newSender();
    const res = await post(p.key, [
      job('ORD-1', 0),
      job('ORD-1', 0, { action: 'amend', passengers: 3 }),
      job('ORD-1', 0, { action: 'amend', passengers: 5 }),
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const [first, ...amends] = res.json<{ results: Result[] }>().results;
    // The amendments name the booking the new is made as.
    expect(amends.map((r) => r.bookingReference)).toEqual([first!.bookingReference, first!.bookingReference]);
    await until(
      () => stack.sql<{ n: number }[]>`
        select count(*)::int as n from partner_inbox where partner_id = ${p.id} and done_at is null`,
      (r) => r[0]?.n === 0,
      'the inbox drained',
    );
    const outcomes = await stack.sql<{ code: string }[]>`
      select outcome ->> 'code' as code from partner_inbox where partner_id = ${p.id} order by id`;
    expect(outcomes.map((o) => o.code)).toEqual(['created', 'amended', 'amended']);
    const [booking] = await stack.sql<{ ref: string; passengers: number }[]>`
      select ref, passengers from bookings where partner_id = ${p.id}`;
    expect(booking).toEqual({ ref: first!.bookingReference, passengers: 5 });
    // The lookup says what the last of them came to.
    const look = await stack.app.inject({
      method: 'GET',
      url: '/api/public/v1/partner/jobs/ORD-1',
      headers: { authorization: `Bearer ${p.key}` },
    });
    expect(look.json()).toMatchObject({
      state: 'booked',
      bookingReference: first!.bookingReference,
      lastJob: { action: 'amend', outcome: 'accepted', code: 'amended' },
    });
  });

  it('tells the sender of a job refused after its reply, by a job.rejected event in the booking’s order', async () => {
    const p = await newSender();
    const res = await post(p.key, [
      job('REJ-1', 0),
      job('REJ-1', 0, { action: 'cancel' }),
      job('REJ-1', 0, { action: 'amend', passengers: 3 }),
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const ref = res.json<{ results: Result[] }>().results[0]!.bookingReference!;
    await until(
      () => stack.sql<{ n: number }[]>`
        select count(*)::int as n from partner_inbox where partner_id = ${p.id} and done_at is null`,
      (r) => r[0]?.n === 0,
      'the inbox drained',
    );
    const [late] = await stack.sql<{ code: string; message: string }[]>`
      select outcome ->> 'code' as code, outcome ->> 'message' as message from partner_inbox
       where partner_id = ${p.id} and action = 'amend'`;
    expect(late!.code).not.toBe('amended');
    const listed = await stack.app.inject({
      method: 'GET',
      url: `/api/public/v1/partner/events?bookingReference=${ref}`,
      headers: { authorization: `Bearer ${p.key}` },
    });
    expect(listed.statusCode, listed.body).toBe(200);
    type Listed = { event: { type: string; data: Record<string, unknown> } };
    const events = listed.json<{ events: Listed[] }>().events.map((e) => e.event);
    const last = events.at(-1)!;
    expect(last).toMatchObject({
      type: 'job.rejected',
      data: { bookingReference: ref, jobRef: 'REJ-1', status: 'cancelled', action: 'amend', code: late!.code },
    });
    expect(last.data.message).toBe(late!.message);
    expect(events.map((e) => e.data.sequence)).toEqual(events.map((_, i) => i + 1));
    expect(events.filter((e) => e.type === 'job.rejected')).toHaveLength(1);
  });

  it('names a rejected item’s fields where the sender wrote them: body.jobs[1].pickup, never body.body[1].pickup', async () => {
    const s = await newSender('supplier');
    const res = await post(
      s.key,
      {
        jobs: [
          job('FP-0', 0),
          job('FP-1', 1, { pickup: 'Qwxzv Plkjh Nowhere Zzyzx', passengerPhone: '12' }),
          { ...job('FP-2', 2), passengers: 12 },
          { jobRef: 'FP-3', action: 'cancel' },
        ],
      },
      '/api/public/hooks/aggregator-booking',
    );
    expect(res.statusCode, res.body).toBe(207);
    const [ok, unpriced, invalid, bare] = res.json<{ results: Result[] }>().results;
    expect(ok).toMatchObject({ outcome: 'accepted' });
    expect(unpriced!.outcome).toBe('rejected');
    expect(unpriced!.errors!.map((e) => e.field)).toEqual(expect.arrayContaining(['body.jobs[1].passengerPhone']));
    expect(invalid).toMatchObject({
      outcome: 'rejected',
      code: 'invalid_job',
      errors: [{ field: 'body.jobs[2].passengers' }],
    });
    // A field left out says so, in the words every route's 400 uses (not zod's "expected string").
    expect(bare).toMatchObject({ jobRef: 'FP-3', action: 'cancel', outcome: 'rejected', code: 'invalid_job' });
    expect(bare!.errors).toEqual([
      { field: 'body.jobs[3].pickup', message: 'is required' },
      { field: 'body.jobs[3].dropoff', message: 'is required' },
      { field: 'body.jobs[3].pickupTime', message: 'is required' },
    ]);
    const fields = JSON.stringify(res.json());
    expect(fields).not.toContain('body.body');
  });

  it('carries on a rejected line the suggestions and question its message mentions, and mentions none it lacks', async () => {
    const p = await newSender();
    const res = await post(p.key, [
      job('SG-0', 0, { pickup: '1 Deansgate, Manchester', dropoff: 'Manchester Piccadilly station' }),
      job('SG-1', 1, { pickup: 'Castle Street' }),
    ]);
    expect(res.statusCode, res.body).toBe(207);
    type Line = Result & { message: string; suggestions?: { label: string }[]; question?: string };
    const [deansgate, castle] = res.json<{ results: Line[] }>().results;
    expect(deansgate).toMatchObject({ outcome: 'rejected', code: 'address_uncertain', question: 'postcode' });
    expect(deansgate!.message).toMatch(/choose a suggestion/);
    expect(deansgate!.suggestions!.length).toBeGreaterThan(0);
    expect(deansgate!.suggestions!.length).toBeLessThanOrEqual(5);
    expect(deansgate!.suggestions!.map((x) => x.label).join(' ')).toMatch(/Deansgate|Manchester/);
    // Nothing to choose from: the line says so by not offering any.
    expect(castle).toMatchObject({ outcome: 'rejected', code: 'address_uncertain' });
    expect(castle!.suggestions).toBeUndefined();
    expect(JSON.stringify(castle)).not.toMatch(/suggestion/);
  });
});
