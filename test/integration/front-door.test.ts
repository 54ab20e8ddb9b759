// The front door (issue 23, item 5), walked in Chromium at phone size: `/` is a page; its quote form
// leads to the booking page and on to a booked trip; a place it cannot find is shown again with the
// problem beside the field; "find my booking" by reference and the email or mobile number booked
// with (typed as people type it) opens the tracking page, and anything else finds nothing. axe
// finds no serious or critical issue on it, light or dark.
import { type Browser, type Page } from 'playwright-core';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../dev/free-port.js';
import { sameContact } from '../../src/routes/home.js';
import { PHONE_VIEWPORT, seriousA11yProblems } from '../support/axe.js';
import { startStack, type TestStack } from '../support/stack.js';
import { launchChromium } from '../support/browser-stack.js';

let stack: TestStack;
let browser: Browser;
let base: string;
beforeAll(async () => {
  // The pages link to PUBLIC_BASE_URL: this run's own address.
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

async function phonePage(path: string): Promise<Page> {
  const page = await (await browser.newContext({ viewport: PHONE_VIEWPORT })).newPage();
  const res = await page.goto(`${base}${path}`);
  expect(res?.status()).toBe(200);
  return page;
}

/** Tomorrow at 09:30, London time, as a datetime-local input takes it. */
const tomorrowMorning = () =>
  DateTime.now().setZone('Europe/London').plus({ days: 1 }).set({ hour: 9, minute: 30 }).toFormat("yyyy-LL-dd'T'HH:mm");

describe('the front door', () => {
  it('quotes from / and books the trip from a phone, then cancels it from the tracking page the booking opened', async () => {
    const page = await phonePage('/');
    expect(await page.title()).toContain('Book a taxi');
    await page.fill('#pickup', '10 Wilmslow Road, Rusholme, Manchester M14 5TQ');
    await page.fill('#dropoff', 'Manchester Piccadilly station');
    await page.fill('#when', tomorrowMorning());
    await page.selectOption('#passengers', '2');
    await Promise.all([page.waitForURL(/\/book\/[0-9a-f-]{36}$/), page.click('button:has-text("See the fare")')]);
    expect(await page.textContent('main')).toMatch(/£\d+\.\d{2}/);

    await page.fill('#passenger_name', 'Grace Hopper');
    await page.fill('#passenger_phone_whatsapp', '+44 7400 123456');
    await page.check('input[name="payment_method"][value="cash_to_driver"]');
    await page.click('#submit');
    await page.waitForURL(/\/track\/TX[0-9A-Z]{8,10}(#t=[^#]+)?$/);
    const ref = new URL(page.url()).pathname.split('/').pop()!;
    const [row] = await stack.sql<
      { passengers: number; pickup_at: Date }[]
    >`select passengers, pickup_at from bookings where ref = ${ref}`;
    expect(row?.passengers).toBe(2);
    // Booked for the time chosen, read as UK time.
    expect(DateTime.fromJSDate(row!.pickup_at).setZone('Europe/London').toFormat("yyyy-LL-dd'T'HH:mm")).toBe(
      tomorrowMorning(),
    );

    // The tracking page the booking opened lets its holder cancel, after asking once more.
    await page.waitForSelector('#manage:not([hidden])');
    await page.click('#cancel');
    await page.click('#cancel-yes');
    await page.waitForSelector('[data-field="headline"]:has-text("Cancelled")');
    await page.waitForSelector('#manage', { state: 'hidden' });
    const [after] = await stack.sql<{ status: string }[]>`select status from bookings where ref = ${ref}`;
    expect(after?.status).toBe('cancelled');
    await page.context().close();

    // The same page without the link's token (anyone with the reference) offers no cancel.
    const stranger = await phonePage(`/track/${ref}`);
    expect(await stranger.isHidden('#manage')).toBe(true);
    await stranger.context().close();
  });

  it('shows the form again, as typed, with the problem beside the place it could not find', async () => {
    const page = await phonePage('/');
    await page.fill('#pickup', 'Qwxyzzy Plonkton Upon Nowhere');
    await page.fill('#dropoff', 'Manchester Piccadilly station');
    const [res] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST'),
      page.click('button:has-text("See the fare")'),
    ]);
    expect(res.status()).toBe(422);
    await page.waitForSelector('#pickup-error');
    expect(await page.inputValue('#pickup')).toBe('Qwxyzzy Plonkton Upon Nowhere');
    expect(await page.inputValue('#dropoff')).toBe('Manchester Piccadilly station');
    expect(await page.getAttribute('#pickup', 'aria-invalid')).toBe('true');
    await page.context().close();
  });

  it('finds a booking by its reference and the mobile number or email booked with, typed as people type them, and nothing otherwise', async () => {
    // A number of this file's own: other files count bookings by the phones they use.
    const local = `07400 ${String(200_000 + Math.floor(Math.random() * 700_000))}`;
    const booked = await stack.app.inject({
      method: 'POST',
      url: '/api/public/bookings/instant',
      remoteAddress: '10.77.0.1',
      payload: {
        pickup_address: 'Manchester Piccadilly',
        dropoff_address: 'Manchester Airport',
        passenger_name: 'Ada Lovelace',
        passenger_phone_whatsapp: local,
      },
    });
    expect(booked.statusCode, booked.body).toBe(200);
    const ref = booked.json<{ booking_reference: string }>().booking_reference;

    const page = await phonePage('/');
    await page.fill('#reference', ` ${ref.toLowerCase()} `);
    await page.fill('#contact', local.replace(' ', ''));
    await Promise.all([
      page.waitForURL(new RegExp(`/track/${ref}$`)),
      page.click('button:has-text("Find my booking")'),
    ]);
    expect(await page.textContent('main')).toContain(ref);

    await page.goto(`${base}/`);
    await page.fill('#reference', ref);
    await page.fill('#contact', '07400 199999');
    const [res] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST'),
      page.click('button:has-text("Find my booking")'),
    ]);
    expect(res.status()).toBe(404);
    expect(await page.textContent('#find-error')).toContain('No booking with that reference');
    await page.context().close();
  });

  it('matches the contact typed against the booking: emails ignoring case, UK numbers in any format', () => {
    expect(sameContact('Ada@Example.com', 'ada@example.com', '+447400123457')).toBe(true);
    expect(sameContact('07400 123457', null, '+447400123457')).toBe(true);
    expect(sameContact('+44 (0)7400-123457', null, '+447400123457')).toBe(true);
    expect(sameContact('0044 7400 123457', null, '+447400123457')).toBe(true);
    expect(sameContact('07400 123458', null, '+447400123457')).toBe(false);
    expect(sameContact('123457', null, '+447400123457')).toBe(false);
    expect(sameContact('ada@example.com', null, '+447400123457')).toBe(false);
  });

  it('has no serious or critical accessibility issue, blank or showing a problem', async () => {
    expect(await seriousA11yProblems(browser, `${base}/`)).toEqual([]);
    const withProblem = await seriousA11yProblems(browser, `${base}/`, {
      before: async (page) => {
        await page.fill('#pickup', 'Qwxyzzy Plonkton Upon Nowhere');
        await page.fill('#dropoff', 'Manchester Piccadilly station');
        await Promise.all([page.waitForSelector('#pickup-error'), page.click('button:has-text("See the fare")')]);
      },
    });
    expect(withProblem).toEqual([]);
  });
});
