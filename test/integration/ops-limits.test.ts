// Staff actions with bounds, through HTTP on the real stack (issue 20, lower items f and g): a rate
// override must name a driver or partner that exists and a rate and window it can be in force
// with; a trial is extended by at most 90 days at a time and is never longer than 365 days in all.
// And the staff budget (issue 24, item 4): every staff route and console page is counted on the
// staff allowance, per staff key (or operator key), never on the public's per-address budgets.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/auth/api-keys.js';
import { createStaff } from '../../src/auth/staff.js';
import { createPartner } from '../../src/partners/store.js';
import { SubscriptionClient } from '../../src/billing/subscription-client.js';
import { subscriptionWorkflowId } from '../../workflows/billing/definitions.js';
import { createDriver, takeDriversOffline, type TestDriver } from '../support/drivers.js';
import { startStack, type TestStack } from '../support/stack.js';

let stack: TestStack;
let operator: string;
let admin: string;
const drivers: TestDriver[] = [];
beforeAll(async () => {
  stack = await startStack();
  operator = (await createStaff(stack.sql, { name: 'Lim (ops)', role: 'operator' })).key;
  admin = (await createStaff(stack.sql, { name: 'Lim (admin)', role: 'admin' })).key;
});
afterAll(async () => {
  if (stack) {
    await takeDriversOffline(stack.sql, drivers);
    for (const d of drivers)
      await stack.client.workflow
        .getHandle(subscriptionWorkflowId(d.id))
        .terminate('test over')
        .catch(() => {});
  }
  await stack?.close();
});

let n = 0;
const ip = () => `10.93.${Math.floor(n / 250) % 250}.${n++ % 250}`;
const post = (url: string, body: object, bearer: string) =>
  stack.app.inject({
    method: 'POST',
    url,
    payload: body,
    headers: { authorization: `Bearer ${bearer}` },
    remoteAddress: ip(),
  });
const DAY = 86_400_000;

async function driver(): Promise<TestDriver> {
  // Far out in the North Sea's shore, offline: no other test's booking is offered to it.
  const d = await createDriver(stack.sql, { lat: 57.9, lon: -1.9 });
  drivers.push(d);
  await takeDriversOffline(stack.sql, [d]);
  return d;
}

describe('rate overrides', () => {
  const override = (over: object) => ({
    scope: 'partner',
    adjustment_basis_points: -1000,
    reason: 'agreed corporate rate',
    ...over,
  });

  it('refuses a driver or partner that does not exist with 404, and records nothing', async () => {
    // The finding: an override for a partner that does not exist was approved (201).
    const ghost = await post('/api/ops/rate-overrides', override({ subject_id: 'no-such-partner' }), operator);
    expect(ghost.statusCode).toBe(404);
    expect(ghost.json().code).toBe('partner_not_found');
    const noDriver = await post(
      '/api/ops/rate-overrides',
      override({ scope: 'driver', subject_id: 'drv_nobody' }),
      operator,
    );
    expect(noDriver.statusCode).toBe(404);
    expect(
      await stack.sql`select 1 from rate_overrides where subject_id in ('no-such-partner', 'drv_nobody')`,
    ).toHaveLength(0);

    await createPartner(stack.sql, { id: 'lim-partner', name: 'Limits Partner', kind: 'partner' });
    const real = await post('/api/ops/rate-overrides', override({ subject_id: 'lim-partner' }), operator);
    expect(real.statusCode, real.body).toBe(201);
    expect(real.json()).toMatchObject({
      scope: 'partner',
      subject_id: 'lim-partner',
      adjustment_basis_points: -1000,
      approved_by: 'Lim (ops)',
    });
    const d = await driver();
    expect(
      (
        await post(
          '/api/ops/rate-overrides',
          override({ scope: 'driver', subject_id: d.id, adjustment_basis_points: 10_000 }),
          operator,
        )
      ).statusCode,
    ).toBe(201);
  });

  it('refuses a rate or a window it could not be in force with, naming the field', async () => {
    await createPartner(stack.sql, { id: 'lim-bounds', name: 'Bounds Partner', kind: 'partner' });
    const now = Date.now();
    const cases: [object, string][] = [
      [{ adjustment_basis_points: -9000 }, 'body.adjustment_basis_points'], // 90% below the tariff
      [{ adjustment_basis_points: 10_001 }, 'body.adjustment_basis_points'],
      [{ minimum_fare_pence: 50_000 }, 'body.minimum_fare_pence'],
      [{ effective_to: new Date(now - DAY).toISOString() }, 'body.effective_to'], // already over
      [
        { effective_from: new Date(now - 10 * DAY).toISOString(), effective_to: new Date(now - DAY).toISOString() },
        'body.effective_to',
      ],
      [{ effective_from: new Date(now + 2 * 365 * DAY).toISOString() }, 'body.effective_from'],
      [
        { effective_from: new Date(now + 2 * DAY).toISOString(), effective_to: new Date(now + DAY).toISOString() },
        'body.effective_to',
      ],
    ];
    for (const [over, field] of cases) {
      const res = await post('/api/ops/rate-overrides', override({ subject_id: 'lim-bounds', ...over }), operator);
      expect(res.statusCode, JSON.stringify(over)).toBe(400);
      expect(res.json().errors.map((e: { field: string }) => e.field)).toContain(field);
    }
    expect(await stack.sql`select 1 from rate_overrides where subject_id = 'lim-bounds'`).toHaveLength(0);
    const window = override({
      subject_id: 'lim-bounds',
      adjustment_basis_points: -5000,
      minimum_fare_pence: 20_000,
      effective_from: new Date(now + DAY).toISOString(),
      effective_to: new Date(now + 30 * DAY).toISOString(),
    });
    expect((await post('/api/ops/rate-overrides', window, operator)).statusCode).toBe(201);
  });
});

describe('trial extensions', () => {
  const extend = (d: TestDriver, days: number) =>
    post(`/api/ops/drivers/${d.id}/trial`, { days, reason: 'onboarding delayed' }, admin);

  it('extends by at most 90 days at a time, and a trial to at most 365 days in all, with 422 beyond', async () => {
    const d = await driver();
    const approvedAt = new Date();
    await new SubscriptionClient(stack.client, stack.taskQueue).start({ driverId: d.id, tier: 'local', approvedAt });
    // The finding: one driver was extended by 3,695 days, ten extensions of up to a year each.
    const tooMuch = await extend(d, 91);
    expect(tooMuch.statusCode, tooMuch.body).toBe(422);
    expect(tooMuch.json().code).toBe('invalid_trial_extension');
    for (let i = 1; i <= 3; i++) {
      const ok = await extend(d, 90);
      expect(ok.statusCode, ok.body).toBe(200);
      expect(Date.parse(ok.json().trial_ends_at)).toBe(approvedAt.getTime() + (90 + 90 * i) * DAY);
    }
    // 360 days so far: 5 more at most.
    const over = await extend(d, 6);
    expect(over.statusCode).toBe(422);
    expect(over.json()).toMatchObject({ code: 'trial_too_long' });
    expect(over.json().detail).toMatch(/365 days/);
    expect((await extend(d, 5)).json().trial_ends_at).toBe(new Date(approvedAt.getTime() + 365 * DAY).toISOString());
    expect((await extend(d, 1)).statusCode).toBe(422);
    expect(await stack.sql`select sum(days)::int as days from trial_extensions where driver_id = ${d.id}`).toEqual([
      { days: 275 },
    ]);
    expect(
      await stack.sql`select trial_days + trial_extended_days as total from driver_subscriptions where driver_id = ${d.id}`,
    ).toEqual([{ total: 365 }]);
  });
});

describe('the staff budget', () => {
  const countersFor = (address: string) =>
    stack.sql<
      { key: string; hits: number }[]
    >`select key, sum(hits)::int as hits from rate_limit_counters where key like ${`%ip:${address}`} group by key`;
  const hitsOf = async (key: string) =>
    (
      await stack.sql<
        { n: number }[]
      >`select coalesce(sum(hits), 0)::int as n from rate_limit_counters where key = ${key}`
    )[0]!.n;
  const dummy: Record<string, string> = {
    ref: 'TX00000000ZZ',
    driverId: 'drv_nobody',
    documentId: '1',
    requestId: '1',
  };

  it('counts every documented /api/ops and /api/operator operation on the caller’s staff allowance, none on an address', async () => {
    const { key: staffKey, staff } = await createStaff(stack.sql, { name: 'Lim (budget)', role: 'operator' });
    const partnerId = `opr-lim-${Date.now()}`;
    await createPartner(stack.sql, { id: partnerId, name: 'Limits Cabs', kind: 'operator', liveIntakeApproved: true });
    const { key: operatorKey, apiKey } = await createApiKey(stack.sql, { name: partnerId, partnerId });
    const doc = (await stack.app.inject({ method: 'GET', url: '/api/public/openapi.json' })).json<{
      paths: Record<string, Record<string, unknown>>;
    }>();
    const operations = Object.entries(doc.paths)
      .filter(([path]) => path.startsWith('/api/ops/') || path.startsWith('/api/operator/'))
      .flatMap(([path, methods]) => Object.keys(methods).map((method) => ({ path, method: method.toUpperCase() })));
    expect(operations.length).toBeGreaterThanOrEqual(20);
    for (const { path, method } of operations) {
      const operator = path.startsWith('/api/operator/');
      const bucket = operator ? `staff:key:${apiKey.id}` : `staff:member:${staff.id}`;
      const before = await hitsOf(bucket);
      const from = ip();
      const url = path.replace(/\{(\w+)\}/g, (_, name: string) => dummy[name] ?? 'x');
      const res = await stack.app.inject({
        method: method as 'GET',
        url,
        remoteAddress: from,
        headers: { authorization: `Bearer ${operator ? operatorKey : staffKey}` },
        ...(method === 'POST' ? { payload: {} } : {}),
      });
      expect(res.statusCode, `${method} ${path}`).not.toBe(429);
      expect(await hitsOf(bucket), `${method} ${path}`).toBe(before + 1);
      expect(await countersFor(from), `${method} ${path}`).toEqual([]);
    }
  });

  it('counts the console pages, which carry no key, in the staff group’s own per-address buckets', async () => {
    for (const url of ['/ops', '/ops/bookings', '/operator']) {
      const from = ip();
      expect((await stack.app.inject({ method: 'GET', url, remoteAddress: from })).statusCode, url).toBe(200);
      expect(await countersFor(from), url).toEqual([{ key: `staff:ip:${from}`, hits: 1 }]);
    }
  });
});
