// Online means dispatchable (issue 24, item 1). A driver parked on a rank, online, with the app
// open: the phone reports no new position while the car stands still, so the app sends the last one
// on a heartbeat, and the driver is still offered a job long after the 10-minute freshness window.
// The page's clock is driven by the test (Playwright's clock), and the silence the server saw is
// made by moving the driver's last position back, never by waiting. When the service cannot see a
// driver it says so in the app, and the location watch texts them once before dispatch passes them over.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDriverActivities } from '../../activities/drivers.js';
import { createStaff } from '../../src/auth/staff.js';
import type { Sql } from '../../src/db/sql.js';
import { OutboxNotifier } from '../../src/notify/outbox-notifier.js';
import { startBrowserStack } from '../support/browser-stack.js';
import { PHONE_VIEWPORT } from '../support/axe.js';
import { createDriver, takeDriversOffline, type TestDriver } from '../support/drivers.js';
import { eventually, STACK_WAIT_MS, type TestStack } from '../support/stack.js';

let stack: TestStack;
let browser: Browser;
let base: string;
const drivers: TestDriver[] = [];
beforeAll(async () => {
  ({ stack, browser, base } = await startBrowserStack({ OFFER_TIMEOUT_SECONDS: '120' }));
});
afterAll(async () => {
  await takeDriversOffline(stack.sql, drivers);
  await browser?.close();
  await stack?.close();
});

// The rank outside Hexham station, Northumberland.
const RANK = { latitude: 54.9735, longitude: -2.095 };
const MINUTE = 60_000;

/** A number of this file's own, in the mobile range a driver signs in with. */
const driverPhone = () => `+4474005${String(10000 + (Date.now() % 89999)).padStart(5, '0')}`;

async function lastPosition(id: string): Promise<Date | null> {
  const [row] = await stack.sql<{ location_at: Date | null }[]>`select location_at from drivers where id = ${id}`;
  return row?.location_at ?? null;
}

describe('online means dispatchable', () => {
  it('keeps a driver parked and online past the freshness window offered jobs, and says plainly when it cannot see them', async () => {
    const phone = driverPhone();
    const d = await createDriver(stack.sql, {
      lat: RANK.latitude,
      lon: RANK.longitude,
      homeArea: 'national-default',
      name: 'Ruth Parker',
      phone,
    });
    drivers.push(d);
    await stack.sql`update drivers set location_at = now() - interval '1 hour' where id = ${d.id}`;

    const context = await browser.newContext({
      viewport: PHONE_VIEWPORT,
      geolocation: RANK,
      permissions: ['geolocation'],
    });
    const app = await context.newPage();
    await app.clock.install();
    await app.goto(`${base}/driver`);
    await app.fill('#phone', `0${phone.slice(3, 7)} ${phone.slice(7)}`);
    await app.click('#phone-form button[type=submit]');
    await app.waitForSelector('#code-form:not([hidden])');
    const code = await eventually(
      async () => {
        const [m] = await stack.sql<
          { body: string }[]
        >`select body from outbox where recipient = ${phone} and body like '%sign-in code%' order by id desc limit 1`;
        return m ? /(\d{6})/.exec(m.body)?.[1] : undefined;
      },
      STACK_WAIT_MS,
      'the sign-in code',
    );
    await app.fill('#code', code);
    await app.click('#code-form button[type=submit]');
    await app.waitForSelector('#online-state:has-text("You are online")');
    // The app's first position has landed (made before it, the driver's last was long ago).
    await eventually(
      async () => (Date.now() - ((await lastPosition(d.id))?.getTime() ?? 0) < MINUTE ? true : undefined),
      STACK_WAIT_MS,
      'the first position',
    );

    // Parked for 11 minutes: the phone has reported nothing new since it stood still, and the
    // service's last position is 11 minutes old. The app says so plainly at its next look.
    await stack.sql`update drivers set location_at = now() - interval '11 minutes' where id = ${d.id}`;
    await app.clock.runFor(5000);
    await app.waitForSelector('#online-state:has-text("You are online, but not getting jobs")');
    expect(await app.textContent('#receiving')).toMatch(
      /We have not had your location since \d\d:\d\d: keep this page open with location allowed/,
    );

    // The heartbeat: within a minute the app sends where it still is, and offers resume.
    const before = (await lastPosition(d.id))!;
    await app.clock.runFor(MINUTE);
    await eventually(
      async () => ((await lastPosition(d.id))!.getTime() > before.getTime() + 10 * MINUTE ? true : undefined),
      STACK_WAIT_MS,
      'the heartbeat position',
    );
    await app.clock.runFor(5000);
    await app.waitForSelector('#online-state:has-text("You are online and getting jobs")');
    expect(await app.isHidden('#receiving')).toBe(true);

    // A passenger at the station books: the parked driver is offered the job in the app.
    const booked = await stack.app.inject({
      method: 'POST',
      url: '/api/public/bookings/instant',
      remoteAddress: '10.24.1.1',
      payload: {
        pickup_address: 'Hexham station',
        dropoff_address: '12 Priestpopple, Hexham NE46 1PS',
        passenger_name: 'Mary Somerville',
        passenger_phone_whatsapp: '07400 123491',
      },
    });
    expect(booked.statusCode, booked.body).toBe(200);
    const ref = booked.json().booking_reference as string;
    await app.clock.runFor(5000);
    await app.waitForSelector(`.job[data-ref="${ref}"]`);
    await context.close();
  });

  it('texts an online driver whose app has gone quiet once, before dispatch passes them over, and not again for the same silence', async () => {
    const quiet = await createDriver(stack.sql, {
      lat: RANK.latitude,
      lon: RANK.longitude,
      homeArea: 'national-default',
      name: 'Quiet Driver',
    });
    const fresh = await createDriver(stack.sql, {
      lat: RANK.latitude,
      lon: RANK.longitude,
      homeArea: 'national-default',
      name: 'Fresh Driver',
    });
    drivers.push(quiet, fresh);
    await stack.sql`update drivers set location_at = now() - interval '6 minutes' where id = ${quiet.id}`;

    // In a transaction rolled back at the end: other files' drivers share this database, and the
    // watch would text any of theirs gone quiet too.
    const rolledBack = new Error('rolled back');
    await stack.sql
      .begin(async (tx) => {
        const sql = tx as unknown as Sql;
        const watch = createDriverActivities({ sql, notifier: new OutboxNotifier({ sql }) });
        const first = await watch.warnDriversLosingLocation();
        expect(first.warned).toContain(quiet.id);
        expect(first.warned).not.toContain(fresh.id);
        const again = await watch.warnDriversLosingLocation();
        expect(again.warned).not.toContain(quiet.id);
        const texts = await sql<
          { body: string }[]
        >`select body from outbox where recipient = ${quiet.phone} and idempotency_key like 'location-quiet:%'`;
        expect(texts).toHaveLength(1);
        expect(texts[0]!.body).toMatch(
          /you are online but we have not had your location since \d\d:\d\d\. Open the driver app .* or you stop getting jobs at \d\d:\d\d/,
        );
        expect(
          await sql`select 1 from outbox where recipient = ${fresh.phone} and idempotency_key like 'location-quiet:%'`,
        ).toHaveLength(0);

        // Heard from again, then quiet again within the hour: not texted a second time that hour.
        await sql`update drivers set location_at = now() - interval '7 minutes' where id = ${quiet.id}`;
        expect((await watch.warnDriversLosingLocation()).warned).not.toContain(quiet.id);
        throw rolledBack;
      })
      .catch((err: unknown) => {
        if (err !== rolledBack) throw err;
      });
  });

  it('shows ops the online drivers dispatch passes over, and why', async () => {
    const { key } = await createStaff(stack.sql, { name: 'Ops desk', role: 'operator' });
    const parked = await createDriver(stack.sql, {
      lat: RANK.latitude,
      lon: RANK.longitude,
      homeArea: 'national-default',
      name: 'Parked Quietly',
    });
    drivers.push(parked);
    await stack.sql`update drivers set location_at = now() - interval '11 minutes' where id = ${parked.id}`;
    const res = await stack.app.inject({
      method: 'GET',
      url: '/api/ops/drivers?status=approved&q=Parked%20Quietly',
      headers: { authorization: `Bearer ${key}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    const [d] = res.json<{
      drivers: {
        id: string;
        online: boolean;
        receiving_jobs: { yes: boolean; reason: string | null; message: string | null };
      }[];
    }>().drivers;
    expect(d).toMatchObject({ id: parked.id, online: true, receiving_jobs: { yes: false, reason: 'stale_location' } });
    expect(d!.receiving_jobs.message).toMatch(/We have not had your location since/);
  });
});
