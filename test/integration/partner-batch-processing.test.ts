// A job that is slow to apply is a per-job outcome the sender can follow up, never a failed request
// (issue 22, item 2). With no reply budget at all, every job the job workflow takes in is answered
// `processing`; each is applied all the same, exactly once, and its jobRef shows what became of it.
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

describe('jobs slower than the reply budget', () => {
  it('are answered processing, then booked once each, and their jobRefs say so', async () => {
    const id = `slow-${randomUUID().slice(0, 8)}`;
    await createPartner(stack.sql, { id, name: `Partner ${id}`, kind: 'partner' });
    const { key } = await createApiKey(stack.sql, { name: id, partnerId: id });
    const jobs = Array.from({ length: 5 }, (_, i) => ({
      jobRef: `SLOW-${i}`,
      pickup: '10 Wilmslow Road, Rusholme, Manchester M14 5TQ',
      dropoff: 'Manchester Piccadilly station',
      pickupTime: new Date(TOMORROW + i * 600_000).toISOString(),
      passengerName: 'Sam Patel',
      passengerPhone: '+447400123456',
    }));
    const send = () =>
      stack.app.inject({
        method: 'POST',
        url: '/api/public/v1/jobs',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        payload: JSON.stringify(jobs),
      });
    const res = await send();
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().results.map((r: { outcome: string; code: string }) => `${r.outcome} ${r.code}`)).toEqual(
      jobs.map(() => 'accepted processing'),
    );

    const lookUp = (ref: string) =>
      stack.app.inject({
        method: 'GET',
        url: `/api/public/v1/partner/jobs/${ref}`,
        headers: { authorization: `Bearer ${key}` },
      });
    for (const j of jobs) {
      const booked = await until(
        async () => (await lookUp(j.jobRef)).json(),
        (v) => v.state === 'booked',
        `${j.jobRef} booked`,
      );
      expect(booked).toMatchObject({
        jobRef: j.jobRef,
        bookingReference: expect.stringMatching(/^[A-Z0-9]+$/),
        pickupAt: j.pickupTime,
      });
    }
    // Sent again once applied: duplicates, answered from the record at once; still one booking each.
    // (Once the inbox has finished with the first sending too: a job sent while an earlier one for its
    // reference is still in the inbox waits behind it, and with no budget is answered processing. The
    // jobRef reads booked a moment before the inbox row is closed, so on a busy machine it raced.)
    await until(
      async () =>
        (
          await stack.sql<{ n: number }[]>`
            select count(*)::int as n from partner_inbox where partner_id = ${id} and done_at is null`
        )[0]!.n,
      (n) => n === 0,
      'the first sending out of the inbox',
    );
    const again = await send();
    expect(again.json().results.map((r: { code: string }) => r.code)).toEqual(jobs.map(() => 'duplicate'));
    const rows = await stack.sql<{ n: number }[]>`select count(*)::int as n from bookings where partner_id = ${id}`;
    expect(rows[0]?.n).toBe(5);
  });
});
