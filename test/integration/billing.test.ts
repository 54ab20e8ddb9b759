// The weekly billing activity against the real Postgres: one invoice per driver and week however
// often and however concurrently it runs, earnings from the trips completed in the week (each at its
// fare, or more when more was paid; a staff correction as it stands), SMS counted from the outbox. Then the whole subscription on the real
// Temporal dev server: a driver approved long ago has every week since the trial billed once.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBillingActivities } from '../../activities/billing.js';
import { listInvoices } from '../../src/billing/subscription-store.js';
import { SubscriptionClient } from '../../src/billing/subscription-client.js';
import {
  invoiceCollectionWorkflowId,
  subscriptionWorkflowId,
  type BillWeekInput,
} from '../../workflows/billing/definitions.js';
import { signTestProviderEvent } from '../../src/billing/test-provider.js';
import { listPartnerInvoices } from '../../src/billing/partner-invoice-store.js';
import { createStaff } from '../../src/auth/staff.js';
import { createApiKey } from '../../src/auth/api-keys.js';
import { hashSecret } from '../../src/auth/secrets.js';
import { createSession } from '../../src/drivers/session-store.js';
import { nextWeekStart, weekStartAtOrAfter } from '../../src/model/billing.js';
import { activityDeps } from '../../src/services.js';
import { createDriver, type TestDriver } from '../support/drivers.js';
import { eventually, STACK_WAIT_MS, startStack, type TestStack } from '../support/stack.js';

let stack: TestStack;
let acts: ReturnType<typeof createBillingActivities>;
/** The named third-party job source of this file's deployment (docs/billing.md). */
const SOURCE = 'it-cabhub';
beforeAll(async () => {
  stack = await startStack({
    THIRD_PARTY_JOB_SOURCE: SOURCE,
    THIRD_PARTY_JOB_FEE_PENCE: '50',
    CARD_FEE_BASIS_POINTS: '150',
    CARD_FEE_FIXED_PENCE: '20',
  });
  acts = createBillingActivities(activityDeps(stack.config, stack.sql));
  await stack.sql`insert into partners (id, name, kind) values (${SOURCE}, 'Cab Hub', 'partner') on conflict do nothing`;
});
afterAll(async () => stack?.close());

const DAY = 86_400_000;
// The week of the October 2026 clock change: Monday 00:00 BST to Monday 00:00 GMT, 169 hours.
const WEEK: Omit<BillWeekInput, 'driverId'> = {
  weekStart: '2026-10-18T23:00:00.000Z',
  weekEnd: '2026-10-26T00:00:00.000Z',
};

const driver = () =>
  createDriver(stack.sql, {
    lat: 53.48,
    lon: -2.24,
    phone: `+4474009${String(10000 + Math.floor(Math.random() * 89999))}`,
  });

/** A trip the driver completed at `completedAt` (from a partner's intake when `partnerId` is given). */
async function trip(
  d: TestDriver,
  completedAt: string,
  farePence = 3000,
  partnerId: string | null = null,
): Promise<string> {
  const ref = `TXS${randomUUID().slice(0, 8).toUpperCase()}`;
  const place = stack.sql.json({ label: 'Manchester', kind: 'place', lat: 53.48, lon: -2.24 });
  await stack.sql`
    insert into bookings (ref, status, source, passenger_name, passenger_phone, payment_method, pickup_query, dropoff_query,
                          pickup, dropoff, pickup_area, pickup_at, passengers, vehicle_type, fare_pence, fare_source,
                          distance_m, duration_s, driver_id, completed_at, partner_id)
    values (${ref}, 'completed', ${partnerId ? 'partner' : 'agent_instant'}, 'Ada', '+447400123456', 'cash', 'a', 'b', ${place}, ${place}, 'manchester',
            ${completedAt}, 1, 'saloon', ${farePence}, 'tariff', 5000, 900, ${d.id}, ${completedAt}, ${partnerId})`;
  return ref;
}

/** A payment record for a trip; by ops when it corrects another. */
async function record(
  d: TestDriver,
  ref: string,
  amountPence: number,
  recordedAt: string,
  corrects: number | null = null,
  method = 'cash',
): Promise<number> {
  const [row] = await stack.sql<{ id: string }[]>`
    insert into payment_records (booking_ref, driver_id, amount_pence, method, recorded_by, corrects, idempotency_key, recorded_at)
    values (${ref}, ${d.id}, ${amountPence}, ${method}, ${corrects ? 'ops' : 'driver'}, ${corrects}, ${`test:${randomUUID()}`}, ${recordedAt})
    returning id`;
  return Number(row!.id);
}

/** A trip completed at `at` (fare 30 GBP) and settled then for `amountPence`. */
async function payment(d: TestDriver, amountPence: number, at: string): Promise<number> {
  return record(d, await trip(d, at), amountPence, at);
}

async function sms(to: string, sentAt: string | null, channel = 'sms', purpose: string | null = null) {
  await stack.sql`
    insert into outbox (idempotency_key, channel, recipient, body, provider, created_at, sent_at, purpose)
    values (${`test:${randomUUID()}`}, ${channel}, ${to}, 'New job', 'outbox', ${sentAt ?? WEEK.weekStart}, ${sentAt}, ${purpose})`;
}

const invoiceRows = (d: TestDriver) => stack.sql`select * from driver_invoices where driver_id = ${d.id}`;

describe('weekly billing (real Postgres)', () => {
  it('writes one invoice for a week however many times and however concurrently it is billed', async () => {
    const d = await driver();
    await payment(d, 60_000, '2026-10-20T12:00:00Z');
    const week = { driverId: d.id, ...WEEK };
    const first = await acts.billDriverWeek(week);
    expect(first).toEqual({
      driverId: d.id,
      ...WEEK,
      earningsPence: 60_000,
      feePence: 2000,
      smsCount: 0,
      smsPence: 0,
      thirdPartyJobs: 0,
      thirdPartyPence: 0,
      cardTrips: 0,
      cardPence: 0,
      totalPence: 2000,
      status: 'billed',
      lines: [
        {
          kind: 'weekly_fee',
          quantity: 1,
          unitPence: 2000,
          amountPence: 2000,
          description: 'Weekly subscription: earnings £600.00, above £500.00',
        },
      ],
    });
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
    await expect(stack.sql`update driver_invoices set fee_pence = 0 where driver_id = ${d.id}`).rejects.toThrow(
      /immutable/,
    );
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
    expect(await acts.billDriverWeek({ driverId: d.id, ...WEEK })).toMatchObject({
      earningsPence: 51_000,
      feePence: 2000,
      status: 'billed',
    });

    // Staff, not the driver, can lower a trip's figure: a passenger who never paid, corrected by ops.
    const e = await driver();
    for (let i = 0; i < 17; i++) {
      const ref = await trip(e, `${days[i % 7]}T${String(8 + (i % 10)).padStart(2, '0')}:00:00Z`);
      const recorded = await record(e, ref, 3000, `${days[i % 7]}T23:00:00Z`);
      if (i === 0) await record(e, ref, 0, '2026-10-25T12:00:00Z', recorded);
    }
    expect(await acts.billDriverWeek({ driverId: e.id, ...WEEK })).toMatchObject({
      earningsPence: 48_000,
      feePence: 0,
      status: 'free',
    });
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
    expect(invoice).toMatchObject({
      earningsPence: 50_000,
      feePence: 0,
      smsCount: 8,
      smsPence: 16,
      totalPence: 16,
      status: 'free',
    });
    expect(await listInvoices(stack.sql, d.id)).toEqual([invoice]);
  });

  it('records a trial extension once however often it is written, with who and why', async () => {
    const d = await driver();
    await acts.saveSubscription({
      driverId: d.id,
      tier: 'partner',
      approvedAt: '2026-11-01T10:00:00.000Z',
      trialDays: 30,
      trialExtendedDays: 0,
      state: 'trial',
    });
    const ext = {
      id: `${d.id}:1`,
      driverId: d.id,
      days: 14,
      by: 'ops@example.com',
      reason: 'fleet onboarding',
      totalExtendedDays: 14,
      at: '2026-11-10T10:00:00.000Z',
    };
    await Promise.all([acts.recordTrialExtension(ext), acts.recordTrialExtension(ext)]);
    await acts.recordTrialExtension(ext);
    expect(await stack.sql`select days, by, reason, at from trial_extensions where driver_id = ${d.id}`).toEqual([
      { days: 14, by: 'ops@example.com', reason: 'fleet onboarding', at: new Date(ext.at) },
    ]);
    expect(
      await stack.sql`select trial_days, trial_extended_days, state from driver_subscriptions where driver_id = ${d.id}`,
    ).toEqual([{ trial_days: 30, trial_extended_days: 14, state: 'trial' }]);
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

    expect(
      await new SubscriptionClient(stack.client, stack.taskQueue).start({
        driverId: d.id,
        tier: 'partner',
        approvedAt,
      }),
    ).toMatchObject({ started: true });
    expect(
      await new SubscriptionClient(stack.client, stack.taskQueue).start({
        driverId: d.id,
        tier: 'partner',
        approvedAt,
      }),
    ).toMatchObject({ started: false });
    // Asked throughout, also while the workflow continues as new.
    const state = await eventually(
      async () => {
        const s = await new SubscriptionClient(stack.client, stack.taskQueue).state(d.id);
        return s?.weeksBilled === expected ? s : undefined;
      },
      STACK_WAIT_MS,
      `${expected} weeks billed`,
    );
    expect(state).toMatchObject({
      state: 'active',
      tier: 'partner',
      trialDaysRemaining: 0,
      approvedAt: approvedAt.toISOString(),
    });

    const invoices = await listInvoices(stack.sql, d.id);
    expect(invoices).toHaveLength(expected);
    expect(invoices.filter((i) => i.status === 'billed')).toEqual([
      expect.objectContaining({ weekStart: new Date(paidWeek).toISOString(), feePence: 2000 }),
    ]);
    expect(invoices.at(-1)!.weekStart).toBe(new Date(firstWeek).toISOString());
    expect(await stack.sql`select state from driver_subscriptions where driver_id = ${d.id}`).toEqual([
      { state: 'active' },
    ]);
    const history = await stack.client.workflow.getHandle(subscriptionWorkflowId(d.id)).fetchHistory();
    expect(history.events?.[0]?.workflowExecutionStartedEventAttributes?.continuedExecutionRunId).toBeTruthy();
    await stack.client.workflow.getHandle(subscriptionWorkflowId(d.id)).terminate('test over');
  });
});

describe('the itemised invoice and its collection (real Postgres and Temporal)', () => {
  it("invoices a partner 2p for each text about its jobs, not for the driver's (on the driver's invoice), once", async () => {
    const partnerId = `it-p-${randomUUID().slice(0, 8)}`;
    await stack.sql`insert into partners (id, name, kind) values (${partnerId}, 'Partner Ltd', 'partner')`;
    const d = await driver();
    const ref = await trip(d, '2026-10-20T10:00:00Z', 3000, partnerId);
    const text = (to: string, sentAt: string, purpose: string | null = null) =>
      stack.sql`insert into outbox (idempotency_key, channel, recipient, body, booking_ref, provider, sent_at, purpose)
                values (${`test:${randomUUID()}`}, 'sms', ${to}, 'Your taxi', ${ref}, 'outbox', ${sentAt}, ${purpose})`;
    // A number no driver in the shared test database has (a driver's number would make it the driver's text).
    const passenger = `+4477009${randomUUID().replace(/\D/g, '').slice(0, 5).padEnd(5, '0')}`;
    for (let i = 0; i < 4; i++) await text(passenger, `2026-10-20T0${i}:00:00Z`); // the passenger: the partner's
    await text(d.phone, '2026-10-20T09:00:00Z'); // the driver's job card: the driver's
    await text(passenger, '2026-10-26T00:00:00Z'); // the next week's
    const billed = await acts.billPartnersWeek(WEEK);
    expect(billed.filter((b) => b.partnerId === partnerId)).toEqual([{ partnerId, totalPence: 8 }]);
    expect(await acts.billPartnersWeek(WEEK)).toEqual(billed);
    expect(await listPartnerInvoices(stack.sql, partnerId)).toEqual([
      {
        partnerId,
        ...WEEK,
        smsCount: 4,
        smsPence: 8,
        totalPence: 8,
        lines: [
          {
            kind: 'sms',
            quantity: 4,
            unitPence: 2,
            amountPence: 8,
            description: 'SMS pass-through: 4 texts at 2p about your jobs',
          },
        ],
      },
    ]);
    expect(await acts.billDriverWeek({ driverId: d.id, ...WEEK })).toMatchObject({ smsCount: 1, smsPence: 2 });

    // The partner reads it with its API key: 8p is under the card minimum, so it is not collected.
    const { key } = await createApiKey(stack.sql, { name: partnerId, partnerId });
    const res = await stack.app.inject({
      method: 'GET',
      url: '/api/partner/invoices',
      headers: { authorization: `Bearer ${key}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      invoices: [
        {
          week_start: WEEK.weekStart,
          week_end: WEEK.weekEnd,
          sms_count: 4,
          total_pence: 8,
          lines: [
            {
              kind: 'sms',
              quantity: 4,
              unit_pence: 2,
              amount_pence: 8,
              description: 'SMS pass-through: 4 texts at 2p about your jobs',
            },
          ],
          payment: { status: 'below_minimum', pay_url: null, paid_at: null, overdue_at: null },
        },
      ],
    });
    expect((await stack.app.inject({ method: 'GET', url: '/api/partner/invoices' })).statusCode).toBe(401);
  });

  it('bills a driver who never confirms a payment: completed trips count at their fare', async () => {
    const d = await driver();
    // 17 cash trips at 30 GBP, none of them confirmed by the driver: 510 GBP.
    for (let i = 0; i < 17; i++)
      await trip(d, `2026-10-${19 + (i % 7)}T${String(8 + (i % 10)).padStart(2, '0')}:00:00Z`);
    expect(
      await stack.sql`select 1 from payment_records p join bookings b on b.ref = p.booking_ref where b.driver_id = ${d.id}`,
    ).toHaveLength(0);
    expect(await acts.billDriverWeek({ driverId: d.id, ...WEEK })).toMatchObject({
      earningsPence: 51_000,
      feePence: 2000,
      totalPence: 2000,
      status: 'billed',
    });
  });

  it('itemises a week of cash, card and third-party trips and texts, collects it through the provider, and a signed webhook marks it paid once', async () => {
    const d = await driver();
    // The week of 19 October 2026: 300 GBP cash the driver never confirmed, a 200 GBP fare paid
    // 210 GBP by card, a 50 GBP job from the named source (unconfirmed), three texts billed and
    // two not (the service's own reminder, a sign-in code).
    await trip(d, '2026-10-19T10:00:00Z', 30_000);
    const card = await trip(d, '2026-10-20T10:00:00Z', 20_000);
    await record(d, card, 21_000, '2026-10-20T10:30:00Z', null, 'card');
    await trip(d, '2026-10-21T10:00:00Z', 5_000, SOURCE);
    for (const day of [22, 23, 24]) await sms(d.phone, `2026-10-${day}T08:00:00Z`);
    await sms(d.phone, '2026-10-22T09:00:00Z', 'sms', 'invoice_reminder');
    await sms(d.phone, '2026-10-22T09:00:00Z', 'sms', 'sign_in_code');
    // By hand: earnings 300 + 210 + 50 = 560 GBP, over the line: 20 GBP. Texts 3 x 2p. One job from
    // the source at 50p. Card: 1.5 % of 210 GBP = 3.15 GBP, + 20p = 3.35 GBP. Total 23.91 GBP.
    const lines = [
      {
        kind: 'weekly_fee',
        quantity: 1,
        unitPence: 2000,
        amountPence: 2000,
        description: 'Weekly subscription: earnings £560.00, above £500.00',
      },
      { kind: 'sms', quantity: 3, unitPence: 2, amountPence: 6, description: 'SMS pass-through: 3 texts at 2p' },
      {
        kind: 'third_party_jobs',
        quantity: 1,
        unitPence: 50,
        amountPence: 50,
        description: `Jobs from ${SOURCE}: 1 at £0.50`,
      },
      {
        kind: 'card_processing',
        quantity: 1,
        unitPence: null,
        amountPence: 335,
        description: 'Card processing: 1.50% + £0.20 on each of 1 card payment (£210.00)',
      },
    ];

    // Approved so that the trial ends an hour before the week: the subscription bills it first.
    const approvedAt = new Date(Date.parse(WEEK.weekStart) - 90 * DAY - 3_600_000);
    await new SubscriptionClient(stack.client, stack.taskQueue).start({ driverId: d.id, tier: 'local', approvedAt });
    const collectionId = invoiceCollectionWorkflowId({ account: 'driver', accountId: d.id, weekStart: WEEK.weekStart });
    try {
      const collection = await eventually(
        async () =>
          (
            await stack.sql<
              { pay_url: string | null; provider_ref: string | null; status: string; total_pence: number }[]
            >`
          select pay_url, provider_ref, status, total_pence from invoice_collections where account_id = ${d.id} and week_start = ${WEEK.weekStart} and pay_url is not null`
          )[0],
        STACK_WAIT_MS,
        'the invoice collection opened',
      );
      expect(collection).toMatchObject({
        status: 'unpaid',
        total_pence: 2391,
        provider_ref: expect.stringMatching(/^test_cs_/),
      });
      const [invoice] = (await listInvoices(stack.sql, d.id)).filter((i) => i.weekStart === WEEK.weekStart);
      expect(invoice).toMatchObject({
        earningsPence: 56_000,
        feePence: 2000,
        smsCount: 3,
        smsPence: 6,
        thirdPartyJobs: 1,
        thirdPartyPence: 50,
        cardTrips: 1,
        cardPence: 335,
        totalPence: 2391,
        status: 'billed',
        lines,
      });
      expect(
        await stack.sql`select total_pence from driver_invoices where driver_id = ${d.id} and week_start = ${WEEK.weekStart}`,
      ).toEqual([{ total_pence: 2391 }]);
      expect(
        await stack.sql`select sum(amount_pence)::integer as sum from invoice_lines where account_id = ${d.id} and week_start = ${WEEK.weekStart}`,
      ).toEqual([{ sum: 2391 }]);
      // The driver is texted the pay link (not billed as a text: it is the service's own reminder).
      const notice = await eventually(
        async () =>
          (
            await stack.sql<
              { body: string; purpose: string }[]
            >`select body, purpose from outbox where idempotency_key = ${`invoice-notice:invoice:driver:${d.id}:2026-10-19`}`
          )[0],
        STACK_WAIT_MS,
        'the pay link texted',
      );
      expect(notice).toMatchObject({ purpose: 'invoice_reminder', body: expect.stringContaining(collection.pay_url!) });
      expect(notice.body).toContain('£23.91');

      // The driver's view: lines, unpaid, the pay link. Ops': owed.
      const token = `drs_${randomUUID().replaceAll('-', '')}`;
      await createSession(stack.sql, hashSecret(token), d.id);
      const mine = async () => {
        const res = await stack.app.inject({
          method: 'GET',
          url: '/api/driver/invoices',
          headers: { authorization: `Bearer ${token}` },
        });
        expect(res.statusCode, res.body).toBe(200);
        return res
          .json<{
            invoices: Array<{
              week_start: string;
              total_pence: number;
              lines: unknown[];
              payment: { status: string; pay_url: string | null };
            }>;
          }>()
          .invoices.find((i) => i.week_start === WEEK.weekStart)!;
      };
      expect(await mine()).toMatchObject({
        total_pence: 2391,
        lines: lines.map((l) => ({
          kind: l.kind,
          quantity: l.quantity,
          unit_pence: l.unitPence,
          amount_pence: l.amountPence,
          description: l.description,
        })),
        payment: { status: 'unpaid', pay_url: collection.pay_url },
      });
      expect((await stack.app.inject({ method: 'GET', url: '/api/driver/invoices' })).statusCode).toBe(401);
      const staffKey = (await createStaff(stack.sql, { name: 'Bea (ops)', role: 'operator' })).key;
      const owed = async (status: string) => {
        const res = await stack.app.inject({
          method: 'GET',
          url: `/api/ops/invoices?status=${status}`,
          headers: { authorization: `Bearer ${staffKey}` },
        });
        expect(res.statusCode, res.body).toBe(200);
        return res
          .json<{ invoices: Array<{ account_id: string; week_start: string; total_pence: number; status: string }> }>()
          .invoices.filter((i) => i.account_id === d.id);
      };
      expect(await owed('unpaid')).toEqual([
        expect.objectContaining({
          week_start: WEEK.weekStart,
          total_pence: 2391,
          status: 'unpaid',
          name: `Driver ${d.id}`,
        }),
      ]);
      expect((await stack.app.inject({ method: 'GET', url: '/api/ops/invoices' })).statusCode).toBe(401);
      expect(
        (
          await stack.app.inject({
            method: 'GET',
            url: '/api/ops/invoices?status=everything',
            headers: { authorization: `Bearer ${staffKey}` },
          })
        ).statusCode,
      ).toBe(400);

      // The provider's webhook: refused unsigned, mis-signed or stale; applied once.
      const body = JSON.stringify({
        type: 'invoice.paid',
        data: {
          invoice_reference: `invoice:driver:${d.id}:2026-10-19`,
          amount_pence: 2391,
          reference: collection.provider_ref,
        },
      });
      const secret = stack.config.BILLING_TEST_WEBHOOK_SECRET;
      const now = Math.floor(Date.now() / 1000);
      const hook = (headers: Record<string, string>, payload = body) =>
        stack.app.inject({ method: 'POST', url: '/api/webhooks/billing', headers, payload });
      const eventId = `evt_${randomUUID()}`;
      expect((await hook({ 'content-type': 'application/json' })).statusCode).toBe(400);
      expect(
        (await hook(signTestProviderEvent('whsec_d3JvbmctYnV0LXdlbGwtZm9ybWVkLXNlY3JldA==', eventId, now, body)))
          .statusCode,
      ).toBe(400);
      const stale = await hook(signTestProviderEvent(secret, eventId, now - 600, body));
      expect(stale.statusCode).toBe(400);
      expect(stale.json()).toMatchObject({ code: 'invalid_signature' });
      expect(
        (await hook(signTestProviderEvent(secret, eventId, now, body), body.replace('2391', '9999'))).statusCode,
      ).toBe(400); // tampered
      expect(await stack.sql`select status from invoice_collections where account_id = ${d.id}`).toEqual([
        { status: 'unpaid' },
      ]);

      // A failed attempt is recorded and leaves it unpaid.
      const failedId = `evt_${randomUUID()}`;
      const failedBody = body.replace('invoice.paid', 'invoice.payment_failed');
      expect((await hook(signTestProviderEvent(secret, failedId, now, failedBody), failedBody)).json()).toEqual({
        received: true,
        duplicate: false,
      });
      expect(await stack.sql`select status, last_failure from invoice_collections where account_id = ${d.id}`).toEqual([
        { status: 'unpaid', last_failure: failedId },
      ]);

      const paid = await hook(signTestProviderEvent(secret, eventId, now, body));
      expect(paid.statusCode, paid.body).toBe(200);
      expect(paid.json()).toEqual({ received: true, duplicate: false });
      const settled = await eventually(
        async () =>
          (
            await stack.sql<{ status: string; paid_event_id: string; paid_amount_pence: number; paid_at: Date }[]>`
          select status, paid_event_id, paid_amount_pence, paid_at from invoice_collections where account_id = ${d.id} and status = 'paid'`
          )[0],
        STACK_WAIT_MS,
        'the invoice paid',
      );
      expect(settled).toMatchObject({ paid_event_id: eventId, paid_amount_pence: 2391 });
      // A replay is answered and changes nothing; nor does the provider's next event for the same payment.
      expect((await hook(signTestProviderEvent(secret, eventId, now, body))).json()).toEqual({
        received: true,
        duplicate: true,
      });
      const second = await hook(signTestProviderEvent(secret, `evt_${randomUUID()}`, now, body));
      expect(second.json()).toEqual({ received: true, duplicate: false });
      await eventually(
        async () =>
          (await stack.client.workflow.getHandle(collectionId).describe()).status.name === 'COMPLETED'
            ? true
            : undefined,
        STACK_WAIT_MS,
        'the collection closed',
      );
      expect(
        await stack.sql`select status, paid_event_id, paid_at from invoice_collections where account_id = ${d.id}`,
      ).toEqual([{ status: 'paid', paid_event_id: eventId, paid_at: settled.paid_at }]);

      expect(await mine()).toMatchObject({ payment: { status: 'paid', pay_url: null } });
      expect(await owed('open')).toEqual([]);
    } finally {
      await stack.client.workflow
        .getHandle(subscriptionWorkflowId(d.id))
        .terminate('test over')
        .catch(() => undefined);
      await stack.client.workflow
        .getHandle(collectionId)
        .terminate('test over')
        .catch(() => undefined);
    }
  });
});
