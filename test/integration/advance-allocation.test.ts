// Advance allocation through HTTP and the driver app at phone size (issue 24, item 2): with the
// production rule on (an airport run is offered three hours ahead), a town trip two and a half hours
// away waits for its lead while an airport run as far away is offered at once; the driver accepts
// it hours ahead in the app, the passenger is told who is coming, and the driver drives it to a
// cash payment. The small-hours rule (from the evening before) and the clock change are proved on
// the time-skipping server (test/workflows/advance-allocation.test.ts), since this file cannot
// choose the hour it runs at.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserStack } from '../support/browser-stack.js';
import { PHONE_VIEWPORT } from '../support/axe.js';
import {
  createDriver,
  takeDriversOffline,
  waitForJobCard,
  waitForStatus,
  type TestDriver,
} from '../support/drivers.js';
import { eventually, STACK_WAIT_MS, type TestStack } from '../support/stack.js';

let stack: TestStack;
let browser: Browser;
let base: string;
const drivers: TestDriver[] = [];
beforeAll(async () => {
  ({ stack, browser, base } = await startBrowserStack({ OFFER_TIMEOUT_SECONDS: '300', ADVANCE_DISPATCH_HOURS: '3' }));
});
afterAll(async () => {
  await takeDriversOffline(stack.sql, drivers);
  await browser?.close();
  await stack?.close();
});

// Newcastle Central station (no council table held: the driver is a national-default local).
const STATION = { latitude: 54.9683, longitude: -1.6174 };
const inTwoAndAHalfHours = () => new Date(Date.now() + 2.5 * 3600_000).toISOString();

async function book(dropoff: string, phone: string): Promise<{ ref: string; status: string }> {
  const res = await stack.app.inject({
    method: 'POST',
    url: '/api/public/bookings/create',
    remoteAddress: '10.125.0.1',
    payload: await (async () => {
      const q = await stack.app.inject({
        method: 'POST',
        url: '/api/public/v1/quote',
        remoteAddress: '10.125.0.2',
        payload: { pickup: 'Newcastle Central station', dropoff, departAt: inTwoAndAHalfHours() },
      });
      expect(q.statusCode, q.body).toBe(200);
      return {
        quote_id: q.json().quote_id,
        passenger_name: 'Florence Nightingale',
        passenger_phone_whatsapp: phone,
        payment_method: 'cash_to_driver',
      };
    })(),
  });
  expect(res.statusCode, res.body).toBe(200);
  return { ref: res.json().booking_reference, status: res.json().status };
}

describe('advance allocation', () => {
  it('offers an airport run hours ahead, while a town trip as far away waits; the driver accepts it in the app ahead of time and drives it', async () => {
    const phone = `+4474005${String(30000 + (Date.now() % 60000)).padStart(5, '0')}`;
    const d = await createDriver(stack.sql, {
      lat: STATION.latitude,
      lon: STATION.longitude,
      homeArea: 'national-default',
      name: 'Harriet Early',
      phone,
    });
    drivers.push(d);

    // A town trip 2.5 hours away waits for its 15 minutes; nothing is offered.
    const town = await book('Jesmond, Newcastle upon Tyne', '07400 123495');
    expect(town.status).toBe('scheduled');

    // An airport run as far away is offered now: the driver has hours to plan for it.
    const airport = await book('Newcastle Airport', '07400 123496');
    const context = await browser.newContext({
      viewport: PHONE_VIEWPORT,
      geolocation: STATION,
      permissions: ['geolocation'],
    });
    const app = await context.newPage();
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
    const job = app.locator(`.job[data-ref="${airport.ref}"]`);
    await job.waitFor();
    expect(await app.locator(`.job[data-ref="${town.ref}"]`).count()).toBe(0);
    expect(await job.textContent()).toMatch(/Newcastle Airport/);
    await job.locator('button:has-text("Accept")').click();
    await waitForStatus(stack.sql, airport.ref, 'assigned');
    // The passenger hears who is coming as soon as the driver accepts, hours ahead.
    const told = await eventually(
      async () => {
        const [m] = await stack.sql<
          { body: string }[]
        >`select body from outbox where booking_ref = ${airport.ref} and recipient = '+447400123496' and idempotency_key like 'assigned:%'`;
        return m?.body;
      },
      STACK_WAIT_MS,
      'the passenger told',
    );
    expect(told).toMatch(/Harriet is picking you up at/);

    // Confirming it (asked on the day; accepted at any time before the trip starts) is recorded.
    const card = await waitForJobCard(stack.sql, d, airport.ref);
    const confirmed = await stack.app.inject({
      method: 'POST',
      url: `/api/driver/offers/${encodeURIComponent(card.offerId)}/trip`,
      payload: { token: card.token, event: 'confirm' },
    });
    expect(confirmed.statusCode, confirmed.body).toBe(202);
    expect(confirmed.json()).toMatchObject({ status: 'assigned' });
    expect(
      (await stack.sql`select driver_confirmed_at is not null as yes from bookings where ref = ${airport.ref}`)[0]?.yes,
    ).toBe(true);

    // And drives it, step by step, to a cash payment.
    for (const step of ['On my way', 'Arrived at pickup', 'Passenger on board', 'Trip completed']) {
      await job.locator(`button:has-text("${step}")`).click();
      await job.locator(`button:has-text("${step}")`).waitFor({ state: 'detached' });
    }
    await job.locator('button:has-text("Confirm payment")').click();
    await app.waitForSelector('text=Payment recorded. Thank you.');
    await waitForStatus(stack.sql, airport.ref, 'completed');
    expect((await stack.sql`select status from bookings where ref = ${town.ref}`)[0]?.status).toBe('scheduled');
    await context.close();
  });
});
