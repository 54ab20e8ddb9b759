// The upcoming-jobs board through HTTP on the real stack (issue 24, advance allocation): pre-booked
// jobs for tomorrow, listed only to the drivers who could take them (near enough, seats, a
// wheelchair-accessible car), the pickup shown by area until taken; two drivers claiming one job
// at once, exactly one gets it and the other is told it is taken (409); the winner's claim repeated
// answers the same job, which is theirs as an accepted offer is (the passenger is told who is coming).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaff } from '../../src/auth/staff.js';
import { createDriver, signInDriver, takeDriversOffline, testMobile, type TestDriver } from '../support/drivers.js';
import { eventually, STACK_WAIT_MS, startStack, type TestStack } from '../support/stack.js';

let stack: TestStack;
let staffKey: string;
const drivers: TestDriver[] = [];
beforeAll(async () => {
  // Jobs picked up tomorrow stay scheduled whatever the hour this runs at: only the airport lead
  // (3 hours) applies, not the evening-before rule for small-hours pickups.
  stack = await startStack({ ADVANCE_DISPATCH_HOURS: '3', EARLY_PICKUP_BEFORE_HOUR: '0' });
  staffKey = (await createStaff(stack.sql, { name: 'Oona (ops)', role: 'operator' })).key;
});
afterAll(async () => {
  await takeDriversOffline(stack?.sql, drivers);
  await stack?.close();
});

let n = 0;
const ip = () => `10.131.${Math.floor(n / 250) % 250}.${n++ % 250}`;
// Newcastle Central station, and somewhere far from it (Exeter).
const STATION = { lat: 54.9683, lon: -1.6174 };
const EXETER = { lat: 50.7295, lon: -3.5435 };
const tomorrow = () => new Date(Date.now() + 20 * 3600_000).toISOString();

function call(method: 'GET' | 'POST', url: string, bearer?: string) {
  return stack.app.inject({
    method,
    url,
    remoteAddress: ip(),
    headers: bearer ? { authorization: `Bearer ${bearer}` } : {},
  });
}

async function book(q: Record<string, unknown>, phone: string): Promise<string> {
  const quoted = await stack.app.inject({
    method: 'POST',
    url: '/api/public/v1/quote',
    remoteAddress: ip(),
    payload: { pickup: 'Newcastle Central station', dropoff: 'Newcastle Airport', departAt: tomorrow(), ...q },
  });
  expect(quoted.statusCode, quoted.body).toBe(200);
  const res = await stack.app.inject({
    method: 'POST',
    url: '/api/public/bookings/create',
    remoteAddress: ip(),
    payload: {
      quote_id: quoted.json().quote_id,
      passenger_name: 'Grace Darling',
      passenger_phone_whatsapp: phone,
      payment_method: 'cash_to_driver',
    },
  });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json().status).toBe('scheduled');
  return res.json().booking_reference;
}

async function driver(
  at: { lat: number; lon: number },
  o: { seats?: number; vehicleType?: string; wheelchair?: boolean; name: string },
) {
  // Newcastle has no council table of its own: its local drivers serve the national default area.
  const d = await createDriver(stack.sql, { ...at, homeArea: 'national-default', phone: testMobile(), ...o });
  drivers.push(d);
  return { ...d, token: await signInDriver(stack.app, stack.sql, d.phone, ip()) };
}

type Board = {
  jobs: {
    booking_reference: string;
    pickup_area: string;
    dropoff_area: string;
    pickup_time_london: string;
    fare_pence: number;
    own_rate: boolean;
    distance_miles: number;
  }[];
  more: boolean;
};
async function board(token: string): Promise<Board> {
  const res = await call('GET', '/api/driver/upcoming', token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Board>();
}
const refsOn = async (token: string) => (await board(token)).jobs.map((j) => j.booking_reference);

describe('the upcoming-jobs board', () => {
  it('lists a job only to drivers near enough with the seats and the car for it, and gives a job claimed by two at once to exactly one', async () => {
    const saloon = await book({}, '07400 123471');
    const group = await book({ passengers: 6, vehicle_type: '6seater' }, '07400 123472');
    const wheelchair = await book({ vehicle_type: 'wav' }, '07400 123473');

    const car = await driver(STATION, { name: 'Sid Saloon' });
    const seven = await driver(STATION, { name: 'Mo Seven', seats: 7, vehicleType: 'mpv' });
    const wav = await driver(STATION, { name: 'Wen Access', vehicleType: 'wav', wheelchair: true });
    const far = await driver(EXETER, { name: 'Ex Far' });

    // Each driver sees what they could drive, and nothing else.
    const carBoard = await refsOn(car.token);
    expect(carBoard).toContain(saloon);
    expect(carBoard).not.toContain(group);
    expect(carBoard).not.toContain(wheelchair);
    const sevenBoard = await refsOn(seven.token);
    expect(sevenBoard).toEqual(expect.arrayContaining([saloon, group]));
    expect(sevenBoard).not.toContain(wheelchair);
    const wavBoard = await refsOn(wav.token);
    expect(wavBoard).toContain(wheelchair);
    // A WAV, the usual hackney, takes a saloon job too (issue 35); not a group its seats do not fit.
    expect(wavBoard).toContain(saloon);
    expect(wavBoard).not.toContain(group);
    expect(await refsOn(far.token)).not.toContain(saloon);

    // Where and when, the fare and the distance; the station by name, never a passenger's details.
    const listed = (await board(car.token)).jobs.find((j) => j.booking_reference === saloon)!;
    expect(listed).toMatchObject({
      pickup_area: expect.stringContaining('Newcastle'),
      dropoff_area: expect.stringContaining('Airport'),
    });
    expect(listed.pickup_time_london).toMatch(/^\w{3} \d{1,2} \w{3}, \d{2}:\d{2}$/);
    expect(listed.fare_pence).toBeGreaterThan(0);
    expect(listed.distance_miles).toBeGreaterThan(1);
    expect(JSON.stringify(listed)).not.toMatch(/Grace|123471/);
    // A far driver is refused a job off their board, as plainly.
    const farClaim = await call('POST', `/api/driver/upcoming/${saloon}/claim`, far.token);
    expect(farClaim.statusCode).toBe(409);
    expect(farClaim.json()).toMatchObject({ code: 'not_on_your_board' });

    // Two drivers take the saloon job at the same moment: one has it, the other hears it is taken.
    const [a, b] = await Promise.all([
      call('POST', `/api/driver/upcoming/${saloon}/claim`, car.token),
      call('POST', `/api/driver/upcoming/${saloon}/claim`, seven.token),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    const [won, lost] = a.statusCode === 200 ? [a, b] : [b, a];
    const winner = a.statusCode === 200 ? car : seven;
    const loser = a.statusCode === 200 ? seven : car;
    expect(lost.json()).toMatchObject({ code: 'job_taken', detail: 'Another driver has already taken this job.' });
    const { offer_id: offerId } = won.json<{ offer_id: string }>();
    expect(won.json()).toEqual({ result: 'claimed', booking_reference: saloon, offer_id: offerId });

    // Theirs as an accepted offer is: assigned, in their feed with the passenger, the passenger told.
    const [row] = await stack.sql<{ status: string; driver_id: string; claimed: boolean }[]>`
      select b.status, b.driver_id, o.claimed_from_board as claimed from bookings b join offers o on o.id = ${offerId} where b.ref = ${saloon}`;
    expect(row).toEqual({ status: 'assigned', driver_id: winner.id, claimed: true });
    const feed = await call('GET', '/api/public/v1/jobs', winner.token);
    expect(feed.json().jobs).toEqual([
      expect.objectContaining({
        offer_id: offerId,
        booking_reference: saloon,
        offer: 'accepted',
        passenger: { name: 'Grace Darling', phone: '+447400123471' },
      }),
    ]);
    const told = await eventually(
      async () => {
        const [m] = await stack.sql<
          { body: string }[]
        >`select body from outbox where booking_ref = ${saloon} and recipient = '+447400123471' and idempotency_key like 'assigned:%'`;
        return m?.body;
      },
      STACK_WAIT_MS,
      'the passenger told',
    );
    expect(told).toContain(winner === car ? 'Sid' : 'Mo');
    // Ops see how the driver came to have it.
    const ops = await stack.app.inject({
      method: 'GET',
      url: `/api/ops/bookings/${saloon}`,
      remoteAddress: ip(),
      headers: { authorization: `Bearer ${staffKey}` },
    });
    expect(ops.statusCode, ops.body).toBe(200);
    expect(ops.json().offers).toEqual([
      expect.objectContaining({ id: offerId, driver_id: winner.id, status: 'accepted', claimed_from_board: true }),
    ]);

    // Claiming again answers the same job; the other driver is still refused, and no longer sees it.
    const again = await call('POST', `/api/driver/upcoming/${saloon}/claim`, winner.token);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ offer_id: offerId });
    const late = await call('POST', `/api/driver/upcoming/${saloon}/claim`, loser.token);
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({ code: 'job_taken' });
    expect(await refsOn(loser.token)).not.toContain(saloon);
    expect(await refsOn(winner.token)).not.toContain(saloon);

    // Only a booking reference is taken, and only from a signed-in driver.
    expect((await call('POST', '/api/driver/upcoming/not%01a-ref/claim', car.token)).statusCode).toBe(400);
    expect((await call('GET', '/api/driver/upcoming?page=0', car.token)).statusCode).toBe(400);
    expect((await call('GET', '/api/driver/upcoming')).statusCode).toBe(401);
  }, 120_000);

  it('shows a driver with their own approved rate each job at the fare taking it pays them, and the claim is at that fare', async () => {
    const ref = await book({}, '07400 123474');
    const [row] = await stack.sql<{ fare_pence: number }[]>`select fare_pence from bookings where ref = ${ref}`;
    const quoted = row!.fare_pence;
    const cheaper = await driver(STATION, { name: 'Cal Cheaper' });
    const plain = await driver(STATION, { name: 'Pat Plain' });
    // Staff approve 10 % below the tariff for Cal, through the ops API as the console does.
    const approved = await stack.app.inject({
      method: 'POST',
      url: '/api/ops/rate-overrides',
      remoteAddress: ip(),
      headers: { authorization: `Bearer ${staffKey}` },
      payload: {
        scope: 'driver',
        subject_id: cheaper.id,
        adjustment_basis_points: -1000,
        reason: 'agreed own rate for airport work',
      },
    });
    expect(approved.statusCode, approved.body).toBe(201);

    const seenByPlain = (await board(plain.token)).jobs.find((j) => j.booking_reference === ref)!;
    expect(seenByPlain).toMatchObject({ fare_pence: quoted, own_rate: false });
    const seenByCheaper = (await board(cheaper.token)).jobs.find((j) => j.booking_reference === ref)!;
    expect(seenByCheaper.own_rate).toBe(true);
    expect(seenByCheaper.fare_pence).toBeLessThan(quoted);

    const claimed = await call('POST', `/api/driver/upcoming/${ref}/claim`, cheaper.token);
    expect(claimed.statusCode, claimed.body).toBe(200);
    const [held] = await stack.sql<
      { fare_pence: number; driver_id: string }[]
    >`select fare_pence, driver_id from bookings where ref = ${ref}`;
    expect(held).toEqual({ fare_pence: seenByCheaper.fare_pence, driver_id: cheaper.id });
  }, 120_000);
});
