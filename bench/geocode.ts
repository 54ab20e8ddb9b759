// Gazetteer load time and geocode latency. Not a test: prints figures for docs/benchmarks.md.
//   npx tsx bench/geocode.ts            (load in this process + 5 fresh processes, then queries)
//   npx tsx bench/geocode.ts --load-only
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { geocodeWith } from '../src/geo/embedded-geocoder.js';
import type { GazetteerFile } from '../src/geo/gazetteer-file.js';
import { DEFAULT_GAZETTEER_PATH, loadGazetteer, type Gazetteer } from '../src/geo/gazetteer.js';

const QUERIES_PER_CATEGORY = 1500;
const FRESH_PROCESSES = 5;

async function timedLoad(): Promise<{ gazetteer: Gazetteer; ms: number; maxBlockMs: number }> {
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const start = performance.now();
  const gazetteer = await loadGazetteer();
  const ms = performance.now() - start;
  delay.disable();
  return { gazetteer, ms, maxBlockMs: delay.max / 1e6 };
}

if (process.argv.includes('--load-only')) {
  const { ms, maxBlockMs } = await timedLoad();
  console.log(JSON.stringify({ ms, maxBlockMs }));
  process.exit(0);
}

// Deterministic pseudo-random sampling (mulberry32), so runs are comparable.
let seed = 0x5eed;
function random(): number {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
function pick<T>(items: readonly T[]): T {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new Error('empty sample');
  return item;
}
function typo(word: string): string {
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  const i = 1 + Math.floor(random() * Math.max(1, word.length - 2));
  switch (Math.floor(random() * 3)) {
    case 0: // swap two adjacent letters
      return word.slice(0, i - 1) + (word[i] ?? '') + (word[i - 1] ?? '') + word.slice(i + 1);
    case 1: // drop a letter
      return word.slice(0, i) + word.slice(i + 1);
    default: // substitute a letter
      return word.slice(0, i) + pick([...letters]) + word.slice(i + 1);
  }
}

/** Misspelt query → what was meant, to count how often the typo finds the same answer. */
const typoOf = new Map<string, string>();

function buildQueries(file: GazetteerFile): Record<string, string[]> {
  const towns = file.places.name.filter((_, i) => (file.places.type[i] ?? 5) <= 1);
  const places = file.places.name;
  const stations = file.stations.name;
  const airports = file.airports.name;
  const sectors = file.sectors.code;
  const iata = file.airports.iata.filter(Boolean);
  const crs = file.stations.crs.filter(Boolean);
  const inward = () =>
    `${Math.floor(random() * 10)}${pick([...'ABDEFGHJLNPQRSTUWXYZ'])}${pick([...'ABDEFGHJLNPQRSTUWXYZ'])}`;
  const n = QUERIES_PER_CATEGORY;
  return {
    postcode: Array.from({ length: n }, () => {
      const sector = pick(sectors);
      const full = `${sector.split(' ')[0] ?? ''} ${sector.split(' ')[1] ?? '0'}${inward().slice(1)}`;
      return pick([
        full,
        full.replace(' ', '').toLowerCase(),
        `${Math.ceil(random() * 99)} High Street, ${pick(towns)} ${full}`,
      ]);
    }),
    code: Array.from({ length: n }, () => pick([pick(iata), pick(crs), pick(file.districts.code)])),
    'exact name': Array.from({ length: n }, () => {
      const r = random();
      if (r < 0.5) return pick(places);
      if (r < 0.75) return pick(stations);
      if (r < 0.85) return `${pick(stations)} station`;
      if (r < 0.95) return pick(airports);
      return `${pick(places)}, ${pick(towns)}`;
    }),
    'fuzzy (typo)': Array.from({ length: n }, () => {
      const original = pick(random() < 0.6 ? towns : stations);
      const misspelt = typo(original);
      typoOf.set(misspelt, original);
      return misspelt;
    }),
    'no match': Array.from({ length: n }, () =>
      Array.from({ length: 1 + Math.floor(random() * 3) }, () =>
        Array.from({ length: 4 + Math.floor(random() * 6) }, () => pick([...'qxzjkvwyfb'])).join(''),
      ).join(' '),
    ),
  };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

const here = fileURLToPath(import.meta.url);
const loads: Array<{ ms: number; maxBlockMs: number }> = [];
for (let i = 0; i < FRESH_PROCESSES; i++) {
  const child = spawnSync(process.execPath, [...process.execArgv, here, '--load-only'], { encoding: 'utf8' });
  const line = child.stdout.trim().split('\n').at(-1) ?? '';
  if (child.status === 0 && line.startsWith('{')) loads.push(JSON.parse(line) as { ms: number; maxBlockMs: number });
  else console.error(`fresh-process load failed: ${child.stderr}`);
}
const { gazetteer, ms, maxBlockMs } = await timedLoad();
loads.push({ ms, maxBlockMs });
const loadMs = loads.map((l) => l.ms).sort((a, b) => a - b);
const blockMs = loads.map((l) => l.maxBlockMs).sort((a, b) => a - b);
console.log(`gazetteer: ${gazetteer.entryCount} entries from ${fileURLToPath(DEFAULT_GAZETTEER_PATH)}`);
console.log(
  `cold load (async loadGazetteer; ${loads.length - 1} fresh processes + this one): min ${loadMs[0]?.toFixed(0)} ms, ` +
    `median ${percentile(loadMs, 50).toFixed(0)} ms, max ${loadMs.at(-1)?.toFixed(0)} ms; ` +
    `longest event-loop block during load: median ${percentile(blockMs, 50).toFixed(0)} ms, max ${blockMs.at(-1)?.toFixed(0)} ms`,
);

const file = JSON.parse(readFileSync(DEFAULT_GAZETTEER_PATH, 'utf8')) as GazetteerFile;
const warmup = buildQueries(file);
for (const queries of Object.values(warmup)) for (const q of queries) geocodeWith(gazetteer, q);

const categories = buildQueries(file);
const all: number[] = [];
console.log('\nper-query latency (warm, synchronous core; ms)');
console.log('category        queries  matched    p50    p90    p99    max');
let typosTried = 0;
let typosRecovered = 0;
for (const [category, queries] of Object.entries(categories)) {
  const times: number[] = [];
  let matched = 0;
  for (const q of queries) {
    const start = performance.now();
    const result = geocodeWith(gazetteer, q);
    times.push(performance.now() - start);
    if (result) matched++;
    const original = category.startsWith('fuzzy') ? typoOf.get(q) : undefined;
    if (original !== undefined && original !== q) {
      typosTried++;
      if (result && result.label === geocodeWith(gazetteer, original)?.label) typosRecovered++;
    }
  }
  times.sort((a, b) => a - b);
  all.push(...times);
  const f = (v: number) => v.toFixed(3).padStart(6);
  console.log(
    `${category.padEnd(15)} ${String(queries.length).padStart(7)} ${String(matched).padStart(8)} ` +
      `${f(percentile(times, 50))} ${f(percentile(times, 90))} ${f(percentile(times, 99))} ${f(times.at(-1) ?? NaN)}`,
  );
}
all.sort((a, b) => a - b);
console.log(
  `all             ${String(all.length).padStart(7)}          ${percentile(all, 50).toFixed(3).padStart(6)} ${percentile(all, 90).toFixed(3).padStart(6)} ${percentile(all, 99).toFixed(3).padStart(6)} ${(all.at(-1) ?? NaN).toFixed(3).padStart(6)}`,
);
console.log(`typos resolved to the same answer as the correct spelling: ${typosRecovered}/${typosTried}`);
