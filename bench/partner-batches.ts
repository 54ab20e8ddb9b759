// Batches of the largest valid jobs (issue 22, item 2): how long a signed 100-job batch takes to be
// answered alone, and five of them sent at once, beside a baseline measured in the same run: the
// same 100 jobs sent one per request, eight at a time (what a sender could do instead). Every reply
// must be a 200 or a 207 (never a 5xx), and every job must end up booked exactly once, whether it
// was answered at once or as `processing`.
//   npx tsx bench/partner-batches.ts        (BENCH_BATCHES=5 by default)
import { createHmac, randomUUID } from 'node:crypto';
import { migrate } from '../src/db/migrate.js';
import { createSql } from '../src/db/sql.js';
import { createPartner, issueSigningSecret } from '../src/partners/store.js';
import { loadConfig } from '../src/config.js';
import { MAX_JOBS_PER_REQUEST } from '../src/schemas/partner-job.js';
import { freePort } from '../dev/free-port.js';
import { startBenchStack, startProcess, waitForHttp } from './support.js';

const concurrentBatches = Number(process.env.BENCH_BATCHES ?? 5);
const BATCH = MAX_JOBS_PER_REQUEST;
const apiPort = await freePort();
const base = `http://127.0.0.1:${apiPort}`;

// Real addresses, as long as real ones get; every other field at (or near) its limit.
const journeys = [
  [
    'Flat 12, The Old Mill Building, 10 Wilmslow Road, Rusholme, Manchester M14 5TQ',
    'Manchester Airport Terminal 2, Outwood Lane, Manchester M90 1QX',
  ],
  [
    'Apartment 4B, Riverside House, 221 Deansgate, Manchester M3 4EN',
    'Manchester Piccadilly station, Manchester M1 2QF',
  ],
  ['Glasgow Central station, Gordon Street, Glasgow G1 3SL', 'Glasgow Airport, Paisley PA3 2SW'],
  ['Birmingham New Street station, Birmingham B2 4QA', 'Birmingham Airport, Birmingham B26 3QJ'],
] as const;
const pickupBase = Date.now() + 30 * 3600_000;
let serial = 0;
const pad = (prefix: string, length: number) => (prefix + ' ' + 'x'.repeat(length)).slice(0, length);

function largestJob(run: string) {
  const i = serial++;
  const [pickup, dropoff] = journeys[i % journeys.length]!;
  return {
    jobRef: `${run}-${String(i).padStart(6, '0')}-${'R'.repeat(100)}`.slice(0, 100),
    action: 'new',
    pickup,
    dropoff,
    pickupTime: new Date(pickupBase + i * 60_000).toISOString(),
    passengerName: pad('Alexandra Catherine Montgomery-Fitzwilliam', 100),
    passengerPhone: `+4474005${String(10000 + (i % 89999)).padStart(5, '0')}`,
    passengerEmail: `${'alexandra.montgomery-fitzwilliam'.padEnd(60, 'a')}@${'b'.repeat(60)}.example.co.uk`,
    passengers: 4,
    vehicleType: 'people carrier',
    flightNumber: 'BA1387',
    fare: 4250.5,
    notes: pad('Two large cases and a folding pushchair; meet at the main entrance, call on arrival.', 500),
  };
}

const stack = await startBenchStack({ postgres: await freePort(), temporal: await freePort() });
const sql = createSql(stack.databaseUrl, 2);
await migrate(sql);
const partnerId = `bench-${randomUUID().slice(0, 8)}`;
await createPartner(sql, { id: partnerId, name: 'Bench Partner', kind: 'partner', dailyJobLimit: 10_000_000 });
const secret = await issueSigningSecret(
  sql,
  loadConfig({ ...process.env, DATABASE_URL: stack.databaseUrl }).PARTNER_SECRETS_KEY,
  partnerId,
);
const env = {
  DATABASE_URL: stack.databaseUrl,
  TEMPORAL_ADDRESS: stack.temporalAddress,
  TEMPORAL_TASK_QUEUE: 'bench-batches',
  LOG_LEVEL: 'warn',
};
const worker = startProcess('src/worker.ts', env);
const api = startProcess('src/server.ts', { ...env, PORT: String(apiPort), PARTNER_RATE_LIMIT_PER_MINUTE: '1000000' });

interface Reply {
  status: number;
  ms: number;
  bytes: number;
  codes: Record<string, number>;
  /** The jobs answered try_again, which a sender sends again. */
  again: object[];
}

/** One signed POST the way an integrator writes it from spec 5: a hex HMAC-SHA256 of the raw body. */
async function send(jobs: object | object[]): Promise<Reply> {
  const list = Array.isArray(jobs) ? jobs : [jobs];
  const body = JSON.stringify(jobs);
  const started = performance.now();
  const res = await fetch(`${base}/api/public/v1/jobs`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-partner': partnerId,
      'x-signature': createHmac('sha256', secret).update(body).digest('hex'),
    },
    body,
  });
  const json = (await res.json()) as { results?: { code: string }[] };
  const ms = performance.now() - started;
  const codes: Record<string, number> = {};
  for (const r of json.results ?? [{ code: `HTTP ${res.status}` }]) codes[r.code] = (codes[r.code] ?? 0) + 1;
  const again = (json.results ?? []).flatMap((r, i) => (r.code === 'try_again' ? [list[i]!] : []));
  return { status: res.status, ms, bytes: Buffer.byteLength(body), codes, again };
}

/** Sends a batch, then what came back try_again, as a sender would, until none does: replies and rounds. */
async function sendUntilTaken(jobs: object[]): Promise<{ first: Reply; rounds: number; replies: Reply[] }> {
  const first = await send(jobs);
  const replies = [first];
  let left = first.again;
  while (left.length > 0) {
    const r = await send(left);
    replies.push(r);
    left = r.again;
  }
  return { first, rounds: replies.length, replies };
}

const merge = (replies: Reply[]) => {
  const codes: Record<string, number> = {};
  for (const r of replies) for (const [k, v] of Object.entries(r.codes)) codes[k] = (codes[k] ?? 0) + v;
  return Object.entries(codes)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
};
const seconds = (ms: number) => (ms / 1000).toFixed(2);

try {
  await waitForHttp(`${base}/readyz`);
  // Warm-up (JIT, gazetteer, pools).
  await send(Array.from({ length: 10 }, () => largestJob('WARM')));

  const baselineJobs = Array.from({ length: BATCH }, () => largestJob('ONE'));
  const t0 = performance.now();
  const singles: Reply[] = [];
  const queue = [...baselineJobs];
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (let j = queue.shift(); j; j = queue.shift()) singles.push(await send(j));
    }),
  );
  const baselineMs = performance.now() - t0;

  const alone = await send(Array.from({ length: BATCH }, () => largestJob('ALONE')));
  const batches = Array.from({ length: concurrentBatches }, (_, k) =>
    Array.from({ length: BATCH }, () => largestJob(`FIVE${k}`)),
  );
  const t1 = performance.now();
  const senders = await Promise.all(batches.map((b) => sendUntilTaken(b)));
  const togetherMs = performance.now() - t1;
  const together = senders.map((x) => x.first);

  console.log(
    `bench: batches of ${BATCH} of the largest valid jobs (${(alone.bytes / 1024).toFixed(1)} KB each), signed with a raw-body hex HMAC`,
  );
  console.log('| measurement | reply time s | HTTP statuses | per-job codes |');
  console.log('|---|---:|---|---|');
  console.log(
    `| baseline: the same ${BATCH} jobs one per request, 8 at a time | ${seconds(baselineMs)} (all done) | ${[...new Set(singles.map((r) => r.status))].join(', ')} | ${merge(singles)} |`,
  );
  console.log(`| one batch of ${BATCH} alone | ${seconds(alone.ms)} | ${alone.status} | ${merge([alone])} |`);
  for (const [k, r] of together.entries())
    console.log(
      `| batch ${k + 1} of ${concurrentBatches} sent at once | ${seconds(r.ms)} | ${r.status} | ${merge([r])} |`,
    );
  console.log(
    `\n${concurrentBatches} batches at once: first replies within ${seconds(Math.max(...together.map((r) => r.ms)))} s; with the try_again jobs sent again (up to ${Math.max(...senders.map((x) => x.rounds))} requests a sender), every job taken in after ${seconds(togetherMs)} s`,
  );
  console.log(`one batch alone / the same jobs one per request: ${(alone.ms / baselineMs).toFixed(2)}`);

  // Whatever was answered `processing` is applied all the same: wait for every job's booking.
  // (The alone batch's own try_again jobs, if any, are sent again too.)
  for (let left = alone.again; left.length > 0; left = (await send(left)).again);
  const expected = BATCH * (2 + concurrentBatches) + 10;
  const deadline = Date.now() + 180_000;
  let booked = 0;
  while (Date.now() < deadline) {
    const [row] = await sql<
      { booked: number }[]
    >`select count(*)::int as booked from bookings where partner_id = ${partnerId}`;
    booked = row?.booked ?? 0;
    if (booked >= expected) break;
    await new Promise((r) => setTimeout(r, 1000));
  }
  const fiveXX = [...singles, alone, ...senders.flatMap((x) => x.replies)].filter((r) => r.status >= 500).length;
  console.log(`bookings: ${booked} of ${expected} jobs sent; 5xx replies: ${fiveXX}`);
  if (booked !== expected || fiveXX > 0) {
    console.error('bench: a 5xx reply, or a job lost or booked twice');
    process.exitCode = 1;
  }
} finally {
  await Promise.all([api.stop(), worker.stop()]);
  await sql.end();
  await stack.stop();
}
