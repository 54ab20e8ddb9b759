// A booking dispatches however many drivers are near its pickup: 20,000 online drivers around one
// station, and the booking still answers, the nearest driver gets the first job card, the
// workflow's history stays small, and every decision is in the Postgres decision log.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookingWorkflowId } from '../../workflows/bookings/definitions.js';
import { waitForJobCard } from '../support/drivers.js';
import { eventually, startStack, type TestStack } from '../support/stack.js';

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
    const q = await stack.app.inject({ method: 'POST', url: '/api/public/v1/quote', remoteAddress: '10.92.0.1', payload: { pickup: 'Kendal station', dropoff: 'Windermere' } });
    expect(q.statusCode).toBe(200);
    const { latitude: lat, longitude: lon } = q.json().pickup as { latitude: number; longitude: number };
    // Spread over ~12 km around the pickup, all within the local tier's reach; phones unique.
    await stack.sql`
      insert into drivers (id, name, phone, tier, home_area, approved, vehicle_type, vehicle_description, plate, seats, online, lat, lon, location_at)
      select ${prefix} || '-' || g, 'Scale driver ' || g, '+4477009' || lpad((g % 100000)::text, 5, '0'), 'local', 'national-default', true,
             'saloon', 'Skoda Octavia', 'SC' || g, 4, true,
             ${lat}::float8 + (0.001 + (g % 200) * 0.0005) * cos(g), ${lon}::float8 + (0.001 + (g % 200) * 0.0008) * sin(g), now()
        from generate_series(1, ${DRIVERS}) g`;

    const res = await stack.app.inject({
      method: 'POST',
      url: '/api/public/bookings/create',
      remoteAddress: '10.92.0.1',
      payload: { quote_id: q.json().quote_id, passenger_name: 'Ada Lovelace', passenger_phone_whatsapp: '+447400123459', payment_method: 'cash_to_driver' },
    });
    expect(res.statusCode).toBe(200);
    const ref = res.json().booking_reference as string;
    const offered = await eventually(async () => {
      const [o] = await stack.sql<{ driver_id: string }[]>`select driver_id from offers where booking_ref = ${ref}`;
      return o?.driver_id;
    }, 60_000, 'the first offer');
    const [nearest] = await stack.sql<{ driver_id: string; phone: string }[]>`
      select x.driver_id, d.phone from dispatch_decisions x join drivers d on d.id = x.driver_id
       where x.booking_ref = ${ref} and x.eligible order by x.distance_m, x.driver_id limit 1`;
    expect(offered).toBe(nearest!.driver_id);
    await waitForJobCard(stack.sql, { id: nearest!.driver_id, phone: nearest!.phone }, ref, 30_000);

    const handle = stack.client.workflow.getHandle(bookingWorkflowId(ref));
    const historyBytes = JSON.stringify((await handle.fetchHistory()).events).length;
    expect(historyBytes).toBeLessThan(100_000);
    const [{ logged }] = (await stack.sql`
      select count(*)::int as logged from dispatch_decisions where booking_ref = ${ref} and round = 1 and tier = 'local'`) as unknown as [{ logged: number }];
    expect(logged).toBeGreaterThanOrEqual(DRIVERS);
    await handle.terminate('test done');
  }, 180_000);
});
