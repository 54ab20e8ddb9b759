// Issue 22: a sender's approved rate prices its own jobs; free-text vehicle names are read into a
// class and never refused (an unknown one keeps its words for the driver); a partner not allowed to
// book is refused on the v1 booking (spec 4.5). Penrith, Cumbria: no other file books there.
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/auth/api-keys.js';
import { createPartner } from '../../src/partners/store.js';
import { approveRateOverride } from '../../src/quotes/rate-overrides.js';
import { createDriver, takeDriversOffline, waitForJobCard, type TestDriver } from '../support/drivers.js';
import { startStack, type TestStack } from '../support/stack.js';

let stack: TestStack;
const created: TestDriver[] = [];
beforeAll(async () => {
  stack = await startStack({ OFFER_TIMEOUT_SECONDS: '30' });
});
afterEach(async () => takeDriversOffline(stack.sql, created.splice(0)));
afterAll(async () => stack?.close());

let n = 0;
const ip = () => `10.97.${Math.floor(n / 250) % 250}.${n++ % 250}`;
const BASE = Math.floor(Date.now() / 60_000) * 60_000 + 26 * 3600_000;
const tomorrow = (minutes = 0) => new Date(BASE + minutes * 60_000).toISOString();
const uniquePhone = () => `+4474002${String(10000 + Math.floor(Math.random() * 89999))}`;

async function newPartner(opts: { allowedToBook?: boolean } = {}) {
  const id = `r22-${randomUUID().slice(0, 8)}`;
  await createPartner(stack.sql, {
    id,
    name: `Partner ${id}`,
    kind: 'partner',
    ...(opts.allowedToBook === false ? { allowedToBook: false } : {}),
  });
  const { key } = await createApiKey(stack.sql, { name: id, partnerId: id });
  return { id, key };
}

const send = (p: { key: string }, payload: unknown) =>
  stack.app.inject({
    method: 'POST',
    url: '/api/public/v1/jobs',
    headers: { authorization: `Bearer ${p.key}`, 'content-type': 'application/json' },
    payload: JSON.stringify(payload),
    remoteAddress: ip(),
  });

const job = (jobRef: string, extra: object = {}) => ({
  jobRef,
  pickup: 'Penrith station',
  dropoff: 'Penrith',
  pickupTime: tomorrow(),
  passengerName: 'Ada Lovelace',
  ...extra,
});

async function booking(ref: string) {
  const [row] = await stack.sql<
    { fare_pence: number; fare_source: string; vehicle_type: string; passengers: number; notes: string | null }[]
  >`
    select fare_pence, fare_source, vehicle_type, passengers, notes from bookings where ref = ${ref}`;
  return row!;
}

const refOf = (res: { json: () => { results: { bookingReference: string; outcome: string; code: string }[] } }) => {
  const [r] = res.json().results;
  expect(r, JSON.stringify(r)).toMatchObject({ outcome: 'accepted' });
  return r!.bookingReference;
};

describe("a sender's approved rate", () => {
  it("prices the sender's own jobs, as it prices its key's quotes; an agreed fare still wins", async () => {
    const plain = await newPartner();
    const rated = await newPartner();
    // A minimum fare of 400 GBP: far above any tariff fare for a short ride in Penrith.
    await approveRateOverride(stack.sql, {
      scope: 'partner',
      subjectId: rated.id,
      adjustmentBasisPoints: 0,
      minimumFarePence: 40_000,
      approvedBy: 'test',
    });

    const tariffFare = (await booking(refOf(await send(plain, job('RATE-1'))))).fare_pence;
    expect(tariffFare).toBeLessThan(40_000);
    const ratedRow = await booking(refOf(await send(rated, job('RATE-1'))));
    expect(ratedRow).toMatchObject({ fare_pence: 40_000, fare_source: 'tariff' });

    // The same partner's key quotes at the same rate.
    const quote = await stack.app.inject({
      method: 'POST',
      url: '/api/public/v1/quote',
      headers: { authorization: `Bearer ${rated.key}` },
      payload: { pickup: 'Penrith station', dropoff: 'Penrith', departAt: tomorrow() },
      remoteAddress: ip(),
    });
    expect(quote.statusCode, quote.body).toBe(200);
    expect(JSON.stringify(quote.json())).toContain('rate_override');

    const agreed = await booking(refOf(await send(rated, job('RATE-2', { fare: 12.5 }))));
    expect(agreed).toMatchObject({ fare_pence: 1250, fare_source: 'partner' });
  });
});

describe('free-text vehicle types', () => {
  it('accepts "Estate car" on partner intake as an estate, and an unknown name as the group\'s class, its words on the job card', async () => {
    const p = await newPartner();
    const estate = await send(p, job('VEH-1', { vehicleType: 'Estate car' }));
    expect(estate.statusCode, estate.body).toBe(200);
    expect(await booking(refOf(estate))).toMatchObject({ vehicle_type: 'estate', notes: null });
    const eight = await send(p, job('VEH-2', { vehicleType: 'eight-seater', passengers: 3 }));
    expect(await booking(refOf(eight))).toMatchObject({ vehicle_type: 'mpv' });

    const d = await createDriver(stack.sql, {
      lat: 54.6618,
      lon: -2.758,
      homeArea: 'national-default',
      vehicleType: '6seater',
      seats: 6,
    });
    created.push(d);
    const odd = await send(
      p,
      job('VEH-3', {
        vehicleType: 'Landau with horses',
        passengers: 5,
        notes: 'Wedding party',
        pickupTime: new Date(Date.now() + 60_000).toISOString(),
      }),
    );
    expect(odd.statusCode, odd.body).toBe(200);
    const ref = refOf(odd);
    expect(await booking(ref)).toMatchObject({
      vehicle_type: '6seater',
      notes: 'Vehicle asked for: Landau with horses\nWedding party',
    });
    const card = await waitForJobCard(stack.sql, d, ref);
    expect(card.body).toContain('Vehicle asked for: Landau with horses');
  });

  it('books "Estate car" on the v1 booking (201), and an unknown name with its words kept', async () => {
    const post = (vehicleType: string) =>
      stack.app.inject({
        method: 'POST',
        url: '/api/public/v1/booking',
        payload: {
          pickup: 'Penrith station',
          dropoff: 'Penrith',
          departAt: tomorrow(30),
          passengerName: 'Mary Seacole',
          passengerEmail: `rider.${randomUUID().slice(0, 8)}@example.com`,
          passengerPhone: uniquePhone(),
          passengers: 2,
          vehicleType,
        },
        remoteAddress: ip(),
      });
    const estate = await post('Estate car');
    expect(estate.statusCode, estate.body).toBe(201);
    expect(await booking(estate.json().booking_reference)).toMatchObject({ vehicle_type: 'estate' });
    const odd = await post('Tuk-tuk');
    expect(odd.statusCode, odd.body).toBe(201);
    expect(await booking(odd.json().booking_reference)).toMatchObject({
      vehicle_type: 'saloon',
      notes: 'Vehicle asked for: Tuk-tuk',
    });
  });
});

describe('who may book', () => {
  it('refuses a partner not allowed to book with 403 on the v1 booking, both forms, and books for one that is', async () => {
    const refused = await newPartner({ allowedToBook: false });
    const allowed = await newPartner();
    const direct = () => ({
      pickup: 'Penrith station',
      dropoff: 'Penrith',
      departAt: tomorrow(60),
      passengerName: 'Mary Seacole',
      passengerEmail: `rider.${randomUUID().slice(0, 8)}@example.com`,
      passengerPhone: uniquePhone(),
    });
    const post = (key: string, payload: object, url = '/api/public/v1/booking') =>
      stack.app.inject({
        method: 'POST',
        url,
        headers: { authorization: `Bearer ${key}` },
        payload,
        remoteAddress: ip(),
      });

    const no = await post(refused.key, direct());
    expect(no.statusCode, no.body).toBe(403);
    expect(no.json().code).toBe('partner_not_allowed');
    const quote = await post(refused.key, { pickup: 'Penrith station', dropoff: 'Penrith' }, '/api/public/v1/quote');
    expect(quote.statusCode).toBe(200);
    const redeem = await post(
      refused.key,
      {
        quote_id: quote.json().quote_id,
        passenger_name: 'Mary Seacole',
        passenger_email: `rider.${randomUUID().slice(0, 8)}@example.com`,
        passenger_phone: uniquePhone(),
      },
      '/api/public/v1/bookings',
    );
    expect(redeem.statusCode).toBe(403);
    expect(redeem.json().code).toBe('partner_not_allowed');

    expect((await post(allowed.key, direct())).statusCode).toBe(201);
  });
});
