// The drivers' subscription on Temporal's time-skipping test server, with the subscription
// activities faked in memory (weekly earnings and SMS per driver and week, invoices keyed like the
// real table): months of trial and weeks of billing pass in milliseconds.
import { randomUUID } from 'node:crypto';
import { Context } from '@temporalio/activity';
import {
  WorkflowExecutionAlreadyStartedError,
  WorkflowIdReusePolicy,
  WorkflowNotFoundError,
  WorkflowUpdateFailedError,
} from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker, type WorkflowBundle } from '@temporalio/worker';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { createBillingActivities } from '../../activities/billing.js';
import { SubscriptionClient } from '../../src/billing/subscription-client.js';
import type { Tier } from '../../src/model/bookings.js';
import { Refusal } from '../../src/refusal.js';
import {
  SubscriptionFailure,
  billWeekWorkflowId,
  subscriptionStateQuery,
  subscriptionWorkflowId,
  invoiceCollectionStateQuery,
  invoiceCollectionWorkflowId,
  invoicePaymentSignal,
  type BillWeekInput,
  type SubscriptionState,
} from '../../workflows/billing/definitions.js';
import {
  COLLECTION_POLICY,
  MIN_COLLECTION_PENCE,
  partnerWeekCharge,
  weekInvoice,
  type BillingPrices,
  type CollectionStatus,
  type Invoice,
  nextWeekStart,
  weekStartAtOrAfter,
  weekStartOf,
} from '../../src/model/billing.js';
import { PartnerBillingClient } from '../../src/billing/partner-billing-client.js';
import { timeSkippingServer, until, workflowBundle } from '../support/time-skipping.js';

type SubscriptionActivities = ReturnType<typeof createBillingActivities>;

let env: TestWorkflowEnvironment;
let bundle: WorkflowBundle;

// A server for each test: a week's billing or a collection left running on a task queue whose
// worker is gone would keep a shared server from skipping time, and the next test's sleep of weeks
// would then wait in real time (issue 38: tests 5-9 of this file timed out after the first four,
// on a busy machine). Each test's clock starts at today.
beforeAll(async () => {
  bundle = await workflowBundle();
}, 180_000);
beforeEach(async () => {
  env = await timeSkippingServer();
}, 120_000);
afterEach(async () => env?.teardown());

/** The subscription workflow's client; only a start needs the scenario's task queue. */
const subscriptions = (taskQueue = 'none') => new SubscriptionClient(env.client, taskQueue);

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const iso = (t: number) => new Date(t).toISOString();
const weekKey = (driverId: string, weekStart: string) => `${driverId}|${weekStart}`;
/** The prices of a deployment that names a third-party job source (docs/billing.md). */
const PRICES: BillingPrices = {
  thirdPartySource: 'cabhub',
  thirdPartyJobFeePence: 50,
  cardFeeBasisPoints: 150,
  cardFeeFixedPence: 20,
};

/**
 * The outside world of the subscription activities: what each driver earned and how many SMS they
 * were sent per week, and the invoices "written" (once per driver and week, as the real unique key
 * does). `charges` lists each invoice at the moment it was first written: a second charge would
 * show up there.
 */
class World {
  readonly earnings = new Map<string, number>();
  readonly sms = new Map<string, number>();
  readonly thirdParty = new Map<string, number>();
  readonly cardPayments = new Map<string, number[]>();
  readonly invoices = new Map<string, Invoice>();
  /** Collections as the real table keeps them: paid once, overdue only from unpaid. */
  readonly collections = new Map<string, { status: CollectionStatus; reminders: number; paidBy: string | null }>();
  /** Partners' texts per week (by the week's ISO start), as Postgres would count them. */
  readonly partnerSms = new Map<string, Array<{ partnerId: string; smsCount: number }>>();
  constructor(readonly prices: BillingPrices = PRICES) {}
  readonly charges: Invoice[] = [];
  readonly calls: Array<[string, unknown]> = [];
  /** Runs after the invoice is written and before the activity answers: a crash lands here. */
  afterCharge: (w: BillWeekInput, attempt: number) => Promise<void> = async () => {};

  week(
    driverId: string,
    weekStart: number,
    o: { earningsPence?: number; sms?: number; thirdPartyJobs?: number; cardPayments?: number[] },
  ) {
    const key = weekKey(driverId, iso(weekStart));
    if (o.earningsPence !== undefined) this.earnings.set(key, o.earningsPence);
    if (o.sms !== undefined) this.sms.set(key, o.sms);
    if (o.thirdPartyJobs !== undefined) this.thirdParty.set(key, o.thirdPartyJobs);
    if (o.cardPayments !== undefined) this.cardPayments.set(key, o.cardPayments);
  }
  called(name: keyof SubscriptionActivities, driverId: string): unknown[] {
    return this.calls
      .filter(([n, a]) => n === name && (a as { driverId: string }).driverId === driverId)
      .map(([, a]) => a);
  }
  billed(driverId: string): BillWeekInput[] {
    return this.called('billDriverWeek', driverId) as BillWeekInput[];
  }

  activities(): SubscriptionActivities {
    return {
      saveSubscription: async (s) => {
        this.calls.push(['saveSubscription', s]);
      },
      recordTrialExtension: async (e) => {
        this.calls.push(['recordTrialExtension', e]);
      },
      billDriverWeek: async (w) => {
        this.calls.push(['billDriverWeek', w]);
        const key = weekKey(w.driverId, w.weekStart);
        let invoice = this.invoices.get(key);
        if (!invoice) {
          const figures = {
            earningsPence: this.earnings.get(key) ?? 0,
            smsCount: this.sms.get(key) ?? 0,
            thirdPartyJobs: this.thirdParty.get(key) ?? 0,
            cardPayments: this.cardPayments.get(key) ?? [],
          };
          invoice = { ...w, ...figures, ...weekInvoice(figures, this.prices) };
          this.invoices.set(key, invoice);
          this.charges.push(invoice);
        }
        await this.afterCharge(w, Context.current().info.attempt);
        return invoice;
      },
      billPartnersWeek: async (w) => {
        this.calls.push(['billPartnersWeek', { ...w, driverId: 'partners' }]);
        return (this.partnerSms.get(w.weekStart) ?? []).map((p) => ({
          partnerId: p.partnerId,
          totalPence: partnerWeekCharge(p.smsCount).totalPence,
        }));
      },
      openInvoiceCollection: async (i) => {
        this.calls.push(['openInvoiceCollection', { ...i, driverId: i.accountId }]);
        const key = weekKey(i.accountId, i.weekStart);
        if (!this.collections.has(key)) this.collections.set(key, { status: 'unpaid', reminders: 0, paidBy: null });
      },
      remindInvoice: async (i) => {
        this.calls.push(['remindInvoice', { ...i, driverId: i.accountId }]);
        const c = this.collections.get(weekKey(i.accountId, i.weekStart))!;
        c.reminders = Math.max(c.reminders, i.reminder);
      },
      markInvoiceOverdue: async (i) => {
        this.calls.push(['markInvoiceOverdue', { ...i, driverId: i.accountId }]);
        const c = this.collections.get(weekKey(i.accountId, i.weekStart))!;
        if (c.status === 'unpaid') c.status = 'overdue';
      },
      markInvoicePaid: async (i) => {
        this.calls.push(['markInvoicePaid', { ...i, driverId: i.accountId }]);
        const c = this.collections.get(weekKey(i.accountId, i.weekStart))!;
        if (c.status !== 'paid') Object.assign(c, { status: 'paid', paidBy: i.eventId });
      },
    };
  }
}

/**
 * Collections outlive the billing run that starts them (weeks of reminders): ended with the test,
 * like the subscriptions, so none is left holding the server's clock.
 */
async function terminateCollections(world: World): Promise<void> {
  const due = world.charges.filter((c) => c.totalPence >= MIN_COLLECTION_PENCE);
  await Promise.all(
    due.map((c) =>
      env.client.workflow
        .getHandle(invoiceCollectionWorkflowId({ account: 'driver', accountId: c.driverId, weekStart: c.weekStart }))
        .terminate('test over')
        .catch(() => undefined),
    ),
  );
}

/**
 * Waits until the driver's subscription has taken in its collection's completion. The test server
 * stops its clock for good when a child's completion reaches a parent already terminated (the
 * scenario's end), so a test that completes a collection waits for this first.
 */
async function parentHeard(driverId: string, childId: string): Promise<void> {
  await until(
    async () => {
      const events =
        (await env.client.workflow.getHandle(subscriptionWorkflowId(driverId)).fetchHistory()).events ?? [];
      const at = events.findIndex(
        (e) => e.childWorkflowExecutionCompletedEventAttributes?.workflowExecution?.workflowId === childId,
      );
      return at >= 0 && events.slice(at).some((e) => e.workflowTaskCompletedEventAttributes);
    },
    (heard) => heard,
    `the subscription of ${driverId} told its collection completed`,
  );
}

async function sleepUntil(t: number): Promise<void> {
  const now = await env.currentTimeMs();
  if (t > now) await env.sleep(t - now);
}

interface Scenario {
  world: World;
  taskQueue: string;
  /** Starts a new driver's subscription through the application function, as approval does. */
  subscribe: (o: { tier: Tier; approvedAt: number }) => Promise<Driver>;
}

class Driver {
  readonly id = `drv-${randomUUID().slice(0, 8)}`;
  constructor(
    readonly world: World,
    readonly approvedAt: number,
  ) {}
  /** The workflow's own answer (its clock is the last time it ran). */
  state(): Promise<SubscriptionState> {
    return env.client.workflow.getHandle(subscriptionWorkflowId(this.id)).query(subscriptionStateQuery);
  }
  /** What the driver app shows: trial days counted on the (test server's) current clock. */
  async appState(): Promise<SubscriptionState | null> {
    return subscriptions().state(this.id, new Date(await env.currentTimeMs()));
  }
  billed(): BillWeekInput[] {
    return this.world.billed(this.id);
  }
  charges(): Invoice[] {
    return this.world.charges.filter((c) => c.driverId === this.id);
  }
  billedWeeks(n: number) {
    return until(
      () => this.charges(),
      (c) => c.length >= n,
      `${n} weeks billed for ${this.id}`,
    );
  }
}

/**
 * A worker with the fake activities for the length of `run`, on a task queue of the test's own.
 * Every subscription a test started is terminated while the worker still runs: a workflow left
 * without a worker would hold the server's clock still for the next test.
 */
async function scenario(run: (s: Scenario) => Promise<void>, world = new World()): Promise<void> {
  const taskQueue = `sub-${randomUUID()}`;
  const worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    workflowBundle: bundle,
    activities: world.activities(),
  });
  const drivers: Driver[] = [];
  const subscribe = async (o: { tier: Tier; approvedAt: number }) => {
    const d = new Driver(world, o.approvedAt);
    const r = await subscriptions(taskQueue).start({
      driverId: d.id,
      tier: o.tier,
      approvedAt: new Date(o.approvedAt),
    });
    expect(r).toEqual({ workflowId: `subscription:${d.id}`, started: true });
    drivers.push(d);
    return d;
  };
  await worker.runUntil(async () => {
    try {
      await run({ world, taskQueue, subscribe });
    } finally {
      await Promise.all(
        drivers.map((d) =>
          env.client.workflow
            .getHandle(subscriptionWorkflowId(d.id))
            .terminate('test over')
            .catch(() => undefined),
        ),
      );
      await terminateCollections(world);
    }
  });
}

/** The workflow's failure type under the Refusal the client tells it as (kept as its cause). */
const failureType = (told: unknown) => {
  const err = told instanceof Refusal ? told.cause : told;
  return err instanceof WorkflowUpdateFailedError && err.cause instanceof ApplicationFailure
    ? err.cause.type
    : String(err);
};

describe('driver subscription (time-skipping)', () => {
  it('gives a local driver 90 free days, then bills the first full week after the trial at its end', async () => {
    await scenario(async ({ subscribe }) => {
      const approvedAt = await env.currentTimeMs();
      const d = await subscribe({ tier: 'local', approvedAt });
      const trialEnd = approvedAt + 90 * DAY;
      const firstWeek = weekStartAtOrAfter(trialEnd);
      const firstWeekEnd = nextWeekStart(firstWeek);

      expect(await d.state()).toMatchObject({
        state: 'trial',
        trialEndsAt: iso(trialEnd),
        trialDaysRemaining: 90,
        weeksBilled: 0,
        lastWeekBilled: null,
      });
      await env.sleep(89 * DAY);
      expect(await d.appState()).toMatchObject({ state: 'trial', trialDaysRemaining: 1 });
      await sleepUntil(trialEnd + MINUTE);
      await until(
        () => d.state(),
        (s) => s.state === 'active',
        'the trial to end',
      );
      expect((await d.appState())?.trialDaysRemaining).toBe(0);
      // The days between the trial's end and the next Monday are not billed.
      await sleepUntil(firstWeekEnd - MINUTE);
      expect(d.billed()).toEqual([]);
      await sleepUntil(firstWeekEnd + MINUTE);
      await d.billedWeeks(1);
      expect(d.billed()).toEqual([{ driverId: d.id, weekStart: iso(firstWeek), weekEnd: iso(firstWeekEnd) }]);
      expect(firstWeek).toBeGreaterThanOrEqual(trialEnd);
      expect(firstWeek - trialEnd).toBeLessThan(7 * DAY);
      await until(
        () => d.state(),
        (s) => s.weeksBilled === 1,
        'the week counted',
      );
    });
  });

  it('gives a partner-fleet driver 30 days, and a 14-day extension moves the first bill past day 44', async () => {
    await scenario(async ({ world, subscribe }) => {
      const approvedAt = await env.currentTimeMs();
      const plain = await subscribe({ tier: 'partner', approvedAt });
      const extended = await subscribe({ tier: 'partner', approvedAt });
      expect((await plain.state()).trialEndsAt).toBe(iso(approvedAt + 30 * DAY));

      await env.sleep(10 * DAY);
      // Refused before anything is recorded: a bad number of days, no administrator, no reason.
      for (const bad of [{ days: 0 }, { days: 366 }, { days: 1.5 }, { by: ' ' }, { reason: '' }]) {
        const err = await subscriptions()
          .extendTrial(extended.id, {
            days: 14,
            by: 'ops@example.com',
            reason: 'fleet onboarding',
            ...bad,
          })
          .catch((e: unknown) => e);
        expect(failureType(err)).toBe(SubscriptionFailure.invalidExtension);
      }
      const after = await subscriptions().extendTrial(extended.id, {
        days: 14,
        by: 'ops@example.com',
        reason: 'fleet onboarding delayed',
      });
      expect(after).toMatchObject({ state: 'trial', trialEndsAt: iso(approvedAt + 44 * DAY), trialDaysRemaining: 34 });
      expect(world.called('recordTrialExtension', extended.id)).toEqual([
        expect.objectContaining({
          id: `${extended.id}:1`,
          days: 14,
          by: 'ops@example.com',
          reason: 'fleet onboarding delayed',
          totalExtendedDays: 14,
        }),
      ]);

      await sleepUntil(approvedAt + 30 * DAY + MINUTE);
      await until(
        () => plain.state(),
        (s) => s.state === 'active',
        'the plain trial to end',
      );
      expect((await extended.state()).state).toBe('trial');
      await sleepUntil(nextWeekStart(weekStartAtOrAfter(approvedAt + 30 * DAY)) + MINUTE);
      await plain.billedWeeks(1);
      expect(plain.billed()[0]!.weekStart).toBe(iso(weekStartAtOrAfter(approvedAt + 30 * DAY)));

      await sleepUntil(approvedAt + 44 * DAY - MINUTE);
      expect((await extended.appState())?.state).toBe('trial');
      expect(extended.billed()).toEqual([]);
      await sleepUntil(approvedAt + 44 * DAY + MINUTE);
      await until(
        () => extended.state(),
        (s) => s.state === 'active',
        'the extended trial to end',
      );
      // Too late to extend now.
      const late = await subscriptions()
        .extendTrial(extended.id, {
          days: 7,
          by: 'ops@example.com',
          reason: 'too late',
        })
        .catch((e: unknown) => e);
      expect(failureType(late)).toBe(SubscriptionFailure.trialEnded);
      expect(world.called('recordTrialExtension', extended.id)).toHaveLength(1);

      const firstWeek = weekStartAtOrAfter(approvedAt + 44 * DAY);
      await sleepUntil(nextWeekStart(firstWeek) + MINUTE);
      await extended.billedWeeks(1);
      expect(extended.billed()[0]).toEqual({
        driverId: extended.id,
        weekStart: iso(firstWeek),
        weekEnd: iso(nextWeekStart(firstWeek)),
      });
      expect(firstWeek).toBeGreaterThanOrEqual(approvedAt + 44 * DAY);
    });
  });

  it('charges 20 GBP above 500 GBP of earnings, nothing at exactly 500 GBP, and 2p per SMS either way', async () => {
    await scenario(async ({ world, subscribe }) => {
      const now = await env.currentTimeMs();
      const approvedAt = now - 90 * DAY - HOUR; // the trial is over
      const d = await subscribe({ tier: 'national', approvedAt });
      const w1 = weekStartAtOrAfter(approvedAt + 90 * DAY);
      const w2 = nextWeekStart(w1);
      const w3 = nextWeekStart(w2);
      world.week(d.id, w1, { earningsPence: 50_001 });
      world.week(d.id, w2, { earningsPence: 50_000, sms: 7 });
      world.week(d.id, w3, { earningsPence: 80_000, sms: 7 });

      await sleepUntil(nextWeekStart(w3) + MINUTE);
      const charges = await d.billedWeeks(3);
      expect(
        charges.map(({ weekStart, earningsPence, feePence, smsCount, smsPence, totalPence, status }) => ({
          weekStart,
          earningsPence,
          feePence,
          smsCount,
          smsPence,
          totalPence,
          status,
        })),
      ).toEqual([
        {
          weekStart: iso(w1),
          earningsPence: 50_001,
          feePence: 2000,
          smsCount: 0,
          smsPence: 0,
          totalPence: 2000,
          status: 'billed',
        },
        {
          weekStart: iso(w2),
          earningsPence: 50_000,
          feePence: 0,
          smsCount: 7,
          smsPence: 14,
          totalPence: 14,
          status: 'free',
        },
        {
          weekStart: iso(w3),
          earningsPence: 80_000,
          feePence: 2000,
          smsCount: 7,
          smsPence: 14,
          totalPence: 2014,
          status: 'billed',
        },
      ]);
      const s = await until(
        () => d.state(),
        (x) => x.weeksBilled === 3,
        'three weeks counted',
      );
      expect(s.lastWeekBilled).toMatchObject({ weekStart: iso(w3), totalPence: 2014 });
    });
  });

  it('bills the week of the October 2026 clock change for its 169 hours, and every week after it once, across continue-as-new', async () => {
    await scenario(async ({ subscribe }) => {
      // Approved 16 September 2026: the 30-day trial ends Friday 16 October, so the first full
      // week is Monday 19 October 00:00 BST to Monday 26 October 00:00 GMT. Weeks already over
      // when the subscription starts are billed at once, in order.
      const d = await subscribe({ tier: 'partner', approvedAt: Date.parse('2026-09-16T10:00:00Z') });
      const until2027 = Math.max(await env.currentTimeMs(), Date.parse('2027-01-05T00:00:00Z'));
      await sleepUntil(until2027);
      let ended = 0;
      for (let w = Date.parse('2026-10-18T23:00:00Z'); nextWeekStart(w) <= until2027; w = nextWeekStart(w)) ended++;
      expect(ended).toBeGreaterThanOrEqual(11);
      // Every week over by now is billed (and nothing is left in flight when the test ends).
      await d.billedWeeks(ended);
      const s = await until(
        () => d.state(),
        (x) => x.weeksBilled === ended,
        `${ended} weeks counted`,
      );
      const weeks = d.billed();
      expect(weeks).toHaveLength(ended);
      expect(weeks[0]).toEqual({
        driverId: d.id,
        weekStart: '2026-10-18T23:00:00.000Z',
        weekEnd: '2026-10-26T00:00:00.000Z',
      });
      expect(weeks[1]).toMatchObject({ weekStart: '2026-10-26T00:00:00.000Z', weekEnd: '2026-11-02T00:00:00.000Z' });
      // Each week starts where the one before ended: none skipped, none twice (the run continued
      // as new every eight weeks).
      for (let i = 1; i < weeks.length; i++) expect(weeks[i]!.weekStart).toBe(weeks[i - 1]!.weekEnd);
      expect(s.lastWeekBilled?.weekEnd).toBe(weeks.at(-1)!.weekEnd);
      const history = await env.client.workflow.getHandle(subscriptionWorkflowId(d.id)).fetchHistory();
      expect(history.events?.[0]?.workflowExecutionStartedEventAttributes?.continuedExecutionRunId).toBeTruthy();
    });
  });

  it('charges a week once when the activity dies after writing the invoice, and refuses to run a billed week again', async () => {
    const world = new World();
    // The first attempt writes the invoice and then fails as if the process died before answering.
    world.afterCharge = async (_w, attempt) => {
      if (attempt === 1) throw ApplicationFailure.retryable('worker lost after charging');
    };
    await scenario(async ({ taskQueue, subscribe }) => {
      const now = await env.currentTimeMs();
      const d = await subscribe({ tier: 'local', approvedAt: now - 90 * DAY - HOUR });
      const w1 = weekStartAtOrAfter(now - HOUR);
      world.week(d.id, w1, { earningsPence: 60_000 });
      await sleepUntil(nextWeekStart(w1) + MINUTE);
      await until(
        () => d.state(),
        (s) => s.weeksBilled === 1,
        'the week billed',
      );
      expect(d.billed()).toHaveLength(2); // the attempt that died and its retry
      expect(d.charges()).toHaveLength(1);
      expect((await d.state()).lastWeekBilled).toMatchObject({ weekStart: iso(w1), feePence: 2000, totalPence: 2000 });

      const again = await env.client.workflow
        .start('billWeekWorkflow', {
          workflowId: billWeekWorkflowId(d.id, iso(w1)),
          taskQueue,
          args: [{ driverId: d.id, weekStart: iso(w1), weekEnd: iso(nextWeekStart(w1)) }],
          workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE_FAILED_ONLY,
        })
        .catch((e: unknown) => e);
      expect(again).toBeInstanceOf(WorkflowExecutionAlreadyStartedError);
      expect(d.charges()).toHaveLength(1);
    }, world);
  });

  it('charges a week once when the worker is shut down in the middle of billing it and another takes over', async () => {
    const world = new World();
    let charged!: () => void;
    const chargedOnce = new Promise<void>((r) => (charged = r));
    // The first attempt writes the invoice, then hangs until its worker shuts down and fails with
    // it. (A process killed outright would be retried once the 30-second start-to-close timeout ran
    // out, which the test server would wait out in real time.)
    world.afterCharge = async (_w, attempt) => {
      if (attempt > 1) return;
      charged();
      await Context.current().cancelled.catch((e: unknown) => {
        throw new Error(`worker shut down mid-billing: ${String(e)}`);
      });
    };
    const taskQueue = `sub-${randomUUID()}`;
    // No workflow cache, so no sticky queue: the test server never hands a gone worker's sticky
    // tasks and queries to the shared queue (a real server does after a few seconds).
    const first = await Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      workflowBundle: bundle,
      activities: world.activities(),
      maxCachedWorkflows: 0,
    });
    const firstRun = first.run();
    const now = await env.currentTimeMs();
    const driverId = `drv-${randomUUID().slice(0, 8)}`;
    const w1 = weekStartAtOrAfter(now - HOUR);
    world.week(driverId, w1, { earningsPence: 70_000, sms: 3 });
    await subscriptions(taskQueue).start({
      driverId,
      tier: 'local',
      approvedAt: new Date(now - 90 * DAY - HOUR),
    });
    const handle = env.client.workflow.getHandle(subscriptionWorkflowId(driverId));
    // The clock stops at the week's end while the first attempt is in flight, so the sleep only
    // returns once the second worker has finished the billing.
    const slept = sleepUntil(nextWeekStart(w1) + MINUTE).catch((e: unknown) => e);
    await chargedOnce;
    first.shutdown();
    await firstRun;

    const second = await Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      workflowBundle: bundle,
      activities: world.activities(),
    });
    await second.runUntil(async () => {
      try {
        const s = await until(
          () => handle.query(subscriptionStateQuery),
          (x) => x.weeksBilled === 1,
          'the week billed by the second worker',
        );
        expect(s.lastWeekBilled).toMatchObject({
          weekStart: iso(w1),
          earningsPence: 70_000,
          feePence: 2000,
          smsPence: 6,
          totalPence: 2006,
        });
        expect(world.billed(driverId).length).toBeGreaterThanOrEqual(2);
        expect(world.charges.filter((c) => c.driverId === driverId)).toHaveLength(1);
        // One billing run for the week, completed: the retry happened inside it, not as a second run.
        const bill = await env.client.workflow.getHandle(billWeekWorkflowId(driverId, iso(w1))).describe();
        expect(bill.status.name).toBe('COMPLETED');
        expect(await slept).toBeUndefined();
      } finally {
        await handle.terminate('test over').catch(() => undefined);
        await terminateCollections(world);
      }
    });
  });

  it('stops billing a removed driver, and starting a running subscription again is the same subscription', async () => {
    await scenario(async ({ taskQueue, subscribe }) => {
      const now = await env.currentTimeMs();
      const d = await subscribe({ tier: 'local', approvedAt: now - 90 * DAY - HOUR });
      expect(
        await subscriptions(taskQueue).start({
          driverId: d.id,
          tier: 'local',
          approvedAt: new Date(d.approvedAt),
        }),
      ).toEqual({
        workflowId: subscriptionWorkflowId(d.id),
        started: false,
      });
      await subscriptions().cancel(d.id, 'driver removed');
      const final = await env.client.workflow.getHandle(subscriptionWorkflowId(d.id)).result();
      expect(final).toMatchObject({ state: 'cancelled', weeksBilled: 0 });
      await env.sleep(14 * DAY);
      expect(d.billed()).toEqual([]);
    });
  });
  it("itemises a week's every fee line, collects it when the signed webhook says paid (once), and follows an unpaid one up to overdue", async () => {
    await scenario(async ({ world, subscribe }) => {
      const now = await env.currentTimeMs();
      const approvedAt = now - 90 * DAY - HOUR; // the trial is over
      const payer = await subscribe({ tier: 'local', approvedAt });
      const debtor = await subscribe({ tier: 'local', approvedAt });
      const w1 = weekStartAtOrAfter(approvedAt + 90 * DAY);
      const billedAt = nextWeekStart(w1);
      // 620 GBP earned, 9 texts, 4 jobs from the named source, three card payments.
      world.week(payer.id, w1, { earningsPence: 62_000, sms: 9, thirdPartyJobs: 4, cardPayments: [2600, 4000, 1234] });
      // A free week (under 500 GBP) still owes its texts and card fees.
      world.week(debtor.id, w1, { earningsPence: 31_000, sms: 10, cardPayments: [3000] });

      await sleepUntil(billedAt + MINUTE);
      const [invoice] = await payer.billedWeeks(1);
      // By hand: 2000 + 9 x 2 + 4 x 50 + (round(39.0) + 20) + (60 + 20) + (round(18.51) + 20) = 2000 + 18 + 200 + 178.
      expect(invoice!.lines).toEqual([
        {
          kind: 'weekly_fee',
          quantity: 1,
          unitPence: 2000,
          amountPence: 2000,
          description: 'Weekly subscription: earnings £620.00, above £500.00',
        },
        { kind: 'sms', quantity: 9, unitPence: 2, amountPence: 18, description: 'SMS pass-through: 9 texts at 2p' },
        {
          kind: 'third_party_jobs',
          quantity: 4,
          unitPence: 50,
          amountPence: 200,
          description: 'Jobs from cabhub: 4 at £0.50',
        },
        {
          kind: 'card_processing',
          quantity: 3,
          unitPence: null,
          amountPence: 178,
          description: 'Card processing: 1.50% + £0.20 on each of 3 card payments (£78.34)',
        },
      ]);
      expect(invoice).toMatchObject({
        feePence: 2000,
        smsPence: 18,
        thirdPartyJobs: 4,
        thirdPartyPence: 200,
        cardTrips: 3,
        cardPence: 178,
        totalPence: 2396,
        status: 'billed',
      });
      const [owed] = await debtor.billedWeeks(1);
      expect(owed).toMatchObject({ status: 'free', feePence: 0, smsPence: 20, cardPence: 65, totalPence: 85 });
      expect(owed!.lines.map((l) => l.kind)).toEqual(['sms', 'card_processing']);

      const paying = env.client.workflow.getHandle(
        invoiceCollectionWorkflowId({ account: 'driver', accountId: payer.id, weekStart: iso(w1) }),
      );
      const owing = env.client.workflow.getHandle(
        invoiceCollectionWorkflowId({ account: 'driver', accountId: debtor.id, weekStart: iso(w1) }),
      );
      await until(
        () => world.called('openInvoiceCollection', payer.id),
        (c) => c.length === 1,
        'the collection opened',
      );
      expect(world.called('openInvoiceCollection', payer.id)).toEqual([
        expect.objectContaining({ account: 'driver', accountId: payer.id, weekStart: iso(w1), totalPence: 2396 }),
      ]);

      // Four days on: one reminder each, nothing paid.
      await sleepUntil(billedAt + 4 * DAY);
      await until(
        () => world.called('remindInvoice', payer.id),
        (c) => c.length === 1,
        'the first reminder',
      );
      expect(await paying.query(invoiceCollectionStateQuery)).toMatchObject({ status: 'unpaid', remindersSent: 1 });

      // Too little does not pay it; the provider's success does, once. (Each signal is sent once the
      // one before is handled: the test server stops its clock when a signal lands mid-task.)
      await paying.signal(invoicePaymentSignal, {
        eventId: 'evt_short',
        outcome: 'succeeded',
        amountPence: 2000,
        providerRef: 'cs_1',
      });
      await until(
        () => paying.query(invoiceCollectionStateQuery),
        (x) => x.lastFailure === 'evt_short',
        'the short payment refused',
      );
      await paying.signal(invoicePaymentSignal, {
        eventId: 'evt_paid',
        outcome: 'succeeded',
        amountPence: 2396,
        providerRef: 'cs_1',
      });
      const paid = await paying.result();
      await parentHeard(payer.id, paying.workflowId);
      // Paid is final: a replayed event finds the collection closed (the webhook's own rule, marking
      // only an unpaid row, applies then: test/integration/billing.test.ts).
      const replay = await paying
        .signal(invoicePaymentSignal, {
          eventId: 'evt_paid',
          outcome: 'succeeded',
          amountPence: 2396,
          providerRef: 'cs_1',
        })
        .catch((e: unknown) => e);
      expect(replay).toBeInstanceOf(WorkflowNotFoundError);
      expect(paid).toMatchObject({
        status: 'paid',
        paidBy: 'evt_paid',
        remindersSent: 1,
        lastFailure: 'evt_short',
        totalPence: 2396,
      });
      expect(world.called('markInvoicePaid', payer.id)).toEqual([
        expect.objectContaining({ eventId: 'evt_paid', amountPence: 2396 }),
      ]);
      expect(world.called('markInvoiceOverdue', payer.id)).toEqual([]);

      // The debtor never pays: reminded every three days, at most three times, then overdue at day 14.
      await sleepUntil(billedAt + (COLLECTION_POLICY.overdueAfterDays - 1) * DAY);
      await until(
        () => world.called('remindInvoice', debtor.id),
        (c) => c.length === 3,
        'three reminders',
      );
      expect(world.called('markInvoiceOverdue', debtor.id)).toEqual([]);
      await sleepUntil(billedAt + (COLLECTION_POLICY.overdueAfterDays + 1) * DAY);
      await until(
        () => world.called('markInvoiceOverdue', debtor.id),
        (c) => c.length === 1,
        'the invoice overdue',
      );
      expect((world.called('remindInvoice', debtor.id) as Array<{ reminder: number }>).map((r) => r.reminder)).toEqual([
        1, 2, 3,
      ]);
      expect(await owing.query(invoiceCollectionStateQuery)).toMatchObject({
        status: 'overdue',
        remindersSent: 3,
        paidBy: null,
      });
      expect(world.collections.get(weekKey(debtor.id, iso(w1)))).toEqual({
        status: 'overdue',
        reminders: 3,
        paidBy: null,
      });
      // No reminder after overdue; a late payment still settles it.
      await sleepUntil(billedAt + 30 * DAY);
      expect(world.called('remindInvoice', debtor.id)).toHaveLength(3);
      await owing.signal(invoicePaymentSignal, {
        eventId: 'evt_late',
        outcome: 'succeeded',
        amountPence: 85,
        providerRef: 'cs_3',
      });
      expect(await owing.result()).toMatchObject({ status: 'paid', paidBy: 'evt_late', remindersSent: 3 });
      expect(world.collections.get(weekKey(debtor.id, iso(w1)))).toEqual({
        status: 'paid',
        reminders: 3,
        paidBy: 'evt_late',
      });
      await parentHeard(debtor.id, owing.workflowId);
    });
  });

  it("bills partners' weeks at their end, 2p per text about their jobs, and collects what reaches the minimum", async () => {
    await scenario(async ({ world, taskQueue }) => {
      const now = await env.currentTimeMs();
      const w1 = weekStartOf(now);
      world.partnerSms.set(iso(w1), [
        { partnerId: 'acme', smsCount: 20 },
        { partnerId: 'tiny', smsCount: 3 }, // 6p: under the card minimum, invoiced but not collected
      ]);
      const workflowId = `partner-billing-${randomUUID()}`;
      await new PartnerBillingClient(env.client, taskQueue).ensure(workflowId);
      await new PartnerBillingClient(env.client, taskQueue).ensure(workflowId); // a second worker's start is the same workflow
      try {
        await sleepUntil(nextWeekStart(w1) - MINUTE);
        expect(world.called('billPartnersWeek', 'partners')).toEqual([]);
        await sleepUntil(nextWeekStart(w1) + MINUTE);
        await until(
          () => world.called('openInvoiceCollection', 'acme'),
          (c) => c.length === 1,
          "acme's collection opened",
        );
        expect(world.called('billPartnersWeek', 'partners')).toEqual([
          expect.objectContaining({ weekStart: iso(w1), weekEnd: iso(nextWeekStart(w1)) }),
        ]);
        expect(world.called('openInvoiceCollection', 'acme')).toEqual([
          expect.objectContaining({ account: 'partner', accountId: 'acme', weekStart: iso(w1), totalPence: 40 }),
        ]);
        expect(world.called('openInvoiceCollection', 'tiny')).toEqual([]);
        expect(partnerWeekCharge(20).lines).toEqual([
          {
            kind: 'sms',
            quantity: 20,
            unitPence: 2,
            amountPence: 40,
            description: 'SMS pass-through: 20 texts at 2p about your jobs',
          },
        ]);
      } finally {
        await env.client.workflow
          .getHandle(workflowId)
          .terminate('test over')
          .catch(() => undefined);
        await env.client.workflow
          .getHandle(invoiceCollectionWorkflowId({ account: 'partner', accountId: 'acme', weekStart: iso(w1) }))
          .terminate('test over')
          .catch(() => undefined);
      }
    });
  });
});
