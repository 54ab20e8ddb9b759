// Test drivers and a driver's side of a job card: read the card from the outbox (where the embedded
// notifier records every message) and answer it through the real HTTP endpoint, as the app would.
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Sql } from '../../src/db/sql.js';
import { eventually, STACK_WAIT_MS } from './stack.js';
import { bookingHistory } from './workflow-history.js';

export interface TestDriver {
  id: string;
  phone: string;
}

export async function createDriver(
  sql: Sql,
  opts: {
    lat: number;
    lon: number;
    tier?: 'local' | 'national' | 'partner';
    homeArea?: string | null;
    vehicleType?: string;
    seats?: number;
    wheelchair?: boolean;
    name?: string;
    phone?: string;
  },
): Promise<TestDriver> {
  const id = `test-${randomUUID().slice(0, 8)}`;
  // A valid UK mobile: the sending policy texts nothing else (src/notify/served-numbers.ts).
  const phone = opts.phone ?? testMobile();
  await sql`
    insert into drivers (id, name, phone, tier, home_area, approved, vehicle_type, vehicle_description, plate, seats,
                         wheelchair_accessible, online, lat, lon, location_at)
    values (${id}, ${opts.name ?? `Driver ${id}`}, ${phone}, ${opts.tier ?? 'local'}, ${opts.homeArea ?? null}, true,
            ${opts.vehicleType ?? 'saloon'}, 'Skoda Octavia', ${`TS${id.slice(5, 10).toUpperCase()}`}, ${opts.seats ?? 4},
            ${opts.wheelchair ?? false}, true, ${opts.lat}, ${opts.lon}, now())`;
  return { id, phone };
}

/**
 * A UK mobile for a test driver who signs in or is texted by number (the sign-in refuses the drama
 * range createDriver uses). Test files share one database and a phone's codes and texts are
 * counted by number, so every file draws from one wide range (+44 74xx, all valid mobiles) at a
 * random start: two files overlapping is about as likely as two 20-number runs meeting in 10^8.
 */
let mobileCounter = Math.floor(Math.random() * 99_000_000);
export function testMobile(): string {
  return `+4474${String(mobileCounter++ % 100_000_000).padStart(8, '0')}`;
}

/** The latest six-digit code texted to this phone (a sign-in code unless told which message). */
export async function textedCode(sql: Sql, phone: string, like = '%sign-in code%'): Promise<string> {
  return eventually(
    async () => {
      const [m] = await sql<
        { body: string }[]
      >`select body from outbox where recipient = ${phone} and body like ${like} order by id desc limit 1`;
      return m ? /(\d{6})/.exec(m.body)?.[1] : undefined;
    },
    STACK_WAIT_MS,
    `the code texted to ${phone}`,
  );
}

/** The driver signs in to the app as a person does: asks for a code, reads the text, sends it back. Returns the app token. */
export async function signInDriver(
  app: FastifyInstance,
  sql: Sql,
  phone: string,
  remoteAddress = '10.131.2.1',
): Promise<string> {
  const post = (url: string, payload: object) => app.inject({ method: 'POST', url, payload, remoteAddress });
  const asked = await post('/api/driver/sign-in', { phone });
  if (asked.statusCode !== 202) throw new Error(`sign-in for ${phone} answered ${asked.statusCode}: ${asked.body}`);
  const verified = await post('/api/driver/sign-in/verify', { phone, code: await textedCode(sql, phone) });
  if (verified.statusCode !== 200)
    throw new Error(`sign-in code for ${phone} answered ${verified.statusCode}: ${verified.body}`);
  return verified.json<{ token: string }>().token;
}

export async function takeDriversOffline(sql: Sql, drivers: TestDriver[]): Promise<void> {
  if (drivers.length === 0) return;
  await sql`update drivers set online = false where id in ${sql(drivers.map((d) => d.id))}`;
}

export interface JobCard {
  offerId: string;
  token: string;
  body: string;
}

/** Waits for a job card (SMS) to this driver, optionally for one booking; a timeout says what happened instead. */
export async function waitForJobCard(
  sql: Sql,
  driver: TestDriver,
  ref?: string,
  timeoutMs = STACK_WAIT_MS,
): Promise<JobCard> {
  try {
    return await jobCardWithin(sql, driver, ref, timeoutMs);
  } catch (err) {
    throw new Error(`${(err as Error).message}: ${await whatHappened(sql, driver, ref)}`, { cause: err });
  }
}

/** The booking's row, its offers and what was texted to the driver: what a missing card went to. */
async function whatHappened(sql: Sql, driver: TestDriver, ref?: string): Promise<string> {
  const [booking] = ref ? await sql`select status, driver_id from bookings where ref = ${ref}` : [];
  const offers = ref
    ? await sql`select driver_id, status, round from offers where booking_ref = ${ref} order by id`
    : [];
  const [self] = await sql`select online, approved, status from drivers where id = ${driver.id}`;
  const texts =
    await sql`select booking_ref, channel, left(body, 40) as body from outbox where recipient = ${driver.phone} order by id`;
  const history = ref ? await bookingHistory(ref) : 'no booking named';
  return `${JSON.stringify({ booking: booking ?? null, offers, driver: self ?? null, texts })}; workflow: ${history}`;
}

/**
 * A booking's dispatch as the service recorded it (its row, offers and decision log) and as its
 * workflow ran it, for a wait on a driver's job list that runs out: which drivers were considered,
 * which skipped and why, and where the card went.
 */
export async function bookingTrail(sql: Sql, ref: string): Promise<string> {
  const [booking] = await sql`select status, driver_id from bookings where ref = ${ref}`;
  const offers = await sql`select driver_id, status, round, seen_at from offers where booking_ref = ${ref} order by id`;
  const decisions = await sql`
    select round, tier, driver_id, distance_m, eligible, skip_reason from dispatch_decisions
     where booking_ref = ${ref} order by decided_at`;
  const history = await bookingHistory(ref);
  return `${JSON.stringify({ booking: booking ?? null, offers, decisions })}; workflow: ${history}`;
}

async function jobCardWithin(
  sql: Sql,
  driver: TestDriver,
  ref: string | undefined,
  timeoutMs: number,
): Promise<JobCard> {
  return eventually(
    async () => {
      const rows = await sql<{ body: string }[]>`
        select body from outbox where recipient = ${driver.phone} and channel = 'sms' and body like 'New job%'
           and (${ref ?? null}::text is null or booking_ref = ${ref ?? null}) order by id desc limit 1`;
      const body = rows[0]?.body;
      const m = body ? /\/driver\/jobs\/([^?\s]+)\?t=([A-Za-z0-9_-]+)/.exec(body) : null;
      return m ? { offerId: decodeURIComponent(m[1]!), token: m[2]!, body: body! } : undefined;
    },
    timeoutMs,
    `a job card for ${driver.id}`,
  );
}

export function respond(app: FastifyInstance, card: JobCard, decision: 'accept' | 'decline') {
  return app.inject({
    method: 'POST',
    url: `/api/driver/offers/${encodeURIComponent(card.offerId)}/respond`,
    payload: { decision, token: card.token },
  });
}

export async function bookingRow(sql: Sql, ref: string) {
  const [row] = await sql<
    { status: string; driver_id: string | null }[]
  >`select status, driver_id from bookings where ref = ${ref}`;
  return row;
}

export async function waitForStatus(sql: Sql, ref: string, status: string, timeoutMs = STACK_WAIT_MS) {
  return eventually(
    async () => {
      const row = await bookingRow(sql, ref);
      return row?.status === status ? row : undefined;
    },
    timeoutMs,
    `booking ${ref} to be ${status}`,
  );
}
