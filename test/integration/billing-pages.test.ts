// The invoices in a browser: the driver app's invoice table (each charge, whether it is paid, the
// link to pay) and the ops console's invoices owed, signed in, in headless Chromium with axe.
import { randomUUID } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBillingActivities } from '../../activities/billing.js';
import { createStaff } from '../../src/auth/staff.js';
import { hashSecret } from '../../src/auth/secrets.js';
import { openCollection, saveCollectionLink } from '../../src/billing/collection-store.js';
import { createSession } from '../../src/drivers/session-store.js';
import { activityDeps } from '../../src/services.js';
import { startBrowserStack } from '../support/browser-stack.js';
import { seriousA11yProblems } from '../support/axe.js';
import { createDriver } from '../support/drivers.js';
import type { TestStack } from '../support/stack.js';

let stack: TestStack;
let browser: Browser;
let base: string;
beforeAll(async () => {
  ({ stack, browser, base } = await startBrowserStack());
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

const SESSION = 'directTaxiDriverSession';
// The week of 2 November 2026 (GMT): Monday 00:00 to Monday 00:00.
const WEEK = { weekStart: '2026-11-02T00:00:00.000Z', weekEnd: '2026-11-09T00:00:00.000Z' };

describe('invoices in the driver app and the ops console (Chromium)', () => {
  it('shows the driver each charge and a pay link while unpaid, and ops what is owed', async () => {
    const d = await createDriver(stack.sql, { lat: 53.48, lon: -2.24, name: 'Rosa Pay' });
    const place = stack.sql.json({ label: 'Manchester', kind: 'place', lat: 53.48, lon: -2.24 });
    // 18 trips at 30 GBP (540 GBP), one paid 30 GBP by card; 5 texts.
    for (let i = 0; i < 18; i++) {
      const ref = `TXP${randomUUID().slice(0, 8).toUpperCase()}`;
      const at = `2026-11-0${3 + (i % 5)}T1${i % 10}:00:00Z`;
      await stack.sql`
        insert into bookings (ref, status, source, passenger_name, passenger_phone, payment_method, pickup_query, dropoff_query,
                              pickup, dropoff, pickup_area, pickup_at, passengers, vehicle_type, fare_pence, fare_source,
                              distance_m, duration_s, driver_id, completed_at)
        values (${ref}, 'completed', 'agent_instant', 'Ada', '+447400123456', 'cash', 'a', 'b', ${place}, ${place}, 'manchester',
                ${at}, 1, 'saloon', 3000, 'tariff', 5000, 900, ${d.id}, ${at})`;
      if (i === 0) {
        await stack.sql`insert into payment_records (booking_ref, driver_id, amount_pence, method, recorded_by, idempotency_key, recorded_at)
                        values (${ref}, ${d.id}, 3000, 'card', 'driver', ${`test:${randomUUID()}`}, ${at})`;
      }
    }
    for (let i = 0; i < 5; i++) {
      await stack.sql`insert into outbox (idempotency_key, channel, recipient, body, provider, sent_at)
                      values (${`test:${randomUUID()}`}, 'sms', ${d.phone}, 'New job', 'outbox', ${'2026-11-04T08:00:00Z'})`;
    }
    const invoice = await createBillingActivities(activityDeps(stack.config, stack.sql)).billDriverWeek({
      driverId: d.id,
      ...WEEK,
    });
    // 20 GBP + 5 x 2p + (45p + 20p) = 20.75 GBP.
    expect(invoice.totalPence).toBe(2075);
    const key = { account: 'driver' as const, accountId: d.id, weekStart: WEEK.weekStart };
    await openCollection(stack.sql, key, invoice.totalPence, 'test');
    const payUrl = `${base}/billing/test-pay/test_cs_page`;
    await saveCollectionLink(stack.sql, key, { providerRef: 'test_cs_page', payUrl, expiresAt: null });

    const token = `drs_${randomUUID().replaceAll('-', '')}`;
    await createSession(stack.sql, hashSecret(token), d.id);
    const signedIn = {
      storageState: { cookies: [], origins: [{ origin: base, localStorage: [{ name: SESSION, value: token }] }] },
    };
    const context = await browser.newContext(signedIn);
    try {
      const app = await context.newPage();
      await app.goto(`${base}/driver`);
      const row = app.locator('#invoices tr', { hasText: '2026-11-02' });
      await row.waitFor();
      const shown = (await row.textContent())!;
      expect(shown).toContain('Weekly subscription: earnings £540.00, above £500.00: £20.00');
      expect(shown).toContain('SMS pass-through: 5 texts at 2p: £0.10');
      expect(shown).toContain('Card processing: 1.50% + £0.20 on each of 1 card payment (£30.00): £0.65');
      expect(shown).toContain('£20.75');
      expect(shown).toContain('Unpaid');
      expect(await row.locator('a:has-text("Pay now")').getAttribute('href')).toBe(payUrl);
    } finally {
      await context.close();
    }
    expect(await seriousA11yProblems(browser, `${base}/driver`, { context: signedIn, ready: '#invoices a' })).toEqual(
      [],
    );

    const staffKey = (await createStaff(stack.sql, { name: 'Ola (ops)', role: 'operator' })).key;
    const signIn = async (p: import('playwright-core').Page) => {
      await p.fill('#key', staffKey);
      await p.click('#key-form button[type=submit]');
    };
    const opsContext = await browser.newContext();
    try {
      const page = await opsContext.newPage();
      await page.goto(`${base}/ops/invoices`);
      await signIn(page);
      const owed = page.locator('#rows tr', { hasText: d.id });
      await owed.waitFor();
      const text = (await owed.textContent())!;
      expect(text).toContain('Rosa Pay');
      expect(text).toContain('£20.75');
      expect(text).toContain('Unpaid');
      await page.selectOption('#status', 'overdue');
      await owed.waitFor({ state: 'detached' });
    } finally {
      await opsContext.close();
    }
    expect(
      await seriousA11yProblems(browser, `${base}/ops/invoices`, {
        before: signIn,
        ready: '#rows tr',
        context: { viewport: { width: 1280, height: 800 } },
      }),
    ).toEqual([]);
  }, 120_000);
});
