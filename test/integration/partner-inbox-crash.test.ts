// The partner inbox survives its drain dying (issue 37, item 1): 500 jobs are taken in (five
// batches of 100, each answered 200 with its references), and the worker process (src/worker.ts,
// whose drain applies them) is SIGKILLed while they flow into their job workflows. A new worker
// takes the rows the dead one had leased once their leases run out, and every job is booked exactly
// once, under the reference its reply gave. The API runs in this process, as in crash.test.ts.
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/auth/api-keys.js';
import { createPartner } from '../../src/partners/store.js';
import { bookingWorkflowId } from '../../workflows/bookings/definitions.js';
import { partnerJobWorkflowId } from '../../workflows/partners/job-definitions.js';
import { killAllWorkerProcesses, startApiOnly, startWorkerProcess, type ApiOnlyStack } from '../support/processes.js';

let api: ApiOnlyStack | undefined;
afterAll(async () => {
  await killAllWorkerProcesses();
  await api?.close();
});

const TOMORROW = Math.floor(Date.now() / 60_000) * 60_000 + 26 * 3600_000;
const JOBS = 500;

/** Polls until `pass`, for as long as a cold worker start and 500 jobs may take on a busy machine. */
async function waitFor<T>(check: () => Promise<T>, pass: (v: T) => boolean, what: string, ms = 240_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (pass(v)) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('the inbox drain killed while 500 jobs flow into their workflows', () => {
  it('books every job exactly once, under the reference its reply gave', { timeout: 420_000 }, async () => {
    // A short lease: the rows the dead worker held are taken again seconds after the kill.
    api = await startApiOnly({ env: { PARTNER_INBOX_LEASE_SECONDS: '4', INTAKE_REPLY_BUDGET_MS: '0' } });
    const stack = api;
    const id = `crash-${randomUUID().slice(0, 8)}`;
    await createPartner(stack.sql, { id, name: `Partner ${id}`, kind: 'partner', dailyJobLimit: 100_000 });
    const { key } = await createApiKey(stack.sql, { name: id, partnerId: id });

    // Taken in with no worker at all: the inbox holds them.
    const batches = Array.from({ length: JOBS / 100 }, (_, b) =>
      Array.from({ length: 100 }, (_, i) => ({
        jobRef: `K-${b}-${String(i).padStart(3, '0')}`,
        pickup: 'Hexham station',
        dropoff: 'Hexham',
        pickupTime: new Date(TOMORROW + (b * 100 + i) * 60_000).toISOString(),
        passengerName: 'Mary Somerville',
        passengerPhone: '+447400123462',
      })),
    );
    const replies = await Promise.all(
      batches.map((jobs, b) =>
        stack.app.inject({
          method: 'POST',
          url: '/api/public/v1/jobs',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          payload: JSON.stringify(jobs),
          remoteAddress: `10.82.0.${b + 1}`,
        }),
      ),
    );
    const answered = new Map<string, string>();
    for (const res of replies) {
      expect(res.statusCode, res.body).toBe(200);
      for (const r of res.json<{ results: { jobRef: string; bookingReference: string }[] }>().results)
        answered.set(r.jobRef, r.bookingReference);
    }
    expect(answered.size).toBe(JOBS);

    const done = async () =>
      (
        await stack.sql<{ n: number }[]>`
          select count(*)::int as n from partner_inbox where partner_id = ${id} and done_at is not null`
      )[0]!.n;
    let worker = await startWorkerProcess(stack.workerEnv);
    // Killed once the jobs are flowing, well before the last.
    await waitFor(done, (n) => n >= 60, 'the drain under way');
    expect(await worker.crash()).toEqual({ code: null, signal: 'SIGKILL' });
    const atKill = await done();
    expect(atKill, 'the worker must die while jobs are still flowing').toBeLessThan(JOBS);
    // Rows it held when it died are leased still; a new worker takes them once the lease runs out.
    const leased = await stack.sql<{ n: number }[]>`
      select count(*)::int as n from partner_inbox
       where partner_id = ${id} and done_at is null and leased_until > now()`;
    expect(leased[0]!.n, 'jobs were being applied when the worker died').toBeGreaterThan(0);
    worker = await startWorkerProcess(stack.workerEnv);
    await waitFor(done, (n) => n === JOBS, 'every inbox job applied');

    // Every job booked once, under the reference its reply gave, and its workflow's outcome recorded.
    const bookings = await stack.sql<{ ref: string; partner_job_ref: string }[]>`
      select ref, partner_job_ref from bookings where partner_id = ${id}`;
    expect(bookings).toHaveLength(JOBS);
    expect(new Set(bookings.map((b) => b.partner_job_ref)).size).toBe(JOBS);
    for (const b of bookings) expect(b.ref, b.partner_job_ref).toBe(answered.get(b.partner_job_ref));
    const codes = await stack.sql<{ code: string; n: number }[]>`
      select outcome ->> 'code' as code, count(*)::int as n from partner_inbox where partner_id = ${id} group by 1`;
    // A row whose first application finished as the worker died is answered by Temporal from that
    // application (same update id): created, never a second booking.
    expect(codes).toEqual([{ code: 'created', n: JOBS }]);
    const live = await stack.sql<{ n: number }[]>`
      select count(*)::int as n from partner_jobs where partner_id = ${id} and state = 'live'`;
    expect(live[0]!.n).toBe(JOBS);

    await worker.stop();
    // Their workflows would wait on the shared server for a day past pickup, on a queue nobody polls.
    const ends = [...answered].flatMap(([jobRef, ref]) => [
      stack.client.workflow.getHandle(partnerJobWorkflowId(id, jobRef)).terminate('test over'),
      stack.client.workflow.getHandle(bookingWorkflowId(ref)).terminate('test over'),
    ]);
    await Promise.allSettled(ends);
  });
});
