// The driver's side end to end in headless Chromium on phone-sized screens, against the real stack
// over HTTP: a driver applies, an operator approves, the driver signs in with a texted code, goes
// online with the browser's location, receives an offer from a passenger's booking, accepts, sees
// the passenger, reports on the way, arrived, on board and completed, and confirms cash. The
// passenger's tracking page and the booking lookup show each step and the payment state, and the
// payment record cannot be changed or deleted.
import { existsSync } from 'node:fs';
import { type Browser, type BrowserContextOptions, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createStaff } from '../../src/auth/staff.js';
import { freePort } from '../../dev/free-port.js';
import { seriousA11yProblems } from '../support/axe.js';
import { bookingTrail } from '../support/drivers.js';
import { CHROMIUM, launchChromium, openWatched } from '../support/browser-stack.js';
import { eventually, STACK_WAIT_MS, startStack, type TestStack } from '../support/stack.js';

// Morpeth, Northumberland: the pickup, and where the driver's phone says they are.
const NEAR_PICKUP = { latitude: 55.1634, longitude: -1.683 };

describe.skipIf(!existsSync(CHROMIUM.executablePath) && !process.env.CI)(
  'the driver app, applying and the ops console in headless Chromium',
  () => {
    let stack: TestStack;
    let browser: Browser;
    let base: string;
    let staffKey: string;
    const problems: string[] = [];

    beforeAll(async () => {
      const port = await freePort();
      base = `http://127.0.0.1:${port}`;
      stack = await startStack({ OFFER_TIMEOUT_SECONDS: '60', PUBLIC_BASE_URL: base });
      await stack.app.listen({ port, host: '127.0.0.1' });
      browser = await launchChromium();
      staffKey = (await createStaff(stack.sql, { name: 'Olu (ops)', role: 'operator' })).key;
    });
    afterEach(() => {
      expect(problems).toEqual([]);
      problems.length = 0;
    });
    afterAll(async () => {
      await browser?.close();
      // Offline, the drivers this file made are never offered a later file's booking.
      if (stack) await stack.sql`update drivers set online = false where id like 'drv_%'`;
      await stack?.close();
    });

    const open = (url: string, options: BrowserContextOptions = {}): Promise<Page> =>
      openWatched(browser, problems, url, options);

    it('takes a driver from applying to a paid trip, with the passenger watching', async () => {
      const phone = `+4474006${String(10000 + (Date.now() % 89999)).padStart(5, '0')}`;

      // 1. The driver applies from their phone.
      const apply = await open(`${base}/drivers/apply`);
      const fill = async (id: string, value: string) => apply.fill(`#${id}`, value);
      await fill('name', 'Jo Driver');
      await fill('phone', phone);
      await fill('email', 'jo.driver@example.com');
      await fill('licensing_authority', 'Northumberland County Council');
      await fill('driver_licence_number', 'NCC-D-4321');
      await fill('driver_licence_expires', '2030-01-31');
      await fill('vehicle_licence_number', 'NCC-V-77');
      await fill('vehicle_licence_expires', '2029-06-30');
      await fill('vehicle_make', 'Toyota');
      await fill('vehicle_model', 'Corolla');
      await fill('vehicle_registration', 'nu24txi');
      await fill('vehicle_colour', 'Pearl white');
      await apply.selectOption('#home_area', { label: 'Another council' });
      await apply.selectOption('#tier', 'national');
      await apply.setInputFiles('#driver_licence_file', {
        name: 'licence.pdf',
        mimeType: 'application/pdf',
        buffer: Buffer.from('%PDF-1.4\n%%EOF'),
      });
      await apply.setInputFiles('#vehicle_licence_file', {
        name: 'plate.png',
        mimeType: 'image/png',
        buffer: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]),
      });
      await apply.click('button[type=submit]');
      await apply.waitForSelector('text=is with our operators');
      const [driver] = await stack.sql<
        { id: string; status: string; vehicle_registration: string; vehicle_colour: string }[]
      >`
      select id, status, vehicle_registration, vehicle_colour from drivers where phone = ${phone}`;
      expect(driver).toMatchObject({
        status: 'applicant',
        vehicle_registration: 'NU24TXI',
        vehicle_colour: 'Pearl white',
      });

      // 2. An operator approves, saying why.
      const ops = await open(`${base}/ops`);
      await ops.fill('#key', staffKey);
      await ops.click('#key-form button[type=submit]');
      const card = ops.locator(`article[data-driver="${driver!.id}"]`);
      await card.waitFor();
      const signInToOps = async (page: Page) => {
        await page.fill('#key', staffKey);
        await page.click('#key-form button[type=submit]');
      };
      expect(
        await seriousA11yProblems(browser, `${base}/ops`, {
          before: signInToOps,
          ready: `article[data-driver="${driver!.id}"]`,
        }),
      ).toEqual([]);
      await card.locator('input[type=text]').fill('licences checked with the council');
      await card.locator('button:has-text("Approve")').click();
      await ops.waitForSelector(`text=Driver ${driver!.id}: approve recorded.`);
      const [actions] = await stack.sql<
        { n: number }[]
      >`select count(*)::int as n from staff_actions where subject_id = ${driver!.id} and action = 'driver.approve'`;
      expect(actions!.n).toBe(1);

      // 3. The driver signs in with the texted code and goes online where they are. Applied as +44,
      // they type the number as at home (issue 23).
      const app = await open(`${base}/driver`, { geolocation: NEAR_PICKUP, permissions: ['geolocation'] });
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
      await app.waitForSelector('#driver-name:has-text("Jo Driver")');
      expect(await app.textContent('#subscription')).toMatch(/Free trial: 90 days left|Starts when/);
      await app.click('#online-toggle');
      await app.waitForSelector('text=You are online');
      await eventually(
        async () => {
          const [d] = await stack.sql<{ lat: number | null }[]>`select lat from drivers where id = ${driver!.id}`;
          return d?.lat != null ? d : undefined;
        },
        STACK_WAIT_MS,
        'the browser location to reach dispatch',
      );

      // 4. A passenger books; the offer appears in the app.
      const booked = await stack.app.inject({
        method: 'POST',
        url: '/api/public/bookings/instant',
        remoteAddress: '10.93.0.1',
        payload: {
          pickup_address: 'Morpeth station',
          dropoff_address: 'Morpeth',
          passenger_name: 'Ada Byron',
          passenger_phone_whatsapp: '+447400123499',
        },
      });
      expect(booked.statusCode).toBe(200);
      const { booking_reference: ref, manage_token: manage } = booked.json<{
        booking_reference: string;
        manage_token: string;
      }>();
      const job = app.locator(`.job[data-ref="${ref}"]`);
      await job.waitFor({ timeout: STACK_WAIT_MS }).catch(async (err: unknown) => {
        throw new Error(`${(err as Error).message}: ${await bookingTrail(stack.sql, ref)}`, { cause: err });
      });
      expect(await job.textContent()).not.toContain('Ada Byron');
      await job.locator('button:has-text("Accept")').click();
      await app.waitForSelector('text=Job accepted');
      await job.locator('text=Ada Byron').waitFor();
      expect(await job.locator('a[href^="tel:"]').getAttribute('href')).toBe('tel:+447400123499');

      // Usable one-handed on a phone by everyone: no serious or critical accessibility problems on any
      // of these pages, signed in and out, with a job showing.
      const session = await app.evaluate<string>("localStorage.getItem('directTaxiDriverSession')");
      const signedIn = {
        storageState: {
          cookies: [],
          origins: [{ origin: base, localStorage: [{ name: 'directTaxiDriverSession', value: session }] }],
        },
      };
      expect(
        await seriousA11yProblems(browser, `${base}/driver`, { ready: `.job[data-ref="${ref}"]`, context: signedIn }),
      ).toEqual([]);
      expect(await seriousA11yProblems(browser, `${base}/driver`, { ready: '#phone' })).toEqual([]);
      expect(await seriousA11yProblems(browser, `${base}/drivers/apply`, { ready: '#apply' })).toEqual([]);
      expect(await seriousA11yProblems(browser, `${base}/ops`, { ready: '#key' })).toEqual([]);

      // 5. The trip, step by step, as the passenger sees it: who to look for is the driver's first
      // name, the car's colour, make and model, and its registration as on the number plate.
      const track = await open(`${base}/track/${ref}`);
      expect(await track.textContent('[data-field="driver_name"]')).toBe('Jo');
      expect(await track.textContent('[data-field="driver_vehicle"]')).toBe('Pearl white Toyota Corolla');
      expect(await track.textContent('[data-field="driver_plate_label"]')).toBe('Registration');
      expect(await track.textContent('[data-field="driver_plate"]')).toBe('NU24 TXI');
      expect(await track.textContent('main')).not.toMatch(/Jo Driver|NCC-V-77/);
      for (const [button, passengerSees, status] of [
        ['On my way', 'Your driver is on the way', 'en_route'],
        ['Arrived at pickup', 'Your driver is here', 'arrived'],
        ['Passenger on board', 'On your way', 'on_board'],
        ['Trip completed', 'Journey complete', 'completed'],
      ] as const) {
        await job.locator(`button:has-text("${button}")`).click();
        await track.waitForSelector(`[data-field="headline"]:has-text("${passengerSees}")`, { timeout: STACK_WAIT_MS });
        const lookup = await stack.app.inject({
          method: 'GET',
          url: `/api/public/v1/booking/${ref}?token=${manage}`,
          remoteAddress: '10.93.0.2',
        });
        expect(lookup.json()).toMatchObject({ status });
      }
      expect(await track.textContent('[data-field="payment_detail"]')).toBe(
        'Pay your driver now, if you have not already.',
      );

      // 6. The driver confirms cash; the passenger sees it paid; the record is immutable.
      await job.locator('select').selectOption('cash');
      await job.locator('button:has-text("Confirm payment")').click();
      await app.waitForSelector('text=Payment recorded');
      await track.waitForSelector('[data-field="payment_detail"]:has-text("Paid")', { timeout: STACK_WAIT_MS });
      const lookup = await stack.app.inject({
        method: 'GET',
        url: `/api/public/v1/booking/${ref}?token=${manage}`,
        remoteAddress: '10.93.0.3',
      });
      expect(lookup.json()).toMatchObject({
        status: 'completed',
        payment: { state: 'paid', received: { method: 'cash' } },
      });
      await expect(stack.sql`update payment_records set amount_pence = 0 where booking_ref = ${ref}`).rejects.toThrow(
        /immutable/,
      );
      await expect(stack.sql`delete from payment_records where booking_ref = ${ref}`).rejects.toThrow(/immutable/);
      await app.waitForSelector('#rides:has-text("1")', { timeout: STACK_WAIT_MS });
      await app.screenshot({ path: '/tmp/page-driver-app.png', fullPage: true });
    });
  },
);
