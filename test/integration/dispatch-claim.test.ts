// The claim that keeps a driver to one job card at a time, against the real Postgres: many
// bookings racing for one driver, a retried claim, and a driver already on an overlapping job.
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createSql } from '../../src/db/sql.js';
import { claimOffer } from '../../src/dispatch/store.js';
import { offerId } from '../../workflows/bookings/definitions.js';
import { createDriver } from '../support/drivers.js';

const sql = createSql(inject('databaseUrl'), 12);
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

const claim = (ref: string, driverId: string) =>
  claimOffer(sql, { offerId: offerId(ref, 1, driverId), ref, driverId, round: 1, tier: 'local', expiresAt: new Date(Date.now() + 60_000).toISOString() });

describe('claiming a driver for a job card', () => {
  it('gives one driver to exactly one of ten bookings claiming at once; a retry of the winner is still its claim', async () => {
    const driver = await createDriver(sql, { lat: 58.59, lon: -3.52 });
    await sql`update drivers set online = false where id = ${driver.id}`; // never offered by another test's cascade
    const refs = await Promise.all(Array.from({ length: 10 }, () => booking()));

    const results = await Promise.all(refs.map((ref) => claim(ref, driver.id)));
    expect(results.filter((r) => r === 'claimed')).toHaveLength(1);
    expect(results.filter((r) => r === 'taken')).toHaveLength(9);
    const winner = refs[results.indexOf('claimed')]!;

    const offers = await sql<{ booking_ref: string; status: string }[]>`select booking_ref, status from offers where driver_id = ${driver.id}`;
    expect(offers).toEqual([{ booking_ref: winner, status: 'offered' }]);
    const statuses = await sql<{ ref: string; status: string }[]>`select ref, status from bookings where ref in ${sql(refs)}`;
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
});
