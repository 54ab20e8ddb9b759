// Issue 36, item 5 (spec 8: "High-volume drivers may supply their own map-service key billed
// directly by that provider"). A driver enters a Mapbox key in the driver app (Chromium at
// 390×844); the minutes their passenger is told are then routed on that key, and only for that
// driver's jobs; a key Mapbox turns down in use goes back to the service's own estimate and the
// driver is told. Mapbox's front door is stood in for by test/support/mapbox-front.ts (its path,
// token parameter and 401), the routes come from a real OSRM on the Rutland graph.
import { existsSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { pickupEtaMinutes } from '../../src/geo/pickup-eta.js';
import { PHONE_VIEWPORT } from '../support/axe.js';
import { CHROMIUM, openWatched, startBrowserStack } from '../support/browser-stack.js';
import {
  createDriver,
  respond,
  signInDriver,
  takeDriversOffline,
  testMobile,
  waitForJobCard,
  waitForStatus,
  type TestDriver,
} from '../support/drivers.js';
import { startMapboxFront, type MapboxFront } from '../support/mapbox-front.js';
import { startOsrm, type Osrm } from '../support/osrm.js';
import { eventually, STACK_WAIT_MS, type TestStack } from '../support/stack.js';

const GOOD_KEY = `pk.${'eyJ1IjoiZHJpdmVyLWEifQ'}.${randomUUID().replace(/-/g, '')}`;
const UNKNOWN_KEY = `pk.${'eyJ1Ijoibm9ib2R5In0'}.${randomUUID().replace(/-/g, '')}`;
// A mile or so east of Oakham station, on the Burley road.
const NEAR_OAKHAM = { lat: 52.6745, lon: -0.7055 };

interface Status {
  status: string;
  eta_minutes: number | null;
  driver_position: { lat: number; lon: number } | null;
}

describe.skipIf(!existsSync(CHROMIUM.executablePath) && !process.env.CI)("a driver's own map-service key", () => {
  let osrm: Osrm;
  let front: MapboxFront;
  let stack: TestStack;
  let browser: Browser;
  let base: string;
  const problems: string[] = [];
  const drivers: TestDriver[] = [];
  let keyed: TestDriver;
  let keyedSession = '';
  /** The keyed driver's trip, kept for the key's refusal (a driver holds one job at a time). */
  let keyedTrip: { ref: string; pickup: { lat: number; lon: number } } | undefined;

  beforeAll(async () => {
    osrm = await startOsrm();
    front = await startMapboxFront(osrm.url, [GOOD_KEY]);
    // An hour to answer an offer: nothing here races the wall clock.
    ({ stack, browser, base } = await startBrowserStack({
      OFFER_TIMEOUT_SECONDS: '3600',
      DRIVER_MAP_SERVICE_URL: front.url,
      DRIVER_MAP_SERVICE_TIMEOUT_MS: '5000',
    }));
    keyed = await createDriver(stack.sql, { ...NEAR_OAKHAM, phone: testMobile(), homeArea: 'national-default' });
    drivers.push(keyed);
    keyedSession = await signInDriver(stack.app, stack.sql, keyed.phone);
  }, 300_000);
  afterEach(() => {
    expect(problems).toEqual([]);
    problems.length = 0;
  });
  afterAll(async () => {
    await takeDriversOffline(stack.sql, drivers);
    await browser?.close();
    await stack?.close();
    await front?.close();
    await osrm?.stop();
  });

  const me = async (session: string) =>
    (
      await stack.app.inject({ method: 'GET', url: '/api/driver/me', headers: { authorization: `Bearer ${session}` } })
    ).json<{ map_service: { key_ending: string; calls_this_week: number; refused_at: string | null } | null }>();

  /** A Rutland trip from Oakham station, due in five minutes, answered by `driver` as its app would. */
  async function bookedFor(driver: TestDriver): Promise<{ ref: string; pickup: { lat: number; lon: number } }> {
    const booked = await stack.app.inject({
      method: 'POST',
      url: '/api/public/v1/booking',
      remoteAddress: `198.51.100.${Math.floor(Math.random() * 200) + 20}`,
      payload: {
        pickup: 'Oakham station',
        dropoff: 'Uppingham, Rutland',
        departAt: new Date(Date.now() + 5 * 60_000).toISOString(),
        passengerName: 'Ada Lovelace',
        passengerEmail: `ada.${randomUUID().slice(0, 8)}@example.com`,
        passengerPhone: testMobile(),
      },
    });
    expect(booked.statusCode, booked.body).toBe(201);
    const ref = booked.json<{ booking_reference: string }>().booking_reference;
    const card = await waitForJobCard(stack.sql, driver, ref, STACK_WAIT_MS);
    expect((await respond(stack.app, card, 'accept')).statusCode).toBe(200);
    await waitForStatus(stack.sql, ref, 'assigned');
    const [row] = await stack.sql<
      { pickup: { lat: number; lon: number } }[]
    >`select pickup from bookings where ref = ${ref}`;
    return { ref, pickup: row!.pickup };
  }

  const status = async (ref: string) =>
    (await stack.app.inject({ method: 'GET', url: `/track/${ref}/status.json` })).json<Status>();

  /** OSRM's own minutes from a point to the pickup, as the driver's key would be told them. */
  async function roadMinutes(from: { lat: number; lon: number }, to: { lat: number; lon: number }) {
    const coords = `${from.lon.toFixed(6)},${from.lat.toFixed(6)};${to.lon.toFixed(6)},${to.lat.toFixed(6)}`;
    const r = (await (await fetch(`${osrm.url}/route/v1/driving/${coords}?overview=false`)).json()) as {
      routes: { duration: number }[];
    };
    return Math.max(1, Math.ceil(r.routes[0]!.duration / 60));
  }

  it('the driver enters a key in the app; a key Mapbox refuses is not kept, and the key is never shown back', async () => {
    const page = await openWatched(browser, problems, `${base}/driver`, {
      storageState: {
        cookies: [],
        origins: [{ origin: base, localStorage: [{ name: 'directTaxiDriverSession', value: keyedSession }] }],
      },
    });
    expect(page.viewportSize()).toEqual(PHONE_VIEWPORT);
    const state = page.locator('#map-key-state');
    await page.getByRole('heading', { name: 'Your map service' }).waitFor();
    await expect.poll(() => state.textContent()).toMatch(/^No key: we work out the minutes/);

    // Pasted with a stray space, not a token at all: said in plain words, nothing sent to Mapbox.
    const callsBefore = front.calls.length;
    await page.getByLabel('Mapbox access token').fill('my mapbox password');
    await page.getByRole('button', { name: 'Save key' }).click();
    await page.getByText(/That is not a Mapbox access token/).waitFor();
    expect(front.calls.length).toBe(callsBefore);

    // A token Mapbox does not know: tried once, refused, not kept.
    await page.getByLabel('Mapbox access token').fill(UNKNOWN_KEY);
    await page.getByRole('button', { name: 'Save key' }).click();
    await page.getByText('Mapbox turned this key down. Check it is copied whole and allows Directions.').waitFor();
    expect(front.calls.at(-1)?.token).toBe(UNKNOWN_KEY);
    expect((await me(keyedSession)).map_service).toBeNull();

    // The real one: tried once on Mapbox, kept sealed, shown back only by its last four characters.
    await page.getByLabel('Mapbox access token').fill(`  ${GOOD_KEY} `);
    await page.getByRole('button', { name: 'Save key' }).click();
    const ending = GOOD_KEY.slice(-4);
    await page.getByText(`Key ending ${ending} saved: Mapbox accepted it.`).waitFor();
    await expect
      .poll(() => state.textContent())
      .toBe(
        `Your Mapbox key ending ${ending} works out the minutes to each pickup by road: 1 route request on it this week, billed to you by Mapbox, never by us.`,
      );
    expect(await page.getByLabel('Mapbox access token').inputValue()).toBe('');
    expect(await page.getByRole('button', { name: 'Remove my key' }).isVisible()).toBe(true);
    const dashboard = await stack.app.inject({
      method: 'GET',
      url: '/api/driver/me',
      headers: { authorization: `Bearer ${keyedSession}` },
    });
    expect(dashboard.body).not.toContain(GOOD_KEY);
    expect(dashboard.json().map_service).toMatchObject({ provider: 'mapbox', key_ending: ending, calls_this_week: 1 });
    const [row] = await stack.sql<
      { key_sealed: string }[]
    >`select key_sealed from driver_map_keys where driver_id = ${keyed.id}`;
    expect(row!.key_sealed).not.toContain(GOOD_KEY.slice(3, 20));
    await page.context().close();
  });

  it("control characters in a key are a 400, and another driver's session sees none of it", async () => {
    const put = await stack.app.inject({
      method: 'PUT',
      url: '/api/driver/map-service',
      headers: { authorization: `Bearer ${keyedSession}` },
      payload: { provider: 'mapbox', key: `${GOOD_KEY}\u0000` },
    });
    expect(put.statusCode).toBe(400);
    const other = await createDriver(stack.sql, { ...NEAR_OAKHAM, phone: testMobile(), homeArea: 'national-default' });
    drivers.push(other);
    await takeDriversOffline(stack.sql, [other]);
    expect((await me(await signInDriver(stack.app, stack.sql, other.phone))).map_service).toBeNull();
  });

  it("routes the passenger's minutes to the pickup on that driver's key, and only that driver's", async () => {
    keyedTrip = await bookedFor(keyed);
    const { ref, pickup } = keyedTrip;
    const expected = await roadMinutes(NEAR_OAKHAM, pickup);
    // By road on a free-flowing Rutland evening it is quicker than the estimate's town speed says.
    expect(expected).not.toBe(pickupEtaMinutes(NEAR_OAKHAM, pickup));
    const s = await eventually(
      async () => {
        const st = await status(ref);
        return st.driver_position ? st : undefined;
      },
      STACK_WAIT_MS,
      'the tracking status to show the driver',
    );
    expect(s.eta_minutes).toBe(expected);
    const mine = front.calls.filter((c) => c.token === GOOD_KEY);
    expect(mine.at(-1)?.coords).toBe(
      `${NEAR_OAKHAM.lon.toFixed(6)},${NEAR_OAKHAM.lat.toFixed(6)};${pickup.lon.toFixed(6)},${pickup.lat.toFixed(6)}`,
    );
    // The passenger's "driver assigned" text was routed the same way.
    const [text] = await stack.sql<{ body: string }[]>`
      select body from outbox where booking_ref = ${ref} and body like '%arriving in about%' order by id limit 1`;
    expect(text?.body).toContain(`arriving in about ${expected} min`);
    // The page polls; one route a minute per place is all the driver's key pays for.
    const calls = front.calls.length;
    await status(ref);
    await status(ref);
    expect(front.calls.length).toBe(calls);
    await takeDriversOffline(stack.sql, [keyed]);

    // Another driver, with no key: the service's own estimate, and nothing on anybody's key.
    const plain = await createDriver(stack.sql, { ...NEAR_OAKHAM, phone: testMobile(), homeArea: 'national-default' });
    drivers.push(plain);
    const before = front.calls.length;
    const other = await bookedFor(plain);
    const theirs = await status(other.ref);
    expect(theirs.eta_minutes).toBe(pickupEtaMinutes(NEAR_OAKHAM, other.pickup));
    expect(front.calls.length).toBe(before);
    await takeDriversOffline(stack.sql, [plain]);
  });

  it('a key Mapbox turns down in use goes back to the estimate, and the driver is told', async () => {
    const { ref, pickup } = keyedTrip!;
    front.tokens.delete(GOOD_KEY);
    // The driver moves on (a new place is a new route, not the one reused for the minute).
    const moved = { lat: NEAR_OAKHAM.lat + 0.004, lon: NEAR_OAKHAM.lon };
    await stack.sql`update drivers set online = true, lat = ${moved.lat}, lon = ${moved.lon}, location_at = now() where id = ${keyed.id}`;
    const s = await status(ref);
    expect(s.status).toBe('assigned');
    expect(s.eta_minutes).toBe(pickupEtaMinutes(moved, pickup));
    const refused = (await me(keyedSession)).map_service;
    expect(refused?.refused_at).not.toBeNull();
    // Refused once, then not asked again with that key.
    const calls = front.calls.length;
    await stack.sql`update drivers set lat = ${moved.lat + 0.004}, location_at = now() where id = ${keyed.id}`;
    await status(ref);
    expect(front.calls.length).toBe(calls);

    const page = await openWatched(browser, problems, `${base}/driver`, {
      storageState: {
        cookies: [],
        origins: [{ origin: base, localStorage: [{ name: 'directTaxiDriverSession', value: keyedSession }] }],
      },
    });
    await expect
      .poll(() => page.locator('#map-key-state').textContent())
      .toMatch(/^Mapbox turned down your key ending .{4} on .+\. Until you enter a working key/);
    await page.getByRole('button', { name: 'Remove my key' }).click();
    await page.getByText('Your map key is removed: we estimate the minutes again, free.').waitFor();
    expect((await me(keyedSession)).map_service).toBeNull();
    await page.context().close();
  });
});
