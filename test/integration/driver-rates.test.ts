// Issue 24 item 7: a driver's approved own rate prices the jobs offered to them, end to end on the
// real stack. Staff approve rates through the ops API; a passenger books a quote; (a) a driver
// below the quoted fare is offered the job at their fare, takes it, and the booking, its lookups,
// the passenger's messages, payment and receipt all carry that fare; (b) a driver above it is
// passed over (the decision log says why) and the next driver is offered the quoted fare.
// Salisbury, Wiltshire: no other file books there. An offer stays open an hour: no test races it.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createStaff } from '../../src/auth/staff.js';
import { priceJourney } from '../../src/pricing/index.js';
import type { GeoLocation } from '../../src/geo/types.js';
import type { RateOverride, VehicleType } from '../../src/pricing/types.js';
import { bookingWorkflowId } from '../../workflows/bookings/definitions.js';
import {
  createDriver,
  respond,
  signInDriver,
  takeDriversOffline,
  testMobile,
  waitForJobCard,
  waitForStatus,
  type JobCard,
  type TestDriver,
} from '../support/drivers.js';
import { eventually, STACK_WAIT_MS, startStack, type TestStack } from '../support/stack.js';

let stack: TestStack;
let staffKey: string;
const created: TestDriver[] = [];
const refs: string[] = [];
beforeAll(async () => {
  stack = await startStack({ OFFER_TIMEOUT_SECONDS: '3600' });
  staffKey = (await createStaff(stack.sql, { name: 'Priya (ops)', role: 'operator' })).key;
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

const pounds = (pence: number) => `£${(pence / 100).toFixed(2)}`;

async function driverNear(lat: number, lon: number, name: string, phone?: string) {
  const d = await createDriver(stack.sql, {
    lat,
    lon,
    homeArea: 'national-default',
    name,
    ...(phone ? { phone } : {}),
  });
  created.push(d);
  return d;
}

/** Staff approve the driver's own rate through the ops API, as the console does. */
async function approveRate(driver: TestDriver, adjustmentBasisPoints: number): Promise<RateOverride> {
  const res = await stack.app.inject({
    method: 'POST',
    url: '/api/ops/rate-overrides',
    headers: { authorization: `Bearer ${staffKey}` },
    remoteAddress: '10.131.0.1',
    payload: {
      scope: 'driver',
      subject_id: driver.id,
      adjustment_basis_points: adjustmentBasisPoints,
      reason: 'agreed own rate for Salisbury work',
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  const o = res.json<{
    id: string;
    adjustment_basis_points: number;
    minimum_fare_pence: number | null;
    approved_by: string;
    approved_at: string;
  }>();
  return {
    id: o.id,
    scope: 'driver',
    subjectId: driver.id,
    adjustmentBasisPoints: o.adjustment_basis_points,
    minimumFarePence: o.minimum_fare_pence,
    approvedBy: o.approved_by,
    approvedAt: o.approved_at,
  };
}

let n = 0;
async function quoteAndBook(phone: string) {
  const ip = `10.131.1.${++n}`;
  const q = await stack.app.inject({
    method: 'POST',
    url: '/api/public/v1/quote',
    remoteAddress: ip,
    payload: { pickup: 'Salisbury station', dropoff: 'Salisbury' },
  });
  expect(q.statusCode, q.body).toBe(200);
  const res = await stack.app.inject({
    method: 'POST',
    url: '/api/public/bookings/create',
    remoteAddress: ip,
    payload: {
      quote_id: q.json().quote_id,
      passenger_name: 'Edith Cavell',
      passenger_phone_whatsapp: phone,
      passenger_email: 'edith.cavell@example.com',
      payment_method: 'cash_to_driver',
    },
  });
  expect(res.statusCode, res.body).toBe(200);
  const ref = res.json<{ booking_reference: string }>().booking_reference;
  refs.push(ref);
  return { ref, quoteId: q.json<{ quote_id: string }>().quote_id };
}

/**
 * What the quote itself would have come to at the driver's rate: the quote's own pricing path
 * (priceJourney, with the rate as an approved override) on the places and route the quote kept.
 */
async function quotedAtRate(quoteId: string, ref: string, rate: RateOverride | null): Promise<number> {
  const [q] = await stack.sql<
    {
      pickup: GeoLocation;
      dropoff: GeoLocation;
      distance_m: number;
      duration_s: number;
      vehicle_type: VehicleType;
      passengers: number;
      meet_and_greet: boolean;
      worldwide: boolean;
    }[]
  >`
    select pickup, dropoff, distance_m, duration_s, vehicle_type, passengers, meet_and_greet, worldwide from quotes where id = ${quoteId}`;
  const [b] = await stack.sql<{ pickup_at: Date }[]>`select pickup_at from bookings where ref = ${ref}`;
  return priceJourney({
    pickup: q!.pickup,
    dropoff: q!.dropoff,
    route: {
      distanceMeters: q!.distance_m,
      durationSeconds: q!.duration_s,
      straightLineMeters: 0,
      circuityFactor: 1,
      model: 'quote',
    },
    departAt: b!.pickup_at,
    vehicleType: q!.vehicle_type,
    passengers: q!.passengers,
    meetAndGreet: q!.meet_and_greet,
    worldwide: q!.worldwide,
    override: rate,
  }).totalPence;
}

/** The driver signs in to the app with the code texted to them. */
const signIn = (driver: TestDriver): Promise<string> => signInDriver(stack.app, stack.sql, driver.phone);

const told = (ref: string, prefix: string) =>
  eventually(
    async () => {
      const [row] = await stack.sql<{ body: string }[]>`
      select body from outbox where booking_ref = ${ref} and channel = 'sms' and idempotency_key like ${`${prefix}%`} order by id limit 1`;
      return row;
    },
    STACK_WAIT_MS,
    `the passenger's ${prefix} text`,
  );

const trip = (card: JobCard, event: string) =>
  stack.app.inject({
    method: 'POST',
    url: `/api/driver/offers/${encodeURIComponent(card.offerId)}/trip`,
    payload: { token: card.token, event },
  });

describe('a driver’s approved own rate', () => {
  it('offers the job to a driver below the quoted fare at their fare, which the booking, lookups, payment and receipt then carry', async () => {
    // A phone the sign-in accepts (the test fleet's drama-range numbers are refused there).
    const cheap = await driverNear(51.0706, -1.8063, 'Cheap Driver', testMobile());
    const rate = await approveRate(cheap, -1000);
    const { ref, quoteId } = await quoteAndBook('+44 7400 131001');

    const quoted = await quotedAtRate(quoteId, ref, null);
    const [booked] = await stack.sql<{ fare_pence: number }[]>`select fare_pence from bookings where ref = ${ref}`;
    expect(booked!.fare_pence).toBe(quoted);
    const own = await quotedAtRate(quoteId, ref, rate);
    expect(own).toBeLessThan(quoted);

    // The card (SMS and WhatsApp), and the page behind its link, offer the driver's fare.
    const card = await waitForJobCard(stack.sql, cheap, ref);
    expect(card.body).toContain(`Fare ${pounds(own)} paid to you (cash to driver), at your own approved rate`);
    const page = await stack.app.inject({
      method: 'GET',
      url: `/driver/jobs/${encodeURIComponent(card.offerId)}?t=${card.token}`,
    });
    expect(page.body).toContain(`<strong>${pounds(own)}</strong>`);
    expect(page.body).toContain('at your own approved rate');
    const [offer] = await stack.sql<
      { fare_pence: number; rate_override_id: string }[]
    >`select fare_pence, rate_override_id from offers where id = ${card.offerId}`;
    expect(offer).toEqual({ fare_pence: own, rate_override_id: rate.id });
    const log = await stack.app.inject({
      method: 'GET',
      url: `/api/ops/bookings/${ref}/decisions?driver_id=${cheap.id}`,
      headers: { authorization: `Bearer ${staffKey}` },
    });
    expect(log.json()).toMatchObject({
      decisions: [{ eligible: true, skip_reason: null }],
      offers: [{ driver_id: cheap.id, fare_pence: own }],
    });

    // The driver app, signed in, offers the same fare.
    const session = await signIn(cheap);
    const jobs = async () =>
      (
        await stack.app.inject({
          method: 'GET',
          url: '/api/public/v1/jobs',
          headers: { authorization: `Bearer ${session}` },
        })
      ).json<{ jobs: { booking_reference: string }[] }>().jobs;
    expect((await jobs()).find((j) => j.booking_reference === ref)).toMatchObject({
      offer: 'offered',
      fare_pence: own,
      own_rate: true,
    });

    expect((await respond(stack.app, card, 'accept')).statusCode).toBe(200);
    await waitForStatus(stack.sql, ref, 'assigned');
    const [row] = await stack.sql<{ fare_pence: number; quoted_fare_pence: number; driver_rate_override_id: string }[]>`
      select fare_pence, quoted_fare_pence, driver_rate_override_id from bookings where ref = ${ref}`;
    expect(row).toEqual({ fare_pence: own, quoted_fare_pence: quoted, driver_rate_override_id: rate.id });

    // The passenger is told the lower fare; every lookup reports it.
    expect((await told(ref, 'assigned:')).body).toContain(
      `Fare ${pounds(own)} at your driver's rate (quoted ${pounds(quoted)}).`,
    );
    const lookup = await stack.app.inject({
      method: 'GET',
      url: `/api/public/v1/booking/${ref}?email=edith.cavell@example.com`,
    });
    expect(lookup.json()).toMatchObject({ status: 'assigned', payment: { fare: own / 100 } });
    const status = await stack.app.inject({ method: 'GET', url: `/track/${ref}/status.json` });
    expect(status.json()).toMatchObject({
      fare: pounds(own),
      fare_note: `Your driver's own approved rate, below the ${pounds(quoted)} quoted.`,
    });
    const trackPage = await stack.app.inject({ method: 'GET', url: `/track/${ref}` });
    expect(trackPage.body).toContain(pounds(own));

    // Driven and paid: the payment defaults to the driver's fare, and the receipt says how it came about.
    for (const event of ['arrived', 'on_board', 'completed']) expect((await trip(card, event)).statusCode).toBe(202);
    await waitForStatus(stack.sql, ref, 'completed');
    const paid = await stack.app.inject({
      method: 'POST',
      url: `/api/driver/offers/${encodeURIComponent(card.offerId)}/payment`,
      payload: { token: card.token, method: 'cash' },
    });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json()).toMatchObject({ payment: { amount: own / 100 } });
    const receipt = await told(ref, `receipt:${ref}`);
    expect(receipt.body).toContain(`Fare ${pounds(own)}:`);
    expect(receipt.body).toContain(`Your driver's own approved rate (quoted ${pounds(quoted)})`);
    expect(receipt.body).toContain(`Paid ${pounds(own)} to the driver (cash)`);
    // The booking keeps how its fare was reached (issue 36): the emailed receipt shows the table,
    // its arithmetic and the distance and time, from the booking, not from today's tables.
    const [kept] = await stack.sql<{ fare_provenance: { tariff: { effectiveFrom: string }; distanceM: number } }[]>`
      select fare_provenance from bookings where ref = ${ref}`;
    expect(kept!.fare_provenance.distanceM).toBeGreaterThan(0);
    const emailed = await eventually(async () => {
      const [row] = await stack.sql<{ body: string }[]>`
        select body from outbox where booking_ref = ${ref} and channel = 'email' and idempotency_key like ${`receipt:${ref}%`}`;
      return row?.body;
    });
    expect(emailed).toContain(`table from ${kept!.fare_provenance.tariff.effectiveFrom}`);
    // The quote kept how its distance was found (here the estimate: no road router configured).
    expect(emailed).toMatch(/Priced for \d+\.\d miles and \d+ min, estimated from the straight-line distance\./);
    expect(emailed).toMatch(/meter £\d+\.\d{2} \+ \d+ x £0\.\d{2}/);
  });

  it('passes over a driver whose own fare is above the quote, saying why in the decision log, and offers the next driver the quoted fare', async () => {
    const pricey = await driverNear(51.0706, -1.8063, 'Pricey Driver');
    const plain = await driverNear(51.074, -1.8063, 'Plain Driver');
    const rate = await approveRate(pricey, 2000);
    const { ref, quoteId } = await quoteAndBook('+44 7400 131002');
    const quoted = await quotedAtRate(quoteId, ref, null);
    expect(await quotedAtRate(quoteId, ref, rate)).toBeGreaterThan(quoted);

    const card = await waitForJobCard(stack.sql, plain, ref);
    expect(card.body).toContain(`Fare ${pounds(quoted)} paid to you (cash to driver)\n`);
    const decisions = await stack.app.inject({
      method: 'GET',
      url: `/api/ops/bookings/${ref}/decisions?driver_id=${pricey.id}`,
      headers: { authorization: `Bearer ${staffKey}` },
    });
    expect(decisions.statusCode, decisions.body).toBe(200);
    expect(decisions.json()).toMatchObject({
      decisions: [{ driver_id: pricey.id, eligible: false, skip_reason: 'own_rate_above_fare' }],
      offers: [],
    });
    const cards = await stack.sql`select 1 from outbox where recipient = ${pricey.phone} and booking_ref = ${ref}`;
    expect(cards).toHaveLength(0);

    expect((await respond(stack.app, card, 'accept')).statusCode).toBe(200);
    await waitForStatus(stack.sql, ref, 'assigned');
    const [row] = await stack.sql<
      { fare_pence: number; quoted_fare_pence: number | null; driver_id: string }[]
    >`select fare_pence, quoted_fare_pence, driver_id from bookings where ref = ${ref}`;
    expect(row).toEqual({ fare_pence: quoted, quoted_fare_pence: quoted, driver_id: plain.id });
    const lookup = await stack.app.inject({
      method: 'GET',
      url: `/api/public/v1/booking/${ref}?email=edith.cavell@example.com`,
    });
    expect(lookup.json()).toMatchObject({ payment: { fare: quoted / 100 } });
    expect((await told(ref, 'assigned:')).body).not.toContain('quoted');
  });
});
