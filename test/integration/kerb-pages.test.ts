// Issue 35's page walks in headless Chromium at 390×844, against the real stack over HTTP: the driver
// accepts from the texted job card and gets the trip's buttons at once, in plain words, and is asked
// before giving the job back; a passenger who finds the booking from the front page proves the
// phone is hers with a texted link and cancels, and the cancelled booking asks for no payment; a
// house number on a street we cannot place is asked for its postcode, and suggestions can be tapped.
import { existsSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { type Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createStaff } from '../../src/auth/staff.js';
import { freePort } from '../../dev/free-port.js';
import { bookingWorkflowId } from '../../workflows/bookings/definitions.js';
import { CHROMIUM, launchChromium, openWatched } from '../support/browser-stack.js';
import { bookingRow, createDriver, takeDriversOffline, waitForJobCard, type TestDriver } from '../support/drivers.js';
import { eventually, STACK_WAIT_MS, startStack, type TestStack } from '../support/stack.js';

// Hexham, Northumberland: the pickup, and where the test's driver is.
const HEXHAM = { lat: 54.9733, lon: -2.1034 };

describe.skipIf(!existsSync(CHROMIUM.executablePath) && !process.env.CI)('issue 35 walks, in headless Chromium', () => {
  let stack: TestStack;
  let browser: Browser;
  let base: string;
  const problems: string[] = [];
  const drivers: TestDriver[] = [];

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    // An hour to answer: nothing here races the wall clock.
    stack = await startStack({ OFFER_TIMEOUT_SECONDS: '3600', PUBLIC_BASE_URL: base });
    await stack.app.listen({ port, host: '127.0.0.1' });
    browser = await launchChromium();
  });
  afterEach(async () => {
    await takeDriversOffline(stack.sql, drivers.splice(0));
    expect(problems).toEqual([]);
    problems.length = 0;
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  /** A mobile of this run, as the passenger types it ("07400 1…") and as stored (+44…). */
  function mobile() {
    const digits = `7400${randomUUID().replace(/\D/g, '').padEnd(6, '3').slice(0, 6)}`;
    return { typed: `0${digits.slice(0, 4)} ${digits.slice(4)}`, e164: `+44${digits}` };
  }

  async function book(phone: string, at: Date) {
    const res = await stack.app.inject({
      method: 'POST',
      url: '/api/public/v1/booking',
      remoteAddress: `198.51.100.${Math.floor(Math.random() * 200) + 20}`,
      payload: {
        pickup: 'Hexham station',
        dropoff: 'Hexham',
        departAt: at.toISOString(),
        passengerName: 'Ada Lovelace',
        passengerEmail: `ada.${randomUUID().slice(0, 8)}@example.com`,
        passengerPhone: phone,
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ booking_reference: string }>().booking_reference;
  }

  it('accepts on the job card and drives from it at once, and asks before the job is given back', async () => {
    const driver = await createDriver(stack.sql, { ...HEXHAM, homeArea: 'national-default' });
    drivers.push(driver);
    const ref = await book(mobile().typed, new Date(Date.now() + 5 * 60_000));
    const card = await waitForJobCard(stack.sql, driver, ref, STACK_WAIT_MS);
    const link = /(http:\/\/\S+\/driver\/jobs\/\S+)/.exec(card.body)?.[1];
    expect(link).toBeDefined();

    const page = await openWatched(browser, problems, link!);
    await page.getByRole('button', { name: 'Accept' }).click();
    // No reload by hand: the passenger and the trip's first step are there.
    await page.getByRole('button', { name: 'On my way' }).waitFor();
    expect(await page.locator('#trip .status').textContent()).toBe('Trip: Yours: not started yet');
    expect(await page.locator('dl.facts').textContent()).toContain('Ada Lovelace');
    expect(await page.locator('dl.facts').textContent()).toContain('Saloon (up to 4)');

    // One tap on "Give the job back" only asks; keeping it changes nothing.
    await page.getByRole('button', { name: 'Give the job back' }).click();
    await page.getByRole('alertdialog').waitFor();
    await page.getByRole('button', { name: 'Keep the job' }).click();
    await expect.poll(() => page.getByRole('alertdialog').isVisible()).toBe(false);
    expect(await bookingRow(stack.sql, ref)).toMatchObject({ status: 'assigned', driver_id: driver.id });

    await page.getByRole('button', { name: 'On my way' }).click();
    await expect.poll(() => page.locator('#trip .status').textContent()).toBe('Trip: On your way to the pickup');
    await page.getByRole('button', { name: 'Give the job back' }).click();
    await page.getByRole('button', { name: 'Yes, give it back' }).click();
    await eventually(
      async () => ((await bookingRow(stack.sql, ref))?.driver_id === null ? true : undefined),
      STACK_WAIT_MS,
      'the job given back',
    );
    await stack.client.workflow
      .getHandle(bookingWorkflowId(ref))
      .terminate('test done')
      .catch(() => {});
  });

  it('finds a booking from the front page, proves the phone with a texted link, cancels, and is asked for nothing', async () => {
    const phone = mobile();
    const ref = await book(phone.typed, new Date(Date.now() + 26 * 3600_000));

    const page = await openWatched(browser, problems, `${base}/`);
    await page.getByLabel('Booking reference').fill(ref.toLowerCase());
    await page.getByLabel('The email or mobile number you booked with').fill(phone.typed);
    await page.getByRole('button', { name: 'Find my booking' }).click();
    await page.waitForURL(`${base}/track/${ref}`);
    // No manage code in the link: cancelling starts with a text to the booking's mobile.
    expect(await page.locator('#manage').isVisible()).toBe(false);
    await page.getByLabel('Your mobile number').fill(phone.typed);
    await page.getByRole('button', { name: 'Text me a link' }).click();
    await page.getByRole('heading', { name: 'Check your phone' }).waitFor();

    const text = await eventually(async () => {
      const [row] = await stack.sql<{ body: string }[]>`
        select body from outbox where recipient = ${phone.e164} and body like '%/claim/%'`;
      return row?.body;
    });
    const claim = /(http:\/\/\S+\/claim\/[A-Za-z0-9_-]+)/.exec(text)?.[1];
    expect(claim).toBeDefined();
    await page.goto(claim!);
    await page.getByRole('button', { name: 'This is my booking' }).click();
    await page.getByRole('heading', { name: 'This booking is now yours' }).waitFor();
    await page.getByRole('button', { name: 'Cancel this taxi' }).click();
    await page.getByRole('heading', { name: `Taxi ${ref} is cancelled` }).waitFor();
    expect((await bookingRow(stack.sql, ref))?.status).toBe('cancelled');

    await page.goto(`${base}/track/${ref}`);
    await page.getByText('This booking has been cancelled. Nothing is due.').waitFor();
    expect(await page.getByRole('heading', { name: 'Pay the driver' }).isVisible()).toBe(false);
    expect(await page.locator('#manage-link').isVisible()).toBe(false);
  });

  it('asks for the postcode of "10 Downing Street, London", books with it, and a tapped suggestion is priced', async () => {
    const page = await openWatched(browser, problems, `${base}/`);
    await page.fill('#pickup', '10 Downing Street, London');
    await page.fill('#dropoff', 'Manchester Airport T2');
    await page.click('button:has-text("See the fare")');
    // Not the centre of Westminster: the street and the town as typed, and what would settle it.
    const asked = page.locator('#pickup-error');
    await asked.waitFor();
    expect(await asked.textContent()).toBe(
      'We could not find Downing Street in London. Add its postcode to "10 Downing Street, London".',
    );
    expect(await page.getAttribute('#pickup', 'aria-invalid')).toBe('true');
    expect(await page.inputValue('#dropoff')).toBe('Manchester Airport T2');

    await page.fill('#pickup', '10 Downing Street, London SW1A 2AA');
    await Promise.all([page.waitForURL(/\/book\/[0-9a-f-]{36}$/), page.click('button:has-text("See the fare")')]);
    const facts = (await page.textContent('dl.facts')) ?? '';
    expect(facts).toContain('10 Downing Street, London SW1A 2AA');
    // The drop-off is the terminal, not the airport's middle.
    expect(facts).toContain('Terminal 2');

    // Without a town, the street's namesakes are offered, each a button that sends the form again.
    await page.goto(`${base}/`);
    await page.fill('#pickup', '10 downing street');
    await page.fill('#dropoff', 'Cambridge station');
    await page.click('button:has-text("See the fare")');
    const choice = page.getByRole('button', { name: '10 Downing Street, Cambridge' });
    await choice.waitFor();
    await Promise.all([page.waitForURL(/\/book\/[0-9a-f-]{36}$/), choice.click()]);
    expect(await page.textContent('dl.facts')).toContain('10 Downing Street, Cambridge');
  });

  it('books "221B Baker Street, London NW1 6XE" from the front page, and the driver, the texts and ops all read the house number', async () => {
    // Near NW1 6XE, on the national network (any tier will do: the point is what they read).
    const driver = await createDriver(stack.sql, { lat: 51.5238, lon: -0.1586, tier: 'national' });
    drivers.push(driver);
    const phone = mobile();
    const page = await openWatched(browser, problems, `${base}/`);
    await page.fill('#pickup', '221B Baker Street, London NW1 6XE');
    await page.fill('#dropoff', 'London Euston');
    await Promise.all([page.waitForURL(/\/book\/[0-9a-f-]{36}$/), page.click('button:has-text("See the fare")')]);
    expect(await page.textContent('dl.facts')).toContain('221B Baker Street');
    await page.fill('#passenger_name', 'Ada Lovelace');
    await page.fill('#passenger_phone_whatsapp', phone.typed);
    await page.click('#submit');
    await page.waitForURL(/\/track\/TX[0-9A-Z]{8,10}(#t=[^#]+)?$/);
    const ref = new URL(page.url()).pathname.split('/').pop()!;
    expect(await page.textContent('[data-field="pickup"]')).toContain('221B Baker Street, London NW1 6XE');

    // The driver's job card, by text and on its page.
    const card = await waitForJobCard(stack.sql, driver, ref, STACK_WAIT_MS);
    expect(card.body).toContain('From: 221B Baker Street, London NW1 6XE');
    const job = await openWatched(browser, problems, /(http:\/\/\S+\/driver\/jobs\/\S+)/.exec(card.body)![1]!);
    expect(await job.locator('dl.facts').textContent()).toContain('221B Baker Street, London NW1 6XE');
    // The passenger's texts.
    const texts = await eventually(async () => {
      const rows = await stack.sql<{ body: string }[]>`
        select body from outbox where booking_ref = ${ref} and recipient = ${phone.e164}`;
      return rows.length > 0 ? rows.map((r) => r.body) : undefined;
    });
    expect(texts.some((t) => t.includes('221B Baker Street'))).toBe(true);
    // Ops.
    const staff = await createStaff(stack.sql, { name: 'Priya (ops)', role: 'operator' });
    const ops = await stack.app.inject({
      method: 'GET',
      url: `/api/ops/bookings/${ref}`,
      headers: { authorization: `Bearer ${staff.key}` },
    });
    expect(ops.statusCode, ops.body).toBe(200);
    expect(ops.body).toContain('221B Baker Street, London NW1 6XE');
    await stack.client.workflow
      .getHandle(bookingWorkflowId(ref))
      .terminate('test done')
      .catch(() => {});
  });
});
