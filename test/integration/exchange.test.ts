// Jobs exchanged between fleets (Cab Exchange, docs/exchange.md), on two instances of the service
// on one machine: each its own Postgres database, task queue, HTTP port and worker process, and
// each registered as the other's partner and exchange fleet. A booking nobody on instance A takes
// goes to instance B's job intake; a driver of B accepts it in B's driver app and drives it; B's
// status fan-out comes back through A's booking-status hook and A's passenger page follows every
// step, across B being restarted mid-trip and A's worker crashing; a cancel on A cancels on B; redelivered and late events
// change nothing.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { freePort } from '../../dev/free-port.js';
import { createApiKey } from '../../src/auth/api-keys.js';
import { migrate } from '../../src/db/migrate.js';
import { createSql, type Sql } from '../../src/db/sql.js';
import { fleetsWithWebhookSecrets } from '../../src/exchange/store.js';
import { signPartnerBody, signPartnerRequest } from '../../src/partners/signature.js';
import { createPartner } from '../../src/partners/store.js';
import { createStaff } from '../../src/auth/staff.js';
import { PHONE_VIEWPORT } from '../support/axe.js';
import { createDriver, type TestDriver } from '../support/drivers.js';
import {
  killAllWorkerProcesses,
  startApiOnly,
  startWorkerProcess,
  type ApiOnlyStack,
  type WorkerProcess,
} from '../support/processes.js';
import { eventually } from '../support/stack.js';
import { createTestDatabase } from '../support/shared-servers.js';
import { launchChromium } from '../support/browser-stack.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
// The suite shares two cores with everything else: generous deadlines, never fixed sleeps.
const DEADLINE_MS = 45_000;
const HOOK = '/api/public/hooks/booking-status';
// Manchester Piccadilly: where B's driver waits, and A has nobody.
const PICCADILLY = { lat: 53.4774, lon: -2.2309 };

interface Instance {
  name: string;
  /** Its partner id on the other instance. */
  partnerIdThere: string;
  port: number;
  url: string;
  databaseUrl: string;
  taskQueue: string;
  api: ApiOnlyStack;
  worker: WorkerProcess;
  sql: Sql;
}

async function createDatabase(name: string): Promise<string> {
  const url = new URL(await createTestDatabase(name));
  const sql = createSql(url.toString(), 2);
  await migrate(sql);
  await sql.end();
  return url.toString();
}

/** An instance's API (listening on its port) and its worker process, as `npm start` runs them. */
async function startInstance(
  i: Pick<Instance, 'name' | 'partnerIdThere' | 'port' | 'databaseUrl'> & { taskQueue?: string },
): Promise<Instance> {
  const url = `http://127.0.0.1:${i.port}`;
  const api = await startApiOnly({
    env: {
      DATABASE_URL: i.databaseUrl,
      PUBLIC_BASE_URL: url,
      // A driver of B has time to answer; an exhausted round on A is tried again soon.
      OFFER_TIMEOUT_SECONDS: '600',
      DISPATCH_RETRY_BASE_SECONDS: '5',
      LOOKUP_RATE_LIMIT_PER_MINUTE: '10000',
      PARTNER_RATE_LIMIT_PER_MINUTE: '10000',
      ...(i.taskQueue ? { TEMPORAL_TASK_QUEUE: i.taskQueue } : {}),
    },
  });
  await api.app.listen({ port: i.port, host: '127.0.0.1' });
  const worker = await startWorkerProcess(api.workerEnv);
  return { ...i, url, taskQueue: api.workerEnv.TEMPORAL_TASK_QUEUE!, api, worker, sql: api.sql };
}

/** Stops both processes of an instance (the worker killed outright, as a crash would). */
async function stopInstance(i: Instance): Promise<void> {
  await i.worker.crash();
  await i.api.close();
}

/** `npm run exchange:register` (or another script) as the docs write it, the script itself without npm's wrapper. */
async function runScript(
  env: Record<string, string>,
  args: string[],
  script = 'scripts/register-exchange-fleet.ts',
): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, script), ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (out += c.toString('utf8')));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`${script} exited ${code}:\n${out}`);
  return out;
}

/**
 * `from` registers `to` as its exchange fleet, as docs/exchange.md has each side do it: the fleet
 * and our partner record of it in one run, which prints, when it made the partner record, the
 * signing secret `to` registers `from` with (kept here as the other side would keep it); and with
 * `to`'s own credentials for `from` once `to` has printed them.
 */
async function register(from: Instance, to: Instance, withCredentials: boolean): Promise<string> {
  const args = ['--id', to.partnerIdThere, '--name', `Instance ${to.name}`, '--base-url', to.url];
  if (withCredentials) args.push('--partner-id', from.partnerIdThere, '--secret', secretOf(to, from.partnerIdThere));
  const out = await runScript(
    {
      DATABASE_URL: from.databaseUrl,
      PARTNER_SECRETS_KEY: from.api.config.PARTNER_SECRETS_KEY,
      PUBLIC_BASE_URL: from.url,
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
    },
    args,
  );
  expect(out).toContain(`Exchange fleet ${to.partnerIdThere}`);
  const printed = /--partner-id (\S+) --secret (\S+)/.exec(out);
  if (printed) {
    expect(printed[1]).toBe(to.partnerIdThere);
    secrets.set(`${from.name}:${to.partnerIdThere}`, printed[2]!);
  }
  return out;
}

/** The day `days` from today (UTC), YYYY-MM-DD. */
const dayFromNow = (days: number) => new Date(Date.now() + days * 24 * 3600_000).toISOString().slice(0, 10);

/**
 * `from` puts `to`'s operator licence on file, as docs/records.md has staff do before a fleet is
 * handed any job (`npm run operator-licence:record`); run again with another expiry, it moves it.
 */
async function licenceOnFile(from: Instance, to: Instance, expires: string): Promise<string> {
  const out = await runScript(
    { DATABASE_URL: from.databaseUrl, NODE_ENV: 'test', LOG_LEVEL: 'silent' },
    [
      ...['--fleet', to.partnerIdThere, '--exchange', '--authority', 'Manchester City Council'],
      ...['--number', `PHO-${to.name}`, '--expires', expires, '--by', 'Priya (ops)'],
    ],
    'scripts/record-operator-licence.ts',
  );
  expect(out).toContain(`Manchester City Council private hire PHO-${to.name}, valid to ${expires}`);
  return out;
}

let a: Instance;
let b: Instance;
const secrets = new Map<string, string>();
const suffix = randomUUID().slice(0, 8).replace(/-/g, '');

beforeAll(async () => {
  const [dbA, dbB] = await Promise.all([createDatabase(`taxi_xa_${suffix}`), createDatabase(`taxi_xb_${suffix}`)]);
  const [portA, portB] = [await freePort(), await freePort()];
  a = await startInstance({ name: 'A', partnerIdThere: `inst-a-${suffix}`, port: portA, databaseUrl: dbA });
  b = await startInstance({ name: 'B', partnerIdThere: `inst-b-${suffix}`, port: portB, databaseUrl: dbB });
  // As docs/exchange.md has it: A registers B (and its partner record of B), offering it nothing
  // yet, and prints what B needs; B registers A with that, and prints what A needs; A runs again with it.
  const first = await register(a, b, false);
  expect(first).toContain('offered nothing until');
  await register(b, a, true);
  const third = await register(a, b, true);
  expect(third).not.toContain('--secret');
  // Each side's fleet is linked to its partner record of the other (one hop, whatever the job says).
  expect(await a.sql`select partner_id from exchange_fleets`).toEqual([{ partner_id: b.partnerIdThere }]);
  expect(await b.sql`select partner_id from exchange_fleets`).toEqual([{ partner_id: a.partnerIdThere }]);
  // Neither hands the other a job until its operator licence is on file (docs/records.md).
  await licenceOnFile(a, b, dayFromNow(365));
  await licenceOnFile(b, a, dayFromNow(365));
}, 240_000);

afterAll(async () => {
  await killAllWorkerProcesses();
  await a?.api.close().catch(() => {});
  await b?.api.close().catch(() => {});
});

const explain = () =>
  onTestFailed(async () => {
    console.log('A exchange_jobs', await a.sql`select * from exchange_jobs`);
    console.log('A bookings', await a.sql`select ref, status from bookings`);
    console.log(
      'B bookings',
      await b.sql`select ref, status, partner_job_ref, pickup_area, vehicle_type, passengers from bookings`,
    );
    console.log('B decisions', await b.sql`select * from dispatch_decisions`);
    console.log(
      'B drivers',
      await b.sql`select id, online, approved, tier, lat, lon, location_at, home_area, status from drivers`,
    );
    console.log('A worker', a.worker.output().slice(-4000));
    console.log('B worker', b.worker.output().slice(-4000));
  });

let n = 0;
const ip = () => `10.95.${Math.floor(n / 250) % 250}.${n++ % 250}`;

async function call(i: Instance, method: 'GET' | 'POST', url: string, o: { body?: unknown; bearer?: string } = {}) {
  const res = await fetch(`${i.url}${url}`, {
    method,
    headers: {
      ...(o.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(o.bearer ? { authorization: `Bearer ${o.bearer}` } : {}),
    },
    ...(o.body === undefined ? {} : { body: JSON.stringify(o.body) }),
  });
  const text = await res.text();
  return { status: res.status, text, json: <T = Record<string, unknown>>() => JSON.parse(text) as T };
}

async function bookOnA(): Promise<{ ref: string; token: string }> {
  const res = await a.api.app.inject({
    method: 'POST',
    url: '/api/public/bookings/instant',
    remoteAddress: ip(),
    payload: {
      pickup_address: 'Manchester Piccadilly',
      dropoff_address: 'Manchester Airport',
      passenger_name: 'Ada Lovelace',
      // A phone of its own per booking: the same trip for the same passenger is one booking.
      passenger_phone_whatsapp: `+44 7400 ${String(100000 + ((Date.now() + n++) % 899_999))}`,
      passenger_count: 2,
    },
  });
  expect(res.statusCode, res.body).toBeLessThan(300);
  const body = res.json<{ booking_reference: string; manage_token: string }>();
  return { ref: body.booking_reference, token: body.manage_token };
}

interface TrackStatus {
  status: string;
  driver: { name: string; vehicle: string; plate: string } | null;
  provided_by: string | null;
}
/** A's passenger page (what its tracking page polls) until it shows `status`. */
const passengerSees = (ref: string, status: string) =>
  eventually(
    async () => {
      const res = await call(a, 'GET', `/track/${ref}/status.json`);
      const t = res.status === 200 ? res.json<TrackStatus>() : null;
      return t?.status === status ? t : undefined;
    },
    DEADLINE_MS,
    `A's passenger page of ${ref} to show ${status}`,
  );

/** B's own booking of A's job (its jobRef is A's reference). */
const bookingOnB = (refA: string, status?: string) =>
  eventually(
    async () => {
      const [row] = await b.sql<
        { ref: string; status: string }[]
      >`select ref, status from bookings where partner_job_ref = ${refA} and partner_id = ${a.partnerIdThere}`;
      return row && (!status || row.status === status) ? row : undefined;
    },
    DEADLINE_MS,
    `B's booking of ${refA}${status ? ` to be ${status}` : ''}`,
  );

async function signInOnB(driver: TestDriver): Promise<string> {
  const asked = await call(b, 'POST', '/api/driver/sign-in', { body: { phone: driver.phone } });
  expect(asked.status, asked.text).toBe(202);
  const code = await eventually(
    async () => {
      const [m] = await b.sql<
        { body: string }[]
      >`select body from outbox where recipient = ${driver.phone} and body like '%sign-in code%' order by id desc limit 1`;
      return m ? /(\d{6})/.exec(m.body)?.[1] : undefined;
    },
    DEADLINE_MS,
    'the sign-in code',
  );
  const verified = await call(b, 'POST', '/api/driver/sign-in/verify', { body: { phone: driver.phone, code } });
  expect(verified.status, verified.text).toBe(200);
  return verified.json<{ token: string }>().token;
}

/** The offer of B's booking in the driver's feed (the driver app's GET /api/public/v1/jobs). */
const offerInFeed = (token: string, refB: string) =>
  eventually(
    async () => {
      const res = await call(b, 'GET', '/api/public/v1/jobs', { bearer: token });
      if (res.status !== 200) return undefined;
      const job = res
        .json<{ jobs: { offer_id: string; booking_reference: string; offer: string }[] }>()
        .jobs.find((j) => j.booking_reference === refB);
      return job ?? undefined;
    },
    DEADLINE_MS,
    `an offer of ${refB} in the driver's feed`,
  );

async function trip(token: string, offerId: string, event: string) {
  const res = await call(b, 'POST', `/api/driver/jobs/${encodeURIComponent(offerId)}/trip`, {
    body: { event },
    bearer: token,
  });
  expect(res.status, res.text).toBe(202);
}

let driver: TestDriver;
let token: string;

/** The database's clock, to count what each instance booked from now on. */
const dbNow = async (i: Instance) => (await i.sql<{ now: Date }[]>`select clock_timestamp() as now`)[0]!.now;
const bookedSince = async (i: Instance, since: Date) =>
  i.sql<{ ref: string; partner_id: string | null; partner_job_ref: string | null; exchange_origin: string | null }[]>`
    select ref, partner_id, partner_job_ref, exchange_origin from bookings where created_at >= ${since} order by created_at`;
/** The rounds B ran for its booking and found nobody (each alerts ops once): each asked for a fleet to hand the job to. */
const roundsExhaustedOnB = async (refB: string) =>
  (
    await b.sql<
      { n: number }[]
    >`select count(*)::int as n from outbox where idempotency_key like ${`ops:unassigned:${refB}:%`}`
  )[0]!.n;

/**
 * A booking nobody on either instance takes: A hands it to B, B finds nobody round after round,
 * and it is booked once on A and once on B, never handed back (one hop). Cancelled on A after.
 */
async function nobodyTakesIt(): Promise<void> {
  const since = { a: await dbNow(a), b: await dbNow(b) };
  const { ref, token: manage } = await bookOnA();
  const onB = await bookingOnB(ref);
  // B's round found nobody (ops are alerted only once it asked for a fleet and got none: a job due
  // now has that one round, then waits out its grace), or the job was handed on from B (what used
  // to happen, there and back again): whichever comes first.
  await eventually(
    async () =>
      (await roundsExhaustedOnB(onB.ref)) >= 1 || (await bookedSince(a, since.a)).length > 1 ? true : undefined,
    90_000,
    `a round of ${onB.ref} exhausted on B`,
  );
  expect((await bookedSince(a, since.a)).map((r) => r.ref)).toEqual([ref]);
  expect(await bookedSince(b, since.b)).toEqual([
    { ref: onB.ref, partner_id: a.partnerIdThere, partner_job_ref: ref, exchange_origin: 'handed_over' },
  ]);
  expect(await b.sql`select 1 from exchange_jobs where booking_ref = ${onB.ref}`).toHaveLength(0);
  const cancelled = await a.api.app.inject({
    method: 'POST',
    url: `/api/public/v1/booking/${ref}`,
    remoteAddress: ip(),
    payload: { action: 'cancel', token: manage, reason: 'nobody' },
  });
  expect(cancelled.statusCode, cancelled.body).toBe(200);
  await bookingOnB(ref, 'cancelled');
}

describe('jobs exchanged between two instances', () => {
  it('a job nobody takes on either instance is booked once on each, registered the docs’ way and with neither fleet linked to its partner record', async () => {
    explain();
    // Nobody on B either (a driver of an earlier test, when run after it, is taken off line for this).
    const online = await b.sql<{ id: string }[]>`update drivers set online = false where online returning id`;
    try {
      await nobodyTakesIt();
      // A registration that never linked the fleet to its partner record (what the docs' example
      // made when the ids differed): the job's own origin keeps it to one hop all the same.
      const links = {
        a: await a.sql<{ id: string; partner_id: string }[]>`select id, partner_id from exchange_fleets`,
        b: await b.sql<{ id: string; partner_id: string }[]>`select id, partner_id from exchange_fleets`,
      };
      await a.sql`update exchange_fleets set partner_id = null`;
      await b.sql`update exchange_fleets set partner_id = null`;
      try {
        await nobodyTakesIt();
      } finally {
        for (const l of links.a)
          await a.sql`update exchange_fleets set partner_id = ${l.partner_id} where id = ${l.id}`;
        for (const l of links.b)
          await b.sql`update exchange_fleets set partner_id = ${l.partner_id} where id = ${l.id}`;
      }

      // A fleet that does not say its job was handed over (another implementation of the API): its
      // partner record's link to the fleet is the job's origin, and B hands it on to nobody.
      const since = await dbNow(a);
      const jobRef = `PLAIN-${suffix}`;
      const job = JSON.stringify({
        jobRef,
        pickup: 'Manchester Piccadilly',
        dropoff: 'Manchester Airport',
        pickupTime: new Date(Date.now() + 60_000).toISOString(),
        passengerName: 'Plain Sender',
        passengers: 1,
      });
      const post = (body: string) =>
        fetch(`${b.url}/api/public/v1/jobs`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-partner': a.partnerIdThere,
            'x-signature': signPartnerBody(secretOf(b, a.partnerIdThere), Math.floor(Date.now() / 1000), body),
          },
          body,
        });
      const sent = await post(job);
      expect(sent.status, await sent.clone().text()).toBe(200);
      const refB = ((await sent.json()) as { results: { bookingReference: string }[] }).results[0]!.bookingReference;
      expect((await b.sql`select exchange_origin from bookings where ref = ${refB}`)[0]).toEqual({
        exchange_origin: 'fleet_partner',
      });
      await eventually(
        async () => ((await roundsExhaustedOnB(refB)) >= 1 ? true : undefined),
        60_000,
        `a round of ${refB} exhausted on B`,
      );
      expect(await b.sql`select 1 from exchange_jobs where booking_ref = ${refB}`).toHaveLength(0);
      expect(await bookedSince(a, since)).toEqual([]);
      const cancel = await post(JSON.stringify({ ...(JSON.parse(job) as object), action: 'cancel' }));
      expect(cancel.status, await cancel.text()).toBe(200);
    } finally {
      for (const d of online) await b.sql`update drivers set online = true where id = ${d.id}`;
    }
  }, 300_000);

  it('a booking nobody on A takes is driven to completed by a driver of B, A following every step, across a restart of B and a crash of A', async () => {
    explain();
    driver = await createDriver(b.sql, {
      ...PICCADILLY,
      name: 'Bea Exchange',
      tier: 'national',
      phone: `+4474005${String(10000 + Math.floor(Math.random() * 89_999))}`,
    });
    token = await signInOnB(driver);
    const { ref, token: manage } = await bookOnA();

    // Nobody on A: B holds the job under A's reference, and A shows it offered, provided by B.
    const onB = await bookingOnB(ref);
    expect((await passengerSees(ref, 'offered')).provided_by).toBe(
      `Instance B, a licensed operator we work with (Manchester City Council private hire operator licence PHO-B, valid to ${dayFromNow(365)})`,
    );
    const job = await offerInFeed(token, onB.ref);
    const accepted = await call(b, 'POST', `/api/driver/jobs/${encodeURIComponent(job.offer_id)}/respond`, {
      body: { decision: 'accept' },
      bearer: token,
    });
    expect(accepted.status, accepted.text).toBe(200);

    const assigned = await passengerSees(ref, 'assigned');
    // The tracking page gives the first name only, and B sends no registration: the council licence number, said to be that.
    expect(assigned.driver).toMatchObject({
      name: 'Bea',
      vehicle: 'Skoda Octavia',
      registration: null,
      council_licence: expect.stringMatching(/^TS/),
    });
    // The booking lookup says the same.
    const looked = await call(a, 'GET', `/api/public/v1/booking/${ref}?token=${manage}`);
    expect(looked.status, looked.text).toBe(200);
    expect(looked.json()).toMatchObject({
      status: 'assigned',
      driver: { name: 'Bea Exchange', vehicle: 'Skoda Octavia' },
    });
    await trip(token, job.offer_id, 'en_route');
    await passengerSees(ref, 'en_route');
    await trip(token, job.offer_id, 'arrived');
    await passengerSees(ref, 'arrived');

    // B goes down mid-trip (its worker killed, its API stopped) and comes back on its own data.
    await stopInstance(b);
    b = await startInstance({
      name: b.name,
      partnerIdThere: b.partnerIdThere,
      port: b.port,
      databaseUrl: b.databaseUrl,
      taskQueue: b.taskQueue,
    });
    await trip(token, job.offer_id, 'on_board');
    await passengerSees(ref, 'on_board');
    // Now A's worker crashes: B's completion reaches A's hook while no worker of A runs, and the
    // worker started again applies it, once.
    await a.worker.crash();
    await trip(token, job.offer_id, 'completed');
    await bookingOnB(ref, 'completed');
    a.worker = await startWorkerProcess(a.api.workerEnv);
    const done = await passengerSees(ref, 'completed');
    expect(done.driver?.name).toBe('Bea');

    // Exactly once: one job on B, one hand-over on A, every event of B's booking delivered to A once.
    expect(await b.sql`select ref from bookings where partner_job_ref = ${ref}`).toHaveLength(1);
    // Both operators keep the booking record with the chain (docs/records.md): A's names the fleet it
    // was handed to and how it ended; B's says who passed it on.
    const onA = await a.sql<
      { kind: string; operator: string | null; operator_licence: string | null; detail: string | null }[]
    >`
      select kind, operator, operator_licence, detail from booking_record_entries
       where ref = ${ref} and kind in ('subcontracted', 'closed') order by id`;
    expect(onA).toEqual([
      {
        kind: 'subcontracted',
        operator: 'Instance B',
        // The licence the sub-contract rested on, as it was on file.
        operator_licence: `Manchester City Council private hire operator licence PHO-B, valid to ${dayFromNow(365)}`,
        detail: expect.stringMatching(/^exchange fleet /),
      },
      { kind: 'closed', operator: null, operator_licence: null, detail: 'completed' },
    ]);
    // A's passenger was told who provides the ride, and under which licence.
    const told = await a.sql<{ body: string }[]>`
      select body from outbox where booking_ref = ${ref} and idempotency_key like 'provided-by:%'`;
    expect(told.map((t) => t.body)).toEqual([
      expect.stringContaining(
        'Your ride is provided by Instance B, a licensed operator we work with (Manchester City Council private hire operator licence PHO-B',
      ),
    ]);
    const [recordOnB] = await b.sql<{ channel: string; subcontracted_from: string | null }[]>`
      select r.channel, r.subcontracted_from from booking_records r join bookings k on k.ref = r.ref
       where k.partner_job_ref = ${ref}`;
    expect(recordOnB).toEqual({ channel: 'partner', subcontracted_from: expect.stringMatching(/^exchange partner /) });
    const handovers = await a.sql<
      { state: string; last_sequence: number }[]
    >`select state, last_sequence from exchange_jobs where booking_ref = ${ref}`;
    expect(handovers).toEqual([expect.objectContaining({ state: 'sent' })]);
    const sent = await eventually(
      async () => {
        const rows = await b.sql<
          { id: string; seq: number; delivery: string }[]
        >`select id, seq, delivery from partner_events where booking_ref = ${onB.ref} order by seq`;
        return rows.length > 0 && rows.every((r) => r.delivery === 'delivered') ? rows : undefined;
      },
      DEADLINE_MS,
      "B's events all delivered",
    );
    const received = await a.sql<
      { webhook_id: string; sequence: number }[]
    >`select webhook_id, sequence from exchange_inbox where booking_ref = ${ref} order by sequence`;
    expect(received.map((r) => r.webhook_id)).toEqual(sent.map((e) => e.id));
    expect(handovers[0]!.last_sequence).toBe(sent.at(-1)!.seq);

    // A redelivery of an old event (B's replay, same webhook-id and body) moves nothing.
    const first = sent.find((e) => e.seq === 1)!;
    const target = `/api/public/v1/partner/events/${first.id}/replay`;
    const t = Math.floor(Date.now() / 1000);
    const replay = await fetch(`${b.url}${target}`, {
      method: 'POST',
      headers: {
        'x-partner': a.partnerIdThere,
        'x-signature': signPartnerRequest(secretOf(b, a.partnerIdThere), t, { method: 'POST', target, body: '' }),
      },
    });
    expect(replay.status, await replay.text()).toBe(202);
    await eventually(
      async () => {
        const [row] = await b.sql<
          { replay_requested_at: Date | null; attempts: number }[]
        >`select replay_requested_at, attempts from partner_events where id = ${first.id}`;
        return row && row.replay_requested_at === null && row.attempts >= 2 ? true : undefined;
      },
      DEADLINE_MS,
      'the replay delivered',
    );
    expect((await passengerSees(ref, 'completed')).status).toBe('completed');
    expect(await a.sql`select 1 from exchange_inbox where booking_ref = ${ref}`).toHaveLength(sent.length);
  }, 300_000);

  it("a booking is never handed to a fleet whose operator licence has lapsed: A's decision log says why, and the renewed licence lets it go", async () => {
    explain();
    await licenceOnFile(a, b, dayFromNow(-1));
    try {
      const { ref, token: manage } = await bookOnA();
      const passedOver = await eventually(
        async () => {
          const rows = await a.sql<{ tier: string; eligible: boolean; skip_reason: string | null }[]>`
            select tier, eligible, skip_reason from dispatch_decisions
             where booking_ref = ${ref} and driver_id = ${`exchange:${b.partnerIdThere}`}`;
          return rows.length > 0 ? rows : undefined;
        },
        DEADLINE_MS,
        `A's decision on handing ${ref} to B`,
      );
      expect(passedOver[0]).toEqual({ tier: 'partner', eligible: false, skip_reason: 'operator_licence_expired' });
      // Nothing left A: no hand-over, no sub-contract on its record, no booking on B.
      expect(await a.sql`select 1 from exchange_jobs where booking_ref = ${ref}`).toEqual([]);
      expect(await a.sql`select 1 from booking_record_entries where ref = ${ref} and kind = 'subcontracted'`).toEqual(
        [],
      );
      expect(await b.sql`select 1 from bookings where partner_job_ref = ${ref}`).toEqual([]);
      // Ops read it from the booking's story: "why was this fleet not asked?"
      const staffKey = (await createStaff(a.sql, { name: 'Olu (ops)', role: 'operator' })).key;
      const why = await call(a, 'GET', `/api/ops/bookings/${ref}/decisions`, { bearer: staffKey });
      expect(why.status, why.text).toBe(200);
      expect(why.json<{ decisions: { driver_id: string }[] }>().decisions).toContainEqual(
        expect.objectContaining({
          driver_id: `exchange:${b.partnerIdThere}`,
          tier: 'partner',
          eligible: false,
          skip_reason: 'operator_licence_expired',
        }),
      );

      // Renewed: a later round of the same booking hands it to B.
      await licenceOnFile(a, b, dayFromNow(365));
      await bookingOnB(ref);
      const x = await a.api.app.inject({
        method: 'POST',
        url: `/api/public/v1/booking/${ref}`,
        remoteAddress: ip(),
        payload: { action: 'cancel', token: manage, reason: 'licence checked' },
      });
      expect(x.statusCode, x.body).toBe(200);
      await bookingOnB(ref, 'cancelled');
    } finally {
      await licenceOnFile(a, b, dayFromNow(365));
    }
  }, 120_000);

  it('cancelling on A cancels the job on B', async () => {
    explain();
    const { ref, token: manage } = await bookOnA();
    const onB = await bookingOnB(ref);
    await passengerSees(ref, 'offered');
    const cancelled = await a.api.app.inject({
      method: 'POST',
      url: `/api/public/v1/booking/${ref}`,
      remoteAddress: ip(),
      payload: { action: 'cancel', token: manage, reason: 'plans changed' },
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    await passengerSees(ref, 'cancelled');
    await bookingOnB(ref, 'cancelled');
    expect(onB.ref).toBeTruthy();
    await eventually(
      async () =>
        (await a.sql<{ state: string }[]>`select state from exchange_jobs where booking_ref = ${ref}`)[0]?.state ===
        'cancelled'
          ? true
          : undefined,
      DEADLINE_MS,
      'the hand-over recorded as cancelled',
    );
  }, 180_000);

  it("a partner's job on A follows to B: its amendment reaches B's booking, its status events name B's driver, its cancel cancels on B", async () => {
    explain();
    // A partner of A (an aggregator, no exchange fleet): its jobs may be handed on.
    const aggregator = `agg-${suffix}`;
    await createPartner(a.sql, { id: aggregator, name: 'Aggregator', kind: 'partner' });
    const { key } = await createApiKey(a.sql, { name: aggregator, partnerId: aggregator });
    const job = {
      jobRef: `AGG-${suffix}`,
      pickup: 'Manchester Piccadilly',
      dropoff: 'Manchester Airport',
      pickupTime: new Date(Date.now() + 5 * 60_000).toISOString(),
      passengerName: 'Grace Hopper',
      passengerPhone: '+447400765432',
      passengers: 1,
    };
    const sent = await call(a, 'POST', '/api/public/v1/jobs', { body: job, bearer: key });
    expect(sent.status, sent.text).toBe(200);
    const ref = sent.json<{ results: { bookingReference: string }[] }>().results[0]!.bookingReference;
    const onB = await bookingOnB(ref);
    await passengerSees(ref, 'offered');

    const amended = await call(a, 'POST', '/api/public/v1/jobs', {
      body: { ...job, action: 'amend', passengers: 3, notes: 'Three with luggage' },
      bearer: key,
    });
    expect(amended.status, amended.text).toBe(200);
    await eventually(
      async () => {
        const [row] = await b.sql<
          { passengers: number; notes: string | null }[]
        >`select passengers, notes from bookings where ref = ${onB.ref}`;
        return row?.passengers === 3 && row.notes === 'Three with luggage' ? row : undefined;
      },
      DEADLINE_MS,
      "the amendment on B's booking",
    );

    const offer = await offerInFeed(token, onB.ref);
    const accepted = await call(b, 'POST', `/api/driver/jobs/${encodeURIComponent(offer.offer_id)}/respond`, {
      body: { decision: 'accept' },
      bearer: token,
    });
    expect(accepted.status, accepted.text).toBe(200);
    await passengerSees(ref, 'assigned');
    // What A tells its own partner names B's driver (the status-event trigger reads the exchange's).
    const [event] = await a.sql<
      { driver_name: string | null }[]
    >`select driver_name from partner_events where booking_ref = ${ref} and status = 'assigned'`;
    expect(event?.driver_name).toBe('Bea Exchange');

    const cancelled = await call(a, 'POST', '/api/public/v1/jobs', { body: { ...job, action: 'cancel' }, bearer: key });
    expect(cancelled.status, cancelled.text).toBe(200);
    await passengerSees(ref, 'cancelled');
    await bookingOnB(ref, 'cancelled');
  }, 180_000);

  it("A's passenger, on a phone in Chromium, watches B's driver come: the tracking page names them and follows each step", async () => {
    explain();
    // B's driver of the first test, or one of its own when run alone.
    if (!token) {
      driver = await createDriver(b.sql, {
        ...PICCADILLY,
        name: 'Bea Exchange',
        tier: 'national',
        phone: `+4474005${String(10000 + Math.floor(Math.random() * 89_999))}`,
      });
      token = await signInOnB(driver);
    }
    const { ref } = await bookOnA();
    const onB = await bookingOnB(ref);
    const browser = await launchChromium();
    try {
      const page = await (await browser.newContext({ viewport: PHONE_VIEWPORT })).newPage();
      const problems: string[] = [];
      page.on('pageerror', (err) => problems.push(err.message));
      expect((await page.goto(`${a.url}/track/${ref}`))?.status()).toBe(200);
      // The page polls on its own; each step must appear without a reload.
      const shows = (text: string) => page.getByText(text, { exact: false }).first().waitFor({ timeout: DEADLINE_MS });
      await shows('Finding your driver');
      const offer = await offerInFeed(token, onB.ref);
      const accepted = await call(b, 'POST', `/api/driver/jobs/${encodeURIComponent(offer.offer_id)}/respond`, {
        body: { decision: 'accept' },
        bearer: token,
      });
      expect(accepted.status, accepted.text).toBe(200);
      await shows('Driver confirmed');
      // First name only on the passenger's page (issue 23).
      await page.locator('[data-field="driver_name"]', { hasText: 'Bea' }).waitFor({ timeout: DEADLINE_MS });
      for (const [event, headline] of [
        ['en_route', 'Your driver is on the way'],
        ['arrived', 'Your driver is here'],
        ['on_board', 'On your way'],
        ['completed', 'Journey complete'],
      ] as const) {
        await trip(token, offer.offer_id, event);
        await shows(headline);
      }
      expect(await page.getByText('Bea Exchange').count()).toBe(0);
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 240_000);

  it('refuses an event no fleet signed, and acknowledges event types it does not know', async () => {
    const body = JSON.stringify({
      id: 'evt_x',
      type: 'booking.status_changed',
      timestamp: new Date().toISOString(),
      data: {},
    });
    const forged = await fetch(`${a.url}${HOOK}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'webhook-id': 'evt_forged',
        'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
        'webhook-signature': 'v1,AAAA',
      },
      body,
    });
    expect(forged.status).toBe(401);

    // What B's fan-out may send one day (booking.amended, say), signed with the secret B issued A: acknowledged.
    const [fromB] = (await fleetsWithWebhookSecrets(a.sql, a.api.config.PARTNER_SECRETS_KEY)).filter(
      (f) => f.id === b.partnerIdThere,
    );
    const id = `evt_${randomUUID().replace(/-/g, '')}`;
    const amended = JSON.stringify({
      id,
      type: 'booking.amended',
      timestamp: new Date().toISOString(),
      data: { bookingReference: 'TX0000000000' },
    });
    const at = new Date();
    const unknown = await fetch(`${a.url}${HOOK}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'webhook-id': id,
        'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
        'webhook-signature': new Webhook(fromB!.secret).sign(id, at, amended),
      },
      body: amended,
    });
    expect(unknown.status).toBe(200);
    expect(await unknown.json()).toEqual({ received: true, outcome: 'ignored' });
  });
});

describe("what an exchange fleet's events may put before our passenger", () => {
  /** An event as B's fan-out sends it, signed with the secret B issued A: what only B could send. */
  async function fromB(data: Record<string, unknown>) {
    const [secret] = (await fleetsWithWebhookSecrets(a.sql, a.api.config.PARTNER_SECRETS_KEY)).filter(
      (f) => f.id === b.partnerIdThere,
    );
    const id = `evt_${randomUUID().replace(/-/g, '')}`;
    const body = JSON.stringify({
      id,
      type: 'booking.status_changed',
      timestamp: new Date().toISOString(),
      data: { bookingReference: 'TXB0000000', previousStatus: 'offered', pickupAt: new Date().toISOString(), ...data },
    });
    const at = new Date();
    const res = await fetch(`${a.url}${HOOK}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'webhook-id': id,
        'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
        'webhook-signature': new Webhook(secret!.secret).sign(id, at, body),
      },
      body,
    });
    return { status: res.status, text: await res.text() };
  }

  it('a sequence beyond what we keep is a 400 naming it, and a link in its driver’s details reaches neither the tracking page, the lookup nor an SMS', async () => {
    explain();
    const { ref, token: manage } = await bookOnA();
    await bookingOnB(ref);
    await passengerSees(ref, 'offered');

    // 2^31: more than a Postgres integer holds. A clear 400, not a 500 the fleet would retry.
    const huge = await fromB({ jobRef: ref, sequence: 2 ** 31, status: 'assigned', driver: null });
    expect(huge.status, huge.text).toBe(400);
    expect(JSON.parse(huge.text)).toMatchObject({
      code: 'invalid_event',
      errors: [{ field: 'body.data.sequence', message: 'must be at most 2147483647' }],
    });

    const link = 'http://evil.example/pay';
    // A name that is a link: no driver is shown at all (the status still moves).
    const named = await fromB({
      jobRef: ref,
      sequence: 1_000_000,
      status: 'assigned',
      driver: { name: `Pay at ${link}`, vehicle: 'Skoda Octavia', plate: 'AB12 CDE' },
    });
    expect(named.status, named.text).toBe(200);
    const assigned = await passengerSees(ref, 'assigned');
    expect(assigned.driver).toBeNull();
    // A fair name with a link for a car and plate: the name is shown, the car and plate are not.
    const car = await fromB({
      jobRef: ref,
      sequence: 1_000_001,
      status: 'en_route',
      driver: { name: 'Eve Fleet', vehicle: `See ${link}`, plate: 'evil.example/pay' },
    });
    expect(car.status, car.text).toBe(200);
    const enRoute = await passengerSees(ref, 'en_route');
    expect(enRoute.driver).toMatchObject({ name: 'Eve', council_licence: null, registration: null });

    const page = await call(a, 'GET', `/track/${ref}`);
    const status = await call(a, 'GET', `/track/${ref}/status.json`);
    const looked = await call(a, 'GET', `/api/public/v1/booking/${ref}?token=${manage}`);
    expect(looked.status, looked.text).toBe(200);
    expect(looked.json()).toMatchObject({ status: 'en_route', driver: { name: 'Eve Fleet', vehicle: '', plate: '' } });
    const texts = await a.sql<{ body: string }[]>`select body from outbox where booking_ref = ${ref}`;
    const stored =
      await a.sql`select driver_name, driver_vehicle, driver_plate from exchange_jobs where booking_ref = ${ref}`;
    for (const seen of [page.text, status.text, looked.text, ...texts.map((t) => t.body), JSON.stringify(stored)])
      expect(seen).not.toMatch(/evil/);

    const cancelled = await a.api.app.inject({
      method: 'POST',
      url: `/api/public/v1/booking/${ref}`,
      remoteAddress: ip(),
      payload: { action: 'cancel', token: manage, reason: 'test over' },
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    await bookingOnB(ref, 'cancelled');
  }, 180_000);
});

/** The signing secret `partnerId` was issued at instance `i` (what exchange:register printed there). */
function secretOf(i: Instance, partnerId: string): string {
  const secret = secrets.get(`${i.name}:${partnerId}`);
  if (!secret) throw new Error(`no secret of ${partnerId} at ${i.name}`);
  return secret;
}
