// A passenger whose number is on a booking someone else made takes charge of it on her phone, in
// headless Chromium at phone size (issue 20): the link texted to her opens the trip, she puts her
// own name and email on it, gets her own manage code, and cancels; the stranger's code stops
// working. Each page is checked with axe, light and dark, under its real CSP.
import { existsSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../dev/free-port.js';
import { PHONE_VIEWPORT, seriousA11yProblems } from '../support/axe.js';
import { eventually, startStack, type TestStack } from '../support/stack.js';
import { launchChromium } from '../support/browser-stack.js';

const CHROMIUM = '/usr/bin/chromium';

describe.skipIf(!existsSync(CHROMIUM) && !process.env.CI)(
  'taking charge of a booking made with your phone, in headless Chromium',
  () => {
    let stack: TestStack;
    let browser: Browser;
    let base: string;

    beforeAll(async () => {
      const port = await freePort();
      base = `http://127.0.0.1:${port}`;
      stack = await startStack({ PUBLIC_BASE_URL: base });
      await stack.app.listen({ port, host: '127.0.0.1' });
      browser = await launchChromium();
    });
    afterAll(async () => {
      await browser?.close();
      await stack?.close();
    });

    it('opens the texted link, takes the booking over with her name and email, and cancels it', async () => {
      const digits = `7400${randomUUID().replace(/\D/g, '').padEnd(6, '1').slice(0, 6)}`;
      const national = `0${digits.slice(0, 4)} ${digits.slice(4)}`;
      const departAt = new Date(Date.now() + 30 * 3600_000);
      departAt.setUTCMinutes(30, 0, 0);
      const trip = {
        pickup: '14 Wilmslow Road, Rusholme M14 5TP',
        dropoff: 'Manchester Piccadilly',
        departAt: departAt.toISOString(),
        passengers: 1,
      };
      const stranger = await stack.app.inject({
        method: 'POST',
        url: '/api/public/v1/booking',
        remoteAddress: '203.0.113.50',
        payload: {
          ...trip,
          passengerName: 'Someone Else',
          passengerEmail: `someone.${digits}@example.com`,
          passengerPhone: `+44 ${digits.slice(0, 4)} ${digits.slice(4)}`,
        },
      });
      expect(stranger.statusCode, stranger.body).toBe(201);
      const ref = stranger.json<{ booking_reference: string }>().booking_reference;
      const strangerToken = stranger.json<{ manage_token: string }>().manage_token;

      // She asks for a link to the booking on her number (typed as she would: 07...); her phone gets it.
      const hers = await stack.app.inject({
        method: 'POST',
        url: `/api/public/v1/booking/${ref}/claim`,
        remoteAddress: '198.51.100.77',
        payload: { passenger_phone: national },
      });
      expect(hers.statusCode).toBe(202);
      const text = await eventually(async () => {
        const [row] = await stack.sql<
          { body: string }[]
        >`select body from outbox where recipient = ${`+44${digits}`} and body like '%/claim/%'`;
        return row?.body;
      });
      const link = /(http:\/\/\S+\/claim\/bcl_[A-Za-z0-9_-]+)/.exec(text)?.[1];
      expect(link).toBeDefined();

      expect(await seriousA11yProblems(browser, link!)).toEqual([]);
      const context = await browser.newContext({ viewport: PHONE_VIEWPORT });
      const page = await context.newPage();
      const refused: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error') refused.push(m.text());
      });
      await page.goto(link!);
      await page.getByRole('heading', { name: 'Is this your taxi?' }).waitFor();
      // The pickup's Rusholme postcode places it in Rusholme, never on Wilmslow Road in Wilmslow.
      expect(await page.locator('dl.facts').textContent()).toContain('Rusholme');
      expect(await page.content()).not.toContain('Someone Else');

      // A mistyped email is caught on the page, with what she typed kept.
      await page.getByLabel('Your name').fill('Ada Lovelace');
      await page.getByLabel('Your email').fill('ada.lovelace@@example');
      await page.getByRole('button', { name: 'This is my booking' }).click();
      await expect.poll(() => page.locator('#email-error').textContent()).toMatch(/./);
      expect(await page.getByLabel('Your name').inputValue()).toBe('Ada Lovelace');

      await page.getByLabel('Your email').fill(`ada.${digits}@example.com`);
      await page.getByRole('button', { name: 'This is my booking' }).click();
      await page.getByRole('heading', { name: 'This booking is now yours' }).waitFor();
      const code = (await page.locator('code').textContent()) ?? '';
      expect(code).toMatch(/^bmt_/);
      const lookup = (token: string) =>
        stack.app.inject({
          method: 'GET',
          url: `/api/public/v1/booking/${ref}?token=${token}`,
          remoteAddress: '198.51.100.78',
        });
      expect((await lookup(strangerToken)).statusCode).toBe(403);
      expect((await lookup(code)).statusCode).toBe(200);
      const byEmail = await stack.app.inject({
        method: 'GET',
        url: `/api/public/v1/booking/${ref}?email=ada.${digits}@example.com`,
        remoteAddress: '198.51.100.79',
      });
      expect(byEmail.statusCode).toBe(200);

      await page.getByLabel('Reason').fill('Got a lift instead');
      await page.getByRole('button', { name: 'Cancel this taxi' }).click();
      await page.getByRole('heading', { name: `Taxi ${ref} is cancelled` }).waitFor();
      expect((await lookup(code)).json<{ status: string }>().status).toBe('cancelled');
      // The link was for once.
      await page.goto(link!);
      await page.getByRole('heading', { name: 'This link has been used or has expired' }).waitFor();
      expect(refused.filter((m) => /Content Security Policy|Refused to/i.test(m))).toEqual([]);
      await context.close();
    });
  },
);
