// Issue 38, item 4: drivers ranked by how they answer as well as by distance (docs/dispatch.md,
// "Ranking"), on the real stack: a week of job cards left to time out puts a driver behind one a
// little further away who accepts theirs, and the decision log says what each was ranked on.
// Lerwick, Shetland: no other test's driver within any tier's reach.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bookingWorkflowId } from '../../workflows/bookings/definitions.js';
import { createDriver, takeDriversOffline, waitForJobCard, type TestDriver } from '../support/drivers.js';
import { STACK_WAIT_MS, startStack, type TestStack } from '../support/stack.js';

const LERWICK = { lat: 60.1546, lon: -1.1494 };
const KM_LAT = 1 / 111.195;

let stack: TestStack;
const created: TestDriver[] = [];
const refs: string[] = [];
beforeAll(async () => {
  // An hour to answer: the first card is all this test reads, nothing races the clock.
  stack = await startStack({ OFFER_TIMEOUT_SECONDS: '3600' });
});
afterEach(async () => {
  await takeDriversOffline(stack.sql, created.splice(0));
  await Promise.all(
    refs.splice(0).map((ref) =>
      stack.client.workflow
        .getHandle(bookingWorkflowId(ref))
        .terminate('test done')
        .catch(() => {}),
    ),
  );
});
afterAll(async () => stack?.close());

/** A ride from Lerwick now; `phone` tells two bookings apart (the same request again is the same ride). */
async function book(phone: string): Promise<string> {
  const res = await stack.app.inject({
    method: 'POST',
    url: '/api/public/bookings/instant',
    remoteAddress: '10.38.4.1',
    payload: {
      pickup_address: 'Lerwick',
      dropoff_address: 'Sumburgh Airport',
      passenger_name: 'Ada Lovelace',
      passenger_phone_whatsapp: phone,
    },
  });
  expect(res.statusCode, res.body).toBe(200);
  const ref = res.json<{ booking_reference: string }>().booking_reference;
  refs.push(ref);
  return ref;
}

/** A week of cards on record for a driver: `accepted` of `cards` taken, the rest left to time out. */
async function history(driver: TestDriver, ref: string, cards: number, accepted: number) {
  for (let i = 0; i < cards; i++) {
    const at = new Date(Date.now() - (i + 1) * 6 * 3600_000);
    await stack.sql`
      insert into offers (id, booking_ref, driver_id, round, tier, status, offered_at, expires_at, responded_at)
      values (${`${ref}:h${i}:${driver.id}`}, ${ref}, ${driver.id}, ${100 + i}, 'local',
              ${i < accepted ? 'accepted' : 'timed_out'}, ${at}, ${new Date(at.getTime() + 60_000)}, ${at})`;
  }
}

describe('ranking drivers by how they answer', () => {
  it('asks a driver who accepts their cards before a nearer one who leaves them, and logs why', async () => {
    const ignores = await createDriver(stack.sql, {
      lat: LERWICK.lat + 0.4 * KM_LAT,
      lon: LERWICK.lon,
      homeArea: 'national-default',
    });
    const answers = await createDriver(stack.sql, {
      lat: LERWICK.lat + 1.2 * KM_LAT,
      lon: LERWICK.lon,
      homeArea: 'national-default',
    });
    created.push(ignores, answers);
    // Their week, recorded against a booking nobody could take (both offline while it was made).
    await takeDriversOffline(stack.sql, [ignores, answers]);
    const past = await book('+447400123437');
    await history(ignores, past, 8, 0);
    await history(answers, past, 8, 8);
    await stack.client.workflow.getHandle(bookingWorkflowId(past)).terminate('history only');
    await stack.sql`update drivers set online = true, location_at = now() where id in ${stack.sql([ignores.id, answers.id])}`;

    const ref = await book('+447400123438');
    const card = await waitForJobCard(stack.sql, answers, ref, STACK_WAIT_MS);
    expect(card.body).toContain('New job');
    const [first] = await stack.sql<{ driver_id: string }[]>`
      select driver_id from offers where booking_ref = ${ref} order by offered_at, id limit 1`;
    expect(first?.driver_id).toBe(answers.id);

    // The decision log: the nearer driver is 0.4 km away but ranked as 2.1 km (0 of 8: rate 2 / 12),
    // the other 1.2 km away, ranked as 1.5 km (8 of 8: rate 10 / 12).
    const rows = await stack.sql<{ driver_id: string; distance_m: number; rank_m: number; answer_rate: number }[]>`
      select driver_id, distance_m, rank_m, answer_rate from dispatch_decisions
       where booking_ref = ${ref} and driver_id in ${stack.sql([ignores.id, answers.id])}`;
    const of = (d: TestDriver) => rows.find((r) => r.driver_id === d.id)!;
    expect(of(ignores).distance_m).toBeLessThan(of(answers).distance_m);
    expect(of(ignores).answer_rate).toBeCloseTo(2 / 12, 3);
    expect(of(answers).answer_rate).toBeCloseTo(10 / 12, 3);
    expect(of(ignores).rank_m).toBe(Math.round(of(ignores).distance_m + (10 / 12) * 2000));
    expect(of(answers).rank_m).toBe(Math.round(of(answers).distance_m + (2 / 12) * 2000));
    expect(of(answers).rank_m).toBeLessThan(of(ignores).rank_m);
  });
});
