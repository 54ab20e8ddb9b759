// Amending and cancelling a partner job as a dispatcher would expect (issue 22, item 3), on the real
// stack: a time move is re-priced (or keeps the agreed fare sent with it) and re-times dispatch; a
// new pickup or drop-off is taken until the driver is on the way (re-priced, the driver told, the
// job dispatched again) and refused after; a cancelled job's own new sent again changes nothing,
// one with other details is a new booking; every amendment applied is an event the sender lists.
import { randomUUID } from 'node:crypto';
import { DateTime } from 'luxon';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/auth/api-keys.js';
import { PartnerEventSchema } from '../../src/schemas/partner-events.js';
import { createPartner } from '../../src/partners/store.js';
import { bookingStateQuery, bookingWorkflowId } from '../../workflows/bookings/definitions.js';
import {
  createDriver,
  respond,
  takeDriversOffline,
  waitForJobCard,
  waitForStatus,
  type JobCard,
  type TestDriver,
} from '../support/drivers.js';
import { eventually, STACK_WAIT_MS, startStack, type TestStack } from '../support/stack.js';

let stack: TestStack;
const drivers: TestDriver[] = [];
beforeAll(async () => {
  stack = await startStack({ OFFER_TIMEOUT_SECONDS: '60' });
});
afterEach(async () => takeDriversOffline(stack.sql, drivers.splice(0)));
afterAll(async () => stack?.close());

let n = 0;
const ip = () => `10.96.${Math.floor(n / 250) % 250}.${n++ % 250}`;

async function newPartner(): Promise<{ id: string; key: string }> {
  const id = `amj-${randomUUID().slice(0, 8)}`;
  await createPartner(stack.sql, { id, name: `Partner ${id}`, kind: 'partner', liveIntakeApproved: true });
  const { key } = await createApiKey(stack.sql, { name: id, partnerId: id });
  return { id, key };
}

type Partner = Awaited<ReturnType<typeof newPartner>>;
const send = async (p: Partner, job: object) => {
  const res = await stack.app.inject({
    method: 'POST',
    url: '/api/public/v1/jobs',
    remoteAddress: ip(),
    headers: { authorization: `Bearer ${p.key}`, 'content-type': 'application/json' },
    payload: JSON.stringify(job),
  });
  return res.json().results[0] as {
    outcome: string;
    code: string;
    message: string;
    bookingReference: string | null;
    bookingStatus: string | null;
  };
};
const job = (jobRef: string, pickupTime: string, extra: object = {}) => ({
  jobRef,
  pickup: 'Hexham station',
  dropoff: 'Hexham',
  pickupTime,
  passengerName: 'Ada Lovelace',
  passengerPhone: '+447400123456',
  ...extra,
});

async function booking(ref: string) {
  const [row] = await stack.sql<
    {
      status: string;
      fare_pence: number;
      fare_source: string;
      pickup_at: Date;
      dropoff: { label: string; lat: number; lon: number };
      pickup: { lat: number; lon: number };
    }[]
  >`
    select status, fare_pence, fare_source, pickup_at, dropoff, pickup from bookings where ref = ${ref}`;
  return row!;
}

const events = async (p: Partner, ref: string) => {
  const res = await stack.app.inject({
    method: 'GET',
    url: `/api/public/v1/partner/events?limit=200&bookingReference=${ref}`,
    headers: { authorization: `Bearer ${p.key}` },
    remoteAddress: ip(),
  });
  expect(res.statusCode).toBe(200);
  return res.json().events.map((e: { event: unknown }) => e.event) as {
    type: string;
    data: Record<string, unknown> & { changed?: string[] };
  }[];
};

/** The same London day, two days on: 14:00 and 23:30 there (a day rate and a night rate). */
const day = DateTime.now().setZone('Europe/London').plus({ days: 2 }).startOf('day');
const at1400 = day.set({ hour: 14 }).toUTC().toISO()!;
const at2330 = day.set({ hour: 23, minute: 30 }).toUTC().toISO()!;

describe('amending a partner job', () => {
  it('re-prices a move from 14:00 to 23:30 sent without a fare, keeps the agreed fare sent with one, re-times dispatch, and lists each amendment as an event', async () => {
    const p = await newPartner();
    const made = await send(p, job('T-1', at1400));
    expect(made).toMatchObject({ outcome: 'accepted', code: 'created' });
    const ref = made.bookingReference!;
    const dayFare = (await booking(ref)).fare_pence;
    // What the tariff asks for the same trip at 23:30: another job, priced as a new one is.
    const night = await send(p, job('T-NIGHT', at2330));
    const nightFare = (await booking(night.bookingReference!)).fare_pence;
    expect(nightFare).not.toBe(dayFare);

    const moved = await send(p, job('T-1', at2330, { action: 'amend' }));
    expect(moved).toMatchObject({
      outcome: 'accepted',
      code: 'amended',
      bookingReference: ref,
      bookingStatus: 'scheduled',
    });
    expect(moved.message).toContain(`£${(nightFare / 100).toFixed(2)}`);
    const row = await booking(ref);
    expect(row).toMatchObject({ fare_pence: nightFare, fare_source: 'tariff', status: 'scheduled' });
    expect(row.pickup_at.toISOString()).toBe(new Date(at2330).toISOString());
    // The workflow holds the same: the fare, and the pickup time its dispatch waits for.
    const state = await stack.client.workflow.getHandle(bookingWorkflowId(ref)).query(bookingStateQuery);
    expect(state).toMatchObject({
      status: 'scheduled',
      job: { pickupAt: new Date(at2330).toISOString() },
      fare: { farePence: nightFare, fareSource: 'tariff' },
    });

    // Back to 14:00 with an agreed fare: the fare sent is the fare, whatever the tariff says.
    const agreed = await send(p, job('T-1', at1400, { action: 'amend', fare: 42.5 }));
    expect(agreed).toMatchObject({ outcome: 'accepted', code: 'amended' });
    expect(await booking(ref)).toMatchObject({ fare_pence: 4250, fare_source: 'partner' });
    // And to 23:30 with the same agreed fare: kept.
    expect(await send(p, job('T-1', at2330, { action: 'amend', fare: 42.5 }))).toMatchObject({ code: 'amended' });
    expect(await booking(ref)).toMatchObject({ fare_pence: 4250, fare_source: 'partner' });
    // A retry of an amendment applied changes nothing.
    expect(await send(p, job('T-1', at2330, { action: 'amend', fare: 42.5 }))).toMatchObject({ code: 'duplicate' });
    // An amendment that does not mention the fare keeps the agreed one (not the tariff's).
    expect(await send(p, job('T-1', at1400, { action: 'amend', passengers: 2 }))).toMatchObject({ code: 'amended' });
    expect(await booking(ref)).toMatchObject({ fare_pence: 4250, fare_source: 'partner' });

    // Each amendment applied is an event, in the booking's own sequence with its status changes.
    const listed = await events(p, ref);
    for (const e of listed) expect(PartnerEventSchema.safeParse(e).success).toBe(true);
    const amended = listed.filter((e) => e.type === 'booking.amended');
    expect(amended).toHaveLength(4);
    expect(amended[0]!.data).toMatchObject({
      bookingReference: ref,
      jobRef: 'T-1',
      status: 'scheduled',
      pickupAt: new Date(at2330).toISOString(),
      changed: ['pickupAt', 'fare'],
      fare: nightFare / 100,
      previous: { pickupAt: new Date(at1400).toISOString(), fare: dayFare / 100 },
    });
    expect(amended[1]!.data).toMatchObject({ changed: ['pickupAt', 'fare'], fare: 42.5 });
    expect(amended[2]!.data).toMatchObject({ changed: ['pickupAt'], fare: 42.5 });
    expect(listed.map((e) => e.data.sequence)).toEqual(listed.map((_, i) => i + 1));
    // Status changes keep their shape.
    expect(listed.find((e) => e.type === 'booking.status_changed')!.data).toEqual({
      bookingReference: ref,
      jobRef: 'T-1',
      sequence: 1,
      status: 'scheduled',
      previousStatus: null,
      pickupAt: new Date(at1400).toISOString(),
      driver: null,
    });
  });

  it('moves the drop-off while a driver is assigned (re-priced, the driver told, dispatched again), and refuses a move once the driver is on the way', async () => {
    const p = await newPartner();
    const soon = (minutes: number) =>
      new Date(Math.floor(Date.now() / 60_000) * 60_000 + minutes * 60_000).toISOString();
    const t10 = soon(10);
    const made = await send(p, job('R-1', soon(180), { fare: 15 }));
    expect(made).toMatchObject({ outcome: 'accepted', code: 'created', bookingStatus: 'scheduled' });
    const ref = made.bookingReference!;
    const { pickup } = await booking(ref);
    const d = await createDriver(stack.sql, { lat: pickup.lat, lon: pickup.lon, homeArea: 'national-default' });
    drivers.push(d);

    // Brought forward into the dispatch window: dispatch starts at once.
    expect(await send(p, job('R-1', t10, { fare: 15, action: 'amend' }))).toMatchObject({ code: 'amended' });
    const first = await waitForJobCard(stack.sql, d, ref, STACK_WAIT_MS);
    expect((await respond(stack.app, first, 'accept')).statusCode).toBe(200);
    await waitForStatus(stack.sql, ref, 'assigned');

    // A new drop-off, without a fare: re-priced by the tariff, the driver told, dispatched again.
    const moved = await send(p, job('R-1', t10, { dropoff: 'Corbridge', action: 'amend' }));
    expect(moved).toMatchObject({ outcome: 'accepted', code: 'amended', bookingReference: ref });
    expect(moved.message).toContain('dispatched afresh');
    await eventually(
      async () => {
        const [m] =
          await stack.sql`select 1 from outbox where booking_ref = ${ref} and recipient = ${d.phone} and body like ${`Job ${ref} (%) was changed by the booker and has been withdrawn from you.%`}`;
        return m;
      },
      STACK_WAIT_MS,
      'the driver to be told',
    );
    const row = await booking(ref);
    expect(row.dropoff.label).toMatch(/Corbridge/);
    expect(row.fare_source).toBe('tariff');
    expect(row.fare_pence).not.toBe(1500);
    // (Offered again, the card comes by WhatsApp: a booking's card is texted to a phone once.)
    const second: JobCard = await eventually(
      async () => {
        const [row] = await stack.sql<{ body: string }[]>`
        select body from outbox where recipient = ${d.phone} and booking_ref = ${ref} and channel = 'whatsapp' and body like 'New job%' order by id desc limit 1`;
        const m = row ? /\/driver\/jobs\/([^?\s]+)\?t=([A-Za-z0-9_-]+)/.exec(row.body) : null;
        const card = m ? { offerId: decodeURIComponent(m[1]!), token: m[2]!, body: row!.body } : undefined;
        return card && card.offerId !== first.offerId ? card : undefined;
      },
      STACK_WAIT_MS,
      'a new job card',
    );
    expect(second.body).toMatch(/To: .*Corbridge/);
    expect((await respond(stack.app, second, 'accept')).statusCode).toBe(200);
    await waitForStatus(stack.sql, ref, 'assigned');

    // On the way: the places can no longer change, anything else still can.
    const trip = await stack.app.inject({
      method: 'POST',
      url: `/api/driver/offers/${encodeURIComponent(second.offerId)}/trip`,
      payload: { token: second.token, event: 'en_route' },
    });
    expect(trip.statusCode).toBe(202);
    const refused = await send(p, job('R-1', t10, { dropoff: 'Hexham', action: 'amend' }));
    expect(refused).toMatchObject({ outcome: 'rejected', code: 'amend_driver_on_the_way', bookingStatus: 'en_route' });
    expect(refused.message).toMatch(/driver is on the way/);
    expect((await booking(ref)).dropoff.label).toMatch(/Corbridge/);
    expect(
      await send(p, job('R-1', t10, { dropoff: 'Corbridge', action: 'amend', notes: 'Ring on arrival' })),
    ).toMatchObject({ code: 'amended' });

    const amended = (await events(p, ref)).filter((e) => e.type === 'booking.amended');
    expect(amended.map((e) => e.data.changed)).toEqual([['pickupAt'], ['dropoff', 'fare'], ['notes']]);
    expect(amended[1]!.data).toMatchObject({
      status: 'dispatching',
      previous: { dropoff: expect.stringMatching(/Hexham/) },
    });
  });
});

describe('a cancelled job reference sent again as new', () => {
  it('is already_cancelled when it is the same job, and a new booking when the details differ', async () => {
    const p = await newPartner();
    const made = await send(p, job('C-1', at1400));
    const ref = made.bookingReference!;
    expect(await send(p, job('C-1', at1400, { action: 'cancel' }))).toMatchObject({ code: 'cancelled' });

    const retry = await send(p, job('C-1', at1400));
    expect(retry).toMatchObject({
      outcome: 'accepted',
      code: 'already_cancelled',
      bookingReference: ref,
      bookingStatus: 'cancelled',
    });
    expect(retry.message).toMatch(/stays cancelled/);

    const again = await send(p, job('C-1', at1400, { passengers: 2 }));
    expect(again).toMatchObject({ outcome: 'accepted', code: 'rebooked' });
    expect(again.bookingReference).not.toBe(ref);
    expect(again.message).toContain(`${ref} stays cancelled`);
    expect((await booking(ref)).status).toBe('cancelled');
    // Retries of either new change nothing.
    expect(await send(p, job('C-1', at1400, { passengers: 2 }))).toMatchObject({
      code: 'duplicate',
      bookingReference: again.bookingReference,
    });
    expect(await send(p, job('C-1', at1400))).toMatchObject({ outcome: 'rejected', code: 'job_ref_conflict' });
    const rows = await stack.sql`select ref, status from bookings where partner_id = ${p.id} order by created_at`;
    expect(rows.map((r) => r.status)).toEqual(['cancelled', 'scheduled']);
  });
});
