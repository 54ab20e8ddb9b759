// Start-up cost of the unit postcode index (data/gazetteer/postcode_units.bin.gz) beside the
// gazetteer and street loads it sits with, and its lookup latency. Not a test: prints figures
// for docs/benchmarks.md.
//   npx tsx bench/postcode-units.ts          (each load in 5 fresh processes, then lookups)
// Each load runs in its own fresh process (with --expose-gc), so its memory is its own: the
// process's growth in rss, V8 heap and array buffers (off-heap bytes) from just before the load
// to just after it, after a full GC on both sides.
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { GazetteerFile } from '../src/geo/gazetteer-file.js';
import { DEFAULT_GAZETTEER_PATH, loadGazetteer, loadGazetteerSync } from '../src/geo/gazetteer.js';
import { DEFAULT_POSTCODE_UNITS_PATH, postcodeUnits, preloadPostcodeUnits } from '../src/geo/postcode-units.js';
import { DEFAULT_STREETS_PATH, preloadStreets, streetIndex } from '../src/geo/streets.js';

const RUNS = 5;
const LOOKUPS = 200_000;

/** What a load built, held until its memory is measured (the module-level indexes hold their own). */
let kept: unknown;
const LOADS = {
  /** Baseline: the gazetteer as the API loads it (async, in slices). */
  'gazetteer (async, baseline)': async () => void (kept = await loadGazetteer()),
  'gazetteer (sync)': () => void (kept = loadGazetteerSync()),
  /** The other lazily loaded file, as the API preloads it. */
  'streets (async, baseline)': async () => void (await preloadStreets()),
  'streets (sync, first street query)': () => void streetIndex(),
  /** The API's preload: gunzip on the thread pool. */
  'postcode units (async, API start)': async () => void (await preloadPostcodeUnits()),
  /** A process that geocodes a postcode before any preload (a test worker, a script). */
  'postcode units (sync, first postcode query)': () => void postcodeUnits(),
} satisfies Record<string, () => void | Promise<void>>;
type LoadName = keyof typeof LOADS;

interface Figures {
  ms: number;
  maxBlockMs: number;
  rssMb: number;
  heapMb: number;
  arrayBuffersMb: number;
}

const mb = (bytes: number) => bytes / 1024 / 1024;

function settle(): NodeJS.MemoryUsage {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  gc?.();
  return process.memoryUsage();
}

async function measure(name: LoadName): Promise<Figures> {
  const before = settle();
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const start = performance.now();
  await LOADS[name]();
  const ms = performance.now() - start;
  // Let the delay monitor see the last block.
  await new Promise((resolve) => setTimeout(resolve, 5));
  delay.disable();
  const after = settle();
  if (kept === null) throw new Error('unreachable');
  return {
    ms,
    // A synchronous load holds the event loop for all of its time.
    maxBlockMs: name.includes('(sync') ? ms : delay.max / 1e6,
    rssMb: mb(after.rss - before.rss),
    heapMb: mb(after.heapUsed - before.heapUsed),
    arrayBuffersMb: mb(after.arrayBuffers - before.arrayBuffers),
  };
}

const childArg = process.argv.indexOf('--child');
if (childArg >= 0) {
  console.log(JSON.stringify(await measure(process.argv[childArg + 1] as LoadName)));
  process.exit(0);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
const range = (values: number[], digits = 0) => {
  const sorted = [...values].sort((a, b) => a - b);
  return `${median(values).toFixed(digits)} (${sorted[0]?.toFixed(digits)}-${sorted.at(-1)?.toFixed(digits)})`;
};

const here = fileURLToPath(import.meta.url);
const size = (url: URL) => `${(statSync(url).size / 1e6).toFixed(2)} MB`;
console.log(
  `files: gazetteer.json ${size(DEFAULT_GAZETTEER_PATH)}, streets.csv ${size(DEFAULT_STREETS_PATH)}, postcode_units.bin.gz ${size(DEFAULT_POSTCODE_UNITS_PATH)}`,
);
console.log(`\nload, ${RUNS} fresh processes each: median (min-max)`);
console.log(
  `${'load'.padEnd(46)} ${'ms'.padStart(14)} ${'event-loop block ms'.padStart(20)} ${'rss MB'.padStart(16)} ${'heap MB'.padStart(16)} ${'buffers MB'.padStart(16)}`,
);
for (const name of Object.keys(LOADS) as LoadName[]) {
  const runs: Figures[] = [];
  for (let i = 0; i < RUNS; i++) {
    const child = spawnSync(process.execPath, ['--expose-gc', ...process.execArgv, here, '--child', name], {
      encoding: 'utf8',
    });
    const line = child.stdout.trim().split('\n').at(-1) ?? '';
    if (child.status === 0 && line.startsWith('{')) runs.push(JSON.parse(line) as Figures);
    else console.error(`${name}: child failed: ${child.stderr}`);
  }
  const col = (key: keyof Figures, width: number, digits = 0) =>
    range(
      runs.map((r) => r[key]),
      digits,
    ).padStart(width);
  console.log(
    `${name.padEnd(46)} ${col('ms', 14)} ${col('maxBlockMs', 20)} ${col('rssMb', 16, 1)} ${col('heapMb', 16, 1)} ${col('arrayBuffersMb', 16, 1)}`,
  );
}

// Lookups: random units of real sectors (about 4 in 10 exist), in the three ways people type them.
let seed = 0x5eed;
function random(): number {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const letters = 'ABDEFGHJLNPQRSTUWXYZ';
const letter = () => letters[Math.floor(random() * letters.length)] ?? 'A';
const sectors = (JSON.parse(readFileSync(DEFAULT_GAZETTEER_PATH, 'utf8')) as GazetteerFile).sectors.code;
const queries = Array.from({ length: LOOKUPS }, () => {
  const unit = `${sectors[Math.floor(random() * sectors.length)] ?? 'M1 1'}${letter()}${letter()}`;
  const r = random();
  return r < 0.4 ? unit : r < 0.8 ? unit.replace(' ', '').toLowerCase() : ` ${unit.toLowerCase()} `;
});
const units = postcodeUnits();
if (!units) throw new Error('no postcode_units.bin.gz');
for (const q of queries.slice(0, 20_000)) units.find(q);
const times: number[] = [];
let found = 0;
const allStart = performance.now();
for (const q of queries) {
  const start = performance.now();
  if (units.find(q)) found++;
  times.push(performance.now() - start);
}
const total = performance.now() - allStart;
times.sort((a, b) => a - b);
const pct = (p: number) => (times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))] ?? NaN) * 1000;
console.log(
  `\nlookups: ${LOOKUPS} (${found} units found), ${((LOOKUPS / total) * 1000).toFixed(0)} per second; ` +
    `p50 ${pct(50).toFixed(1)} µs, p99 ${pct(99).toFixed(1)} µs, max ${((times.at(-1) ?? NaN) * 1000).toFixed(0)} µs`,
);
console.log(
  `index in memory: ${(units.byteLength / 1e6).toFixed(2)} MB (${units.unitCount} units in ${units.sectorCount} sectors)`,
);
