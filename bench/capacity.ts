// The city's capacity, found rather than guessed: the highest booking rate the simulated city
// (bench/city.ts) sustains on each Temporal topology with one and with two worker processes, beside
// raw Temporal start + signal + result round trips per second measured on the same stack in the same run.
//   npx tsx bench/capacity.ts
// A rate is sustained when a trial at it ends with: the first job card p99 <= 1 s (all kinds), nothing
// shed (no arrival over CITY_MAX_INFLIGHT in flight), every booking whose dispatch began and that was
// not cancelled assigned to a driver, every booking settled within the drain, no failed request and
// no broken invariant. The search doubles the rate from CAPACITY_START_RATE until a trial fails (or
// CAPACITY_MAX_RATE passes), then bisects between the last rate sustained and the first that was not.
// Knobs:
//   CAPACITY_TOPOLOGIES=dev,cluster   dev: the Temporal CLI dev server (SQLite); cluster: Temporal Server on Postgres
//   CAPACITY_WORKERS=1,2              worker processes (CITY_WORKERS of each trial)
//   CAPACITY_SECONDS=45               each trial's arrivals (CITY_SECONDS); the drain comes on top
//   CAPACITY_START_RATE=1 CAPACITY_MAX_RATE=64 CAPACITY_STEPS=3   doubling, then bisection trials
//   CAPACITY_CARD_P99_MS=1000         the first job card p99 a sustained rate must keep
//   CAPACITY_RAW_SECONDS=10 CAPACITY_RAW_CONCURRENCY=16   the raw round trips, measured before and after
//                                     each topology-and-workers search (the table shows their mean)
// Every other CITY_* knob passes through to every trial (CITY_DRIVERS, the shares, the drivers'
// behaviour, the offer policy, CITY_DRAIN_SECONDS, CITY_SEED: one seed for every trial). Pre-booked and
// partner jobs dispatch 75-150 s after booking, so each trial drains for minutes; CITY_PREBOOKED=0
// CITY_PARTNER=0 measures immediate bookings alone, in less time.
import { randomUUID } from 'node:crypto';
import { connectTemporal } from '../src/temporal/connection.js';
import { freePort } from '../dev/free-port.js';
import { cityConfigFromEnv, runCity, type CityResult } from './city.js';
import { closedLoop, startBenchStack, startProcess, type Topology } from './support.js';
import { signalRoundTripSignal, signalRoundTripWorkflow } from './workflows.js';

const num = (name: string, dflt: number) => {
  const v = Number(process.env[name] ?? dflt);
  if (!Number.isFinite(v) || v < 0) throw new Error(`${name} must be a non-negative number`);
  return v;
};
const list = (name: string, dflt: string) =>
  (process.env[name] ?? dflt)
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);

const topologies = list('CAPACITY_TOPOLOGIES', 'dev,cluster').map((t): Topology => {
  if (t !== 'dev' && t !== 'cluster') throw new Error(`CAPACITY_TOPOLOGIES: ${t} is neither dev nor cluster`);
  return t;
});
const workerCounts = list('CAPACITY_WORKERS', '1,2').map((w) => {
  const n = Number(w);
  if (!Number.isInteger(n) || n < 1) throw new Error(`CAPACITY_WORKERS: ${w} is not a whole number of at least 1`);
  return n;
});
const trialSeconds = num('CAPACITY_SECONDS', 45);
const startRate = num('CAPACITY_START_RATE', 1);
const maxRate = num('CAPACITY_MAX_RATE', 64);
const steps = num('CAPACITY_STEPS', 3);
const cardP99Limit = num('CAPACITY_CARD_P99_MS', 1000);
const rawSeconds = num('CAPACITY_RAW_SECONDS', 10);
const rawConcurrency = Math.max(1, num('CAPACITY_RAW_CONCURRENCY', 16));
if (startRate <= 0) throw new Error('CAPACITY_START_RATE must be above 0');
const base = cityConfigFromEnv();
const seed = process.env.CITY_SEED ?? randomUUID().slice(0, 8);

/** Why a trial's rate is not sustained, or null when it is. */
function shortfall(r: CityResult): string | null {
  const all = r.kinds?.all;
  if (!r.ok || !all) return r.error ? `run failed: ${r.error.slice(0, 120)}` : 'run failed (see its output)';
  if (r.shed > 0) return `${r.shed} arrivals shed`;
  if (r.failures > 0) return `${r.failures} failed requests`;
  if (r.invariantsBroken > 0) return `${r.invariantsBroken} invariant violations`;
  if (!r.drained) return 'bookings still open after the drain';
  if (all.dispatchedNotCancelled === 0) return 'no booking dispatched';
  if (all.assigned < all.dispatchedNotCancelled)
    return `${all.dispatchedNotCancelled - all.assigned} of ${all.dispatchedNotCancelled} never assigned`;
  if (!(all.cardP99 <= cardP99Limit)) return `first job card p99 ${all.cardP99.toFixed(0)} ms > ${cardP99Limit} ms`;
  return null;
}

interface Row {
  topology: Topology;
  workers: number;
  sustained: number;
  /** True when even CAPACITY_MAX_RATE was sustained: the figure is a floor. */
  atCeiling: boolean;
  /** The lowest rate not sustained (Infinity when none failed). */
  lowestFailed: number;
  rawPerSecond: number[];
  trials: string[];
}
const rows: Row[] = [];

for (const topology of topologies) {
  const stack = await startBenchStack({ postgres: await freePort(), temporal: await freePort() }, topology);
  const baselineQueue = `bench-capacity-baseline-${randomUUID().slice(0, 8)}`;
  const baseline = startProcess('bench/baseline-worker.ts', {
    DATABASE_URL: stack.databaseUrl,
    TEMPORAL_ADDRESS: stack.temporalAddress,
    BENCH_BASELINE_TASK_QUEUE: baselineQueue,
    LOG_LEVEL: 'warn',
  });
  const { client, connection } = await connectTemporal({ address: stack.temporalAddress, namespace: 'default' });
  const roundTrip = async () => {
    const handle = await client.workflow.start(signalRoundTripWorkflow, {
      workflowId: `bench-capacity-rt-${randomUUID()}`,
      taskQueue: baselineQueue,
    });
    await handle.signal(signalRoundTripSignal);
    await handle.result();
  };
  const raw = async () => {
    const r = await closedLoop('raw start + signal + result', rawConcurrency, rawSeconds, roundTrip);
    console.log(
      `bench capacity (${topology}): raw start + signal + result ${r.perSecond.toFixed(1)}/s (p50 ${r.p50.toFixed(0)} ms, ${r.errors} errors)`,
    );
    return r.perSecond;
  };
  try {
    // The first round trips pay for the baseline worker's start and bundle: not measured.
    await closedLoop('warm-up', rawConcurrency, 3, roundTrip);
    for (const workers of workerCounts) {
      const row: Row = {
        topology,
        workers,
        sustained: 0,
        atCeiling: false,
        lowestFailed: Infinity,
        rawPerSecond: [await raw()],
        trials: [],
      };
      const trial = async (rate: number) => {
        console.log(
          `\n-- bench capacity: ${topology}, ${workers} worker(s), ${rate.toFixed(2)} bookings/s for ${trialSeconds} s --`,
        );
        const result = await runCity(
          { ...base, rate, seconds: trialSeconds, workerCount: workers },
          { stack, seed, label: `capacity trial ${rate.toFixed(2)}/s` },
        );
        const why = shortfall(result);
        row.trials.push(`${rate.toFixed(2)}/s ${why ? `not sustained (${why})` : 'sustained'}`);
        console.log(
          `bench capacity: ${topology}, ${workers} worker(s), ${rate.toFixed(2)}/s: ${why ? `not sustained: ${why}` : 'sustained'}`,
        );
        return why === null;
      };
      let lo = 0;
      let hi = Infinity;
      for (let rate = startRate; rate <= maxRate; rate *= 2) {
        if (await trial(rate)) lo = rate;
        else {
          hi = rate;
          break;
        }
      }
      if (hi === Infinity) row.atCeiling = true;
      else
        for (let i = 0; i < steps; i++) {
          const mid = (lo + hi) / 2;
          if (await trial(mid)) lo = mid;
          else hi = mid;
        }
      row.sustained = lo;
      row.lowestFailed = hi;
      row.rawPerSecond.push(await raw());
      rows.push(row);
    }
  } finally {
    await connection.close();
    await baseline.stop();
    await stack.stop();
  }
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
console.log(
  `\nbench capacity (seed ${seed}; trials of ${trialSeconds} s; sustained: first job card p99 <= ${cardP99Limit} ms, nothing shed, 100 % assigned, ` +
    `all settled, no failure; raw round trips: ${rawConcurrency} concurrent, ${rawSeconds} s before and after each search, mean shown)`,
);
console.log(
  '\n| topology | workers | sustained bookings/s | raw start+signal round trips/s | bookings / round trips |',
);
console.log('|---|---:|---:|---:|---:|');
for (const r of rows) {
  const rawMean = mean(r.rawPerSecond);
  const name = r.topology === 'dev' ? 'dev server (SQLite)' : 'Temporal Server on Postgres';
  // Nothing sustained: the lowest rate tried is the bound to report, not a rate of 0.
  const sustained = r.atCeiling
    ? `>= ${r.sustained.toFixed(2)}`
    : r.sustained > 0
      ? r.sustained.toFixed(2)
      : `< ${r.lowestFailed.toFixed(2)}`;
  console.log(
    `| ${name} | ${r.workers} | ${sustained} | ${rawMean.toFixed(1)} | ${r.sustained > 0 ? (r.sustained / rawMean).toFixed(3) : '-'} |`,
  );
}
for (const r of rows) console.log(`trials (${r.topology}, ${r.workers} worker(s)): ${r.trials.join('; ')}`);
process.exit(0);
