// Issue 40 (3): what a disabled passenger is owed, end to end on the real stack. A wheelchair user
// books a wheelchair-accessible car from a phone, ticks "assistance dog" and "help me find the car",
// and pays exactly what the same trip costs without them; the nearest accessible driver, exempt
// from carrying dogs, is passed over for that reason alone, and the next, whose exemption has
// lapsed, gets a job card that says what the passenger asked. With no accessible vehicle anywhere
// near, the booking is still taken: the passenger is told plainly and ops are alerted at once.
import { existsSync } from 'node:fs';
import { type Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../dev/free-port.js';
import { createStaff } from '../../src/auth/staff.js';
import { PHONE_VIEWPORT, seriousA11yProblems } from '../support/axe.js';
import { launchChromium } from '../support/browser-stack.js';
import { createDriver, takeDriversOffline, waitForJobCard, type TestDriver } from '../support/drivers.js';
import { eventually, STACK_WAIT_MS, startStack, type TestStack } from '../support/stack.js';

const CHROMIUM = '/usr/bin/chromium';

let stack: TestStack;
let base: string;
let adminKey: string;
const drivers: TestDriver[] = [];

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  stack = await startStack({ OFFER_TIMEOUT_SECONDS: '600', PUBLIC_BASE_URL: base });
  await stack.app.listen({ port, host: '127.0.0.1' });
  adminKey = (await createStaff(stack.sql, { name: 'Sam (admin)', role: 'admin' })).key;
});
afterEach(async () => takeDriversOffline(stack.sql, drivers.splice(0)));
afterAll(async () => stack?.close());

let ipN = 1;
const ip = () => `10.41.${ipN >> 8}.${ipN++ & 255}`;

const day = (days: number) => new Date(Date.now() + days * 24 * 3600_000).toISOString().slice(0, 10);

async function quote(payload: object): Promise<{ quote_id: string; booking_url: string; fare_pence: number }> {
  const res = await stack.app.inject({ method: 'POST', url: '/api/public/v1/quote', remoteAddress: ip(), payload });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

describe('a disabled passenger', () => {
  describe.skipIf(!existsSync(CHROMIUM) && !process.env.CI)('in Chromium, at phone size', () => {
    let browser: Browser;
    beforeAll(async () => {
      browser = await launchChromium();
    });
    afterAll(async () => browser?.close());

    it('books an accessible car with an assistance dog at the same fare; the exempt driver is passed over, the next is told what was asked', async () => {
      const trip = { pickup: '1 Deansgate, Manchester M3 1AZ', dropoff: 'Manchester Airport Terminal 2' };
      const wav = await quote({ ...trip, vehicle_type: 'wav' });
      const saloon = await quote(trip);
      // A wheelchair user's accessible vehicle costs what the standard car does.
      expect(wav.fare_pence).toBeGreaterThan(0);
      expect(wav.fare_pence).toBe(saloon.fare_pence);
      const [q] = await stack.sql<{ lat: number; lon: number }[]>`
        select (pickup->>'lat')::float8 as lat, (pickup->>'lon')::float8 as lon from quotes where id = ${wav.quote_id}`;
      // Two accessible cars at the kerb: the nearer holds a certificate exempting them from dogs
      // (valid a month on), the other one that lapsed last week.
      const accessible = {
        vehicleType: 'wav',
        seats: 5,
        wheelchair: true,
        tier: 'local' as const,
        homeArea: 'manchester',
      };
      const exempt = await createDriver(stack.sql, { lat: q!.lat, lon: q!.lon, name: 'Ed Exempt', ...accessible });
      const lapsed = await createDriver(stack.sql, {
        lat: q!.lat + 0.0008,
        lon: q!.lon,
        name: 'Lara Lapsed',
        ...accessible,
      });
      drivers.push(exempt, lapsed);
      for (const [d, expires] of [
        [exempt, day(30)],
        [lapsed, day(-7)],
      ] as const) {
        const put = await stack.app.inject({
          method: 'PUT',
          url: `/api/ops/drivers/${d.id}/exemptions/assistance_dogs`,
          remoteAddress: ip(),
          headers: { authorization: `Bearer ${adminKey}` },
          payload: { certificate_number: `MX-${d.id}`, issued_by: 'Manchester City Council', expires_on: expires },
        });
        expect(put.statusCode, put.body).toBe(200);
      }

      const context = await browser.newContext({ viewport: PHONE_VIEWPORT, isMobile: true, hasTouch: true });
      const page = await context.newPage();
      await page.goto(wav.booking_url.replace(/^https?:\/\/[^/]+/, base));
      await page.fill('#passenger_name', 'Ada Lovelace');
      await page.fill('#passenger_phone_whatsapp', '07400 123456');
      await page.check('input[name="assistance_dog"]');
      await page.check('input[name="help_finding_vehicle"]');
      // It says, before booking, that neither costs more.
      expect(await page.textContent('#needs-hint')).toContain('Neither ever costs more');
      await page.click('#submit');
      await page.waitForURL(/\/track\/TX[0-9A-Z]{8,10}(#t=[^#]+)?$/);
      const ref = new URL(page.url()).pathname.split('/').pop()!;

      const [b] = await stack.sql<
        { fare_pence: number; vehicle_type: string; assistance_dog: boolean; help_finding_vehicle: boolean }[]
      >`select fare_pence, vehicle_type, assistance_dog, help_finding_vehicle from bookings where ref = ${ref}`;
      expect(b).toEqual({
        fare_pence: saloon.fare_pence,
        vehicle_type: 'wav',
        assistance_dog: true,
        help_finding_vehicle: true,
      });
      expect((await stack.sql`select needs from booking_records where ref = ${ref}`)[0]).toEqual({
        needs: 'wheelchair, assistance dog, help finding the vehicle',
      });

      const card = await waitForJobCard(stack.sql, lapsed, ref);
      expect(card.body).toContain('Assistance dog: the passenger travels with one; carry it, at no extra charge');
      expect(card.body).toContain('Help finding the vehicle');
      const decisions = await stack.sql<{ driver_id: string; skip_reason: string | null }[]>`
        select driver_id, skip_reason from dispatch_decisions
         where booking_ref = ${ref} and driver_id in ${stack.sql([exempt.id, lapsed.id])} order by driver_id`;
      expect(Object.fromEntries(decisions.map((d) => [d.driver_id, d.skip_reason]))).toEqual({
        [exempt.id]: 'exempt_from_assistance_dogs',
        [lapsed.id]: null,
      });

      // The driver's job page, on their phone, says the same before they accept.
      const link = /https?:\/\/\S+/g;
      const jobUrl = [...card.body.matchAll(link)].map((m) => m[0]).pop()!;
      const jobPage = await context.newPage();
      await jobPage.goto(jobUrl.replace(/^https?:\/\/[^/]+/, base));
      const facts = await jobPage.textContent('dl.facts');
      expect(facts).toContain('Assistance dog');
      expect(facts).toContain('the passenger asked you to help them find the car');
      expect(facts).toContain('Wheelchair accessible');
      await context.close();

      // The booking page a passenger fills in passes axe on a phone.
      const fresh = await quote({ ...trip, vehicle_type: 'wav' });
      expect(
        await seriousA11yProblems(browser, fresh.booking_url.replace(/^https?:\/\/[^/]+/, base), {
          ready: 'form#book',
          context: { viewport: PHONE_VIEWPORT },
        }),
      ).toEqual([]);
      await stack.client.workflow
        .getHandle(`booking:${ref}`)
        .terminate('test over')
        .catch(() => undefined);
    });
  });

  it('with no accessible vehicle near, is still booked, told so plainly, and ops hear at once what is needed', async () => {
    // Thurso: no accessible car within any tier's reach.
    const res = await stack.app.inject({
      method: 'POST',
      url: '/api/public/bookings/instant',
      remoteAddress: ip(),
      payload: {
        pickup_address: 'Thurso',
        dropoff_address: 'Scrabster Ferry Terminal',
        passenger_name: 'Jo Walker',
        passenger_phone_whatsapp: '07400 123457',
        vehicle_type: 'wav',
        assistance_dog: true,
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const ref = res.json<{ booking_reference: string }>().booking_reference;
    const told = await eventually(
      async () => {
        const [m] = await stack.sql<{ body: string }[]>`
          select body from outbox where booking_ref = ${ref} and idempotency_key like 'no-driver-yet:%'`;
        return m?.body;
      },
      STACK_WAIT_MS,
      'the passenger told no accessible vehicle is free yet',
    );
    expect(told).toContain('we have not yet found a wheelchair-accessible vehicle free near');
    expect(told).toContain('It costs nothing extra.');
    const alerted = await eventually(
      async () => {
        const [m] = await stack.sql<{ subject: string | null; body: string }[]>`
          select subject, body from outbox where booking_ref = ${ref} and idempotency_key like ${`ops:unassigned:${ref}:%`}`;
        return m;
      },
      STACK_WAIT_MS,
      'the ops alert',
    );
    expect(alerted.subject).toMatch(/^Accessible vehicle needed: Unassigned booking /);
    expect(alerted.body).toContain('a wheelchair-accessible vehicle, an assistance dog carried');
    // Still a live booking, searching: nothing declined it.
    expect((await stack.sql`select status from bookings where ref = ${ref}`)[0]).toEqual({ status: 'unassigned' });
    await stack.client.workflow
      .getHandle(`booking:${ref}`)
      .terminate('test over')
      .catch(() => undefined);
  });
});
