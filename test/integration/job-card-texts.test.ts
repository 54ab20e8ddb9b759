// A driver pays 2p for each SMS the service sends them (spec 8), so a booking nobody has taken is
// not texted to the same driver round after round (issue 20: about once a minute before): the
// first offer of a booking comes by SMS and WhatsApp, later ones of the same booking by WhatsApp
// (and the driver app) only, and the week's pass-through counts the one text.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { weekSmsCount } from '../../src/billing/subscription-store.js';
import { bookingStateQuery, bookingWorkflowId } from '../../workflows/bookings/definitions.js';
import { createDriver, takeDriversOffline, type TestDriver } from '../support/drivers.js';
import { eventually, STACK_WAIT_MS, startStack } from '../support/stack.js';
import { startTimeSkippingStack, type TimeSkippingStack } from '../support/time-skipping-stack.js';

// An offer runs out only when the test moves the time-skipping server's clock past it (an hour:
// never by itself however busy the machine); an exhausted round is retried a second later.
const OFFER_TIMEOUT_SECONDS = 3600;

let skipping: TimeSkippingStack;
const created: TestDriver[] = [];
beforeAll(async () => {
  // startStack installs the worker SDK's runtime (its logging), once per file, and fails if anything
  // created that runtime before it, as a time-skipping server does: a stack on the shared server
  // first, closed at once, as every other file with a time-skipping stack has one started first.
  await (await startStack()).close();
  skipping = await startTimeSkippingStack({
    OFFER_TIMEOUT_SECONDS: String(OFFER_TIMEOUT_SECONDS),
    DISPATCH_RETRY_BASE_SECONDS: '1',
    DISPATCH_RETRY_MAX_SECONDS: '1',
    // Dispatched at once though pickup is hours away: the rounds' offer windows (an hour each, on
    // the moved clock) all end before pickup, when the retries would stop.
    DISPATCH_LEAD_SECONDS: String(24 * 3600),
  });
});
afterEach(async () => takeDriversOffline(skipping.stack.sql, created.splice(0)));
afterAll(async () => skipping?.close());

describe('job cards for a booking nobody takes', () => {
  it('text the driver once, come again by WhatsApp only, and are not billed to them', async () => {
    const { stack, temporal } = skipping;
    // Truro: far from every other test's drivers.
    // A phone of its own (createDriver draws from the wide test range): the week's texts are
    // counted by phone, across every file sharing the database.
    const d = await createDriver(stack.sql, { lat: 50.2632, lon: -5.051, homeArea: 'national-default' });
    created.push(d);
    const res = await stack.app.inject({
      method: 'POST',
      url: '/api/public/bookings/instant',
      remoteAddress: '10.66.0.1',
      // Due in twelve hours: dispatched now, and retried until pickup while nobody takes it.
      payload: {
        pickup_address: 'Truro station',
        dropoff_address: 'TR1 2HE',
        passenger_name: 'Ada Lovelace',
        passenger_phone_whatsapp: '+447400123499',
        depart_at: new Date(Date.now() + 12 * 3600_000).toISOString(),
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const ref = res.json<{ booking_reference: string }>().booking_reference;
    const booking = stack.client.workflow.getHandle(bookingWorkflowId(ref));

    // Three offers to the same driver, each timed out: the cascade's rounds coming back to them.
    // Each runs out when the clock moves, once the booking waits on it (its timer is set in the
    // same workflow task as the status 'offered').
    for (let round = 1; round <= 3; round++) {
      await eventually(
        async () => {
          const s = await booking.query(bookingStateQuery);
          return s.status === 'offered' && s.offer?.driverId === d.id && s.offer.round === round ? true : undefined;
        },
        STACK_WAIT_MS,
        `round ${round}'s offer to the driver`,
      );
      await temporal.sleep(OFFER_TIMEOUT_SECONDS * 1000);
    }
    await eventually(
      async () => {
        const offers =
          await stack.sql`select 1 from offers where booking_ref = ${ref} and driver_id = ${d.id} and status <> 'offered'`;
        return offers.length >= 3 ? true : undefined;
      },
      STACK_WAIT_MS,
      'three offers to the driver',
    );
    const cards = await stack.sql<{ channel: string }[]>`
      select channel from outbox where booking_ref = ${ref} and recipient = ${d.phone} and body like 'New job%' and sent_at is not null`;
    expect(cards.filter((c) => c.channel === 'sms')).toHaveLength(1);
    expect(cards.filter((c) => c.channel === 'whatsapp').length).toBeGreaterThanOrEqual(3);

    const weekStart = new Date(Date.now() - 3600_000).toISOString();
    const weekEnd = new Date(Date.now() + 3600_000).toISOString();
    // The driver never took this job, so its one text is not on their invoice: whoever booked it
    // caused it, and the service pays (docs/billing.md, "Who pays for a text").
    expect(await weekSmsCount(stack.sql, d.id, weekStart, weekEnd)).toBe(0);
    await booking.terminate('test done');
  });
});
