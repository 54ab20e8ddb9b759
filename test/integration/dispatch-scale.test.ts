// A booking dispatches however many drivers are near its pickup: 20,000 online drivers around one
// station, and the booking still answers, the nearest of all 20,000 gets the first job card, the
// workflow's history stays small, and the round considered (and logged) one window of the nearest
// drivers, not all of them.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CANDIDATE_WINDOW } from '../../activities/bookings/dispatch.js';
import { haversineMeters } from '../../src/geo/haversine.js';
import { bookingWorkflowId } from '../../workflows/bookings/definitions.js';
import { waitForJobCard } from '../support/drivers.js';
import { eventually, STACK_WAIT_MS, startStack, type TestStack } from '../support/stack.js';

const DRIVERS = 20_000;
let stack: TestStack;
const prefix = `scale-${randomUUID().slice(0, 8)}`;

beforeAll(async () => {
  stack = await startStack({ OFFER_TIMEOUT_SECONDS: '60' });
});
afterAll(async () => {
  if (!stack) return;
  // Offline, they can never be offered another test's job.
  await stack.sql`update drivers set online = false where id like ${`${prefix}-%`}`;
  await stack.close();
});

describe('dispatch at scale', () => {
  it(`dispatches a booking with ${DRIVERS.toLocaleString('en-GB')} drivers within reach of its pickup`, async () => {
    const q = await stack.app.inject({
      method: 'POST',
      url: '/api/public/v1/quote',
      remoteAddress: '10.92.0.1',
      payload: { pickup: 'Kendal station', dropoff: 'Windermere' },
    });
    expect(q.statusCode).toBe(200);
    const { latitude: lat, longitude: lon } = q.json().pickup as { latitude: number; longitude: number };
    // Spread over ~12 km around the pickup, all within the local tier's reach; phones unique.
    await stack.sql`
      insert into drivers (id, name, phone, tier, home_area, approved, vehicle_type, vehicle_description, plate, seats, online, lat, lon, location_at)
      select ${prefix} || '-' || g, 'Scale driver ' || g, '+44740' || lpad((g % 10000000)::text, 7, '0'), 'local', 'national-default', true,
             'saloon', 'Skoda Octavia', 'SC' || g, 4, true,
             ${lat}::float8 + (0.001 + (g % 200) * 0.0005) * cos(g), ${lon}::float8 + (0.001 + (g % 200) * 0.0008) * sin(g), now()
        from generate_series(1, ${DRIVERS}) g`;

    const res = await stack.app.inject({
      method: 'POST',
      url: '/api/public/bookings/create',
      remoteAddress: '10.92.0.1',
      payload: {
        quote_id: q.json().quote_id,
        passenger_name: 'Ada Lovelace',
        passenger_phone_whatsapp: '+447400123459',
        payment_method: 'cash_to_driver',
      },
    });
    expect(res.statusCode).toBe(200);
    const ref = res.json().booking_reference as string;
    const offered = await eventually(
      async () => {
        const [o] = await stack.sql<{ driver_id: string }[]>`select driver_id from offers where booking_ref = ${ref}`;
        return o?.driver_id;
      },
      60_000,
      'the first offer',
    );
    // The nearest of all 20,000 on the ground, to the metre, ties by id (the cascade's own order),
    // whatever the approximation the index orders its window by.
    const all = await stack.sql<{ id: string; phone: string; lat: number; lon: number }[]>`
      select id, phone, lat, lon from drivers where id like ${`${prefix}-%`}`;
    const metres = (d: { lat: number; lon: number }) => Math.round(haversineMeters(d.lat, d.lon, lat, lon));
    const nearest = all
      .map((d) => ({ driver_id: d.id, phone: d.phone, m: metres(d) }))
      .sort((a, b) => a.m - b.m || (a.driver_id < b.driver_id ? -1 : 1))[0];
    expect(offered).toBe(nearest!.driver_id);
    await waitForJobCard(stack.sql, { id: nearest!.driver_id, phone: nearest!.phone }, ref, STACK_WAIT_MS);

    const handle = stack.client.workflow.getHandle(bookingWorkflowId(ref));
    const historyBytes = JSON.stringify((await handle.fetchHistory()).events).length;
    expect(historyBytes).toBeLessThan(100_000);
    const [{ logged }] = (await stack.sql`
      select count(*)::int as logged from dispatch_decisions where booking_ref = ${ref} and round = 1 and tier = 'local'`) as unknown as [
      { logged: number },
    ];
    // Bounded: one window of the nearest, every one of them logged with its decision.
    expect(logged).toBe(CANDIDATE_WINDOW);
    await handle.terminate('test done');
  }, 180_000);
  it('looks past a window of drivers who cannot take the job, and is never crowded out by drivers off duty', async () => {
    const q = await stack.app.inject({
      method: 'POST',
      url: '/api/public/v1/quote',
      remoteAddress: '10.92.0.2',
      payload: { pickup: 'Penrith station', dropoff: 'Keswick', passengers: 3 },
    });
    expect(q.statusCode).toBe(200);
    const { latitude: lat, longitude: lon } = q.json().pickup as { latitude: number; longitude: number };
    const p2 = `${prefix}-w`;
    // Nearest: 5,000 off duty; then 250 online two-seaters (too few seats for three); then, furthest
    // out, the one driver who can take three.
    await stack.sql`
      insert into drivers (id, name, phone, tier, home_area, approved, vehicle_type, vehicle_description, plate, seats, online, lat, lon, location_at)
      select ${p2} || '-off-' || g, 'Off duty ' || g, '+4477018' || lpad(g::text, 5, '0'), 'local', 'national-default', true,
             'saloon', 'Skoda Octavia', 'OF' || g, 4, false, ${lat}::float8 + 0.0001 * cos(g), ${lon}::float8 + 0.0001 * sin(g), now()
        from generate_series(1, 5000) g`;
    await stack.sql`
      insert into drivers (id, name, phone, tier, home_area, approved, vehicle_type, vehicle_description, plate, seats, online, lat, lon, location_at)
      select ${p2} || '-two-' || g, 'Two seats ' || g, '+4477019' || lpad(g::text, 5, '0'), 'local', 'national-default', true,
             'saloon', 'Smart', 'TW' || g, 2, true, ${lat}::float8 + 0.002 * cos(g), ${lon}::float8 + 0.003 * sin(g), now()
        from generate_series(1, 250) g`;
    const [far] = await stack.sql<{ id: string; phone: string }[]>`
      insert into drivers (id, name, phone, tier, home_area, approved, vehicle_type, vehicle_description, plate, seats, online, lat, lon, location_at)
      values (${`${p2}-far`}, 'Far driver', '+447701999999', 'local', 'national-default', true, 'saloon', 'Skoda Octavia', 'FAR1', 4, true,
              ${lat + 0.02}, ${lon}, now())
      returning id, phone`;

    const res = await stack.app.inject({
      method: 'POST',
      url: '/api/public/bookings/create',
      remoteAddress: '10.92.0.2',
      payload: {
        quote_id: q.json().quote_id,
        passenger_name: 'Ada Lovelace',
        passenger_phone_whatsapp: '+447400123458',
        payment_method: 'cash_to_driver',
      },
    });
    expect(res.statusCode).toBe(200);
    const ref = res.json().booking_reference as string;
    await waitForJobCard(stack.sql, far!, ref, STACK_WAIT_MS);

    const logged = await stack.sql<{ skip_reason: string | null; n: number }[]>`
      select skip_reason, count(*)::int as n from dispatch_decisions where booking_ref = ${ref} and round = 1 and tier = 'local'
       group by skip_reason order by skip_reason nulls first`;
    // Three windows read, each twice the last (50, 100, then the last 101): every two-seater passed
    // over for its seats, the far driver eligible; no off-duty driver read at all.
    expect(logged).toEqual([
      { skip_reason: null, n: 1 },
      { skip_reason: 'too_few_seats', n: 250 },
    ]);
    await stack.client.workflow.getHandle(bookingWorkflowId(ref)).terminate('test done');
  }, 120_000);
});
