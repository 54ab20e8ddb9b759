// A driver pays 2p for each SMS the service sends them (spec 8), so a booking nobody has taken is
// not texted to the same driver round after round (issue 20: about once a minute before): the
// first offer of a booking comes by SMS and WhatsApp, later ones of the same booking by WhatsApp
// (and the driver app) only, and the week's pass-through counts the one text.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { weekSmsCount } from '../../src/billing/subscription-store.js';
import { createDriver, takeDriversOffline, type TestDriver } from '../support/drivers.js';
import { eventually, startStack, type TestStack } from '../support/stack.js';

let stack: TestStack;
const created: TestDriver[] = [];
beforeAll(async () => {
  // Short offers and retries, so the cascade comes back to the same driver within the test.
  stack = await startStack({ OFFER_TIMEOUT_SECONDS: '1', DISPATCH_RETRY_BASE_SECONDS: '1', DISPATCH_RETRY_MAX_SECONDS: '1' });
});
afterEach(async () => takeDriversOffline(stack.sql, created.splice(0)));
afterAll(async () => stack?.close());

describe('job cards for a booking nobody takes', () => {
  it('text the driver once, and come again by WhatsApp only', async () => {
    // Truro: far from every other test's drivers.
    const d = await createDriver(stack.sql, { lat: 50.2632, lon: -5.0510, homeArea: 'national-default' });
    created.push(d);
    const res = await stack.app.inject({
      method: 'POST',
      url: '/api/public/bookings/instant',
      remoteAddress: '10.66.0.1',
      // Due in ten minutes: dispatched now, and retried until pickup while nobody takes it.
      payload: {
        pickup_address: 'Truro station',
        dropoff_address: 'TR1 2HE',
        passenger_name: 'Ada Lovelace',
        passenger_phone_whatsapp: '+447400123499',
        depart_at: new Date(Date.now() + 10 * 60_000).toISOString(),
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const ref = res.json<{ booking_reference: string }>().booking_reference;

    // Three offers to the same driver, each timed out: the cascade's rounds coming back to them.
    await eventually(async () => {
      const offers = await stack.sql`select 1 from offers where booking_ref = ${ref} and driver_id = ${d.id} and status <> 'offered'`;
      return offers.length >= 3 ? true : undefined;
    }, 30_000, 'three offers to the driver');
    const cards = await stack.sql<{ channel: string }[]>`
      select channel from outbox where booking_ref = ${ref} and recipient = ${d.phone} and body like 'New job%' and sent_at is not null`;
    expect(cards.filter((c) => c.channel === 'sms')).toHaveLength(1);
    expect(cards.filter((c) => c.channel === 'whatsapp').length).toBeGreaterThanOrEqual(3);

    const weekStart = new Date(Date.now() - 3600_000).toISOString();
    const weekEnd = new Date(Date.now() + 3600_000).toISOString();
    expect(await weekSmsCount(stack.sql, d.id, weekStart, weekEnd)).toBe(1);
    await stack.client.workflow.getHandle(`booking:${ref}`).terminate('test done');
  });
});
