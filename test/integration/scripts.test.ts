// The commands the README and docs/try-it.md tell people to run, run for real: `npm start` (the whole service on
// embedded defaults), then against it `npm run api-key:create`, `npm run fleet:seed`,
// `npm run fleet:simulate`, `npm run staff:create`, `npm run mcp:token` and the MCP Inspector CLI;
// scripts given only a stack's DATA_DIR or EMBEDDED_PG_PORT writing into that stack's database and
// no other; the benchmarks on a short setting; and the history recorder. On the cluster topology run, also
// `npm run start:cluster`.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, freePortBelowEphemeral } from '../../dev/free-port.js';
import { startPostgresProcess } from '../../dev/postgres-process.js';
import { writeStackState } from '../../dev/stack-settings.js';
import { createSql } from '../../src/db/sql.js';
import { CANDIDATE_WINDOW } from '../../activities/bookings/dispatch.js';
import { finished, interrupt, killStragglers, root, run, waitFor, type Run } from '../support/commands.js';

afterAll(killStragglers);

// `npm start` and the scripts run the dev topology whatever TEST_TOPOLOGY says, so the cluster run
// (scripts/test-cluster.sh) keeps to `npm run start:cluster` below.
describe.skipIf(process.env.TEST_TOPOLOGY === 'cluster')('the README commands', () => {
  it('npm start runs the service; api-key:create, fleet:seed, fleet:simulate, staff:create, mcp:token and the MCP Inspector work against it; Ctrl-C stops it all', async () => {
    const [port, pgPort, temporalPort, uiPort] = [
      await freePort(),
      await freePort(),
      await freePort(),
      await freePort(),
    ];
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'taxi-start-'));
    const api = `http://127.0.0.1:${port}`;
    const databaseUrl = `postgres://postgres:postgres@127.0.0.1:${pgPort}/taxi`;
    const start = run('npm', ['start'], {
      PORT: String(port),
      DATA_DIR: dataDir,
      EMBEDDED_PG_PORT: String(pgPort),
      TEMPORAL_DEV_PORT: String(temporalPort),
      TEMPORAL_UI_PORT: String(uiPort),
      LOG_LEVEL: 'warn',
    });
    try {
      await waitFor(start, /Direct Taxi is running/, 240_000);

      const key = run('npm', ['run', 'api-key:create', '--', '--name', 'README check'], { DATABASE_URL: databaseUrl });
      expect(await finished(key, 60_000), key.output()).toBe(0);
      const apiKey = /^(ntk_\S+)$/m.exec(key.output())?.[1];
      expect(apiKey).toBeDefined();
      const quote = await fetch(`${api}/api/public/v1/quote`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': apiKey! },
        body: JSON.stringify({ pickup: 'Manchester Piccadilly', dropoff: 'Manchester Airport' }),
      });
      expect(quote.status).toBe(200);

      // Given only the stack's DATA_DIR (no DATABASE_URL, no --api), scripts find it by the stack.json npm start wrote.
      expect(JSON.parse(fs.readFileSync(path.join(dataDir, 'stack.json'), 'utf8'))).toMatchObject({
        kind: 'start',
        databaseUrl,
        apiUrl: `http://localhost:${port}`,
      });
      const seed = run('npm', ['run', 'fleet:seed'], { DATA_DIR: dataDir });
      expect(await finished(seed, 60_000), seed.output()).toBe(0);

      const simulate = run(
        'npm',
        ['run', 'fleet:simulate', '--', '--accept', '1', '--decline', '0', '--trip-step-seconds', '1'],
        { DATA_DIR: dataDir },
      );
      await waitFor(simulate, /Simulating demo drivers/, 60_000);
      const booked = await fetch(`${api}/api/public/bookings/instant`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          pickup_address: 'Manchester Piccadilly',
          dropoff_address: 'Manchester Airport',
          passenger_name: 'Ada Lovelace',
          passenger_phone_whatsapp: '+447400123456',
        }),
      });
      expect(booked.status).toBe(200);
      const { booking_reference: ref, manage_token: token } = (await booked.json()) as {
        booking_reference: string;
        manage_token: string;
      };
      // A demo driver accepts and drives the trip to the end.
      const deadline = Date.now() + 90_000;
      let status = '';
      while (status !== 'completed' && Date.now() < deadline) {
        await new Promise((res) => setTimeout(res, 1000));
        status = (
          (await (await fetch(`${api}/api/public/v1/booking/${ref}?token=${token}`)).json()) as { status: string }
        ).status;
      }
      expect(status, simulate.output()).toBe('completed');
      await waitFor(simulate, /confirms cash on \S+ -> 200/, 30_000);
      const lookup = (await (await fetch(`${api}/api/public/v1/booking/${ref}?token=${token}`)).json()) as {
        payment: { state: string };
      };
      expect(lookup.payment.state).toBe('paid');

      const staff = run('npm', ['run', 'staff:create', '--', '--name', 'README ops', '--role', 'admin'], {
        DATA_DIR: dataDir,
      });
      expect(await finished(staff, 60_000), staff.output()).toBe(0);
      const staffKey = /^(stf_\S+)$/m.exec(staff.output())?.[1];
      expect(staffKey).toBeDefined();
      const applicants = await fetch(`${api}/api/ops/drivers?status=applicant`, {
        headers: { authorization: `Bearer ${staffKey!}` },
      });
      expect(applicants.status).toBe(200);
      for (const page of ['/driver', '/drivers/apply', '/ops'])
        expect((await fetch(`${api}${page}`)).status, page).toBe(200);

      // The partner section of docs/try-it.md, run as written (its port made this run's): register a
      // partner, send a job with its key and one signed as spec 5 says, look the second up by its jobRef.
      const tryIt = fs.readFileSync(path.join(root, 'docs/try-it.md'), 'utf8');
      const section = tryIt.slice(tryIt.indexOf('Register one, then send it a job:'));
      const block = /```sh\n([\s\S]*?)```/.exec(section)![1]!.replaceAll('localhost:3000', `127.0.0.1:${port}`);
      const [createLine, ...rest] = block.split('\n');
      const created = run('bash', ['-c', createLine!], { DATABASE_URL: databaseUrl });
      expect(await finished(created, 60_000), created.output()).toBe(0);
      const partnerKey = /^API key .*: (ntk_\S+)$/m.exec(created.output())?.[1];
      const secret = /^Signing secret .*: (\S+)$/m.exec(created.output())?.[1];
      expect(partnerKey && secret, created.output()).toBeTruthy();
      const partnerSection = run('bash', ['-c', `set -eu\n${rest.join('\n')}`], { KEY: partnerKey!, SECRET: secret! });
      expect(await finished(partnerSection, 120_000), partnerSection.output()).toBe(0);
      const replies = partnerSection.output();
      expect(replies.match(/"accepted":1,"rejected":0/g), replies).toHaveLength(2);
      // The reply gave the reference once the job was written; the lookup straight after may still say
      // it is being applied (the partner inbox, issue 37), as docs/try-it.md says.
      expect(replies).toMatch(/"jobRef":"ACME-2","state":"(processing|booked)","bookingReference":"TX[A-Z0-9]+"/);

      // An assistant's access: a token as the README gets one, then the MCP Inspector CLI (Node 22
      // from the npm registry, as the README runs it) lists and calls the tools with it.
      const tokenRun = run(
        'npm',
        ['run', '--silent', 'mcp:token', '--', '--url', api, '--dev-sign-in', '+447400123457'],
        { DATABASE_URL: databaseUrl },
      );
      expect(await finished(tokenRun, 60_000), tokenRun.output()).toBe(0);
      const accessToken = /^(eyJ[\w-]+\.[\w-]+\.[\w-]+)$/m.exec(tokenRun.output())?.[1];
      expect(accessToken, tokenRun.output()).toBeDefined();
      const inspector = (...args: string[]) =>
        run('npx', [
          '-y',
          '-p',
          'node@22',
          '-p',
          '@modelcontextprotocol/inspector@2.12.0',
          'mcp-inspector',
          '--cli',
          `${api}/mcp`,
          '--transport',
          'http',
          '--header',
          `Authorization: Bearer ${accessToken!}`,
          ...args,
        ]);
      const listed = inspector('--method', 'tools/list');
      expect(await finished(listed, 180_000), listed.output()).toBe(0);
      for (const tool of ['estimate_fare', 'get_service_info', 'start_booking'])
        expect(listed.output()).toContain(`"name": "${tool}"`);
      const priced = inspector(
        '--method',
        'tools/call',
        '--tool-name',
        'estimate_fare',
        '--tool-arg',
        'pickup=Manchester Piccadilly',
        '--tool-arg',
        'dropoff=Manchester Airport',
      );
      expect(await finished(priced, 120_000), priced.output()).toBe(0);
      expect(priced.output()).toMatch(/"fare_pence": \d+/);
      interrupt(simulate);
      await finished(simulate, 30_000);
    } finally {
      interrupt(start);
      const code = await finished(start, 90_000);
      // Its state file goes first, so no script finds a stopping stack.
      expect(fs.existsSync(path.join(dataDir, 'stack.json'))).toBe(false);
      fs.rmSync(dataDir, { recursive: true, force: true });
      // Everything it started is stopped, in order, before it exits.
      expect(start.output()).toMatch(
        /stopped stack.json[\s\S]*stopped api[\s\S]*stopped worker[\s\S]*stopped temporal[\s\S]*stopped postgres/,
      );
      expect([0, 'SIGINT'], start.output().slice(-3000)).toContain(code);
    }
  }, 420_000);

  it("staff:create and partner:create write into the database of the stack their DATA_DIR (relative or not) and EMBEDDED_PG_PORT name, never another stack's; npm start refuses a port in use", async () => {
    // Two stacks' embedded Postgres on one machine, as two `npm start`s with their own DATA_DIR and port would run them.
    const [a, b, c] = [0, 1, 2].map(() => fs.mkdtempSync(path.join(os.tmpdir(), 'taxi-stack-')));
    const pgA = await startPostgresProcess({ dataDir: path.join(a!, 'postgres'), port: await freePort() });
    const pgB = await startPostgresProcess({ dataDir: path.join(b!, 'postgres'), port: await freePort() });
    const sqlA = createSql(pgA.url, 1);
    const sqlB = createSql(pgB.url, 1);
    const portOf = (url: string) => /:(\d+)\/taxi$/.exec(url)![1]!;
    // DATABASE_URL empty: unset, whatever the test's environment has.
    const script = (args: string[], env: Record<string, string>) =>
      run('npm', ['run', ...args], { DATABASE_URL: '', EMBEDDED_PG_PORT: '', ...env });
    const staffIn = async (sql: typeof sqlA, name: string) =>
      (await sql`select 1 from staff where name = ${name}`).length;
    try {
      // A's DATA_DIR and port: A's database, not B's.
      const staffA = script(['staff:create', '--', '--name', 'Stack A ops'], {
        DATA_DIR: a!,
        EMBEDDED_PG_PORT: portOf(pgA.url),
      });
      expect(await finished(staffA, 60_000), staffA.output()).toBe(0);
      expect(staffA.output()).toMatch(/^stf_\S+$/m);
      expect(await staffIn(sqlA, 'Stack A ops')).toBe(1);
      // B's database untouched: not even migrated.
      expect((await sqlB<{ t: string | null }[]>`select to_regclass('public.staff') as t`)[0]!.t).toBeNull();

      // B's DATA_DIR alone, relative to where the command runs: its stack.json (as npm start writes it) names B's database.
      writeStackState(path.join(b!, 'stack.json'), {
        kind: 'start',
        pid: process.pid,
        startedAt: new Date().toISOString(),
        dataDir: b!,
        apiUrl: 'http://localhost:1',
        databaseUrl: pgB.url,
        postgresDataDir: path.join(b!, 'postgres'),
        temporalAddress: 'localhost:1',
        temporalUiUrl: null,
        workerMetricsPorts: [],
      });
      const partnerB = script(['partner:create', '--', '--id', 'stack-b', '--name', 'Stack B Travel'], {
        DATA_DIR: path.relative(root, b!),
      });
      expect(await finished(partnerB, 60_000), partnerB.output()).toBe(0);
      expect(await sqlB`select 1 from partners where id = 'stack-b'`).toHaveLength(1);
      expect(await sqlA`select 1 from partners where id = 'stack-b'`).toHaveLength(0);

      // A third DATA_DIR pointed at A's port: the Postgres there serves another data directory, so nothing is written.
      const stray = script(['staff:create', '--', '--name', 'Stray ops'], {
        DATA_DIR: c!,
        EMBEDDED_PG_PORT: portOf(pgA.url),
      });
      expect(await finished(stray, 60_000), stray.output()).toBe(1);
      expect(stray.output()).toMatch(/belongs to another stack, so nothing was written/);
      expect(await staffIn(sqlA, 'Stray ops')).toBe(0);

      // Nor does a second npm start half-start against A's server: it stops first, naming the port.
      const second = run('npm', ['start'], {
        DATABASE_URL: '',
        DATA_DIR: c!,
        EMBEDDED_PG_PORT: portOf(pgA.url),
        PORT: String(await freePort()),
        TEMPORAL_DEV_PORT: String(await freePort()),
        TEMPORAL_UI_PORT: String(await freePort()),
      });
      expect(await finished(second, 60_000), second.output()).toBe(1);
      expect(second.output()).toContain(`already in use: EMBEDDED_PG_PORT ${portOf(pgA.url)}`);
      expect(fs.existsSync(path.join(c!, 'postgres'))).toBe(false);
    } finally {
      await sqlA.end();
      await sqlB.end();
      await pgA.stop();
      await pgB.stop();
      for (const d of [a!, b!, c!]) fs.rmSync(d, { recursive: true, force: true });
    }
  }, 240_000);

  it('npm run temporal:install prints the pinned Temporal CLI', async () => {
    const r = run('npm', ['run', '--silent', 'temporal:install']);
    expect(await finished(r, 120_000)).toBe(0);
    expect(r.output().trim().split('\n').pop()).toMatch(/temporal$/);
  });

  // The benchmarks, then the history recorder, are each a stack of their own on free ports and wait
  // on process starts much of the time: they run beside each other (issue 38, item 5), the
  // benchmarks in two lanes, so this file costs its longest lane rather than the sum.
  it.concurrent(
    'the benchmarks run and print their figures beside the baseline',
    async () => {
      const lane = async (benches: Array<() => Promise<void>>) => {
        for (const bench of benches) await bench();
      };
      await Promise.all([
        lane([benchQuote, benchDispatch, benchShape, benchGeocode, benchDestinations]),
        lane([benchIntake, benchBatches, benchGrowth, benchCity]),
      ]);
    },
    1_200_000,
  );

  it.concurrent(
    "the history recorder records replayable histories (into a folder of the test's own)",
    async () => {
      const out = fs.mkdtempSync(path.join(os.tmpdir(), 'taxi-histories-'));
      const r = run('npx', ['tsx', 'test/support/record-histories.ts'], { HISTORIES_OUT: out });
      expect(await finished(r, 240_000), r.output().slice(-3000)).toBe(0);
      const recorded = fs.readdirSync(out);
      expect(recorded).toEqual(
        expect.arrayContaining([
          'booking-cascade-completed.json',
          'quote-redeemed.json',
          'partner-delivery-retried-delivered.json',
        ]),
      );
      fs.rmSync(out, { recursive: true, force: true });
    },
    300_000,
  );
});

// Each benchmark on a short setting: that it runs and prints its figures, not how fast.
async function benchQuote() {
  const quote = run('npm', ['run', 'bench:quote'], { BENCH_SECONDS: '1', BENCH_CONNECTIONS: '2' });
  expect(await finished(quote, 240_000), quote.output().slice(-3000)).toBe(0);
  expect(quote.output()).toMatch(/quote \/ raw start throughput: \d/);
}

async function benchDispatch() {
  const dispatch = run('npx', ['tsx', 'bench/dispatch.ts'], {
    BENCH_SECONDS: '2',
    BENCH_CONCURRENCY: '2',
    BENCH_DRIVERS: '40',
  });
  expect(await finished(dispatch, 240_000), dispatch.output().slice(-3000)).toBe(0);
  expect(dispatch.output()).toMatch(/raw start \+ signal \+ result/);
  // Where the time goes: CPU per operation by process, the service's worker among them.
  expect(dispatch.output()).toMatch(/CPU ms per operation, by process[\s\S]*\| worker \| [\d.]+ \| [\d.]+ \|/);
}

async function benchShape() {
  const shape = run('npx', ['tsx', 'bench/booking-shape.ts'], { SHAPE_SECONDS: '2', SHAPE_IDLE_SECONDS: '1' });
  expect(await finished(shape, 240_000), shape.output().slice(-3000)).toBe(0);
  expect(shape.output()).toMatch(/booking shape \/ raw round trip: \d/);
  // Its history has the booking's steps: six updates, each upserting the search attributes.
  expect(shape.output()).toMatch(/of which upsert_workflow_search_attributes \| 6\.0 \|/);
}

async function benchGeocode() {
  const geocode = run('npx', ['tsx', 'bench/geocode.ts']);
  expect(await finished(geocode, 240_000), geocode.output().slice(-3000)).toBe(0);
  expect(geocode.output()).toMatch(/typos resolved to the same answer as the correct spelling: \d+\/\d+/);
}

async function benchDestinations() {
  const destinations = run('npx', ['tsx', 'bench/geocode-destinations.ts']);
  expect(await finished(destinations, 240_000), destinations.output().slice(-3000)).toBe(0);
  expect(destinations.output()).toMatch(/wrong town \(found, > 5 km off, another town\): 0\n/);
}

async function benchIntake() {
  const intake = run('npx', ['tsx', 'bench/partner-intake.ts'], { BENCH_SECONDS: '2', BENCH_CONNECTIONS: '4' });
  expect(await finished(intake, 240_000), intake.output().slice(-3000)).toBe(0);
  expect(intake.output()).toMatch(
    /partner bookings: (\d+) after the new batches \(\1 jobs sent\), \1 after the repeats/,
  );
}

async function benchBatches() {
  // That it works, not how fast: no busy loops, no rate target, a short wait for job cards.
  const batches = run('npx', ['tsx', 'bench/partner-batches.ts'], {
    BENCH_BATCHES: '2',
    BENCH_BUSY: '0',
    BENCH_MIN_RATE: '0',
    BENCH_CARD_WAIT_SECONDS: '20',
  });
  expect(await finished(batches, 300_000), batches.output().slice(-3000)).toBe(0);
  expect(batches.output()).toMatch(/bookings: (\d+) of \1 jobs sent; under another reference or missing: 0/);
}

async function benchGrowth() {
  const growth = run('npx', ['tsx', 'bench/dispatch-growth.ts'], { BENCH_GROWTH: '50,300', BENCH_BOOKINGS: '1' });
  expect(await finished(growth, 240_000), growth.output().slice(-3000)).toBe(0);
  // 300 drivers within reach, and round 1 logged only the first window of the nearest of them.
  expect(growth.output()).toMatch(
    new RegExp(`\\| 300 \\| \\d+ \\| \\d+ \\| \\d+ \\| [\\d,]+ \\| [\\d.]+ \\| ${CANDIDATE_WINDOW} \\|`),
  );
}

async function benchCity() {
  // A small city, quickly: every answer and trip step within seconds; exits 1 on a broken invariant.
  const city = run('npx', ['tsx', 'bench/city.ts'], {
    CITY_DRIVERS: '150',
    CITY_SECONDS: '8',
    CITY_RATE: '2',
    CITY_PREBOOKED: '0',
    CITY_PARTNER: '0',
    CITY_DRAIN_SECONDS: '90',
    CITY_ANSWER_MIN_S: '0.5',
    CITY_ANSWER_MAX_S: '2',
    CITY_STEP_MIN_S: '0.2',
    CITY_STEP_MAX_S: '0.5',
    CITY_OFFER_TIMEOUT_SECONDS: '5',
  });
  expect(await finished(city, 300_000), city.output().slice(-3000)).toBe(0);
  expect(city.output()).toMatch(/\| driver held two jobs at once [^|]*\| 0 \|/);
}

// The production shape: only on the cluster topology run (TEST_TOPOLOGY=cluster), where Temporal
// Server is already built; the default run keeps to the commands above.
describe.skipIf(process.env.TEST_TOPOLOGY !== 'cluster')('npm run start:cluster', () => {
  it('runs Temporal Server and its UI, two workers and two APIs behind one address; Ctrl-C stops them in order; a second start keeps the data', async () => {
    // Temporal's membership ports must stay below the ephemeral range; the rest are drawn from there too.
    const taken = new Set<number>();
    const below = async () => {
      const p = await freePortBelowEphemeral(taken);
      taken.add(p);
      return p;
    };
    let port = await below();
    // The API processes listen on PORT+1 and PORT+2.
    while (!(await Promise.all([port + 1, port + 2].map(isFree))).every(Boolean)) port = await below();
    taken.add(port + 1).add(port + 2);
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'taxi-cluster-'));
    // As root, Postgres runs as its own user, which must be able to pass through (mkdtemp makes 0700).
    fs.chmodSync(dataDir, 0o711);
    // The first worker's metrics port and the SDK exporter's above it.
    let metricsPort = await below();
    while (!(await isFree(metricsPort + 1))) metricsPort = await below();
    taken.add(metricsPort + 1);
    // DATA_DIR relative to where the command runs, as a README reader may give it: the UI server must still find its config.
    const env: Record<string, string> = {
      PORT: String(port),
      DATA_DIR: path.relative(root, dataDir),
      LOG_LEVEL: 'warn',
      WORKER_METRICS_PORT: String(metricsPort),
    };
    for (const name of [
      'CLUSTER_PG_PORT',
      'TEMPORAL_SERVER_PORT',
      'TEMPORAL_UI_PORT',
      'TEMPORAL_FRONTEND_HTTP_PORT',
      'TEMPORAL_FRONTEND_MEMBERSHIP_PORT',
      'TEMPORAL_HISTORY_GRPC_PORT',
      'TEMPORAL_HISTORY_MEMBERSHIP_PORT',
      'TEMPORAL_MATCHING_GRPC_PORT',
      'TEMPORAL_MATCHING_MEMBERSHIP_PORT',
      'TEMPORAL_WORKER_GRPC_PORT',
      'TEMPORAL_WORKER_MEMBERSHIP_PORT',
    ])
      env[name] = String(await below());
    const api = `http://127.0.0.1:${port}`;
    const databaseUrl = `postgres://postgres:postgres@127.0.0.1:${env.CLUSTER_PG_PORT}/taxi`;

    let current: Run | null = null;
    const running = () => current!;
    const startAndStop = async (during: () => Promise<void>) => {
      const cluster = run('npm', ['run', 'start:cluster'], env);
      current = cluster;
      try {
        await waitFor(cluster, /Direct Taxi is running as a cluster/, 300_000);
        await during();
      } catch (err) {
        if (cluster.child.exitCode === null) interrupt(cluster);
        await finished(cluster, 90_000);
        throw err;
      }
      interrupt(cluster);
      const code = await finished(cluster, 90_000);
      expect(cluster.output()).toMatch(
        /stopped proxy[\s\S]*stopped api 2[\s\S]*stopped api 1[\s\S]*stopped worker 2[\s\S]*stopped worker 1[\s\S]*stopped temporal ui[\s\S]*stopped temporal\n[\s\S]*stopped postgres/,
      );
      expect([0, 'SIGINT'], cluster.output().slice(-3000)).toContain(code);
    };
    let quoteId = '';
    try {
      await startAndStop(async () => {
        const answers: Array<{ quote_id: string }> = [];
        // Two requests: one to each API process.
        for (let i = 0; i < 2; i++) {
          const quote = await fetch(`${api}/api/public/v1/quote`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ pickup: 'Manchester Piccadilly', dropoff: 'Manchester Airport' }),
          });
          expect(quote.status).toBe(200);
          answers.push((await quote.json()) as { quote_id: string });
        }
        quoteId = answers[0]!.quote_id;
        expect((await fetch(`http://127.0.0.1:${env.TEMPORAL_UI_PORT}/`)).status).toBe(200);
        // Each worker's metrics where the start said, and a script given only the DATA_DIR finds the
        // cluster by its stack.json, writing into its database.
        const workersLine = /Workers .*\(metrics (.*)\)/.exec(running().output())?.[1] ?? '';
        const metrics = [...workersLine.matchAll(/127\.0\.0\.1:(\d+)\/metrics/g)].map((m) => Number(m[1]));
        expect(metrics).toHaveLength(2);
        expect(metrics[0]).toBe(Number(env.WORKER_METRICS_PORT));
        // The APIs are ready when the start says so; a worker serves metrics once it has connected, maybe later.
        for (const p of metrics)
          expect(await statusOnceListening(`http://127.0.0.1:${p}/metrics`, 60_000), `worker metrics on ${p}`).toBe(
            200,
          );
        expect(JSON.parse(fs.readFileSync(path.join(dataDir, 'cluster', 'stack.json'), 'utf8'))).toMatchObject({
          kind: 'cluster',
          databaseUrl,
          workerMetricsPorts: metrics,
        });
        const staff = run('npm', ['run', 'staff:create', '--', '--name', 'Cluster ops'], {
          DATA_DIR: env.DATA_DIR!,
          DATABASE_URL: '',
          PORT: '',
        });
        expect(await finished(staff, 60_000), staff.output()).toBe(0);
        const sql = createSql(databaseUrl, 1);
        try {
          expect(await sql`select 1 from staff where name = 'Cluster ops'`).toHaveLength(1);
        } finally {
          await sql.end();
        }
      });
      await startAndStop(async () => {
        // The first start's quote: its row in Postgres and its workflow in Temporal (read through the UI's API).
        const found = await fetch(
          `http://127.0.0.1:${env.TEMPORAL_UI_PORT}/api/v1/namespaces/default/workflows/${encodeURIComponent(`quote:${quoteId}`)}`,
        );
        expect(found.status, await found.clone().text()).toBe(200);
        const sql = createSql(databaseUrl, 1);
        try {
          expect(await sql`select 1 from quotes where id = ${quoteId}`).toHaveLength(1);
        } finally {
          await sql.end();
        }
      });
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 600_000);
});

/** The status of a GET once something listens at the URL, polling until the deadline. */
async function statusOnceListening(url: string, timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return (await fetch(url)).status;
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((res) => setTimeout(res, 250));
    }
  }
}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}
