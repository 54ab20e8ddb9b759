// Issue 35, item 7: with no tile source configured (MAP_TILE_URL empty), the passenger's tracking
// page has no map box at all and says in words where the driver is: the street or area near them
// (the bundled places, src/geo/nearest-place.ts), how far in miles, and the minutes away. Walked in
// headless Chromium at 390×844 against the real stack over HTTP; the driver's position changes in
// the database, as the driver app's reports change it, and the open page's own polling follows.
// Nothing waits on the clock: every wait is for what the page or the status shows.
import { existsSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { driverWhereText } from '../../src/pages/browser/driver-where.js';
import { pickupEtaMinutes } from '../../src/geo/pickup-eta.js';
import { bookingWorkflowId } from '../../workflows/bookings/definitions.js';
import { PHONE_VIEWPORT, seriousA11yProblems } from '../support/axe.js';
import { CHROMIUM, openWatched, startBrowserStack } from '../support/browser-stack.js';
import {
  createDriver,
  respond,
  takeDriversOffline,
  waitForJobCard,
  waitForStatus,
  type TestDriver,
} from '../support/drivers.js';
import { eventually, STACK_WAIT_MS, type TestStack } from '../support/stack.js';

// Norwich: the pickup is its station; the driver starts a little north of it.
const NORWICH = { lat: 52.6285, lon: 1.3067 };
const round4 = (x: number) => Math.round(x * 1e4) / 1e4;

describe.skipIf(!existsSync(CHROMIUM.executablePath) && !process.env.CI)(
  'the tracking page without a map, in headless Chromium',
  () => {
    let stack: TestStack;
    let browser: Browser;
    let base: string;
    const problems: string[] = [];
    const drivers: TestDriver[] = [];

    beforeAll(async () => {
      // An hour to answer an offer: nothing here races the wall clock. No MAP_TILE_URL: no map.
      ({ stack, browser, base } = await startBrowserStack({ OFFER_TIMEOUT_SECONDS: '3600' }));
      expect(stack.config.MAP_TILE_URL).toBe('');
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

    it("says where the driver is in words, with no map box, and the words follow the driver's position", async () => {
      const driver = await createDriver(stack.sql, {
        lat: NORWICH.lat + 0.01,
        lon: NORWICH.lon,
        homeArea: 'national-default',
        name: 'Rhys Morgan',
      });
      drivers.push(driver);
      const booked = await stack.app.inject({
        method: 'POST',
        url: '/api/public/v1/booking',
        remoteAddress: `198.51.100.${Math.floor(Math.random() * 200) + 20}`,
        payload: {
          pickup: 'Norwich station',
          dropoff: 'Norwich Airport',
          departAt: new Date(Date.now() + 5 * 60_000).toISOString(),
          passengerName: 'Ada Lovelace',
          passengerEmail: `ada.${randomUUID().slice(0, 8)}@example.com`,
          passengerPhone: `07400 ${randomUUID().replace(/\D/g, '').padEnd(6, '7').slice(0, 6)}`,
        },
      });
      expect(booked.statusCode, booked.body).toBe(201);
      const ref = booked.json<{ booking_reference: string }>().booking_reference;
      const [row] = await stack.sql<
        { pickup: { lat: number; lon: number } }[]
      >`select pickup from bookings where ref = ${ref}`;
      const pickup = row!.pickup;
      const card = await waitForJobCard(stack.sql, driver, ref, STACK_WAIT_MS);
      expect((await respond(stack.app, card, 'accept')).statusCode).toBe(200);
      await waitForStatus(stack.sql, ref, 'assigned');

      // The driver app reports a position 2 km north of the pickup.
      const moveTo = async (at: { lat: number; lon: number }) => {
        await stack.sql`update drivers set lat = ${at.lat}, lon = ${at.lon}, location_at = now() where id = ${driver.id}`;
        return eventually(
          async () => {
            const s = (await stack.app.inject({ method: 'GET', url: `/track/${ref}/status.json` })).json();
            return s.driver_position?.lat === at.lat && s.driver_position?.lon === at.lon ? s : undefined;
          },
          STACK_WAIT_MS,
          `the status to place the driver at ${at.lat}`,
        );
      };
      const far = { lat: round4(pickup.lat + 0.018), lon: round4(pickup.lon) };
      const farStatus = await moveTo(far);
      expect(farStatus).toMatchObject({
        status: 'assigned',
        eta_minutes: pickupEtaMinutes(far, pickup),
        driver_near: expect.stringMatching(/, Norwich$/),
      });
      const farWords = driverWhereText(farStatus);
      expect(farWords).toBe(
        `Your driver is near ${farStatus.driver_near}, 1.2 miles away: about ${farStatus.eta_minutes} min.`,
      );

      // The page on a phone: the words from its first paint, and no map (no element, no box, no Leaflet).
      const page = await openWatched(browser, problems, `${base}/track/${ref}`);
      expect(page.viewportSize()).toEqual(PHONE_VIEWPORT);
      const words = page.locator('#map-card [data-field="eta"]');
      expect(await words.textContent()).toBe(farWords);
      expect(await page.getByRole('heading', { name: 'Where your driver is' }).isVisible()).toBe(true);
      expect(await page.locator('#map').count()).toBe(0);
      expect(await page.locator('.map, .leaflet-container').count()).toBe(0);
      expect(await page.evaluate('typeof L')).toBe('undefined');
      // The card is a heading and a line of words: nothing like a 15rem map box.
      const cardBox = await page.locator('#map-card').boundingBox();
      expect(cardBox!.height).toBeLessThan(200);
      expect(cardBox!.width).toBeLessThanOrEqual(PHONE_VIEWPORT.width);
      // Never the coordinates.
      const body = (await page.textContent('body')) ?? '';
      expect(body).not.toContain(String(far.lat));
      expect(body).not.toContain(String(far.lon));
      await page.screenshot({ path: '/tmp/page-track-words-phone.png', fullPage: true });
      expect(await seriousA11yProblems(browser, `${base}/track/${ref}`, { ready: '#map-card' })).toEqual([]);

      // The driver comes to 0.5 km: the open page's polling changes the words by itself.
      const near = { lat: round4(pickup.lat + 0.0045), lon: round4(pickup.lon) };
      const nearStatus = await moveTo(near);
      const nearWords = driverWhereText(nearStatus);
      expect(nearWords).toMatch(/^Your driver is near .+, 0\.3 miles away: about \d+ min\.$/);
      expect(nearWords).not.toBe(farWords);
      await expect.poll(() => words.textContent(), { timeout: STACK_WAIT_MS }).toBe(nearWords);
      expect(await page.locator('#map').count()).toBe(0);

      // At the pickup, that they are there.
      const trip = (event: string) =>
        stack.app.inject({
          method: 'POST',
          url: `/api/driver/offers/${encodeURIComponent(card.offerId)}/trip`,
          payload: { token: card.token, event },
        });
      expect((await trip('en_route')).statusCode).toBe(202);
      await waitForStatus(stack.sql, ref, 'en_route');
      expect((await trip('arrived')).statusCode).toBe(202);
      await expect.poll(() => words.textContent(), { timeout: STACK_WAIT_MS }).toBe('Your driver is at the pickup.');
      await page.context().close();
      await stack.client.workflow
        .getHandle(bookingWorkflowId(ref))
        .terminate('test done')
        .catch(() => {});
    });
  },
);
