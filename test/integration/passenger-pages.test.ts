// Issue 23, items 3 and 5, walked in Chromium at phone size. "Where exactly?" converges: a pickup
// found only as a town centre asks for a full postcode or a house number and street, says why when
// the next try finds no more than before (never offering back the place it called too vague), and
// moves on once a postcode places the pickup; the trip is then booked with a mobile typed as at
// home. The tracking page names the car to look for: the driver's first name (never the surname),
// the car's colour, make and model and its registration as on the plate, and, when no registration
// is on file, the council licence number said to be that. axe finds no serious or critical issue.
import { type Browser, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../dev/free-port.js';
import { PHONE_VIEWPORT, seriousA11yProblems } from '../support/axe.js';
import { launchChromium, watchPage } from '../support/browser-stack.js';
import {
  createDriver,
  respond,
  takeDriversOffline,
  waitForJobCard,
  waitForStatus,
  type TestDriver,
} from '../support/drivers.js';
import { startStack, type TestStack } from '../support/stack.js';

let stack: TestStack;
let browser: Browser;
let base: string;
const drivers: TestDriver[] = [];
// Script errors and Content-Security-Policy refusals from every page a test opened.
const browserProblems: string[] = [];

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  stack = await startStack({
    PUBLIC_BASE_URL: base,
    // The "Where exactly?" step quotes again from the browser, whose address other files share.
    QUOTE_RATE_LIMIT_PER_HOUR: '1000',
    LOOKUP_RATE_LIMIT_PER_MINUTE: '1000',
    // The driver answers when the test says so, however busy the machine.
    OFFER_TIMEOUT_SECONDS: '3600',
  });
  await stack.app.listen({ port, host: '127.0.0.1' });
  browser = await launchChromium();
});
afterEach(async () => {
  // Drivers stay in the shared database; offline, they can never be offered another test's job.
  await takeDriversOffline(stack.sql, drivers.splice(0));
  expect(browserProblems).toEqual([]);
  browserProblems.length = 0;
});
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

async function phonePage(url: string): Promise<Page> {
  const page = watchPage(await (await browser.newContext({ viewport: PHONE_VIEWPORT })).newPage(), browserProblems);
  const res = await page.goto(url);
  expect(res?.status()).toBe(200);
  return page;
}

const ASKED =
  'We could not find Deansgate in Manchester. Add its postcode to "1 Deansgate, Manchester", or choose a suggestion.';
const STILL_THE_CENTRE =
  'That still only finds the centre of Manchester: add the full postcode, e.g. M14 5TP, or a house number and street.';

describe('"Where exactly?" converges', () => {
  it('asks for a postcode or house number, says why the same street again does not help, and moves on to book once a postcode places the pickup', async () => {
    // The front door, as a passenger uses it: a house number on a street the gazetteer cannot
    // place is asked for its postcode there and then, never priced to the town centre.
    const page = await phonePage(`${base}/`);
    await page.fill('#pickup', '1 Deansgate, Manchester');
    await page.fill('#dropoff', 'Manchester Piccadilly station');
    await page.click('button:has-text("See the fare")');
    await page.waitForSelector('#pickup-error');
    expect(await page.textContent('#pickup-error')).toBe(ASKED);
    // Only what shares the street's name is offered: the station, as a button.
    expect(await page.locator('button.suggestion').allTextContents()).toEqual(['Deansgate (DGT) station']);
    await page.screenshot({ path: '/tmp/page-front-door-asked.png', fullPage: true });

    // A town alone is priced, and the booking page asks where exactly.
    await page.fill('#pickup', 'Manchester');
    await Promise.all([page.waitForURL(/\/book\/[0-9a-f-]{36}$/), page.click('button:has-text("See the fare")')]);
    const refineUrl = page.url();
    expect(await page.textContent('h1')).toBe('Where exactly?');
    expect(await page.textContent('main')).toContain('We can only find the centre of Manchester from your pickup');
    expect(await page.textContent('label[for="pickup_detail"]')).toBe('Full postcode, or house number and street');
    expect(await page.locator('form#book').count()).toBe(0);

    // The house and street, looked for in the pickup's town: its postcode is asked for, by name.
    await page.fill('#pickup_detail', '1 Deansgate');
    const [again] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/public/v1/quote') && r.request().method() === 'POST'),
      page.click('#find'),
    ]);
    expect(again.status()).toBe(422);
    expect((again.request().postDataJSON() as { pickup: string }).pickup).toBe('1 Deansgate, Manchester');
    await page.waitForSelector('#refine-error:not([hidden])');
    expect(await page.textContent('#refine-error')).toBe(ASKED);
    expect(page.url()).toBe(refineUrl);
    await page.screenshot({ path: '/tmp/page-where-exactly.png', fullPage: true });
    // The town it has called too vague is never offered back.
    expect(await page.locator('#suggestions button', { hasText: /^Manchester$/ }).count()).toBe(0);

    // Typed with its town, it is not sent with the town twice.
    await page.fill('#pickup_detail', '1 Deansgate, Manchester');
    const [once] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/public/v1/quote') && r.request().method() === 'POST'),
      page.click('#find'),
    ]);
    expect((once.request().postDataJSON() as { pickup: string }).pickup).toBe('1 Deansgate, Manchester');
    await page.waitForSelector('#find:not([disabled])');
    expect(await page.textContent('#refine-error')).toBe(ASKED);

    // The town again finds the same town centre: the page says so, and stays.
    await page.fill('#pickup_detail', 'Manchester');
    await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/public/v1/quote') && r.request().method() === 'POST'),
      page.click('#find'),
    ]);
    await page.waitForSelector('#find:not([disabled])');
    expect(await page.textContent('#refine-error')).toBe(STILL_THE_CENTRE);
    expect(page.url()).toBe(refineUrl);

    // Something it cannot place at all: told what to type, and not offered the town centre back.
    await page.fill('#pickup_detail', 'Qwxyzzy Plonk');
    await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/public/v1/quote') && r.request().method() === 'POST'),
      page.click('#find'),
    ]);
    await page.waitForSelector('#find:not([disabled])');
    expect(await page.textContent('#refine-error')).toMatch(
      /the full postcode, e\.g\. M14 5TP, or a house number and street\.$/,
    );
    expect(await page.locator('#suggestions button', { hasText: /^Manchester$/ }).count()).toBe(0);
    expect(page.url()).toBe(refineUrl);

    // A full postcode places it: a new quote at the postcode, and the booking form.
    await page.fill('#pickup_detail', 'M3 4LQ');
    await Promise.all([
      page.waitForURL((url) => url.pathname.startsWith('/book/') && url.href !== refineUrl),
      page.click('#find'),
    ]);
    await page.waitForSelector('form#book');
    expect(await page.textContent('dl.facts')).toContain('M3 4LQ');

    // Booked with a mobile typed as at home.
    await page.fill('#passenger_name', 'Ada Lovelace');
    await page.fill('#passenger_phone_whatsapp', '07400 123456');
    await page.click('#submit');
    await page.waitForURL(/\/track\/TX[0-9A-Z]{8,10}(#t=[^#]+)?$/);
    const ref = new URL(page.url()).pathname.split('/').pop()!;
    const [row] = await stack.sql<{ passenger_phone: string; pickup: { label: string; precision: string } }[]>`
      select passenger_phone, pickup from bookings where ref = ${ref}`;
    expect(row).toMatchObject({ passenger_phone: '+447400123456', pickup: { precision: 'postcode' } });
    expect(row!.pickup.label).toContain('M3 4LQ');
    await page.context().close();

    // No serious or critical accessibility issue on the step, as first shown and telling why.
    expect(await seriousA11yProblems(browser, refineUrl, { ready: '#pickup_detail' })).toEqual([]);
    const telling = await seriousA11yProblems(browser, refineUrl, {
      before: async (p) => {
        await p.fill('#pickup_detail', '1 Deansgate');
        await Promise.all([p.waitForSelector('#refine-error:not([hidden])'), p.click('#find')]);
      },
    });
    expect(telling).toEqual([]);
  });
});

describe('the tracking page names the car to look for', () => {
  it("shows the driver's first name, the car's colour, make and model and its registration; the council licence number only when no registration is on file", async () => {
    const driver = await createDriver(stack.sql, {
      lat: 50.7295,
      lon: -3.5435,
      homeArea: 'national-default',
      name: 'Morwenna Trelawny',
    }); // Exeter
    drivers.push(driver);
    await stack.sql`
      update drivers set vehicle_make = 'Skoda', vehicle_model = 'Octavia', vehicle_registration = 'wk19xyz', vehicle_colour = 'dark blue'
       where id = ${driver.id}`;
    const [{ plate } = { plate: '' }] = await stack.sql<
      { plate: string }[]
    >`select plate from drivers where id = ${driver.id}`;

    const quoted = await stack.app.inject({
      method: 'POST',
      url: '/api/public/v1/quote',
      remoteAddress: '10.81.0.1',
      payload: { pickup: 'Exeter St Davids station', dropoff: 'Exeter Airport' },
    });
    expect(quoted.statusCode, quoted.body).toBe(200);
    const page = await phonePage(quoted.json<{ booking_url: string }>().booking_url);
    await page.fill('#passenger_name', 'Ada Lovelace');
    await page.fill('#passenger_phone_whatsapp', '07400 123456');
    await page.click('#submit');
    await page.waitForURL(/\/track\/TX[0-9A-Z]{8,10}(#t=[^#]+)?$/);
    const ref = new URL(page.url()).pathname.split('/').pop()!;

    const card = await waitForJobCard(stack.sql, driver, ref, 60_000);
    expect((await respond(stack.app, card, 'accept')).statusCode).toBe(200);
    await waitForStatus(stack.sql, ref, 'assigned');

    // The open page catches up by itself.
    await page.waitForSelector('[data-field="driver_plate"]:has-text("WK19 XYZ")');
    expect(await page.textContent('#driver h2')).toBe('Look out for');
    expect(await page.textContent('[data-field="driver_name"]')).toBe('Morwenna');
    expect(await page.textContent('[data-field="driver_vehicle"]')).toBe('Dark blue Skoda Octavia');
    expect(await page.textContent('[data-field="driver_plate_label"]')).toBe('Registration');
    expect(await page.textContent('main')).not.toContain('Trelawny');
    expect(await page.textContent('main')).not.toContain(plate);
    await page.screenshot({ path: '/tmp/page-track-car.png', fullPage: true });

    // The polled JSON says the same, and nothing more of the driver.
    const polled = await stack.app.inject({
      method: 'GET',
      url: `/track/${ref}/status.json`,
      remoteAddress: '10.81.0.2',
    });
    expect(polled.statusCode).toBe(200);
    expect(polled.json<{ driver: unknown }>().driver).toEqual({
      name: 'Morwenna',
      vehicle: 'Dark blue Skoda Octavia',
      registration: 'WK19 XYZ',
      council_licence: null,
    });
    expect(polled.body).not.toContain('Trelawny');

    expect(await seriousA11yProblems(browser, `${base}/track/${ref}`, { ready: '#driver' })).toEqual([]);

    // No registration on file: the council licence number, said to be that, never called the registration.
    await stack.sql`update drivers set vehicle_registration = null where id = ${driver.id}`;
    await page.waitForSelector('[data-field="driver_plate_label"]:has-text("Council licence no.")');
    expect(await page.textContent('[data-field="driver_plate"]')).toBe(plate);
    await page.reload();
    expect(await page.textContent('[data-field="driver_plate_label"]')).toBe('Council licence no.');
    expect(await page.textContent('[data-field="driver_plate"]')).toBe(plate);
    expect(await page.textContent('main')).not.toContain('Registration');
    await page.context().close();
  });
});
