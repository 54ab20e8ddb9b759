// The offer policy on the real stack (docs/dispatch.md "Offer policy"): a group offer's cards, the
// first by SMS and WhatsApp and the other by WhatsApp only (each SMS costs the driver 2p); a driver
// opening their card is recorded, and the booking reads it at the card's unseen cut, which gives it its
// full window; the first acceptance wins and the other driver is refused and told by WhatsApp, and the
// winner gets the card by SMS too. Nothing races the wall clock: a card stands an hour, the unseen cut
// is ten minutes, and the time-skipping server's clock passes the cut only when a test moves it.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { jobLinkToken } from '../../src/dispatch/job-link.js';
import { bookingStateQuery, bookingWorkflowId } from '../../workflows/bookings/definitions.js';
import { createDriver, signInDriver, takeDriversOffline, testMobile, type TestDriver } from '../support/drivers.js';
import { eventually, STACK_WAIT_MS, type TestStack } from '../support/stack.js';
import { startTimeSkippingStack, type TimeSkippingStack } from '../support/time-skipping-stack.js';

let skipping: TimeSkippingStack;
let stack: TestStack;
const created: TestDriver[] = [];
const refs: string[] = [];
beforeAll(async () => {
  skipping = await startTimeSkippingStack({
    OFFER_GROUP_SIZE: '2',
    OFFER_UNSEEN_SECONDS: '600',
    OFFER_TIMEOUT_SECONDS: '3600',
  });
  stack = skipping.stack;
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
afterAll(async () => skipping?.close());

const link = (offerId: string) =>
  `/driver/jobs/${encodeURIComponent(offerId)}?t=${jobLinkToken(stack.config.JOB_LINK_SECRET, offerId)}`;
const respond = (offerId: string, decision: 'accept' | 'decline') =>
  stack.app.inject({
    method: 'POST',
    url: `/api/driver/offers/${encodeURIComponent(offerId)}/respond`,
    payload: { decision, token: jobLinkToken(stack.config.JOB_LINK_SECRET, offerId) },
  });

describe('offer policy', () => {
  it('offers two drivers at once, texts only the first, records a card opened, and gives the job to the first to accept', async () => {
    // Kirkwall, Orkney: no other test's driver within any tier's reach.
    const near = await createDriver(stack.sql, { lat: 58.9815, lon: -2.9612, homeArea: 'national-default' });
    const next = await createDriver(stack.sql, { lat: 58.985, lon: -2.956, homeArea: 'national-default' });
    created.push(near, next);
    const res = await stack.app.inject({
      method: 'POST',
      url: '/api/public/bookings/instant',
      remoteAddress: '10.66.0.33',
      payload: {
        pickup_address: 'Kirkwall',
        dropoff_address: 'Kirkwall Orkney Ferry Terminal',
        passenger_name: 'Ada Lovelace',
        passenger_phone_whatsapp: '+447400123433',
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const ref = res.json<{ booking_reference: string }>().booking_reference;
    refs.push(ref);
    const booking = stack.client.workflow.getHandle(bookingWorkflowId(ref));

    const group = await eventually(
      async () => {
        const s = await booking.query(bookingStateQuery);
        return s.group?.length === 2 ? s.group : undefined;
      },
      STACK_WAIT_MS,
      'both cards out',
    );
    expect(group.map((o) => o.driverId)).toEqual([near.id, next.id]);
    const [nearOffer, nextOffer] = group.map((o) => o.offerId) as [string, string];
    const cards = await eventually(
      async () => {
        const rows = await stack.sql<{ recipient: string; channel: string }[]>`
        select recipient, channel from outbox where booking_ref = ${ref} and body like 'New job%' order by recipient, channel`;
        return rows.length === 3 ? rows : undefined;
      },
      STACK_WAIT_MS,
      'three job card messages',
    );
    expect(cards.filter((c) => c.channel === 'sms').map((c) => c.recipient)).toEqual([near.phone]);
    expect(
      cards
        .filter((c) => c.channel === 'whatsapp')
        .map((c) => c.recipient)
        .sort(),
    ).toEqual([near.phone, next.phone].sort());

    // The second driver opens their card: recorded at once, for the booking to read at the cut.
    expect((await stack.app.inject({ method: 'GET', url: link(nextOffer) })).statusCode).toBe(200);
    const [opened] = await stack.sql<{ seen_at: Date | null }[]>`select seen_at from offers where id = ${nextOffer}`;
    expect(opened?.seen_at).toBeInstanceOf(Date);

    const won = await respond(nextOffer, 'accept');
    expect(won.statusCode, won.body).toBe(200);
    const lost = await respond(nearOffer, 'accept');
    expect(lost.statusCode, lost.body).toBe(409);
    expect(lost.json<{ code: string }>().code).toBe('job_taken');
    const rows = await stack.sql<
      { id: string; status: string }[]
    >`select id, status from offers where booking_ref = ${ref} order by id`;
    expect(Object.fromEntries(rows.map((r) => [r.id, r.status]))).toEqual({
      [nearOffer]: 'withdrawn',
      [nextOffer]: 'accepted',
    });
    const [b] = await stack.sql<{ driver_id: string }[]>`select driver_id from bookings where ref = ${ref}`;
    expect(b?.driver_id).toBe(next.id);

    // The winner, who had the card by WhatsApp only, now has the won job's card by SMS too (spec 1);
    // WhatsApp is not sent twice.
    const winnerCards = await eventually(
      async () => {
        const r = await stack.sql<{ channel: string; body: string }[]>`
          select channel, body from outbox where booking_ref = ${ref} and recipient = ${next.phone}
             and body like ${`%job ${ref}%`} order by channel, id`;
        return r.some((m) => m.channel === 'sms') ? r : undefined;
      },
      STACK_WAIT_MS,
      'the winner texted',
    );
    expect(winnerCards.map((m) => [m.channel, m.body.split(':')[0]])).toEqual([
      ['sms', `Your job ${ref}`],
      ['whatsapp', `New job ${ref}`],
    ]);
    expect(winnerCards[0]!.body).toContain('You accepted it. Trip steps:');

    // The loser is told by WhatsApp, never SMS, and their card's page says so.
    const told = await eventually(
      async () => {
        const r = await stack.sql<
          { channel: string }[]
        >`select channel from outbox where booking_ref = ${ref} and recipient = ${near.phone} and body like '%taken by another driver%'`;
        return r.length > 0 ? r : undefined;
      },
      STACK_WAIT_MS,
      'the other driver told',
    );
    expect(told.map((t) => t.channel)).toEqual(['whatsapp']);
    expect((await stack.app.inject({ method: 'GET', url: link(nearOffer) })).body).toContain(
      'Another driver took this job.',
    );
  });

  it('counts a card the driver app shows on screen as opened, so a driver answering from the app keeps its full window', async () => {
    // Lerwick, Shetland: nobody else's driver is near.
    const d = await createDriver(stack.sql, {
      lat: 60.1546,
      lon: -1.1494,
      homeArea: 'national-default',
      phone: testMobile(),
    });
    created.push(d);
    const post = (url: string, payload: object) =>
      stack.app.inject({ method: 'POST', url, payload, remoteAddress: '10.66.0.34' });
    const token = await signInDriver(stack.app, stack.sql, d.phone, '10.66.0.34');

    const res = await post('/api/public/bookings/instant', {
      pickup_address: 'Lerwick',
      dropoff_address: 'Sumburgh Airport',
      passenger_name: 'Ada Lovelace',
      passenger_phone_whatsapp: '+447400123434',
    });
    expect(res.statusCode, res.body).toBe(200);
    const ref = res.json<{ booking_reference: string }>().booking_reference;
    refs.push(ref);
    const booking = stack.client.workflow.getHandle(bookingWorkflowId(ref));
    const [card] = await eventually(
      async () => {
        const s = await booking.query(bookingStateQuery);
        return s.group?.length === 1 ? s.group : undefined;
      },
      STACK_WAIT_MS,
      'the card out',
    );
    expect(card!.seen).toBeFalsy();

    // The app's feed shows the card: the booking hears it was seen, as from the card's own page.
    const feed = await stack.app.inject({
      method: 'GET',
      url: '/api/public/v1/jobs',
      remoteAddress: '10.66.0.34',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(feed.statusCode, feed.body).toBe(200);
    expect(feed.json<{ jobs: { offer_id: string; offer: string }[] }>().jobs).toEqual([
      expect.objectContaining({ offer_id: card!.offerId, offer: 'offered' }),
    ]);
    // Recorded at the first look (the booking reads it at the cut, so no card is too young to mark).
    const [first] = await stack.sql<{ seen_at: Date }[]>`select seen_at from offers where id = ${card!.offerId}`;
    expect(first?.seen_at).toBeInstanceOf(Date);
    // Later polls and a look at the card's page change nothing: the first look is the one kept.
    for (let i = 0; i < 3; i++) {
      expect(
        (
          await stack.app.inject({
            method: 'GET',
            url: '/api/public/v1/jobs',
            remoteAddress: '10.66.0.34',
            headers: { authorization: `Bearer ${token}` },
          })
        ).statusCode,
      ).toBe(200);
    }
    expect((await stack.app.inject({ method: 'GET', url: link(card!.offerId) })).statusCode).toBe(200);
    const [seen] = await stack.sql<{ seen_at: Date }[]>`select seen_at from offers where id = ${card!.offerId}`;
    expect(seen?.seen_at).toEqual(first?.seen_at);

    // The clock passes the ten-minute unseen cut: the booking reads the look and the card stands,
    // now with its full hour; no look cost the booking a message.
    await skipping.temporal.sleep(11 * 60_000);
    const after = await eventually(
      async () => {
        const s = await booking.query(bookingStateQuery);
        return s.group?.[0]?.seen ? s : undefined;
      },
      STACK_WAIT_MS,
      'the card read as opened at the cut',
    );
    expect(after.group?.map((o) => o.offerId)).toEqual([card!.offerId]);
    expect(after.candidates.filter((c) => c.driverId === d.id).map((c) => c.outcome)).toEqual(['offered']);
    const signalled = (await booking.fetchHistory()).events?.filter((e) => e.workflowExecutionSignaledEventAttributes);
    expect(signalled).toEqual([]);
  });

  it("tells a booking of 0.4.0's workflow by a signal that its card was opened, as that workflow expects", async () => {
    // Stornoway, Lewis: nobody else's driver is near.
    const d = await createDriver(stack.sql, { lat: 58.209, lon: -6.3849, homeArea: 'national-default' });
    created.push(d);
    const res = await stack.app.inject({
      method: 'POST',
      url: '/api/public/bookings/instant',
      remoteAddress: '10.66.0.35',
      payload: {
        pickup_address: 'Stornoway',
        dropoff_address: 'Stornoway Airport',
        passenger_name: 'Ada Lovelace',
        passenger_phone_whatsapp: '+447400123435',
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const ref = res.json<{ booking_reference: string }>().booking_reference;
    refs.push(ref);
    const booking = stack.client.workflow.getHandle(bookingWorkflowId(ref));
    const [card] = await eventually(
      async () => {
        const s = await booking.query(bookingStateQuery);
        return s.group?.length === 1 ? s.group : undefined;
      },
      STACK_WAIT_MS,
      'the card out',
    );
    // A record written before migration 00048, as 0.4.0's workflow left it; its card past the settling moment.
    await stack.sql`update bookings set workflow_type = null where ref = ${ref}`;
    await stack.sql`update offers set offered_at = offered_at - interval '1 minute' where id = ${card!.offerId}`;
    expect((await stack.app.inject({ method: 'GET', url: link(card!.offerId) })).statusCode).toBe(200);
    await eventually(
      async () => ((await booking.query(bookingStateQuery)).group?.[0]?.seen ? true : undefined),
      STACK_WAIT_MS,
      'the booking told by a signal',
    );
    const told = (await booking.fetchHistory()).events?.filter(
      (e) => e.workflowExecutionSignaledEventAttributes?.signalName === 'offerSeen',
    );
    expect(told).toHaveLength(1);
  });
});
