// How well the geocoder finds the places people take taxis to: real destinations written the way
// people type them (bench/data/destinations.csv, each with its true coordinates and their source),
// resolved through the same code the API uses.
//   npx tsx bench/geocode-destinations.ts
// Reports the share within 250 m and 1 km of the truth, answers in the wrong town (more than 5 km
// off and not naming the destination's town: must be 0), answers in the right town but only at its
// centre, refusals with suggestions, query latency and memory.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseCsv } from '../src/geo/csv.js';
import { resolveWith } from '../src/geo/embedded-geocoder.js';
import { loadGazetteer } from '../src/geo/gazetteer.js';
import { haversineMeters } from '../src/geo/haversine.js';
import { normaliseText } from '../src/geo/normalise-text.js';
import type { GeoLocation } from '../src/geo/types.js';

/** The answer names the destination's town (its town, council or label). */
function inTown(place: GeoLocation, town: string): boolean {
  const t = normaliseText(town);
  return [place.town, place.council, place.label].some((x) => x !== null && ` ${normaliseText(x)} `.includes(` ${t} `));
}

const WRONG_TOWN_M = 5_000;
const TIMED_RUNS = 7;
const list = parseCsv(readFileSync(fileURLToPath(new URL('./data/destinations.csv', import.meta.url)), 'utf8'));
const before = process.memoryUsage();
const gazetteer = await loadGazetteer();
// Warm the lazily loaded parts (streets) and the JIT before timing.
for (const row of list) resolveWith(gazetteer, row.query ?? '');
const after = process.memoryUsage();

let within250 = 0;
let within1k = 0;
let refused = 0;
let notFound = 0;
const wrong: string[] = [];
const missed: string[] = [];
const far: string[] = [];
const times: number[] = [];
const byCategory = new Map<string, { n: number; within1k: number }>();
for (const row of list) {
  const query = row.query ?? '';
  // Each query timed several times and its median kept: one GC pause or a busy neighbour should
  // not decide the p99 of a few hundred queries.
  const runs: number[] = [];
  let result = resolveWith(gazetteer, query);
  for (let i = 0; i < TIMED_RUNS; i++) {
    const t = performance.now();
    result = resolveWith(gazetteer, query);
    runs.push(performance.now() - t);
  }
  times.push(runs.sort((a, b) => a - b)[Math.floor(TIMED_RUNS / 2)] ?? NaN);
  const cat = byCategory.get(row.category ?? '') ?? { n: 0, within1k: 0 };
  cat.n++;
  byCategory.set(row.category ?? '', cat);
  if (result.status !== 'found') {
    if (result.suggestions.length > 0) refused++;
    else notFound++;
    missed.push(
      `${query} [${row.category}] -> ${result.status}${
        result.suggestions[0]
          ? `: ${result.suggestions
              .map((x) => x.label)
              .slice(0, 2)
              .join(' | ')}`
          : ''
      }`,
    );
    continue;
  }
  const d = haversineMeters(result.place.lat, result.place.lon, Number(row.lat), Number(row.lon));
  if (d <= 250) within250++;
  if (d <= 1000) {
    within1k++;
    cat.within1k++;
  } else if (d > WRONG_TOWN_M && !inTown(result.place, row.town ?? ''))
    wrong.push(`${query} -> ${result.place.label} (${(d / 1000).toFixed(1)} km off)`);
  else far.push(`${query} -> ${result.place.label} [${result.place.precision}] (${(d / 1000).toFixed(1)} km off)`);
}
times.sort((a, b) => a - b);
const pct = (x: number) => `${((100 * x) / list.length).toFixed(1)} %`;
const p = (q: number) => (times[Math.min(times.length - 1, Math.floor((q / 100) * times.length))] ?? NaN).toFixed(3);
const mb = (b: number) => `${(b / 1024 / 1024).toFixed(0)} MB`;

console.log(`${list.length} destinations (bench/data/destinations.csv)`);
console.log(`within 250 m: ${within250} (${pct(within250)})`);
console.log(`within 1 km:  ${within1k} (${pct(within1k)})`);
console.log(`wrong town (found, > 5 km off, another town): ${wrong.length}`);
console.log(`right town, more than 1 km off (a centre or an airfield point): ${far.length}`);
console.log(`refused with suggestions (422): ${refused} (${pct(refused)}); not found: ${notFound}`);
console.log(
  `query latency (median of ${TIMED_RUNS} runs each): p50 ${p(50)} ms, p99 ${p(99)} ms, max ${(times.at(-1) ?? NaN).toFixed(3)} ms`,
);
console.log(
  `memory after loading: heap ${mb(after.heapUsed)} (+${mb(after.heapUsed - before.heapUsed)}), rss ${mb(after.rss)}`,
);
console.log('\nwithin 1 km by category:');
for (const [category, c] of [...byCategory].sort()) console.log(`  ${category.padEnd(16)} ${c.within1k}/${c.n}`);
if (wrong.length > 0) console.log(`\nWRONG TOWN:\n  ${wrong.join('\n  ')}`);
if (far.length > 0) console.log(`\nright town, more than 1 km off:\n  ${far.join('\n  ')}`);
if (process.env.BENCH_VERBOSE) console.log(`\nrefused or not found:\n  ${missed.join('\n  ')}`);
process.exitCode = wrong.length > 0 ? 1 : 0;
