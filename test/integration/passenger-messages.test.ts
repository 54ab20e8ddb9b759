// The passenger told at every turn (issue 23, item 6), walked in Chromium at phone size: a trip
// booked from `/` with a national-format mobile and an email, whose first driver accepts and then
// drops out. At each turn the passenger's messages in the outbox are read as the passenger would
// read them (booked with the tracking link, who is coming, the driver replaced, the new driver, the
// receipt), each once, while the tracking page follows without a reload.
import type { Browser, Page } from 'playwright-core';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserStack } from '../support/browser-stack.js';
import { PHONE_VIEWPORT, seriousA11yProblems } from '../support/axe.js';
import {
  createDriver,
  respond,
  takeDriversOffline,
  waitForJobCard,
  waitForStatus,
  type JobCard,
  type TestDriver,
} from '../support/drivers.js';
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

// A number of this file's own, typed as people type it (other files count texts to theirs).
const TYPED_MOBILE = '07400 123478';
const MOBILE = '+447400123478';
const EMAIL = `mary.seacole.${Date.now()}@example.com`;

interface Message {
  key: string;
  channel: string;
  subject: string | null;
  body: string;
}

/** What the passenger has been sent about this booking, oldest first. */
async function passengerMessages(ref: string): Promise<Message[]> {
  return stack.sql<Message[]>`
    select idempotency_key as key, channel, subject, body from outbox
     where booking_ref = ${ref} and recipient in (${MOBILE}, ${EMAIL}) order by id`;
}

/** Waits until the passenger has been sent a message under this outbox key, and returns it. */
function told(ref: string, keyPrefix: string, channel = 'sms'): Promise<Message> {
  return eventually(
    async () => (await passengerMessages(ref)).find((m) => m.key.startsWith(keyPrefix) && m.channel === channel),
    STACK_WAIT_MS,
    `the passenger's ${keyPrefix} ${channel}`,
  );
}

const trip = (card: JobCard, event: string) =>
  stack.app.inject({
    method: 'POST',
    url: `/api/driver/offers/${encodeURIComponent(card.offerId)}/trip`,
    payload: { token: card.token, event },
  });

/** Ten minutes from now, London time, as the form's datetime-local input takes it. */
const inTenMinutes = () => DateTime.now().setZone('Europe/London').plus({ minutes: 10 }).toFormat("yyyy-LL-dd'T'HH:mm");

async function bookFromFrontDoor(page: Page): Promise<string> {
  await page.goto(`${base}/`);
  await page.fill('#pickup', 'Manchester Piccadilly station');
  await page.fill('#dropoff', '25 Wilmslow Road, Rusholme, Manchester M14 5TQ');
  await page.fill('#when', inTenMinutes());
  await Promise.all([page.waitForURL(/\/book\/[0-9a-f-]{36}$/), page.click('button:has-text("See the fare")')]);
  await page.fill('#passenger_name', 'Mary Seacole');
  await page.fill('#passenger_phone_whatsapp', TYPED_MOBILE);
  await page.fill('#passenger_email', EMAIL);
  await page.check('input[name="payment_method"][value="cash_to_driver"]');
  await page.click('#submit');
  await page.waitForURL(/\/track\/TX[0-9A-Z]{8,10}(#t=[^#]+)?$/);
  return new URL(page.url()).pathname.split('/').pop()!;
}

describe('the passenger, told at every turn', () => {
  it('hears booked, who is coming, that the first driver dropped out, who replaced them, and gets a receipt, each once', async () => {
    // Piccadilly station's forecourt: the nearer driver is offered first.
    const first = await createDriver(stack.sql, {
      lat: 53.4772,
      lon: -2.2305,
      homeArea: 'manchester',
      name: 'Grace Hopper',
    });
    const second = await createDriver(stack.sql, {
      lat: 53.48,
      lon: -2.235,
      homeArea: 'manchester',
      name: 'Alan Turing',
    });
    drivers.push(first, second);
    await stack.sql`update drivers set vehicle_registration = 'MA19XYZ', vehicle_colour = 'Silver', vehicle_description = 'Toyota Prius' where id = ${first.id}`;
    await stack.sql`update drivers set vehicle_registration = 'BD51 SMR', vehicle_colour = 'Black', vehicle_description = 'Skoda Octavia' where id = ${second.id}`;

    const page = await (await browser.newContext({ viewport: PHONE_VIEWPORT })).newPage();
    const ref = await bookFromFrontDoor(page);
    const [row] = await stack.sql<
      { passenger_phone: string }[]
    >`select passenger_phone from bookings where ref = ${ref}`;
    expect(row?.passenger_phone).toBe(MOBILE);

    // Booked: a text with the tracking link, and the email with the link that confirms and manages it.
    const booked = await told(ref, 'booked:');
    expect(booked.body).toContain(`taxi ${ref} booked`);
    // The pickup time as the passenger and the driver read it: London's clock, worked out here by luxon.
    const [{ pickup_at } = { pickup_at: new Date(NaN) }] = await stack.sql<
      { pickup_at: Date }[]
    >`select pickup_at from bookings where ref = ${ref}`;
    const shown = DateTime.fromJSDate(pickup_at, { zone: 'Europe/London' }).toFormat('ccc d LLL HH:mm');
    expect(booked.body).toContain(`taxi ${ref} booked, ${shown} from Manchester Piccadilly`);
    // Its link carries the right to manage the booking, for a booker who closed the page.
    const texted = new RegExp(`${base}/track/${ref}#t=(bmt_[\\w-]+)`).exec(booked.body);
    expect(texted).not.toBeNull();
    const lookup = await stack.app.inject({ method: 'GET', url: `/api/public/v1/booking/${ref}?token=${texted![1]}` });
    expect(lookup.statusCode).toBe(200);
    const email = await told(ref, 'confirmation:', 'email');
    expect(email.subject).toBe(`Your taxi ${ref} is booked`);
    expect(email.body).toMatch(new RegExp(`${base}/confirm/${ref}\\?t=`));

    // The first driver accepts: first name, the car as seen at the kerb, and minutes away.
    const card = await waitForJobCard(stack.sql, first, ref);
    const [cardText] = await stack.sql<{ body: string }[]>`
      select body from outbox where booking_ref = ${ref} and channel = 'sms' and body like 'New job%' order by id limit 1`;
    expect(cardText?.body.split('\n')[0]).toBe(`New job ${ref}: ${shown}`);
    expect((await respond(stack.app, card, 'accept')).statusCode).toBe(200);
    const assigned = await told(ref, 'assigned:');
    expect(assigned.body).toMatch(/Grace is arriving in about \d+ min, Silver Toyota Prius, registration MA19 XYZ/);
    expect(assigned.body).not.toContain('Hopper');
    await page.waitForSelector('[data-field="headline"]:has-text("Driver confirmed")');

    // They drop out: the passenger hears at once that another driver is being found, at the same fare.
    expect((await trip(card, 'drop')).statusCode).toBe(202);
    const replaced = await told(ref, `driver-changed:${ref}:${first.id}`);
    expect(replaced.body).toMatch(
      /your driver can no longer take your trip\. We are finding you another driver now, at the same fare/,
    );

    const next = await waitForJobCard(stack.sql, second, ref);
    expect((await respond(stack.app, next, 'accept')).statusCode).toBe(200);
    await eventually(
      async () =>
        (await passengerMessages(ref)).filter((m) => m.key.startsWith('assigned:')).length === 2 ? true : undefined,
      STACK_WAIT_MS,
      'the new driver told',
    );
    const secondAssigned = (await passengerMessages(ref)).filter((m) => m.key.startsWith('assigned:'))[1]!;
    expect(secondAssigned.body).toMatch(
      /Alan is arriving in about \d+ min, Black Skoda Octavia, registration BD51 SMR/,
    );

    // The trip, paid in cash: a receipt by text and by email, naming the fare, the rules and the record.
    for (const event of ['arrived', 'on_board', 'completed']) expect((await trip(next, event)).statusCode).toBe(202);
    await waitForStatus(stack.sql, ref, 'completed');
    await page.waitForSelector('[data-field="headline"]:has-text("complete")');
    const paid = await stack.app.inject({
      method: 'POST',
      url: `/api/driver/offers/${encodeURIComponent(next.offerId)}/payment`,
      payload: { token: next.token, method: 'cash' },
    });
    expect(paid.statusCode, paid.body).toBe(200);
    const receipt = await told(ref, `receipt:${ref}`);
    const [fare] = await stack.sql<{ fare_pence: number }[]>`select fare_pence from bookings where ref = ${ref}`;
    const pounds = `£${(fare!.fare_pence / 100).toFixed(2)}`;
    expect(receipt.body).toContain(`Fare ${pounds}: Manchester`);
    expect(receipt.body).toMatch(new RegExp(`Paid ${pounds.replace('.', '\\.')} to the driver \\(cash\\)`));
    expect(receipt.body).toMatch(/Payment record \d+\./);
    const receiptEmail = await told(ref, `receipt:${ref}`, 'email');
    expect(receiptEmail.subject).toBe(`Your receipt for taxi ${ref}`);

    // Each message once, in the order things happened.
    const keys = (await passengerMessages(ref)).map((m) => `${m.channel}:${m.key.split(':')[0]}`);
    expect(keys).toEqual([
      'sms:booked',
      'email:confirmation',
      'sms:assigned',
      'sms:driver-changed',
      'sms:assigned',
      'sms:receipt',
      'email:receipt',
    ]);
    expect(await seriousA11yProblems(browser, `${base}/track/${ref}`)).toEqual([]);
    await page.context().close();
  });
});
