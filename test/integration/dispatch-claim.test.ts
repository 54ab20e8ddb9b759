// The claim that keeps a driver to one job card at a time, against the real Postgres: many
// bookings racing for one driver, a retried claim, and a driver already on an overlapping job;
// and the table's timestamps, which must say the same as the lock did (issue 25).
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createSql } from '../../src/db/sql.js';
import { UNCLOSED_CARD_GRACE_MINUTES, claimOffer, closeOffer } from '../../src/dispatch/store.js';
import { offerId } from '../../src/model/bookings.js';
import { createDriver } from '../support/drivers.js';
import { eventually, STACK_WAIT_MS } from '../support/stack.js';
import { testDatabaseUrl } from '../support/shared-servers.js';

const sql = createSql(testDatabaseUrl(), 12);
afterAll(async () => sql.end({ timeout: 5 }));

/** A booking row picking up in an hour (Thurso: no other test dispatches there), optionally already a driver's. */
async function booking(o: { driverId?: string; status?: string; pickupInMinutes?: number } = {}): Promise<string> {
  const ref = `TX${randomUUID().replace(/-/g, '').slice(0, 10).toUpperCase()}`;
  const place = sql.json({ label: 'Thurso station', kind: 'place', lat: 58.59, lon: -3.52 });
  await sql`
    insert into bookings (ref, status, source, passenger_name, passenger_phone, payment_method, pickup_query, dropoff_query,
                          pickup, dropoff, pickup_area, pickup_at, passengers, vehicle_type, fare_pence, fare_source,
                          distance_m, duration_s, driver_id)
    values (${ref}, ${o.status ?? 'dispatching'}, 'agent_instant', 'Ada', '+447400123456', 'cash', 'a', 'b', ${place}, ${place},
            'national-default', now() + make_interval(mins => ${o.pickupInMinutes ?? 60}), 1, 'saloon', 2450, 'tariff', 5000, 900,
            ${o.driverId ?? null})`;
  return ref;
}

const claim = (ref: string, driverId: string, expiresInMs = 60_000) =>
  claimOffer(sql, {
    offerId: offerId(ref, 1, driverId),
    ref,
    driverId,
    round: 1,
    tier: 'local',
    expiresAt: new Date(Date.now() + expiresInMs).toISOString(),
  });

/** A driver no other test's cascade can offer anything (offline). */
async function quietDriver() {
  const driver = await createDriver(sql, { lat: 58.59, lon: -3.52 });
  await sql`update drivers set online = false where id = ${driver.id}`;
  return driver;
}

/**
 * Pairs of this driver's job cards open at once as the offers table tells it: open from offered_at
 * until answered, withdrawn or timed out (responded_at), or, never closed, its expiry plus
 * UNCLOSED_CARD_GRACE_MINUTES. The city bench's invariant (bench/city.ts, two_cards) is this.
 */
async function overlappingCards(driverId: string): Promise<{ a: string; b: string }[]> {
  return sql<{ a: string; b: string }[]>`
    with o as (select id, offered_at, coalesce(responded_at, expires_at + make_interval(mins => ${UNCLOSED_CARD_GRACE_MINUTES})) as until
                 from offers where driver_id = ${driverId})
    select a.id as a, b.id as b from o a join o b on a.id < b.id and a.offered_at < b.until and b.offered_at < a.until`;
}

describe('claiming a driver for a job card', () => {
  it('gives one driver to exactly one of ten bookings claiming at once; a retry of the winner is still its claim', async () => {
    const driver = await createDriver(sql, { lat: 58.59, lon: -3.52 });
    await sql`update drivers set online = false where id = ${driver.id}`; // never offered by another test's cascade
    const refs = await Promise.all(Array.from({ length: 10 }, () => booking()));

    const results = await Promise.all(refs.map((ref) => claim(ref, driver.id)));
    expect(results.filter((r) => r === 'claimed')).toHaveLength(1);
    expect(results.filter((r) => r === 'taken')).toHaveLength(9);
    const winner = refs[results.indexOf('claimed')]!;

    const offers = await sql<
      { booking_ref: string; status: string }[]
    >`select booking_ref, status from offers where driver_id = ${driver.id}`;
    expect(offers).toEqual([{ booking_ref: winner, status: 'offered' }]);
    const statuses = await sql<
      { ref: string; status: string }[]
    >`select ref, status from bookings where ref in ${sql(refs)}`;
    expect(statuses.filter((b) => b.status === 'offered').map((b) => b.ref)).toEqual([winner]);

    expect(await claim(winner, driver.id)).toBe('already_claimed');
    expect(await sql`select 1 from offers where driver_id = ${driver.id}`).toHaveLength(1);
  });

  it('refuses a driver whose assigned job overlaps this one, and takes one whose job is hours apart', async () => {
    const busy = await createDriver(sql, { lat: 58.59, lon: -3.52 });
    const later = await createDriver(sql, { lat: 58.59, lon: -3.52 });
    await sql`update drivers set online = false where id in ${sql([busy.id, later.id])}`;
    await booking({ driverId: busy.id, status: 'assigned', pickupInMinutes: 70 });
    await booking({ driverId: later.id, status: 'assigned', pickupInMinutes: 300 });

    const ref = await booking();
    expect(await claim(ref, busy.id)).toBe('taken');
    expect(await claim(ref, later.id)).toBe('claimed');
  });

  it('says so when the booking does not exist, rather than offering a job nobody can see', async () => {
    const driver = await createDriver(sql, { lat: 58.59, lon: -3.52 });
    await sql`update drivers set online = false where id = ${driver.id}`;
    await expect(claim('TXNOSUCH0001', driver.id)).rejects.toThrow(/not found/);
  });

  it('holds a driver whose card ran out but is not yet closed by its workflow (it may still take their accept), not one nobody closed for minutes', async () => {
    const driver = await quietDriver();
    const [first, second] = [await booking(), await booking()];
    // Its expiry passed a second ago; its workflow's timer, started once the card was sent, has not fired.
    expect(await claim(first, driver.id, -1000)).toBe('claimed');
    expect(await claim(second, driver.id)).toBe('taken');
    expect(await closeOffer(sql, offerId(first, 1, driver.id), 'timed_out')).toBe(true);
    expect(await claim(second, driver.id)).toBe('claimed');

    // A card left open well past its expiry (its workflow terminated) holds nobody for ever.
    const abandoned = await quietDriver();
    const [left, next] = [await booking(), await booking()];
    expect(await claim(left, abandoned.id, -(UNCLOSED_CARD_GRACE_MINUTES * 60_000 + 1000))).toBe('claimed');
    expect(await claim(next, abandoned.id)).toBe('claimed');
  });

  it('stamps a card once the driver is locked: a claim that waited while the last card closed is stamped after that close', async () => {
    const driver = await quietDriver();
    const [first, second] = [await booking(), await booking()];
    expect(await claim(first, driver.id)).toBe('claimed');

    // Something else holds the driver's row (a claim for a third booking, a suspension) while the
    // second booking's claim begins; meanwhile the driver declines the first card.
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    let holderPid = 0;
    const holder = sql.begin(async (tx) => {
      const [me] = await tx<{ pid: number }[]>`select pg_backend_pid() as pid`;
      holderPid = me!.pid;
      await tx`select 1 from drivers where id = ${driver.id} for update`;
      await released;
    });
    await eventually(async () => (holderPid ? true : undefined), STACK_WAIT_MS, 'the lock to be held');
    const waiting = claim(second, driver.id);
    await eventually(
      async () => {
        const [w] = await sql<
          { n: number }[]
        >`select count(*)::int as n from pg_stat_activity where ${holderPid}::int = any(pg_blocking_pids(pid))`;
        return w!.n > 0 ? true : undefined;
      },
      STACK_WAIT_MS,
      'the second claim to wait for the driver',
    );
    expect(await closeOffer(sql, offerId(first, 1, driver.id), 'declined')).toBe(true);
    release();
    await holder;
    expect(await waiting).toBe('claimed');

    const [firstCard, secondCard] = await Promise.all(
      [first, second].map(async (ref) => {
        const [o] = await sql<
          { offered_at: Date; responded_at: Date | null }[]
        >`select offered_at, responded_at from offers where id = ${offerId(ref, 1, driver.id)}`;
        return o!;
      }),
    );
    // The second card was open only after the first closed, and the table says so.
    expect(secondCard!.offered_at.getTime()).toBeGreaterThanOrEqual(firstCard!.responded_at!.getTime());
    expect(await overlappingCards(driver.id)).toEqual([]);
  });

  it('never gives one driver two open cards while many bookings race for them and their last card closes', async () => {
    const driver = await quietDriver();
    const ROUNDS = 12;
    const PER_ROUND = 6;
    let racing = true;
    // Read alongside the race, each read one snapshot: the driver's open cards at that instant.
    let mostOpen = 0;
    let samples = 0;
    const sampler = (async () => {
      while (racing) {
        const [r] = await sql<{ n: number }[]>`
          select count(*)::int as n from offers where driver_id = ${driver.id} and status = 'offered'`;
        mostOpen = Math.max(mostOpen, r!.n);
        samples++;
      }
    })();
    let open: string | null = null;
    let claimedRounds = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const refs = await Promise.all(Array.from({ length: PER_ROUND }, () => booking()));
      const closing = open;
      const [, ...results] = await Promise.all([
        // The card the driver holds is answered at the same moment as the next claims are made.
        closing ? closeOffer(sql, closing, round % 2 ? 'declined' : 'timed_out') : Promise.resolve(false),
        ...refs.map((ref) => claim(ref, driver.id)),
      ]);
      const won = results.flatMap((r, i) => (r === 'claimed' ? [refs[i]!] : []));
      expect(won.length).toBeLessThanOrEqual(1);
      if (!closing) expect(won).toHaveLength(1);
      if (won.length === 1) {
        claimedRounds++;
        open = offerId(won[0]!, 1, driver.id);
      } else if (closing) {
        open = null; // closed after every claim had looked: none got the driver this round
      }
    }
    racing = false;
    await sampler;

    expect(claimedRounds).toBeGreaterThan(1);
    expect(samples).toBeGreaterThan(0);
    expect(mostOpen).toBeLessThanOrEqual(1);
    expect(await overlappingCards(driver.id)).toEqual([]);
    const stillOpen = await sql`select 1 from offers where driver_id = ${driver.id} and status = 'offered'`;
    expect(stillOpen.length).toBeLessThanOrEqual(1);
  });
});
