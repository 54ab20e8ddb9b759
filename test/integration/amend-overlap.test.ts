// An amendment must never give a driver two jobs at once. A partner moves a later job of a driver
// onto an earlier one they also hold: the driver keeps the earlier job, is told the moved one is no
// longer theirs, and the moved job goes back to dispatch (found by reading the code for the
// simulated city, bench/city.ts, whose short pickups could not reach it).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/auth/api-keys.js';
import { createPartner } from '../../src/partners/store.js';
import {
  bookingRow,
  createDriver,
  respond,
  takeDriversOffline,
  waitForJobCard,
  waitForStatus,
  type TestDriver,
} from '../support/drivers.js';
import { eventually, STACK_WAIT_MS, startStack, type TestStack } from '../support/stack.js';

let stack: TestStack;
const drivers: TestDriver[] = [];
beforeAll(async () => {
  // Every job dispatches at once, however far ahead its pickup.
  stack = await startStack({ DISPATCH_LEAD_SECONDS: '86400', OFFER_TIMEOUT_SECONDS: '60' });
});
afterAll(async () => {
  if (!stack) return;
  await takeDriversOffline(stack.sql, drivers);
  await stack.close();
});

describe('an amendment that moves a job onto another of its driver’s jobs', () => {
  it('takes the moved job off the driver, who keeps the other, and dispatches it again', async () => {
    const partner = `amd-${randomUUID().slice(0, 8)}`;
    await createPartner(stack.sql, {
      id: partner,
      name: `Partner ${partner}`,
      kind: 'partner',
      liveIntakeApproved: true,
    });
    const { key } = await createApiKey(stack.sql, { name: partner, partnerId: partner });
    const send = (job: object) =>
      stack.app.inject({
        method: 'POST',
        url: '/api/public/v1/jobs',
        remoteAddress: '10.97.0.1',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        payload: JSON.stringify(job),
      });
    const at = (minutes: number) => new Date(Math.floor(Date.now() / 60_000) * 60_000 + minutes * 60_000).toISOString();
    const job = (jobRef: string, pickupTime: string, extra: object = {}) => ({
      jobRef,
      pickup: 'Hexham station',
      dropoff: 'Hexham',
      pickupTime,
      fare: 15,
      passengerName: 'Ada Lovelace',
      passengerPhone: '+447400123456',
      ...extra,
    });
    const d = await createDriver(stack.sql, { lat: 54.9735, lon: -2.0977, homeArea: 'national-default' });
    drivers.push(d);

    const take = async (jobRef: string, pickupTime: string) => {
      const res = await send(job(jobRef, pickupTime));
      expect(res.json().results[0]).toMatchObject({ outcome: 'accepted' });
      const ref = res.json().results[0].bookingReference as string;
      const card = await waitForJobCard(stack.sql, d, ref, STACK_WAIT_MS);
      expect((await respond(stack.app, card, 'accept')).statusCode).toBe(200);
      await waitForStatus(stack.sql, ref, 'assigned');
      return ref;
    };
    const early = await take('EARLY', at(60));
    const late = await take('LATE', at(240));

    const amended = await send(job('LATE', at(65), { action: 'amend' }));
    expect(amended.json().results[0]).toMatchObject({ outcome: 'accepted', code: 'amended' });

    // The driver is told, the moved job leaves them, and they keep the early one.
    await eventually(
      async () => {
        const [m] =
          await stack.sql`select 1 from outbox where booking_ref = ${late} and recipient = ${d.phone} and body like ${`Job ${late} is no longer yours%`}`;
        return m;
      },
      STACK_WAIT_MS,
      'the driver told the moved job is no longer theirs',
    );
    await eventually(
      async () => ((await bookingRow(stack.sql, late))?.driver_id === d.id ? undefined : true),
      STACK_WAIT_MS,
      'the moved job off the driver',
    );
    // Back in dispatch; the only driver near is busy with the early job, so nobody is offered it yet.
    await eventually(
      async () => {
        const row = await bookingRow(stack.sql, late);
        return row && ['dispatching', 'unassigned'].includes(row.status) ? row : undefined;
      },
      STACK_WAIT_MS,
      'the moved job dispatched again',
    );
    expect(await bookingRow(stack.sql, early)).toMatchObject({ status: 'assigned', driver_id: d.id });
    const [{ held }] = (await stack.sql`
      select count(*)::int as held from bookings where driver_id = ${d.id} and status in ('assigned', 'en_route', 'arrived', 'on_board')`) as unknown as [
      { held: number },
    ];
    expect(held).toBe(1);
  }, 120_000);
});
