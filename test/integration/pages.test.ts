// The three server-rendered pages driven in a real browser (headless Chromium through
// playwright-core) against the real stack over a real HTTP listener: the booking link a quote
// hands out, the passenger's live tracking page and the driver's job card. Nothing here races the
// wall clock, so a busy machine is only slower: what must stay open (an offer) stays open longer
// than a test may run, what must run out does so when the test moves the clock (a time-skipping
// Temporal server's, and the browser's), and a wait is for what a page shows, bounded by
// Playwright's default 30 s rather than a shorter guess at how fast a page polls.
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Browser, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
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
import { eventually, STACK_WAIT_MS, startStack, type TestStack } from '../support/stack.js';
import { startTimeSkippingStack, type TimeSkippingStack } from '../support/time-skipping-stack.js';
import { freePort } from '../../dev/free-port.js';
import { buildApp } from '../../src/app.js';
import { driverWhereText } from '../../src/pages/browser/driver-where.js';
import { pickupEtaMinutes } from '../../src/geo/pickup-eta.js';
import { LEAFLET_CSS, LEAFLET_JS } from '../../src/pages/map-assets.js';
import { bookingStateQuery, bookingWorkflowId } from '../../workflows/bookings/definitions.js';
import { launchChromium } from '../support/browser-stack.js';

const CHROMIUM = '/usr/bin/chromium';
// A driver's time to answer an offer: an hour, longer than any test here may run, so an accept
// is never too late however busy the machine (8 s here once lost two tests their offers on a loaded
// 2-core machine). Where an offer has to run out, the test moves the clock past it: the
// time-skipping server's, and the browser's.
const OFFER_TIMEOUT_SECONDS = 3600;

describe.skipIf(!existsSync(CHROMIUM) && !process.env.CI)(
  `server-rendered pages in headless Chromium (skipped outside CI when ${CHROMIUM} is not installed)`,
  () => {
    let stack: TestStack;
    // The same stack on a time-skipping Temporal server, for what has to run out (an offer, a quote).
    let skipping: TimeSkippingStack;
    let browser: Browser;
    let base: string;
    let skippingBase: string;
    const drivers: TestDriver[] = [];
    // Script errors and Content-Security-Policy refusals from every page a test opened.
    let browserProblems: string[] = [];

    beforeAll(async () => {
      const port = await freePort();
      base = `http://127.0.0.1:${port}`;
      stack = await startStack({
        OFFER_TIMEOUT_SECONDS: String(OFFER_TIMEOUT_SECONDS),
        PUBLIC_BASE_URL: base,
        // The expired-quote page re-quotes from the browser, whose address other files share.
        QUOTE_RATE_LIMIT_PER_HOUR: '1000',
        // Several tracking pages (and their accessibility checks) poll from the one browser address.
        LOOKUP_RATE_LIMIT_PER_MINUTE: '1000',
      });
      await stack.app.listen({ port, host: '127.0.0.1' });
      const skippingPort = await freePort();
      skippingBase = `http://127.0.0.1:${skippingPort}`;
      skipping = await startTimeSkippingStack({
        OFFER_TIMEOUT_SECONDS: String(OFFER_TIMEOUT_SECONDS),
        // The clock moves an offer's hour on past pickup: the driver who then takes the job must not
        // be a no-show at once. And a quote held 10 minutes runs out without moving a booking a day on.
        NO_SHOW_GRACE_SECONDS: String(24 * 3600),
        QUOTE_TTL_SECONDS: '600',
        PUBLIC_BASE_URL: skippingBase,
        QUOTE_RATE_LIMIT_PER_HOUR: '1000',
        LOOKUP_RATE_LIMIT_PER_MINUTE: '1000',
      });
      await skipping.stack.app.listen({ port: skippingPort, host: '127.0.0.1' });
      browser = await launchChromium();
    });
    afterEach(async () => {
      // Drivers stay in the shared database; offline, they can never be offered another test's job.
      await takeDriversOffline(stack.sql, drivers.splice(0));
      expect(browserProblems).toEqual([]);
      browserProblems = [];
    });
    afterAll(async () => {
      await browser?.close();
      await skipping?.close();
      await stack?.close();
    });

    async function driverNear(lat: number, lon: number, name: string, homeArea = 'national-default') {
      const d = await createDriver(stack.sql, { lat, lon, homeArea, name });
      drivers.push(d);
      const [row] = await stack.sql<{ plate: string }[]>`select plate from drivers where id = ${d.id}`;
      return { ...d, name, plate: row!.plate };
    }

    /** `fakeClock`: the page's timers run on a clock the test can move on (page.clock.fastForward). */
    async function openPage(
      url: string,
      opts: { fakeClock?: boolean } = {},
    ): Promise<{ page: Page; status: number; headers: Record<string, string> }> {
      // A phone-sized window: these pages are read on phones.
      const context = await browser.newContext({ viewport: PHONE_VIEWPORT });
      const page = await context.newPage();
      if (opts.fakeClock) await page.clock.install();
      page.on('pageerror', (err) => browserProblems.push(`${page.url()}: ${err.message}`));
      page.on('console', (msg) => {
        if (msg.type() === 'error' && /Content Security Policy|Refused to/i.test(msg.text()))
          browserProblems.push(`${page.url()}: ${msg.text()}`);
      });
      const res = await page.goto(url);
      if (!res) throw new Error(`no response for ${url}`);
      return { page, status: res.status(), headers: res.headers() };
    }

    let ipCounter = 1;
    async function quote(pickup: string, dropoff: string, app = stack.app) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/public/v1/quote',
        remoteAddress: `10.79.${ipCounter >> 8}.${ipCounter++ & 255}`,
        payload: { pickup, dropoff },
      });
      expect(res.statusCode).toBe(200);
      return res.json<{ quote_id: string; booking_url: string; fare: number }>();
    }

    /** The link exactly as the job card SMS carries it. */
    function jobLink(card: JobCard): string {
      const link = /(https?:\/\/\S+\/driver\/jobs\/\S+)/.exec(card.body)?.[1];
      if (!link) throw new Error(`no link in job card: ${card.body}`);
      return link;
    }

    it('asks where exactly for a pickup that is only a town centre, offers suggestions when still unsure, and books once it is precise', async () => {
      const q = await quote('Bristol', 'Bristol Temple Meads');
      const { page } = await openPage(q.booking_url);
      await page.waitForSelector('text=Where exactly?');
      // No way to book a town centre.
      expect(await page.locator('form#book').count()).toBe(0);

      // Still not a place a driver can find: the API's suggestions become buttons, but never the
      // town centre the page has just called too vague (nor any other town centre).
      await page.fill('#pickup_detail', 'Royal Infirmary');
      await page.click('#find');
      await page.waitForSelector('#suggestions button.suggestion');
      expect(await page.locator('#refine-error').textContent()).toMatch(/Did you mean/);
      const offered = page.locator('#suggestions button.suggestion');
      expect(await offered.count()).toBeGreaterThan(0);
      expect(await offered.count()).toBeLessThanOrEqual(5);
      expect((await offered.allTextContents()).filter((t) => /^Bristol$|^Infirmary, /.test(t))).toEqual([]);
      // Choosing one asks for a price for exactly that place.
      const [request] = await Promise.all([
        page.waitForRequest((r) => r.url().endsWith('/api/public/v1/quote') && r.method() === 'POST'),
        offered.first().click(),
      ]);
      expect((request.postDataJSON() as { pickup: string }).pickup.length).toBeGreaterThan(0);
      // A suggestion precise enough moves on to its own booking page; let that settle first.
      if ((await request.response())?.ok()) await page.waitForURL((url) => !url.pathname.endsWith(q.quote_id));

      // A street in the town is precise enough: a new quote, and the booking form.
      await page.goto(q.booking_url);
      await page.fill('#pickup_detail', 'Park Street');
      await Promise.all([
        page.waitForURL((url) => url.pathname.startsWith('/book/') && !url.pathname.endsWith(q.quote_id)),
        page.click('#find'),
      ]);
      await page.waitForSelector('form#book');
      expect(await page.textContent('dl.facts')).toContain('Park Street, Bristol');
      await page.context().close();
    });

    it('prices a group of five in a 6-seater and books it from a phone; the 6-seat driver near Rusholme gets the job card, the saloon beside them does not', async () => {
      // Five passengers and no vehicle named: spec 2.6's class for groups over 4, whoever asks (issue 21).
      // National network drivers on Wilmslow Road, Rusholme: the nearest of them is the saloon.
      const saloon = await createDriver(stack.sql, { lat: 53.4582, lon: -2.2262, tier: 'national', name: 'Tom Hale' });
      const sixSeater = await createDriver(stack.sql, {
        lat: 53.459,
        lon: -2.2262,
        tier: 'national',
        name: 'Priya Shah',
        vehicleType: '6seater',
        seats: 6,
      });
      drivers.push(saloon, sixSeater);
      const res = await stack.app.inject({
        method: 'POST',
        url: '/api/public/v1/quote',
        remoteAddress: `10.79.${ipCounter >> 8}.${ipCounter++ & 255}`,
        payload: {
          pickup: '10 Wilmslow Road, Rusholme, Manchester M14 5TQ',
          dropoff: 'Manchester Airport',
          passengers: 5,
        },
      });
      expect(res.statusCode, res.body).toBe(200);
      const q = res.json<{ quote_id: string; booking_url: string }>();

      const { page } = await openPage(q.booking_url);
      expect(await page.textContent('main')).toMatch(/6[- ]seater, 5 passengers/i);
      await page.fill('#passenger_name', 'Grace Hopper');
      // The number as a Briton types it (issue 23): no +44 needed, and it is stored in E.164.
      expect(await page.getAttribute('#passenger_phone_whatsapp', 'placeholder')).toBe('07400 123456');
      await page.fill('#passenger_phone_whatsapp', '07400 123456');
      await page.check('input[name="payment_method"][value="cash_to_driver"]');
      await page.click('#submit');
      await page.waitForURL(/\/track\/TX[0-9A-Z]{8,10}(#t=[^#]+)?$/);
      const ref = new URL(page.url()).pathname.split('/').pop()!;
      const [booking] = await stack.sql<
        { passengers: number; vehicle_type: string; passenger_phone: string }[]
      >`select passengers, vehicle_type, passenger_phone from bookings where ref = ${ref}`;
      expect(booking).toEqual({ passengers: 5, vehicle_type: '6seater', passenger_phone: '+447400123456' });
      const card = await waitForJobCard(stack.sql, sixSeater, ref);
      expect(card.body).toContain('5 passengers, 6seater');
      const [saloonOffers] = await stack.sql<
        { n: number }[]
      >`select count(*)::int as n from offers where booking_ref = ${ref} and driver_id = ${saloon.id}`;
      expect(saloonOffers!.n).toBe(0);
      await page.context().close();
    });

    it('books from the quote link and shows the driver on the tracking page without a reload once they accept on their job card', async () => {
      const driver = await driverNear(57.479, -4.225, 'Morag Fraser'); // Inverness
      const q = await quote('Inverness station', 'Inverness Airport');
      expect(q.booking_url).toBe(`${base}/book/${q.quote_id}`);

      const { page, status, headers } = await openPage(q.booking_url);
      expect(status).toBe(200);
      // Its script is a file this service serves; no inline script may run.
      expect(headers['content-security-policy']).toMatch(/default-src 'none'.*script-src 'self';/);
      expect(headers['content-security-policy']).not.toMatch(/unsafe-inline|script-src[^;]*sha256/);
      const fare = `£${q.fare.toFixed(2)}`;
      expect(await page.textContent('main')).toContain('Inverness (INV) station');
      expect(await page.textContent('#submit')).toBe(`Book for ${fare}`);
      await page.fill('#passenger_name', 'Ada Lovelace');
      await page.fill('#passenger_phone_whatsapp', '+44 7911 123456');
      await page.fill('#passenger_email', 'ada.lovelace@example.com');
      await page.check('input[name="payment_method"][value="card_to_driver"]');
      await page.screenshot({ path: '/tmp/page-book.png', fullPage: true });

      // The first reply is lost after the booking was made; pressing again must not book twice.
      const keys: string[] = [];
      await page.route('**/api/public/bookings/create', async (route) => {
        keys.push(route.request().headers()['idempotency-key'] ?? '');
        if (keys.length === 1) {
          await route.fetch();
          await route.abort('connectionreset');
        } else {
          await route.continue();
        }
      });
      await page.click('#submit');
      await page.waitForSelector('text=Could not reach Direct Taxi');
      await page.click('#submit');
      await page.waitForURL(/\/track\/TX[0-9A-Z]{8,10}(#t=[^#]+)?$/);
      expect(keys).toHaveLength(2);
      expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
      expect(keys[1]).toBe(keys[0]);
      const ref = new URL(page.url()).pathname.split('/').pop()!;
      const bookings = await stack.sql<
        { ref: string; payment_method: string }[]
      >`select ref, payment_method from bookings where quote_id = ${q.quote_id}`;
      expect(bookings).toEqual([{ ref, payment_method: 'card_to_driver' }]);

      expect(await page.textContent('[data-field="headline"]')).toBe('Finding your driver');
      expect(await page.isVisible('#driver')).toBe(false);
      // Page code is passed as strings: this project's TypeScript has no DOM types.
      await page.evaluate('window.sameDocument = true');

      // The driver opens the link from their SMS on their own phone and accepts.
      const card = await waitForJobCard(stack.sql, driver, ref);
      const link = jobLink(card);
      expect(link.startsWith(`${base}/driver/jobs/`)).toBe(true);
      const job = await openPage(link);
      expect(job.status).toBe(200);
      expect(await job.page.textContent('#job')).toContain('Inverness Airport (INV)');
      expect(await job.page.textContent('#job')).toContain(`${fare} paid to you (card to the driver)`);
      expect(await job.page.textContent('#job')).not.toContain('7911');
      await job.page.waitForFunction("/^\\d+:\\d\\d$/.test(document.getElementById('countdown').textContent)");
      await job.page.screenshot({ path: '/tmp/page-job-card.png', fullPage: true });
      await job.page.click('button[data-decision="accept"]');
      // The card reloads as the driver's own job: the passenger's name and the trip's first step at once.
      await job.page.waitForSelector('text=You accepted this job. It is yours.');
      await job.page.waitForSelector('button[data-event="en_route"]');
      expect(await job.page.isVisible('#actions')).toBe(false);

      // The passenger's page catches up by itself.
      // The test driver has no registration on file: the council licence number, said to be that.
      await page.waitForSelector(`text=${driver.plate}`);
      expect(await page.textContent('[data-field="driver_plate_label"]')).toBe('Council licence no.');
      expect(await page.textContent('[data-field="driver_name"]')).toBe('Morag');
      expect(await page.textContent('[data-field="headline"]')).toBe('Driver confirmed');
      expect(await page.evaluate("'sameDocument' in window")).toBe(true);
      await page.screenshot({ path: '/tmp/page-track.png', fullPage: true });

      // The polled JSON carries what the page shows and nothing of the passenger's.
      const polled = await stack.app.inject({ method: 'GET', url: `/track/${ref}/status.json` });
      expect(polled.statusCode).toBe(200);
      expect(Object.keys(polled.json()).sort()).toEqual(
        [
          'booking_reference',
          'detail',
          'driver',
          'dropoff',
          'final',
          'headline',
          'pickup',
          'pickup_note',
          'pickup_time',
          'status',
          'fare',
          'fare_note',
          'payment',
          'pay_options',
          'driver_position',
          'eta_minutes',
          'driver_near',
          'driver_distance_m',
          'provided_by',
        ].sort(),
      );
      expect(polled.json()).toMatchObject({
        // Our own driver: no other operator provides the ride.
        provided_by: null,
        status: 'assigned',
        driver: { name: 'Morag', vehicle: 'Skoda Octavia', registration: null, council_licence: driver.plate },
      });
      expect(polled.body).not.toContain('Fraser');
      expect(polled.body).not.toMatch(/7911|ada\.lovelace|Ada/);
      expect(await page.textContent('#pay')).toContain(fare);

      // The job is hers now: the card shows who to collect, and she drives the trip from it.
      await job.page.reload();
      expect(await job.page.textContent('#job')).toContain('Ada Lovelace');
      expect(await job.page.getAttribute('a[href^="tel:"]', 'href')).toBe('tel:+447911123456');
      for (const [button, passengerSees] of [
        ['On my way', 'Your driver is on the way'],
        ['Arrived at pickup', 'Your driver is here'],
        ['Passenger on board', 'On your way'],
      ] as const) {
        await Promise.all([job.page.waitForEvent('load'), job.page.click(`button:has-text("${button}")`)]);
        await page.waitForSelector(`[data-field="headline"]:has-text("${passengerSees}")`);
      }
      // With her on board, confirming the payment is the trip's last tap: it completes the trip too.
      // (The two taps, "Trip completed" then the payment, are walked in driver-pages.test.ts.)
      expect(await job.page.textContent('#payment')).toContain('Confirming the payment also completes the trip.');
      await job.page.screenshot({ path: '/tmp/page-job-card-on-board.png', fullPage: true });
      await job.page.selectOption('#method', 'card');
      expect(await job.page.inputValue('#amount')).toBe(q.fare.toFixed(2));
      await Promise.all([
        job.page.waitForEvent('load'),
        job.page.click('button:has-text("Complete the trip and confirm payment")'),
      ]);
      await page.waitForSelector('[data-field="headline"]:has-text("Journey complete")');
      expect(await job.page.textContent('#trip')).toContain(`Paid ${fare} (card)`);
      await page.waitForSelector(`[data-field="payment_detail"]:has-text("Paid ${fare} (card)")`);
      expect(
        await stack.sql`select amount_pence, method, recorded_by from payment_records where booking_ref = ${ref}`,
      ).toEqual([{ amount_pence: Math.round(q.fare * 100), method: 'card', recorded_by: 'driver' }]);
      await job.page.screenshot({ path: '/tmp/page-job-card-paid.png', fullPage: true });

      // The link is spent, and whoever holds it learns nothing of the booking it made (issue 37):
      // no reference, no tracking link.
      const again = await openPage(q.booking_url);
      expect(again.status).toBe(200);
      expect(await again.page.textContent('h1')).toBe('Already booked');
      expect(await again.page.locator('a[href^="/track/"]').count()).toBe(0);
      expect(await again.page.content()).not.toContain(ref);
    });

    it("without a tile source, says in words where the driver is coming from, updates them as the driver's position changes, and every page passes axe on a phone", async () => {
      const driver = await driverNear(52.63, 1.3, 'Rhys Morgan'); // Norwich
      const q = await quote('Norwich station', 'Norwich Airport');
      expect(await seriousA11yProblems(browser, q.booking_url)).toEqual([]);
      const booked = await stack.app.inject({
        method: 'POST',
        url: '/api/public/bookings/create',
        payload: {
          quote_id: q.quote_id,
          passenger_name: 'Ada Lovelace',
          passenger_phone_whatsapp: '+44 7911 123458',
          payment_method: 'cash_to_driver',
        },
      });
      expect(booked.statusCode).toBe(200);
      const ref = booked.json().booking_reference as string;
      const trackUrl = `${base}/track/${ref}`;
      const [booking] = await stack.sql<
        { pickup: { lat: number; lon: number } }[]
      >`select pickup from bookings where ref = ${ref}`;
      const pickup = booking!.pickup;

      // Before a driver has the job: no tile source, so no map and no Leaflet, and nothing shown yet.
      const { page, headers } = await openPage(trackUrl);
      expect(headers['content-security-policy']).toMatch(
        /^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+'; script-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'$/,
      );
      expect(await page.evaluate('typeof L')).toBe('undefined');
      expect(await page.isVisible('#map-card')).toBe(false);
      expect(await page.locator('#map').count()).toBe(0);
      await page.evaluate('window.sameDocument = true');
      expect(await seriousA11yProblems(browser, trackUrl)).toEqual([]);
      // Leaflet is served for the pages that have a map, pinned and cached for a year.
      const leaflet = await stack.app.inject({ method: 'GET', url: LEAFLET_JS.href });
      expect(leaflet.statusCode).toBe(200);
      expect(leaflet.headers['content-type']).toBe('text/javascript; charset=utf-8');
      expect(leaflet.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      const css = await stack.app.inject({ method: 'GET', url: LEAFLET_CSS.href.split('?')[0]! });
      expect(css.headers['content-type']).toBe('text/css; charset=utf-8');

      // The driver's job card once the job is theirs (the offered card is checked where an offer may run out).
      const card = await waitForJobCard(stack.sql, driver, ref);
      expect((await respond(stack.app, card, 'accept')).statusCode).toBe(200);
      await waitForStatus(stack.sql, ref, 'assigned');
      expect(await seriousA11yProblems(browser, jobLink(card), { ready: '#trip' })).toEqual([]);
      const trip = (event: string) =>
        stack.app.inject({
          method: 'POST',
          url: `/api/driver/offers/${encodeURIComponent(card.offerId)}/trip`,
          payload: { token: card.token, event },
        });
      expect((await trip('en_route')).statusCode).toBe(202);
      await waitForStatus(stack.sql, ref, 'en_route');

      // The driver app reports a position 2 km north of the pickup; the open page says so by itself.
      const round4 = (x: number) => Math.round(x * 1e4) / 1e4;
      const far = { lat: round4(pickup.lat + 0.018), lon: round4(pickup.lon) };
      await stack.sql`update drivers set lat = ${far.lat}, lon = ${far.lon}, location_at = now() where id = ${driver.id}`;
      const status = async () => (await stack.app.inject({ method: 'GET', url: `/track/${ref}/status.json` })).json();
      const polled = await eventually(async () => {
        const st = await status();
        return st.driver_position?.lat === far.lat ? st : undefined;
      });
      const farEta = pickupEtaMinutes(far, pickup);
      expect(farEta).toBeGreaterThan(2);
      expect(polled).toMatchObject({
        status: 'en_route',
        driver_position: { lat: far.lat, lon: far.lon },
        eta_minutes: farEta,
        driver_near: expect.stringMatching(/Norwich|Broadland/),
        driver_distance_m: expect.any(Number),
      });
      expect(Math.abs(polled.driver_distance_m - 2000)).toBeLessThan(30);
      const farWords = driverWhereText(polled);
      expect(farWords).toBe(`Your driver is near ${polled.driver_near}, 1.2 miles away: about ${farEta} min.`);
      await page.waitForSelector(`[data-field="eta"]:has-text("${farWords}")`);
      await page.waitForSelector('[data-field="headline"]:has-text("Your driver is on the way")');
      expect(await page.isVisible('#map-card')).toBe(true);
      expect(await page.locator('#map').count()).toBe(0);
      await page.screenshot({ path: '/tmp/page-track-words.png', fullPage: true });
      // The position's time is when the driver app reported it, not when the page asked.
      const [located] = await stack.sql<
        { location_at: Date }[]
      >`select location_at from drivers where id = ${driver.id}`;
      expect(polled.driver_position.at).toBe(located!.location_at.toISOString());
      // Opened afresh, the page says the same from its first response; it passes axe with the words showing.
      const fresh = await openPage(trackUrl);
      expect(await fresh.page.textContent('[data-field="eta"]')).toBe(farWords);
      await fresh.page.context().close();
      expect(await seriousA11yProblems(browser, trackUrl, { ready: '#map-card:not([hidden])' })).toEqual([]);

      // The driver comes closer: the words follow, the ETA drops.
      const near = { lat: round4(pickup.lat + 0.0045), lon: round4(pickup.lon) };
      await stack.sql`update drivers set lat = ${near.lat}, lon = ${near.lon}, location_at = now() where id = ${driver.id}`;
      const nearEta = pickupEtaMinutes(near, pickup);
      expect(nearEta).toBeLessThan(farEta);
      const closer = await eventually(async () => {
        const st = await status();
        return st.driver_position?.lat === near.lat ? st : undefined;
      });
      expect(closer.eta_minutes).toBe(nearEta);
      await page.waitForSelector(`[data-field="eta"]:has-text("${driverWhereText(closer)}")`);
      expect(driverWhereText(closer)).toContain('0.3 miles away');
      expect(await page.evaluate("'sameDocument' in window")).toBe(true);

      // At the pickup: nothing left to estimate. On board: where the driver is is no longer shown.
      expect((await trip('arrived')).statusCode).toBe(202);
      await page.waitForSelector('[data-field="eta"]:has-text("Your driver is at the pickup.")');
      expect(await page.isVisible('#map-card')).toBe(true);
      expect((await trip('on_board')).statusCode).toBe(202);
      await page.waitForSelector('[data-field="headline"]:has-text("On your way")');
      expect(await page.isVisible('#map-card')).toBe(false);
      const aboard = (await stack.app.inject({ method: 'GET', url: `/track/${ref}/status.json` })).json();
      expect(aboard).toMatchObject({
        status: 'on_board',
        driver_position: null,
        eta_minutes: null,
        driver_near: null,
        driver_distance_m: null,
      });
      await page.context().close();
    });

    it("loads map tiles from MAP_TILE_URL's origin under the page's CSP, credits the provider, moves the marker, and tells the tile server only which site asks", async () => {
      // A tile server of our own: every tile is one grey pixel; it notes who asked.
      const referers: string[] = [];
      const pixel = Buffer.from(
        'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
        'base64',
      );
      const tiles = createServer((req, res) => {
        referers.push(req.headers.referer ?? '');
        res.writeHead(200, { 'content-type': 'image/png' }).end(pixel);
      });
      await new Promise<void>((resolve) => tiles.listen(0, '127.0.0.1', resolve));
      const tileOrigin = `http://127.0.0.1:${(tiles.address() as AddressInfo).port}`;
      // A second API on the same database and Temporal, configured with tiles.
      const tiled = await buildApp({
        config: {
          ...stack.config,
          MAP_TILE_URL: `${tileOrigin}/osm/{z}/{x}/{y}.png`,
          MAP_TILE_ATTRIBUTION: '© [OpenStreetMap](https://www.openstreetmap.org/copyright) contributors',
        },
        sql: stack.sql,
        temporal: stack.client,
        logger: false,
      });
      try {
        const port = await freePort();
        await tiled.listen({ port, host: '127.0.0.1' });
        const driver = await driverNear(53.796, -1.547, 'Priya Shah', 'leeds'); // Leeds, a mapped licensing area
        const q = await quote('Leeds station', 'Leeds Bradford Airport');
        const booked = await stack.app.inject({
          method: 'POST',
          url: '/api/public/bookings/create',
          payload: {
            quote_id: q.quote_id,
            passenger_name: 'Ada Lovelace',
            passenger_phone_whatsapp: '+44 7911 123459',
            payment_method: 'cash_to_driver',
          },
        });
        const ref = booked.json().booking_reference as string;
        expect((await respond(stack.app, await waitForJobCard(stack.sql, driver, ref), 'accept')).statusCode).toBe(200);
        await waitForStatus(stack.sql, ref, 'assigned');

        const trackUrl = `http://127.0.0.1:${port}/track/${ref}`;
        const { page, headers } = await openPage(trackUrl);
        expect(headers['content-security-policy']).toContain(`; img-src ${tileOrigin} data:; `);
        await page.waitForSelector('#map img.leaflet-tile-loaded');
        expect(await page.textContent('#map-credit')).toBe('Map: © OpenStreetMap contributors');
        expect(await page.getAttribute('#map-credit a', 'href')).toBe('https://www.openstreetmap.org/copyright');
        expect(await page.locator('.leaflet-control-attribution').count()).toBe(0);
        expect(await page.isVisible('#map path.driver-marker')).toBe(true);
        expect(await page.isVisible('#map path.pickup-marker')).toBe(true);
        // The same words above the map as without one.
        expect(await page.textContent('[data-field="eta"]')).toMatch(
          /^Your driver is near .+, (less than )?[\d.]+ miles? away: about \d+ min\.$/,
        );

        // The driver moves 2 km north of the pickup, then comes to 0.5 km: the marker follows, south, down the screen.
        const [booking] = await stack.sql<
          { pickup: { lat: number; lon: number } }[]
        >`select pickup from bookings where ref = ${ref}`;
        const pickup = booking!.pickup;
        const round4 = (x: number) => Math.round(x * 1e4) / 1e4;
        const driverAt = async (at: { lat: number; lon: number }) => {
          await stack.sql`update drivers set lat = ${at.lat}, lon = ${at.lon}, location_at = now() where id = ${driver.id}`;
          await page.waitForSelector(`#map[data-driver-lat="${at.lat}"][data-driver-lon="${at.lon}"]`);
          return page.locator('#map path.driver-marker').boundingBox();
        };
        const farBox = await driverAt({ lat: round4(pickup.lat + 0.018), lon: round4(pickup.lon) });
        const nearBox = await driverAt({ lat: round4(pickup.lat + 0.0045), lon: round4(pickup.lon) });
        expect(nearBox!.y).toBeGreaterThan(farBox!.y);
        expect(await page.locator('#map path.driver-marker').count()).toBe(1);
        // The page's own address opens the booking: the tile server hears the site, never the path.
        expect(referers.length).toBeGreaterThan(0);
        expect(new Set(referers)).toEqual(new Set([`http://127.0.0.1:${port}/`]));
        await page.screenshot({ path: '/tmp/page-track-tiles.png', fullPage: true });
        expect(await seriousA11yProblems(browser, trackUrl, { ready: '#map img.leaflet-tile-loaded' })).toEqual([]);
        await page.context().close();
      } finally {
        await tiled.close();
        await new Promise((resolve) => tiles.close(resolve));
      }
    });

    it('refuses a job card link with a wrong token, and tells a driver on a stale card that another driver took the job', async () => {
      // On the time-skipping server: the near driver's offer stays open while the test looks at it,
      // and runs out when the test moves the clock on.
      const { stack: s, temporal } = skipping;
      const near = await driverNear(53.2275, -0.54, 'Near Driver'); // Lincoln
      const far = await driverNear(53.236, -0.54, 'Far Driver');
      const q = await quote('Lincoln Central', 'Gainsborough', s.app);
      const booked = await s.app.inject({
        method: 'POST',
        url: '/api/public/bookings/create',
        payload: {
          quote_id: q.quote_id,
          passenger_name: 'Grace Hopper',
          passenger_phone_whatsapp: '+44 7911 123457',
          payment_method: 'cash_to_driver',
        },
      });
      expect(booked.statusCode).toBe(200);
      const ref = booked.json().booking_reference as string;

      const staleCard = await waitForJobCard(stack.sql, near, ref);
      expect(jobLink(staleCard).startsWith(`${skippingBase}/driver/jobs/`)).toBe(true);
      const offerUrl = `${skippingBase}/driver/jobs/${encodeURIComponent(staleCard.offerId)}`;
      for (const url of [`${offerUrl}?t=forged-token-value`, offerUrl]) {
        const refused = await openPage(url);
        expect(refused.status).toBe(403);
        expect(await refused.page.textContent('h1')).toBe('Link not valid');
        expect(await refused.page.textContent('main')).not.toContain('Lincoln');
        if (url !== offerUrl) await refused.page.screenshot({ path: '/tmp/page-job-403.png', fullPage: true });
      }

      // The near driver's phone counts down on a clock the test moves, as the server's.
      const stale = await openPage(jobLink(staleCard), { fakeClock: true });
      await stale.page.waitForSelector('button[data-decision="accept"]');
      // The card as offered.
      expect(await seriousA11yProblems(browser, jobLink(staleCard), { ready: '#countdown' })).toEqual([]);
      // The near driver lets the offer run out; the next driver is offered the job and takes it. The
      // clock moves once the workflow waits on the offer (its time set in the same step as 'offered').
      const booking = s.client.workflow.getHandle(bookingWorkflowId(ref));
      await eventually(
        async () => {
          const state = await booking.query(bookingStateQuery);
          return state.status === 'offered' && state.offer?.driverId === near.id ? true : undefined;
        },
        STACK_WAIT_MS,
        'the booking to wait on the near driver',
      );
      await temporal.sleep(OFFER_TIMEOUT_SECONDS * 1000);
      const farCard = await waitForJobCard(stack.sql, far, ref);
      await stale.page.clock.fastForward(OFFER_TIMEOUT_SECONDS * 1000);
      await stale.page.waitForSelector('text=Time is up');
      expect((await respond(s.app, farCard, 'accept')).statusCode).toBe(200);
      await waitForStatus(stack.sql, ref, 'assigned');

      await stale.page.click('button[data-decision="accept"]');
      await stale.page.waitForSelector('text=Another driver took this job');
      await stale.page.screenshot({ path: '/tmp/page-job-taken.png', fullPage: true });
      const [row] = await stack.sql<{ driver_id: string }[]>`select driver_id from bookings where ref = ${ref}`;
      expect(row?.driver_id).toBe(far.id);

      // Opened afresh, the card says the offer is over and offers no buttons.
      await stale.page.reload();
      expect(await stale.page.textContent('#job')).toContain('This offer has expired');
      expect(await stale.page.locator('button[data-decision]').count()).toBe(0);
    });

    it("shows the API's problem detail for a phone number of no country it can tell, and explains unknown and expired quotes", async () => {
      const q = await quote('Swansea station', 'Neath');
      const { page } = await openPage(q.booking_url);
      await page.fill('#passenger_name', 'Alan Turing');
      await page.fill('#passenger_phone_whatsapp', '7911 123456');
      await page.click('#submit');
      await page.waitForSelector('#form-error:not([hidden])');
      expect(await page.textContent('#form-error')).toContain('The booking has invalid fields.');
      expect(await page.textContent('#passenger_phone_whatsapp-error')).toContain(
        'Phone number must start with 0 (a UK number) or with + (or 00) and the country code',
      );
      expect(await page.getAttribute('#passenger_phone_whatsapp', 'aria-invalid')).toBe('true');
      expect(await page.isEnabled('#submit')).toBe(true);
      expect(page.url()).toBe(q.booking_url);
      await page.screenshot({ path: '/tmp/page-book-error.png', fullPage: true });
      const [quoteRow] = await stack.sql<{ status: string }[]>`select status from quotes where id = ${q.quote_id}`;
      expect(quoteRow?.status).toBe('open');

      for (const path of [`/book/${randomUUID()}`, '/book/not-a-quote']) {
        const unknown = await openPage(`${base}${path}`);
        expect(unknown.status).toBe(404);
        expect(await unknown.page.textContent('h1')).toBe('Quote not found');
        expect(unknown.headers['content-type']).toMatch(/^text\/html/);
        if (path !== '/book/not-a-quote')
          await unknown.page.screenshot({ path: '/tmp/page-not-found.png', fullPage: true });
      }
      for (const path of ['/track/TX00000000', '/track/nonsense']) {
        const unknown = await openPage(`${base}${path}`);
        expect(unknown.status).toBe(404);
        expect(await unknown.page.textContent('h1')).toBe('Booking not found');
      }

      // A quote expired for real by its workflow, once the test moves the time-skipping server's clock
      // past the quote's time to live.
      const old = await quote('Swansea station', 'Neath', skipping.stack.app);
      const quoteStatus = async () =>
        (await stack.sql<{ status: string }[]>`select status from quotes where id = ${old.quote_id}`)[0]?.status;
      expect(await quoteStatus()).toBe('open');
      await skipping.temporal.sleep(skipping.stack.config.QUOTE_TTL_SECONDS * 1000);
      await eventually(
        async () => ((await quoteStatus()) === 'expired' ? true : undefined),
        STACK_WAIT_MS,
        'the quote to expire',
      );
      const expired = await openPage(`${base}/book/${old.quote_id}`);
      expect(expired.status).toBe(410);
      expect(await expired.page.textContent('h1')).toBe('This price has expired');
      expect(await expired.page.locator('#book').count()).toBe(0);
      await expired.page.screenshot({ path: '/tmp/page-book-expired.png', fullPage: true });
      // Its way back: a fresh quote for the same journey, on a new booking page.
      await expired.page.click('#requote');
      await expired.page.waitForURL((url) => url.pathname.startsWith('/book/') && !url.pathname.endsWith(old.quote_id));
      await expired.page.waitForSelector('#book');
      expect(await expired.page.textContent('main')).toContain('Swansea (SWA) station');
    });

    it('keeps the pages out of the OpenAPI document and answers the status poll as problem details when unknown', async () => {
      const doc = await stack.app.inject({ method: 'GET', url: '/api/public/openapi.json' });
      const paths = Object.keys(doc.json().paths as Record<string, unknown>);
      expect(paths.filter((p) => /^\/(book|track|driver\/jobs)\b/.test(p))).toEqual([]);
      const missing = await stack.app.inject({ method: 'GET', url: '/track/TX00000000/status.json' });
      expect(missing.statusCode).toBe(404);
      expect(missing.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(missing.json().code).toBe('booking_not_found');
      const malformed = await stack.app.inject({ method: 'GET', url: '/track/nonsense/status.json' });
      expect(malformed.statusCode).toBe(400);
    });
  },
);
