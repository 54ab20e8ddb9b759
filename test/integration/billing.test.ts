// The weekly billing activity against the real Postgres: one invoice per driver and week however
// often and however concurrently it runs, earnings from the trips completed in the week (each at its
// fare, or more when more was paid; a staff correction as it stands), SMS counted from the outbox. Then the whole subscription on the real
// Temporal dev server: a driver approved long ago has every week since the trial billed once.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBillingActivities } from '../../activities/billing.js';
import { listInvoices } from '../../src/billing/subscription-store.js';
import { startDriverSubscription, subscriptionState } from '../../src/billing/subscriptions.js';
import { subscriptionWorkflowId, type BillWeekInput } from '../../workflows/billing/definitions.js';
import { nextWeekStart, weekStartAtOrAfter } from '../../workflows/billing/weeks.js';
import { createDriver, type TestDriver } from '../support/drivers.js';
import { eventually, startStack, type TestStack } from '../support/stack.js';

let stack: TestStack;
let acts: ReturnType<typeof createBillingActivities>;
beforeAll(async () => {
  stack = await startStack();
  acts = createBillingActivities({ sql: stack.sql });
});
afterAll(async () => stack?.close());

const DAY = 86_400_000;
// The week of the October 2026 clock change: Monday 00:00 BST to Monday 00:00 GMT, 169 hours.
const WEEK: Omit<BillWeekInput, 'driverId'> = { weekStart: '2026-10-18T23:00:00.000Z', weekEnd: '2026-10-26T00:00:00.000Z' };

const driver = () => createDriver(stack.sql, { lat: 53.48, lon: -2.24, phone: `+4474009${String(10000 + Math.floor(Math.random() * 89999))}` });

/** A trip the driver completed at `completedAt`. */
async function trip(d: TestDriver, completedAt: string, farePence = 3000): Promise<string> {
  const ref = `TXS${randomUUID().slice(0, 8).toUpperCase()}`;
  const place = stack.sql.json({ label: 'Manchester', kind: 'place', lat: 53.48, lon: -2.24 });
  await stack.sql`
    insert into bookings (ref, status, source, passenger_name, passenger_phone, payment_method, pickup_query, dropoff_query,
                          pickup, dropoff, pickup_area, pickup_at, passengers, vehicle_type, fare_pence, fare_source,
                          distance_m, duration_s, driver_id, completed_at)
    values (${ref}, 'completed', 'agent_instant', 'Ada', '+447400123456', 'cash', 'a', 'b', ${place}, ${place}, 'manchester',
            ${completedAt}, 1, 'saloon', ${farePence}, 'tariff', 5000, 900, ${d.id}, ${completedAt})`;
  return ref;
}

/** A payment record for a trip; by ops when it corrects another. */
async function record(d: TestDriver, ref: string, amountPence: number, recordedAt: string, corrects: number | null = null): Promise<number> {
  const [row] = await stack.sql<{ id: string }[]>`
    insert into payment_records (booking_ref, driver_id, amount_pence, method, recorded_by, corrects, idempotency_key, recorded_at)
    values (${ref}, ${d.id}, ${amountPence}, 'cash', ${corrects ? 'ops' : 'driver'}, ${corrects}, ${`test:${randomUUID()}`}, ${recordedAt})
    returning id`;
  return Number(row!.id);
}

/** A trip completed at `at` (fare 30 GBP) and settled then for `amountPence`. */
async function payment(d: TestDriver, amountPence: number, at: string): Promise<number> {
  return record(d, await trip(d, at), amountPence, at);
}

async function sms(to: string, sentAt: string | null, channel = 'sms') {
  await stack.sql`
    insert into outbox (idempotency_key, channel, recipient, body, provider, created_at, sent_at)
    values (${`test:${randomUUID()}`}, ${channel}, ${to}, 'New job', 'outbox', ${sentAt ?? WEEK.weekStart}, ${sentAt})`;
}

const invoiceRows = (d: TestDriver) => stack.sql`select * from driver_invoices where driver_id = ${d.id}`;

describe('weekly billing (real Postgres)', () => {
  it('writes one invoice for a week however many times and however concurrently it is billed', async () => {
    const d = await driver();
    await payment(d, 60_000, '2026-10-20T12:00:00Z');
    const week = { driverId: d.id, ...WEEK };
    const first = await acts.billDriverWeek(week);
    expect(first).toEqual({ driverId: d.id, ...WEEK, earningsPence: 60_000, feePence: 2000, smsCount: 0, smsPence: 0, totalPence: 2000, status: 'billed' });
    const again = await Promise.all([...Array(8)].map(() => acts.billDriverWeek(week)));
    expect(again).toEqual(Array(8).fill(first));

    const fresh = await driver();
    const concurrent = await Promise.all([...Array(8)].map(() => acts.billDriverWeek({ driverId: fresh.id, ...WEEK })));
    expect(new Set(concurrent.map((i) => JSON.stringify(i))).size).toBe(1);
    expect(concurrent[0]).toMatchObject({ earningsPence: 0, feePence: 0, totalPence: 0, status: 'free' });

    expect(await invoiceRows(d)).toHaveLength(1);
    expect(await invoiceRows(fresh)).toHaveLength(1);
    // A record that arrives for an already-billed week does not re-bill it.
    await payment(fresh, 90_000, '2026-10-21T12:00:00Z');
    expect(await acts.billDriverWeek({ driverId: fresh.id, ...WEEK })).toEqual(concurrent[0]);
    // And an invoice, once written, is never changed or removed, whoever asks.
    await expect(stack.sql`update driver_invoices set fee_pence = 0 where driver_id = ${d.id}`).rejects.toThrow(/immutable/);
    await expect(stack.sql`delete from driver_invoices where driver_id = ${d.id}`).rejects.toThrow(/immutable/);
  });

  it('counts the trips completed in the week, at the records in force when more than the fare: a correction replaces what it corrects', async () => {
    const d = await driver();
    const other = await driver();
    const corrected = await trip(d, '2026-10-19T09:00:00Z');
    const wrong = await record(d, corrected, 30_000, '2026-10-19T09:00:00Z');
    await record(d, corrected, 52_000, '2026-10-19T18:00:00Z', wrong); // ops corrected 300 GBP to 520 GBP
    await payment(d, 3_500, '2026-10-18T23:30:00Z'); // Monday 00:30 BST: inside the week, a 5 GBP tip on 30
    await payment(d, 7_000, '2026-10-18T22:59:59Z'); // Sunday 23:59 BST: the week before
    await payment(d, 8_000, WEEK.weekEnd); // the next week's first instant
    await payment(other, 99_000, '2026-10-20T12:00:00Z'); // another driver's fare
    // Settled in this week, completed in the one before: it belongs to the week it was driven in.
    await record(d, await trip(d, '2026-10-18T22:00:00Z'), 60_000, '2026-10-19T10:00:00Z');
    const invoice = await acts.billDriverWeek({ driverId: d.id, ...WEEK });
    expect(invoice).toMatchObject({ earningsPence: 55_500, feePence: 2000, totalPence: 2000, status: 'billed' });
  });

  it('keeps a busy week over the fee line however little is recorded: 0 GBP, 1p or no settlement counts the fare', async () => {
    // The finding: trips settled at 0 GBP kept a driver under the 500 GBP line.
    const d = await driver();
    const days = ['2026-10-19', '2026-10-20', '2026-10-21', '2026-10-22', '2026-10-23', '2026-10-24', '2026-10-25'];
    for (let i = 0; i < 17; i++) {
      const ref = await trip(d, `${days[i % 7]}T${String(8 + (i % 10)).padStart(2, '0')}:00:00Z`);
      if (i < 10) await record(d, ref, 0, `${days[i % 7]}T23:00:00Z`);
      else if (i < 15) await record(d, ref, 1, `${days[i % 7]}T23:00:00Z`);
      // The last two are never settled.
    }
    expect(await acts.billDriverWeek({ driverId: d.id, ...WEEK })).toMatchObject({ earningsPence: 51_000, feePence: 2000, status: 'billed' });

    // Staff, not the driver, can lower a trip's figure: a passenger who never paid, corrected by ops.
    const e = await driver();
    for (let i = 0; i < 17; i++) {
      const ref = await trip(e, `${days[i % 7]}T${String(8 + (i % 10)).padStart(2, '0')}:00:00Z`);
      const recorded = await record(e, ref, 3000, `${days[i % 7]}T23:00:00Z`);
      if (i === 0) await record(e, ref, 0, '2026-10-25T12:00:00Z', recorded);
    }
    expect(await acts.billDriverWeek({ driverId: e.id, ...WEEK })).toMatchObject({ earningsPence: 48_000, feePence: 0, status: 'free' });
  });

  it('bills exactly 500 GBP as a free week and 2p for each SMS sent to the driver that week', async () => {
    const d = await driver();
    const other = await driver();
    await payment(d, 50_000, '2026-10-22T12:00:00Z');
    for (const day of [19, 20, 21, 22, 23, 24, 25]) await sms(d.phone, `2026-10-${day}T08:00:00Z`);
    await sms(d.phone, '2026-10-18T23:00:00Z'); // the week's first instant: counted
    await sms(d.phone, WEEK.weekEnd); // the next week's
    await sms(d.phone, '2026-10-18T22:59:00Z'); // the week before's
    await sms(d.phone, null); // never sent (a failed attempt)
    await sms(d.phone, '2026-10-20T08:00:00Z', 'whatsapp'); // WhatsApp is free
    await sms(other.phone, '2026-10-20T08:00:00Z'); // someone else's
    const invoice = await acts.billDriverWeek({ driverId: d.id, ...WEEK });
    expect(invoice).toMatchObject({ earningsPence: 50_000, feePence: 0, smsCount: 8, smsPence: 16, totalPence: 16, status: 'free' });
    expect(await listInvoices(stack.sql, d.id)).toEqual([invoice]);
  });

  it('records a trial extension once however often it is written, with who and why', async () => {
    const d = await driver();
    await acts.saveSubscription({ driverId: d.id, tier: 'partner', approvedAt: '2026-11-01T10:00:00.000Z', trialDays: 30, trialExtendedDays: 0, state: 'trial' });
    const ext = { id: `${d.id}:1`, driverId: d.id, days: 14, by: 'ops@example.com', reason: 'fleet onboarding', totalExtendedDays: 14, at: '2026-11-10T10:00:00.000Z' };
    await Promise.all([acts.recordTrialExtension(ext), acts.recordTrialExtension(ext)]);
    await acts.recordTrialExtension(ext);
    expect(await stack.sql`select days, by, reason, at from trial_extensions where driver_id = ${d.id}`).toEqual([
      { days: 14, by: 'ops@example.com', reason: 'fleet onboarding', at: new Date(ext.at) },
    ]);
    expect(await stack.sql`select trial_days, trial_extended_days, state from driver_subscriptions where driver_id = ${d.id}`).toEqual([
      { trial_days: 30, trial_extended_days: 14, state: 'trial' },
    ]);
  });
});

describe('subscription workflow (real Temporal and Postgres)', () => {
  it('bills every week since the trial of a driver approved long ago once, across continue-as-new, and a second start is the same subscription', async () => {
    const d = await driver();
    const now = Date.now();
    const approvedAt = new Date(now - (30 + 75) * DAY);
    const firstWeek = weekStartAtOrAfter(approvedAt.getTime() + 30 * DAY);
    let expected = 0;
    for (let w = firstWeek; nextWeekStart(w) <= now; w = nextWeekStart(w)) expected++;
    expect(expected).toBeGreaterThan(8); // more than one run's worth
    // The driver earned 500.01 GBP in the third week: the only paid one.
    const paidWeek = nextWeekStart(nextWeekStart(firstWeek));
    await payment(d, 50_001, new Date(paidWeek + DAY).toISOString());

    expect(await startDriverSubscription(stack.client, stack.taskQueue, { driverId: d.id, tier: 'partner', approvedAt })).toMatchObject({ started: true });
    expect(await startDriverSubscription(stack.client, stack.taskQueue, { driverId: d.id, tier: 'partner', approvedAt })).toMatchObject({ started: false });
    // Asked throughout, also while the workflow continues as new.
    const state = await eventually(
      async () => {
        const s = await subscriptionState(stack.client, d.id);
        return s.weeksBilled === expected ? s : undefined;
      },
      30_000,
      `${expected} weeks billed`,
    );
    expect(state).toMatchObject({ state: 'active', tier: 'partner', trialDaysRemaining: 0, approvedAt: approvedAt.toISOString() });

    const invoices = await listInvoices(stack.sql, d.id);
    expect(invoices).toHaveLength(expected);
    expect(invoices.filter((i) => i.status === 'billed')).toEqual([expect.objectContaining({ weekStart: new Date(paidWeek).toISOString(), feePence: 2000 })]);
    expect(invoices.at(-1)!.weekStart).toBe(new Date(firstWeek).toISOString());
    expect(await stack.sql`select state from driver_subscriptions where driver_id = ${d.id}`).toEqual([{ state: 'active' }]);
    const history = await stack.client.workflow.getHandle(subscriptionWorkflowId(d.id)).fetchHistory();
    expect(history.events?.[0]?.workflowExecutionStartedEventAttributes?.continuedExecutionRunId).toBeTruthy();
    await stack.client.workflow.getHandle(subscriptionWorkflowId(d.id)).terminate('test over');
  });
});
