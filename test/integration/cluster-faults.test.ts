// Faults only the production topology has (TEST_TOPOLOGY=cluster: Temporal Server on Postgres, more
// than one worker and API process): a worker SIGKILLed while another keeps serving, an API
// process killed mid-request behind the round-robin proxy while clients retry with their
// Idempotency-Key, and the one Postgres both the service and Temporal keep their state in
// restarted under load. Nothing may be lost or duplicated. On the default topology these are skipped:
// crash.test.ts covers the single-worker crashes there.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../../dev/free-port.js';
import { startPostgresProcess, type PostgresProcess } from '../../dev/postgres-process.js';
import { postgresParts, startTemporalServer, type TemporalServerHandle } from '../../dev/temporal-server.js';
import { migrate } from '../../src/db/migrate.js';
import { createSql } from '../../src/db/sql.js';
import { startRoundRobinProxy, type RoundRobinProxy } from '../../dev/round-robin-proxy.js';
import { stopChild } from '../../dev/temporal-dev-server.js';
import { bookingWorkflowId } from '../../workflows/bookings/definitions.js';
import {
  createDriver,
  respond,
  takeDriversOffline,
  waitForJobCard,
  waitForStatus,
  type TestDriver,
} from '../support/drivers.js';
import { killAllWorkerProcesses, startApiOnly, startWorkerProcess, type ApiOnlyStack } from '../support/processes.js';
import { eventually, STACK_WAIT_MS } from '../support/stack.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const cluster = process.env.TEST_TOPOLOGY === 'cluster';

let api: ApiOnlyStack | undefined;
let proxy: RoundRobinProxy | undefined;
const apiProcesses: ChildProcess[] = [];
let ownServers: { pg?: PostgresProcess; temporal?: TemporalServerHandle; tmp: string } | undefined;
const drivers: TestDriver[] = [];
const refs: string[] = [];

afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
  await Promise.all(apiProcesses.splice(0).map((c) => stopChild(c, 5_000)));
  await killAllWorkerProcesses();
  if (api) {
    await takeDriversOffline(api.sql, drivers.splice(0));
    const client = api.client;
    await Promise.all(
      refs.splice(0).map((ref) =>
        client.workflow
          .getHandle(bookingWorkflowId(ref))
          .terminate('cluster fault test over')
          .catch(() => {}),
      ),
    );
    await api.close();
    api = undefined;
  }
  if (ownServers) {
    await ownServers.temporal?.stop();
    await ownServers.pg?.stop();
    fs.rmSync(ownServers.tmp, { recursive: true, force: true });
    ownServers = undefined;
  }
});

let ipCounter = 1;
const nextIp = () => `10.83.${ipCounter >> 8}.${ipCounter++ & 255}`;

async function driverNear(stack: ApiOnlyStack, lat: number, lon: number): Promise<TestDriver> {
  const d = await createDriver(stack.sql, { lat, lon, homeArea: 'national-default' });
  drivers.push(d);
  return d;
}

async function book(stack: ApiOnlyStack, pickup: string, dropoff: string, phone: string): Promise<string> {
  const ip = nextIp();
  const res = await stack.app.inject({
    method: 'POST',
    url: '/api/public/bookings/instant',
    remoteAddress: ip,
    payload: {
      pickup_address: pickup,
      dropoff_address: dropoff,
      passenger_name: 'Caroline Herschel',
      passenger_phone_whatsapp: phone,
    },
  });
  expect(res.statusCode, res.body).toBe(200);
  const ref = res.json<{ booking_reference: string }>().booking_reference;
  refs.push(ref);
  return ref;
}

async function assignedOnce(stack: ApiOnlyStack, ref: string, driver: TestDriver): Promise<void> {
  const row = await waitForStatus(stack.sql, ref, 'assigned');
  expect(row.driver_id).toBe(driver.id);
  const accepted = await stack.sql`select 1 from offers where booking_ref = ${ref} and status = 'accepted'`;
  expect(accepted).toHaveLength(1);
  const cards = await stack.sql<{ channel: string }[]>`
    select channel from outbox where booking_ref = ${ref} and recipient = ${driver.phone} and body like 'New job%' order by channel`;
  expect(cards.map((c) => c.channel)).toEqual(['sms', 'whatsapp']);
}

/** `node --import tsx src/server.ts` on `port`, resolved once /readyz answers. */
async function startApiProcess(env: Record<string, string>, port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'src/server.ts')], {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    stdio: 'ignore',
  });
  apiProcesses.push(child);
  await eventually(
    async () => {
      if (child.exitCode !== null) throw new Error(`API process on ${port} exited with ${child.exitCode}`);
      return (await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => null))?.ok ? true : undefined;
    },
    120_000,
    `API process on ${port}`,
  );
  return child;
}

describe.skipIf(!cluster)('cluster topology faults', () => {
  it('a worker SIGKILLed with a job card out: the other worker carries that booking to its driver and serves the next, each assigned once', async () => {
    const stack = (api = await startApiOnly({ env: { OFFER_TIMEOUT_SECONDS: '60' } }));
    const first = await startWorkerProcess(stack.workerEnv);
    const second = await startWorkerProcess(stack.workerEnv);
    const lancaster = await driverNear(stack, 54.0489, -2.8007);
    const hereford = await driverNear(stack, 52.0612, -2.7083);

    const ref1 = await book(stack, 'Lancaster station', 'Morecambe', '+447400123471');
    const card1 = await waitForJobCard(stack.sql, lancaster, ref1, 60_000);
    // Whichever worker ran the cascade so far, one of the two is now gone without a goodbye.
    await first.crash();
    const accepted = await respond(stack.app, card1, 'accept');
    expect(accepted.statusCode, accepted.body).toBe(200);
    await assignedOnce(stack, ref1, lancaster);

    const ref2 = await book(stack, 'Hereford station', 'Ross-on-Wye', '+447400123472');
    const card2 = await waitForJobCard(stack.sql, hereford, ref2, 60_000);
    expect((await respond(stack.app, card2, 'accept')).statusCode).toBe(200);
    await assignedOnce(stack, ref2, hereford);
    expect(second.child.exitCode).toBeNull();
  }, 180_000);

  it('an API process killed mid-request behind the proxy: clients retrying with their Idempotency-Key each get one booking', async () => {
    // Every request reaches the API processes from the proxy's one address: the hourly booking
    // allowance per caller must not be what answers the retries.
    const stack = (api = await startApiOnly({ env: { BOOKING_RATE_LIMIT_PER_HOUR: '1000' } }));
    await startWorkerProcess(stack.workerEnv);
    const ports = [await freePort(), await freePort()];
    const [doomed] = await Promise.all(ports.map((p) => startApiProcess(stack.workerEnv, p)));
    const port = await freePort();
    proxy = await startRoundRobinProxy(port, ports);

    // Each client keeps its key and its body across retries, as a client library does.
    const clients = Array.from({ length: 6 }, (_, i) => ({
      key: randomUUID(),
      body: JSON.stringify({
        pickup_address: 'Truro station',
        dropoff_address: 'Falmouth',
        passenger_name: 'Caroline Herschel',
        passenger_phone_whatsapp: `+4474001235${String(10 + i)}`,
      }),
    }));
    const send = (c: (typeof clients)[number]) =>
      fetch(`http://127.0.0.1:${port}/api/public/bookings/instant`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': c.key },
        body: c.body,
      }).then(
        async (r) => ({ status: r.status, body: (await r.text()) || '' }),
        (err: unknown) => ({ status: 0, body: String(err) }),
      );
    const firstTries = clients.map(send);
    // Killed the moment the proxy has handed it its third request: that one at least is still
    // being worked on (a booking takes a quote, a lock and a workflow start), so it is cut off.
    const served = proxy.served;
    while (served[0]! < clients.length / 2) await new Promise((r) => setImmediate(r));
    doomed!.kill('SIGKILL');
    const firstAnswers = await Promise.all(firstTries);
    expect(firstAnswers.filter((a) => a.status !== 200).length).toBeGreaterThan(0);

    const references = await Promise.all(
      clients.map(async (c, i) => {
        let answer = firstAnswers[i]!;
        const deadline = Date.now() + 60_000;
        // Retried until answered: a cut-off request or the dead process's 502 says nothing of the booking.
        while (answer.status !== 200 && Date.now() < deadline) {
          expect([0, 502]).toContain(answer.status);
          answer = await send(c);
        }
        expect(answer.status, answer.body).toBe(200);
        const again = await send(c);
        const ref = (JSON.parse(answer.body) as { booking_reference: string }).booking_reference;
        if (again.status === 200)
          expect((JSON.parse(again.body) as { booking_reference: string }).booking_reference).toBe(ref);
        return ref;
      }),
    );
    refs.push(...references);
    expect(new Set(references).size).toBe(clients.length);
    const phones = clients.map(
      (c) => (JSON.parse(c.body) as { passenger_phone_whatsapp: string }).passenger_phone_whatsapp,
    );
    const rows = await stack.sql<{ passenger_phone: string; n: number }[]>`
        select passenger_phone, count(*)::int as n from bookings where passenger_phone in ${stack.sql(phones)} group by passenger_phone`;
    expect(rows.map((r) => r.n)).toEqual(phones.map(() => 1));
    expect(proxy.served.every((n) => n > 0)).toBe(true);
  }, 180_000);

  it('Postgres restarted under load: Temporal and the service ride it out, and every client retrying with its key has one booking', async () => {
    // A Postgres and a Temporal Server of this test's own: restarting the shared ones would pull
    // them from under the other files.
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'taxi-pg-restart-'));
    const own: NonNullable<typeof ownServers> = (ownServers = { tmp });
    const pgOpts = { dataDir: path.join(tmp, 'pg'), port: await freePort(), persistent: true };
    own.pg = await startPostgresProcess(pgOpts);
    const migrations = createSql(own.pg.url, 2);
    await migrate(migrations);
    await migrations.end();
    own.temporal = await startTemporalServer({
      postgres: postgresParts(own.pg.url),
      frontendPort: 'free',
      logFile: path.join(tmp, 'temporal.log'),
    });
    const stack = (api = await startApiOnly({
      temporalAddress: own.temporal.address,
      env: { DATABASE_URL: own.pg.url },
    }));
    await startWorkerProcess(stack.workerEnv);

    const clients = Array.from({ length: 8 }, (_, i) => ({
      key: randomUUID(),
      ip: nextIp(),
      phone: `+4474001236${String(10 + i)}`,
    }));
    const failures: number[] = [];
    // Each client has 90 s from Postgres being back (not from its first request: how long the
    // restart itself takes depends on the machine, and on what else it is running).
    let backAt = Infinity;
    const pastDeadline = () => Date.now() > backAt + 90_000;
    const bookUntilAnswered = async (c: (typeof clients)[number], startAfterMs: number) => {
      await new Promise((r) => setTimeout(r, startAfterMs));
      for (;;) {
        // A real client gives up on a request that hangs through the outage and retries with its
        // key; without that, one stuck request held the whole test past its time (once in four
        // cluster runs under the full suite's load).
        const attempt = stack.app.inject({
          method: 'POST',
          url: '/api/public/bookings/instant',
          remoteAddress: c.ip,
          headers: { 'idempotency-key': c.key },
          payload: {
            pickup_address: 'Truro station',
            dropoff_address: 'Falmouth',
            passenger_name: 'Caroline Herschel',
            passenger_phone_whatsapp: c.phone,
          },
        });
        let timer: NodeJS.Timeout | undefined;
        const gaveUp = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), 20_000)));
        const res = await Promise.race([attempt, gaveUp]);
        clearTimeout(timer);
        if (res === null) {
          failures.push(504);
          if (pastDeadline())
            throw new Error(`no booking for ${c.phone} 90 s after the restart: requests kept hanging`);
          continue;
        }
        if (res.statusCode === 200) return res.json<{ booking_reference: string }>().booking_reference;
        failures.push(res.statusCode);
        // What a database outage may answer: a 5xx (never a 4xx, which would be the client's fault).
        expect(res.statusCode, res.body).toBeGreaterThanOrEqual(500);
        if (pastDeadline())
          throw new Error(`no booking for ${c.phone} 90 s after the restart: ${res.statusCode} ${res.body}`);
        await new Promise((r) => setTimeout(r, 250));
      }
    };
    // Clients arrive over two seconds; Postgres goes down a moment after the first and is back
    // a second later, so requests land before, during and after the outage.
    const load = Promise.all(clients.map((c, i) => bookUntilAnswered(c, i * 250)));
    await new Promise((r) => setTimeout(r, 300));
    await own.pg.stop();
    await new Promise((r) => setTimeout(r, 1_000));
    own.pg = await startPostgresProcess(pgOpts);
    backAt = Date.now();
    const references = await load;
    refs.push(...references);
    // The outage was felt (answers refused while Postgres was down), not slept through.
    expect(failures.length).toBeGreaterThan(0);

    expect(new Set(references).size).toBe(clients.length);
    const rows = await eventually(
      async () => {
        const r = await stack.sql<{ passenger_phone: string; n: number }[]>`
            select passenger_phone, count(*)::int as n from bookings where passenger_phone in ${stack.sql(clients.map((c) => c.phone))} group by passenger_phone`;
        return r;
      },
      STACK_WAIT_MS,
      'the bookings table after the restart',
    );
    expect(rows.map((r) => r.n)).toEqual(clients.map(() => 1));
    // Each booking's workflow is there and answering on the same server.
    for (const ref of references) {
      const d = await stack.client.workflow.getHandle(bookingWorkflowId(ref)).describe();
      expect(d.status.name).toBe('RUNNING');
    }
    expect(own.temporal.process.exitCode).toBeNull();
  }, 240_000);
});
