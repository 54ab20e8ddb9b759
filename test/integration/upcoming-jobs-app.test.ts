// The upcoming-jobs board in the driver app, walked in headless Chromium at phone size (issue 24,
// advance allocation): a passenger books a 05:30 airport run for tomorrow at the front door with
// what they would really type; the day before, a driver signs in, finds it on the board, takes it
// (the passenger is told who is coming), confirms it on the day when asked and drives it to a
// cash payment. The stack runs on a time-skipping Temporal server, so the night passes when the
// test moves the clock, never by waiting. This file cannot choose the hour it runs at, so only the
// airport's three-hour lead applies here (not the evening-before rule for small-hours pickups,
// proved on the time-skipping server in test/workflows/advance-allocation.test.ts): the job is
// still waiting for its dispatch time whenever the driver takes it the day before.
import { existsSync } from 'node:fs';
import { DateTime } from 'luxon';
import { type Browser, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../dev/free-port.js';
import { PHONE_VIEWPORT, seriousA11yProblems } from '../support/axe.js';
import { CHROMIUM, launchChromium, watchPage } from '../support/browser-stack.js';
import { createDriver, takeDriversOffline, waitForStatus, type TestDriver } from '../support/drivers.js';
import { eventually, STACK_WAIT_MS } from '../support/stack.js';
import { startTimeSkippingStack, type TimeSkippingStack } from '../support/time-skipping-stack.js';

// 1 Deansgate, Manchester.
const DEANSGATE = { latitude: 53.4831, longitude: -2.2466 };
const SESSION = 'directTaxiDriverSession';

describe.skipIf(!existsSync(CHROMIUM.executablePath) && !process.env.CI)(
  'the upcoming-jobs board in the driver app',
  () => {
    let skipping: TimeSkippingStack;
    let browser: Browser;
    let base: string;
    const drivers: TestDriver[] = [];
    const browserProblems: string[] = [];

    beforeAll(async () => {
      const port = await freePort();
      base = `http://127.0.0.1:${port}`;
      skipping = await startTimeSkippingStack({
        PUBLIC_BASE_URL: base,
        ADVANCE_DISPATCH_HOURS: '3',
        EARLY_PICKUP_BEFORE_HOUR: '0',
        QUOTE_RATE_LIMIT_PER_HOUR: '1000',
        LOOKUP_RATE_LIMIT_PER_MINUTE: '1000',
      });
      await skipping.stack.app.listen({ port, host: '127.0.0.1' });
      browser = await launchChromium();
    });
    afterEach(() => {
      expect(browserProblems).toEqual([]);
      browserProblems.length = 0;
    });
    afterAll(async () => {
      if (skipping) await takeDriversOffline(skipping.stack.sql, drivers);
      await browser?.close();
      await skipping?.close();
    });

    const watch = (page: Page): Page => watchPage(page, browserProblems);

    it('a driver takes a 05:30 airport run from the board the day before, confirms it on the day and drives it', async () => {
      const { stack, temporal } = skipping;
      const sql = stack.sql;
      const when = DateTime.now()
        .setZone('Europe/London')
        .plus({ days: 1 })
        .set({ hour: 5, minute: 30, second: 0, millisecond: 0 });
      const pickupMs = when.toMillis();

      // The passenger books at the front door, as they would type it.
      const passenger = watch(await (await browser.newContext({ viewport: PHONE_VIEWPORT })).newPage());
      await passenger.goto(`${base}/`);
      await passenger.fill('#pickup', '1 Deansgate, Manchester M3 4LQ');
      await passenger.fill('#dropoff', 'Manchester Airport');
      await passenger.fill('#when', when.toFormat("yyyy-MM-dd'T'HH:mm"));
      await Promise.all([
        passenger.waitForURL(/\/book\/[0-9a-f-]{36}$/),
        passenger.click('button:has-text("See the fare")'),
      ]);
      await passenger.waitForSelector('form#book');
      await passenger.fill('#passenger_name', 'Ada Lovelace');
      await passenger.fill('#passenger_phone_whatsapp', '07400 123456');
      await passenger.click('#submit');
      await passenger.waitForURL(/\/track\/TX[0-9A-Z]{8,10}(#t=[^#]+)?$/);
      const ref = new URL(passenger.url()).pathname.split('/').pop()!;
      const [booked] = await sql<{ status: string; pickup_at: Date; passenger_phone: string; pickup_area: string }[]>`
      select status, pickup_at, passenger_phone, pickup_area from bookings where ref = ${ref}`;
      expect(booked).toEqual({
        status: 'scheduled',
        pickup_at: new Date(pickupMs),
        passenger_phone: '+447400123456',
        pickup_area: 'manchester',
      });
      await passenger.context().close();

      // The day before, a Manchester driver near Deansgate signs in to the app.
      const phone = `+4474002${String(10000 + (Date.now() % 89999)).padStart(5, '0')}`;
      const d = await createDriver(sql, {
        lat: DEANSGATE.latitude,
        lon: DEANSGATE.longitude,
        homeArea: 'manchester',
        name: 'Nell Gwyn',
        phone,
      });
      drivers.push(d);
      const context = await browser.newContext({
        viewport: PHONE_VIEWPORT,
        geolocation: DEANSGATE,
        permissions: ['geolocation'],
      });
      const app = watch(await context.newPage());
      await app.goto(`${base}/driver`);
      await app.fill('#phone', `0${phone.slice(3, 7)} ${phone.slice(7)}`);
      await app.click('#phone-form button[type=submit]');
      await app.waitForSelector('#code-form:not([hidden])');
      const code = await eventually(
        async () => {
          const [m] = await sql<
            { body: string }[]
          >`select body from outbox where recipient = ${phone} and body like '%sign-in code%' order by id desc limit 1`;
          return m ? /(\d{6})/.exec(m.body)?.[1] : undefined;
        },
        STACK_WAIT_MS,
        'the sign-in code',
      );
      await app.fill('#code', code);
      await app.click('#code-form button[type=submit]');

      // On the board: when (London time), the area and the airport, the fare and the distance; not the door.
      const upcoming = app.locator(`.upcoming[data-ref="${ref}"]`);
      await upcoming.waitFor();
      const shown = (await upcoming.textContent())!;
      expect(shown).toContain(when.toFormat('ccc d LLL, HH:mm'));
      expect(shown).toContain('Manchester Airport');
      expect(shown).toMatch(/Fare£\d+\.\d\d paid to you/);
      expect(shown).toMatch(/Distance\d+\.\d mi/);
      expect(shown).toContain('M3, Manchester');
      expect(shown).not.toContain('M3 4LQ');
      expect(shown).not.toContain('Ada');
      await app.screenshot({ path: '/tmp/page-upcoming-board.png', fullPage: true });

      // No serious accessibility problem on the board, signed in, on a phone.
      const token = await app.evaluate((key) => localStorage.getItem(key), SESSION);
      expect(
        await seriousA11yProblems(browser, `${base}/driver`, {
          context: {
            storageState: {
              cookies: [],
              origins: [{ origin: base, localStorage: [{ name: SESSION, value: token! }] }],
            },
          },
          ready: `.upcoming[data-ref="${ref}"]`,
        }),
      ).toEqual([]);

      // They take it: it is theirs, in their jobs with the passenger's name, and the passenger is told.
      await upcoming.locator('button:has-text("Take this job")').click();
      await app.waitForSelector(`#message:has-text("Job ${ref} is yours")`);
      await upcoming.waitFor({ state: 'detached' });
      const job = app.locator(`.job[data-ref="${ref}"]`);
      await job.waitFor();
      expect(await job.textContent()).toContain('Ada Lovelace');
      expect(await job.textContent()).toContain('M3 4LQ');
      await waitForStatus(sql, ref, 'assigned');
      const told = await eventually(
        async () => {
          const [m] = await sql<
            { body: string }[]
          >`select body from outbox where booking_ref = ${ref} and recipient = '+447400123456' and idempotency_key like 'assigned:%'`;
          return m?.body;
        },
        STACK_WAIT_MS,
        'the passenger told',
      );
      expect(told).toMatch(/Nell is picking you up at/);

      // The night passes: an hour before pickup they are asked to confirm, and nobody else was ever asked.
      expect(await job.locator('button:has-text("Confirm I am doing this job")').count()).toBe(0);
      await temporal.sleep(pickupMs - 60 * 60_000 - (await temporal.currentTimeMs()) + 60_000);
      await job.locator('button:has-text("Confirm I am doing this job")').click();
      await job.locator('button:has-text("Confirm I am doing this job")').waitFor({ state: 'detached' });
      expect((await sql`select driver_confirmed_at is not null as yes from bookings where ref = ${ref}`)[0]?.yes).toBe(
        true,
      );
      expect(await sql`select driver_id, status, claimed_from_board from offers where booking_ref = ${ref}`).toEqual([
        { driver_id: d.id, status: 'accepted', claimed_from_board: true },
      ]);

      // And drives it, step by step, to a cash payment: with the passenger on board, confirming the
      // payment is the trip's last tap (it completes the trip too).
      for (const step of ['On my way', 'Arrived at pickup', 'Passenger on board']) {
        await job.locator(`button:has-text("${step}")`).click();
        await job.locator(`button:has-text("${step}")`).waitFor({ state: 'detached' });
      }
      expect(await job.locator('form.payment').textContent()).toContain(
        'Confirming the payment also completes the trip.',
      );
      await job.locator('button:has-text("Complete the trip and confirm payment")').click();
      await app.waitForSelector('text=Payment recorded. Thank you.');
      await waitForStatus(sql, ref, 'completed');
      expect(
        await sql`select amount_pence, method, recorded_by from payment_records where booking_ref = ${ref}`,
      ).toEqual([{ amount_pence: expect.any(Number), method: 'cash', recorded_by: 'driver' }]);
      await job.locator('button:has-text("Complete the trip and confirm payment")').waitFor({ state: 'detached' });
      await context.close();
    }, 180_000);
  },
);
