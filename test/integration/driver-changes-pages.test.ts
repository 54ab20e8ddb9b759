// Keeping papers current in headless Chromium against the real stack over HTTP: a driver on a
// phone-sized screen (390x844) signs in as they would type their number at home, is told every
// problem with a vehicle change at once, sends a renewed vehicle licence and a changed car; an
// operator at a desktop (1440x900) sees it beside the record and approves it; the driver's record
// and app show it. No serious accessibility problems on either screen.
import { existsSync } from 'node:fs';
import { type Browser, type BrowserContextOptions, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createStaff } from '../../src/auth/staff.js';
import { freePort } from '../../dev/free-port.js';
import { DESKTOP_VIEWPORT, seriousA11yProblems } from '../support/axe.js';
import { CHROMIUM, launchChromium, openWatched } from '../support/browser-stack.js';
import { eventually, STACK_WAIT_MS, startStack, type TestStack } from '../support/stack.js';

const PHONE = '+447400123456';
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF');
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
const day = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

describe.skipIf(!existsSync(CHROMIUM.executablePath) && !process.env.CI)(
  'a driver keeping their papers current, and staff approving it, in headless Chromium',
  () => {
    let stack: TestStack;
    let browser: Browser;
    let base: string;
    let staffKey: string;
    const problems: string[] = [];

    beforeAll(async () => {
      const port = await freePort();
      base = `http://127.0.0.1:${port}`;
      stack = await startStack({ PUBLIC_BASE_URL: base });
      await stack.app.listen({ port, host: '127.0.0.1' });
      browser = await launchChromium();
      staffKey = (await createStaff(stack.sql, { name: 'Priya (ops)', role: 'operator' })).key;
    });
    afterEach(() => {
      expect(problems).toEqual([]);
      problems.length = 0;
    });
    afterAll(async () => {
      await browser?.close();
      await stack?.close();
    });

    const open = (url: string, options: BrowserContextOptions = {}): Promise<Page> =>
      openWatched(browser, problems, url, options);

    it("takes a renewed licence and a changed car from the driver's phone to the record, approved at a desk", async () => {
      const applied = await stack.app.inject({
        method: 'POST',
        url: '/api/drivers/applications',
        remoteAddress: '10.98.0.1',
        payload: {
          name: 'Kiran Patel',
          phone: '07400 123456',
          email: 'kiran.patel@example.com',
          licensing_authority: 'Manchester City Council',
          driver_licence_number: 'MCC-D-2468',
          driver_licence_expires: day(500),
          vehicle_licence_number: 'MCC-V-135',
          vehicle_licence_expires: day(10),
          vehicle_make: 'Toyota',
          vehicle_model: 'Prius',
          vehicle_registration: 'MA15 ABC',
          vehicle_type: 'saloon',
          seats: 4,
          wheelchair_accessible: false,
          home_area: 'national-default',
          tier: 'local',
          documents: [
            { kind: 'driver_licence', content_type: 'application/pdf', data_base64: PDF.toString('base64') },
            { kind: 'vehicle_licence', content_type: 'image/png', data_base64: PNG.toString('base64') },
          ],
        },
      });
      expect(applied.statusCode, applied.body).toBe(201);
      const driverId = applied.json<{ driver_id: string }>().driver_id;
      const approved = await stack.app.inject({
        method: 'POST',
        url: `/api/ops/drivers/${driverId}/decision`,
        remoteAddress: '10.98.0.2',
        headers: { authorization: `Bearer ${staffKey}` },
        payload: { action: 'approve', reason: null },
      });
      expect(approved.statusCode).toBe(200);

      // 1. The driver signs in on their phone, typing the number as at home.
      const app = await open(`${base}/driver`);
      await app.fill('#phone', '07400 123456');
      await app.click('#phone-form button[type=submit]');
      await app.waitForSelector('#code-form:not([hidden])');
      const code = await eventually(
        async () => {
          const [m] = await stack.sql<
            { body: string }[]
          >`select body from outbox where recipient = ${PHONE} and body like '%sign-in code%' order by id desc limit 1`;
          return m ? /(\d{6})/.exec(m.body)?.[1] : undefined;
        },
        STACK_WAIT_MS,
        'the sign-in code',
      );
      await app.fill('#code', code);
      await app.click('#code-form button[type=submit]');
      await app.waitForSelector('#driver-name:has-text("Kiran Patel")');
      // The vehicle licence runs out in 10 days: the app says so.
      await app.waitForSelector(`#licence-notice:has-text("Your vehicle licence runs out in 10 days (${day(10)})")`);

      // 2. A mistyped vehicle change: every problem at once, in words.
      await app.fill('#vc-registration', 'MA19-XYZ!');
      await app.fill('#vc-colour', 'Silver 2');
      await app.click('#vehicle-change-form button[type=submit]');
      await app.waitForSelector('#papers-errors:not([hidden])');
      expect(await app.locator('#papers-errors li').allTextContents()).toEqual([
        'Registration must be a UK registration',
        'Colour may contain only letters, spaces and hyphens',
      ]);

      // 3. The car as it is now: MA19 XYZ, silver estate.
      await app.fill('#vc-registration', 'MA19 XYZ');
      await app.fill('#vc-colour', 'Silver');
      await app.selectOption('#vc-type', 'estate');
      await app.click('#vehicle-change-form button[type=submit]');
      await app.waitForSelector('text=Your vehicle change is waiting for review.');
      expect(await app.isHidden('#papers-errors')).toBe(true);

      // 4. The renewed vehicle licence: the new date and a photo of it.
      await app.fill('#vl-expires', day(375));
      await app.setInputFiles('#vl-file', { name: 'plate.png', mimeType: 'image/png', buffer: PNG });
      await app.click('#licence-change-form button[type=submit]');
      await app.waitForSelector('text=Your renewed licence is waiting for review.');
      await app.waitForSelector(
        `.paper-change:has-text("Renewed licence: Waiting for review"):has-text("Vehicle licence to ${day(375)}")`,
      );
      await app.waitForSelector(
        '.paper-change:has-text("Vehicle change: Waiting for review"):has-text("MA19 XYZ, silver, estate, 4 seats")',
      );

      const session = await app.evaluate<string>("localStorage.getItem('directTaxiDriverSession')");
      const signedIn = {
        storageState: {
          cookies: [],
          origins: [{ origin: base, localStorage: [{ name: 'directTaxiDriverSession', value: session }] }],
        },
      };
      expect(
        await seriousA11yProblems(browser, `${base}/driver`, { ready: '.paper-change', context: signedIn }),
      ).toEqual([]);

      // 5. An operator at a desk sees both, beside the record, and approves the licence.
      const [licence] = await stack.sql<
        { id: string }[]
      >`select id::text from driver_changes where driver_id = ${driverId} and kind = 'licences' and status = 'pending'`;
      const ops = await open(`${base}/ops`, { viewport: DESKTOP_VIEWPORT });
      await ops.fill('#key', staffKey);
      await ops.click('#key-form button[type=submit]');
      const card = ops.locator(`article[data-change="${licence!.id}"]`);
      await card.waitFor();
      expect(await card.locator('tr:has-text("Vehicle licence expires") td').allTextContents()).toEqual([
        day(10),
        day(375),
      ]);
      const signInToOps = async (page: Page) => {
        await page.fill('#key', staffKey);
        await page.click('#key-form button[type=submit]');
      };
      expect(
        await seriousA11yProblems(browser, `${base}/ops`, {
          before: signInToOps,
          ready: `article[data-change="${licence!.id}"]`,
          context: { viewport: DESKTOP_VIEWPORT },
        }),
      ).toEqual([]);
      await card.locator('input[type=text]').fill('Checked with Manchester City Council');
      await card.locator('button:has-text("Approve")').click();
      await ops.waitForSelector('text=Renewed licence from Kiran Patel: approved, and the driver told.');
      await card.waitFor({ state: 'detached' });

      const [d] = await stack.sql<
        { v: string }[]
      >`select vehicle_licence_expires::text as v from drivers where id = ${driverId}`;
      expect(d!.v).toBe(day(375));
      expect(
        await stack.sql`select reason from staff_actions where subject_id = ${driverId} and action = 'driver.change_approve'`,
      ).toEqual([{ reason: 'Checked with Manchester City Council' }]);
      expect(
        await stack.sql`select 1 from outbox where recipient = ${PHONE} and body like '%renewed licence is approved%'`,
      ).toHaveLength(1);

      // 6. The driver's app says so; the notice about the lapsing licence is gone.
      await app.reload();
      await app.waitForSelector('.paper-change:has-text("Renewed licence: Approved")');
      expect(await app.isHidden('#licence-notice')).toBe(true);
    });
  },
);
