// Ops act on a live booking (issue 24, item 3, in part): take the job off a driver who holds it
// (dispatched again, never to them) and cancel a booking, saying why. Everyone is told (the driver
// that the job is withdrawn, the passenger that their driver changed or that Direct Taxi operations
// cancelled it; a card still out is withdrawn), each action is in staff_actions once, and what the
// booking's state does not allow is refused with a reason.
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createStaff } from '../../src/auth/staff.js';
import { DESKTOP_VIEWPORT, seriousA11yProblems } from '../support/axe.js';
import { startBrowserStack } from '../support/browser-stack.js';
import {
  createDriver,
  respond,
  takeDriversOffline,
  waitForJobCard,
  waitForStatus,
  type TestDriver,
} from '../support/drivers.js';
import { eventually, STACK_WAIT_MS, type TestStack } from '../support/stack.js';

let stack: TestStack;
let staffKey: string;
let browser: Browser;
let base: string;
const created: TestDriver[] = [];
beforeAll(async () => {
  ({ stack, browser, base } = await startBrowserStack({ OFFER_TIMEOUT_SECONDS: '120' }));
  staffKey = (await createStaff(stack.sql, { name: 'Amara (ops)', role: 'operator' })).key;
});
afterEach(async () => takeDriversOffline(stack.sql, created.splice(0)));
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

let n = 0;
const passengerPhone = () => `+4474004${String(20000 + (Date.now() % 60000) + n++).padStart(5, '0')}`;

function ops(action: 'cancel' | 'release' | 'amend', ref: string, body: object, key: string | null = staffKey) {
  return stack.app.inject({
    method: 'POST',
    url: `/api/ops/bookings/${ref}/${action}`,
    payload: body,
    headers: key ? { authorization: `Bearer ${key}` } : {},
    remoteAddress: '10.124.0.1',
  });
}

/** A booking for now at Alnmouth station, Northumberland, with its passenger's phone. */
async function book(phone: string): Promise<string> {
  const res = await stack.app.inject({
    method: 'POST',
    url: '/api/public/bookings/instant',
    remoteAddress: `10.124.1.${n % 250}`,
    payload: {
      pickup_address: 'Alnmouth station',
      dropoff_address: 'Alnwick',
      passenger_name: 'Grace Darling',
      passenger_phone_whatsapp: phone,
    },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ booking_reference: string }>().booking_reference;
}

const textsTo = (phone: string, ref: string) =>
  stack.sql<
    { key: string; body: string }[]
  >`select idempotency_key as key, body from outbox where recipient = ${phone} and booking_ref = ${ref} order by id`;
const actionsOn = (ref: string) =>
  stack.sql<
    { action: string; reason: string }[]
  >`select action, reason from staff_actions where subject_kind = 'booking' and subject_id = ${ref} order by id`;

describe('ops act on a live booking', () => {
  it('takes the job off the driver holding it and dispatches it again; then cancels it; everyone told, each action recorded once', async () => {
    const first = await createDriver(stack.sql, {
      lat: 55.3926,
      lon: -1.637,
      homeArea: 'national-default',
      name: 'Stuck Driver',
    });
    const second = await createDriver(stack.sql, {
      lat: 55.41,
      lon: -1.65,
      homeArea: 'national-default',
      name: 'Next Driver',
    });
    created.push(first, second);
    const phone = passengerPhone();
    const ref = await book(phone);
    const card = await waitForJobCard(stack.sql, first, ref);
    expect((await respond(stack.app, card, 'accept')).statusCode).toBe(200);
    await waitForStatus(stack.sql, ref, 'assigned');

    // Without a staff key: refused.
    expect((await ops('release', ref, { reason: 'not answering the phone' }, null)).statusCode).toBe(401);
    const released = await ops('release', ref, { reason: 'not answering the phone for 20 minutes' });
    expect(released.statusCode, released.body).toBe(200);
    expect(released.json()).toEqual({
      booking_reference: ref,
      released_driver_id: first.id,
      status: 'dispatching_again',
    });

    // The released driver is told not to go; the passenger that another driver is being found; the next driver is offered it.
    const toFirst = await eventually(
      async () => (await textsTo(first.phone, ref)).find((m) => m.body.includes('withdrawn')),
      STACK_WAIT_MS,
      'the released driver told',
    );
    expect(toFirst.body).toContain('Do not go to the pickup');
    await eventually(
      async () => (await textsTo(phone, ref)).find((m) => m.key === `driver-changed:${ref}:${first.id}`),
      STACK_WAIT_MS,
      'the passenger told',
    );
    const next = await waitForJobCard(stack.sql, second, ref);
    expect(next.offerId).toContain(second.id);

    // Nobody holds it while the card is out: nothing to release.
    const nobody = await ops('release', ref, { reason: 'again' });
    expect(nobody.statusCode).toBe(409);
    expect(nobody.json().code).toBe('no_driver_to_release');

    // Cancelled by ops, with a reason: the passenger hears who cancelled it, never the reason.
    const cancelled = await ops('cancel', ref, { reason: 'passenger rang: travelling by train instead' });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json().status).toBe('cancelled');
    const toPassenger = await eventually(
      async () => (await textsTo(phone, ref)).find((m) => m.key === `passenger-cancelled:${ref}`),
      STACK_WAIT_MS,
      'the passenger told of the cancel',
    );
    expect(toPassenger.body).toContain('has been cancelled by Direct Taxi operations');
    expect(toPassenger.body).not.toContain('train');
    // The card still out is withdrawn: its link no longer takes the job.
    await eventually(
      async () =>
        (await stack.sql`select status from offers where id = ${next.offerId}`)[0]?.status === 'withdrawn'
          ? true
          : undefined,
      STACK_WAIT_MS,
      'the open card withdrawn',
    );
    expect((await respond(stack.app, next, 'accept')).statusCode).toBeGreaterThanOrEqual(400);
    // Again: the same answer, recorded once.
    expect((await ops('cancel', ref, { reason: 'passenger rang: travelling by train instead' })).json().status).toBe(
      'cancelled',
    );
    expect(await actionsOn(ref)).toEqual([
      { action: 'booking.release_driver', reason: 'not answering the phone for 20 minutes' },
      { action: 'booking.cancel', reason: 'passenger rang: travelling by train instead' },
    ]);
  });

  it('refuses what the booking does not allow, saying why', async () => {
    expect((await ops('cancel', 'TXNOSUCH001', { reason: 'no such booking' })).statusCode).toBe(404);
    const short = await ops('cancel', 'TXNOSUCH001', { reason: 'x' });
    expect(short.statusCode).toBe(400);
    expect(short.json().errors[0]).toMatchObject({ field: 'body.reason', message: 'say why' });
  });

  it('names the field of a drop-off it cannot place as the request spells it', async () => {
    const ref = await book(passengerPhone());
    const res = await ops('amend', ref, {
      dropoff: 'qqqq zzzz xxxx',
      reason: 'passenger rang to change the destination',
    });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().errors).toEqual([expect.objectContaining({ field: 'body.dropoff' })]);
  });

  it('tells ops what the meter shows for a distance and a time at a moment in an area, with its arithmetic (issue 36)', async () => {
    const meter = (query: string, key: string | null = staffKey) =>
      stack.app.inject({
        method: 'GET',
        url: `/api/ops/meter?${query}`,
        headers: key ? { authorization: `Bearer ${key}` } : {},
        remoteAddress: '10.124.0.2',
      });
    const res = await meter('area=london-tfl&at=2023-08-15T14:00&miles=2&minutes=6');
    expect(res.statusCode, res.body).toBe(200);
    // The April 2023 table's Tariff 1: £3.80 covers two units of 100.9 m; 3,219 m - 201.8 m = 3,017.2 m
    // is 29.9, so 30 units of 20p: £3.80 + £6.00 (the 360 s are only 15 time units).
    expect(res.json()).toMatchObject({
      area: 'london-tfl',
      table: { effective_from: '2023-04-30', provisional: true },
      at_local: '2023-08-15T14:00:00+01:00',
      distance_meters: 3219,
      meter_pence: 980,
    });
    expect(res.json().rules[0].description).toContain('£3.80 + 30 x £0.20 (distance) = £9.80');
    expect((await meter('area=london-tfl&at=2023-08-15T14:00&miles=2&minutes=6', null)).statusCode).toBe(401);
    const unknown = await meter('area=atlantis&at=2023-08-15T14:00&miles=2&minutes=6');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().errors[0]).toMatchObject({
      field: 'querystring.area',
      message: expect.stringContaining('london-tfl'),
    });
    const both = await meter('area=london-tfl&at=2023-08-15T14:00&miles=2&meters=100&minutes=6');
    expect(both.json().errors[0].field).toBe('querystring.miles');
    const areas = await stack.app.inject({
      method: 'GET',
      url: '/api/ops/meter/areas',
      headers: { authorization: `Bearer ${staffKey}` },
    });
    expect(areas.json().areas).toContainEqual({ id: 'manchester', authority: 'Manchester City Council' });
  });

  it('on a desktop: finds a stuck booking by the phone as typed, takes it off its driver, hands it to a named driver, changes its drop-off, then cancels it, each action in the story', async () => {
    const stuck = await createDriver(stack.sql, {
      lat: 55.3926,
      lon: -1.637,
      homeArea: 'national-default',
      name: 'Stuck Again',
    });
    created.push(stuck);
    const phone = passengerPhone();
    const ref = await book(phone);
    const card = await waitForJobCard(stack.sql, stuck, ref);
    expect((await respond(stack.app, card, 'accept')).statusCode).toBe(200);
    await waitForStatus(stack.sql, ref, 'assigned');

    const page = await (await browser.newContext({ viewport: DESKTOP_VIEWPORT })).newPage();
    const signIn = async (p: Page) => {
      await p.fill('#key', staffKey);
      await p.click('#key-form button[type=submit]');
    };
    await page.goto(`${base}/ops/bookings`);
    await signIn(page);
    // The passenger rang: staff type the number as they say it.
    await page.fill('#board-q', `0${phone.slice(3, 7)} ${phone.slice(7)}`);
    await page.click('#board-search button[type=submit]');
    await page.click(`button[data-ref="${ref}"]`);
    await page.waitForSelector('#story:not([hidden])');

    await page.fill('#act-release', 'driver not answering for 20 minutes');
    await page.click('button:has-text("Take the job off this driver")');
    await page.waitForSelector(`text=Released the driver of ${ref}.`);
    await eventually(
      async () => (await textsTo(phone, ref)).find((m) => m.key === `driver-changed:${ref}:${stuck.id}`),
      STACK_WAIT_MS,
      'the passenger told',
    );

    // Handed to a driver ops name, who rang in from Durham, beyond the cascade's reach: they alone get the card, and accept.
    const named = await createDriver(stack.sql, {
      lat: 54.7761,
      lon: -1.5733,
      homeArea: 'national-default',
      tier: 'national',
      name: 'Named Driver',
    });
    created.push(named);
    // (The release is a signal: the story is looked at again once the driver is off the record.)
    await eventually(
      async () =>
        (await stack.sql`select driver_id from bookings where ref = ${ref}`)[0]?.driver_id === null ? true : undefined,
      STACK_WAIT_MS,
      'the driver off the record',
    );
    // Opened afresh (the console keeps its place in the address, and the key for the tab).
    await page.goto(`${base}/ops/bookings?ref=${ref}`);
    await page.fill('#offer-driver', named.id);
    await page.fill('#offer-reason', 'rang in and can be there in 30 minutes');
    await page.click('button:has-text("Offer to this driver")');
    await page.locator('#message', { hasText: `Offered ${ref} to ${named.id}.` }).waitFor();
    const namedCard = await waitForJobCard(stack.sql, named, ref);
    expect((await respond(stack.app, namedCard, 'accept')).statusCode).toBe(200);
    await waitForStatus(stack.sql, ref, 'assigned');
    expect((await stack.sql`select driver_id from bookings where ref = ${ref}`)[0]?.driver_id).toBe(named.id);
    // A driver holds it now: nobody else can be named until they are released.
    const again = await stack.app.inject({
      method: 'POST',
      url: `/api/ops/bookings/${ref}/offer`,
      payload: { driver_id: stuck.id, reason: 'try again' },
      headers: { authorization: `Bearer ${staffKey}` },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('already_assigned');
    await page.goto(`${base}/ops/bookings?ref=${ref}`);
    // The story as it now is: with the named driver on it.
    await page.waitForSelector(`#story-body dd:has-text("${named.id}")`);

    // The passenger asks to go on to Morpeth instead: priced again, and they are texted the booking as it now is.
    const [before] = await stack.sql<{ fare_pence: number }[]>`select fare_pence from bookings where ref = ${ref}`;
    await page.fill('#amend-dropoff', 'Morpeth station');
    await page.fill('#amend-reason', 'passenger rang to change the destination');
    await page.click('button:has-text("Change the booking")');
    await page.waitForSelector(`text=Changed ${ref}.`);
    const [after] = await stack.sql<
      { fare_pence: number; dropoff_query: string }[]
    >`select fare_pence, dropoff_query from bookings where ref = ${ref}`;
    expect(after!.dropoff_query).toBe('Morpeth station');
    expect(after!.fare_pence).toBeGreaterThan(before!.fare_pence);
    const changed = await eventually(
      async () => (await textsTo(phone, ref)).find((m) => m.key.startsWith(`amended-by-ops:${ref}:`)),
      STACK_WAIT_MS,
      'the passenger told of the change',
    );
    expect(changed.body).toMatch(/changed by Direct Taxi operations: now .* to Morpeth/);
    expect(changed.body).toContain(`£${(after!.fare_pence / 100).toFixed(2)}`);

    await page.fill('#act-cancel', 'passenger no longer needs it');
    await page.click('button:has-text("Cancel this booking")');
    await page.waitForSelector(`text=Cancelled ${ref}.`);
    await page.waitForSelector('#story-title:has-text("cancelled")');
    const actions = await page.locator('[aria-label="Staff actions"] tbody tr').allTextContents();
    expect(actions).toHaveLength(4);
    expect(actions[0]).toMatch(/release driver.*Amara \(ops\).*driver not answering for 20 minutes/);
    expect(actions[1]).toMatch(/offer to driver.*Amara \(ops\).*rang in and can be there in 30 minutes/);
    expect(actions[2]).toMatch(/amend.*Amara \(ops\).*passenger rang to change the destination/);
    expect(actions[3]).toMatch(/cancel.*Amara \(ops\).*passenger no longer needs it/);
    expect(await actionsOn(ref)).toEqual([
      { action: 'booking.release_driver', reason: 'driver not answering for 20 minutes' },
      { action: 'booking.offer_to_driver', reason: 'rang in and can be there in 30 minutes' },
      { action: 'booking.amend', reason: 'passenger rang to change the destination' },
      { action: 'booking.cancel', reason: 'passenger no longer needs it' },
    ]);
    // Closed: nothing more to act on.
    expect(await page.locator('text=Act on this booking').count()).toBe(0);
    expect(
      await seriousA11yProblems(browser, `${base}/ops/bookings?ref=${ref}`, {
        context: { viewport: DESKTOP_VIEWPORT },
        before: signIn,
        ready: '#story:not([hidden])',
      }),
    ).toEqual([]);
    await page.context().close();
  });
});
