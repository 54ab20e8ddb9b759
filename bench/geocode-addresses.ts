// The address benchmark (bench/data/addresses.csv: real addresses with full postcodes, each with
// its source and published position): how many answers land in the wrong town, how many full
// postcodes land within 150 m, the precision of every answer, per region; beside two baselines
// measured in the same run. Not a test (test/unit/geo/addresses-benchmark.test.ts asserts the
// same figures in CI): prints them for docs/benchmarks.md.
//   npx tsx bench/geocode-addresses.ts            (current geocoder, postcode-only, previous geocoder)
//   npx tsx bench/geocode-addresses.ts --wrong    (also list every wrong-town answer)
//
// Baselines: "postcode only" answers a query from its postcode alone (the unit's point, else its
// sector, else its district; Crown dependency postcodes at the island's main town) and refuses
// without one. "previous geocoder" is src/geo and gazetteer.json as of BASELINE_COMMIT (before
// issue 23 item 2), checked out from git into node_modules/.cache and run on the same queries.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { resolveWith } from '../src/geo/embedded-geocoder.js';
import { CROWN_DEPENDENCIES } from '../src/geo/crown-dependencies.js';
import { loadGazetteerSync, type Gazetteer } from '../src/geo/gazetteer.js';
import { postcodeUnits } from '../src/geo/postcode-units.js';
import { findPostcode } from '../src/geo/query-text.js';
import { streetIndex } from '../src/geo/streets.js';
import type { GeocodeResult, GeoLocation } from '../src/geo/types.js';
import {
  ISLAND_KM,
  NAMED_TOWN_CENTRE_KM,
  POSTCODE_NEAR_M,
  WRONG_TOWN_KM,
  loadAddressCases,
  runCases,
  summarise,
  type AddressFigures,
  type AddressOutcome,
} from './geocode-addresses-eval.js';

const BASELINE_COMMIT = '57818d1';
const ROOT = fileURLToPath(new URL('..', import.meta.url));

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

function timed(resolve: (q: string) => GeocodeResult): { run: (q: string) => GeocodeResult; ms: number[] } {
  const ms: number[] = [];
  return {
    ms,
    run: (q) => {
      const start = performance.now();
      const result = resolve(q);
      ms.push(performance.now() - start);
      return result;
    },
  };
}

/** The postcode alone, as a lookup table would answer. */
function postcodeOnly(gazetteer: Gazetteer): (q: string) => GeocodeResult {
  return (query) => {
    const found = findPostcode(query)?.found;
    const refuse: GeocodeResult = { status: 'not_found', place: null, suggestions: [] };
    if (!found) return refuse;
    const base = {
      kind: 'postcode' as const,
      postcodeDistrict: found.outcode,
      council: null,
      region: null,
      inUk: true,
      confidence: 1,
      town: null,
    };
    const unit = postcodeUnits()?.find(found.postcode);
    if (unit)
      return {
        status: 'found',
        place: { ...base, label: found.postcode, lat: unit.lat, lon: unit.lon, country: null, precision: 'postcode' },
      };
    const area = gazetteer.sector(found.sector) ?? gazetteer.district(found.outcode);
    if (area) {
      const precision = area.code.includes(' ') ? 'postcode_sector' : 'postcode_district';
      return {
        status: 'found',
        place: { ...base, label: found.postcode, lat: area.lat, lon: area.lon, country: area.country, precision },
      };
    }
    const island = CROWN_DEPENDENCIES.find((c) => c.postcodeArea === found.area);
    if (!island) return refuse;
    const place: GeoLocation = {
      ...base,
      kind: 'postcode_district',
      label: found.postcode,
      lat: island.lat,
      lon: island.lon,
      country: island.country,
      inUk: false,
      precision: 'town_centre',
    };
    return { status: 'found', place };
  };
}

/** src/geo and gazetteer.json as of BASELINE_COMMIT, beside the current data files they also read. */
async function previousGeocoder(): Promise<((q: string) => GeocodeResult) | null> {
  const dir = `${ROOT}node_modules/.cache/geocode-baseline-${BASELINE_COMMIT}/`;
  try {
    if (!existsSync(`${dir}src/geo/embedded-geocoder.ts`)) {
      mkdirSync(`${dir}src/geo`, { recursive: true });
      mkdirSync(`${dir}data/gazetteer`, { recursive: true });
      const files = execFileSync('git', ['ls-tree', '--name-only', BASELINE_COMMIT, 'src/geo/'], {
        cwd: ROOT,
        encoding: 'utf8',
      })
        .trim()
        .split('\n');
      for (const file of files.filter((f) => f.endsWith('.ts'))) {
        writeFileSync(
          `${dir}${file}`,
          execFileSync('git', ['show', `${BASELINE_COMMIT}:${file}`], { cwd: ROOT, maxBuffer: 1 << 26 }),
        );
      }
      const json = execFileSync('git', ['show', `${BASELINE_COMMIT}:data/gazetteer/gazetteer.json`], {
        cwd: ROOT,
        maxBuffer: 1 << 28,
      });
      writeFileSync(`${dir}data/gazetteer/gazetteer.json`, json);
      // Unchanged since: streets and unit postcodes.
      for (const f of ['streets.csv', 'postcode_units.bin.gz'])
        symlinkSync(`${ROOT}data/gazetteer/${f}`, `${dir}data/gazetteer/${f}`);
    }
    const geocoder = (await import(pathToFileURL(`${dir}src/geo/embedded-geocoder.ts`).href)) as {
      resolveWith: typeof resolveWith;
    };
    const gazetteerModule = (await import(pathToFileURL(`${dir}src/geo/gazetteer.ts`).href)) as {
      loadGazetteerSync: () => Gazetteer;
    };
    const gazetteer = gazetteerModule.loadGazetteerSync();
    return (q) => geocoder.resolveWith(gazetteer, q);
  } catch (err) {
    console.error(`previous geocoder unavailable (${String(err)})`);
    return null;
  }
}

function line(name: string, f: AddressFigures, ms: number[]): string {
  const sorted = [...ms].sort((a, b) => a - b);
  const pct = (n: number, d: number) => (d === 0 ? '-' : `${((100 * n) / d).toFixed(1)} %`);
  return (
    `| ${name} | ${f.found} / ${f.total} | ${f.refused} | **${f.wrongTown.length}** | ${f.streetsNamedAfterTownsWrong} / ${f.streetsNamedAfterTowns} | ` +
    `${pct(f.gbFullPostcodesNear, f.gbFullPostcodes)} | ${pct(f.fullPostcodesNear, f.fullPostcodes)} | ${f.missingPrecision} | ` +
    `${percentile(sorted, 50).toFixed(2)} / ${percentile(sorted, 99).toFixed(2)} ms |`
  );
}

const cases = loadAddressCases();
const loadStart = performance.now();
const gazetteer = loadGazetteerSync();
streetIndex();
postcodeUnits();
const loadMs = performance.now() - loadStart;

// Each geocoder answers the whole set TIMED_PASSES times, interleaved, after one warm-up pass that
// gives the outcomes; the times are of every later pass (the machine is shared: interleaving
// spreads its load over all three alike).
const TIMED_PASSES = 5;
const current = timed((q) => resolveWith(gazetteer, q));
const pcOnly = timed(postcodeOnly(gazetteer));
const previous = await previousGeocoder();
const prev = previous ? timed(previous) : null;
const outcomes = runCases(cases, (q) => resolveWith(gazetteer, q));
const figures = summarise(outcomes);
const pcFigures = summarise(runCases(cases, postcodeOnly(gazetteer)));
const prevOutcomes = previous ? runCases(cases, previous) : null;
const prevFigures = prevOutcomes ? summarise(prevOutcomes) : null;
for (let pass = 0; pass < TIMED_PASSES; pass++) {
  for (const c of cases) {
    current.run(c.query);
    pcOnly.run(c.query);
    prev?.run(c.query);
  }
}

const regions = new Set(cases.map((c) => c.region));
const addresses = new Set(cases.map((c) => `${c.source}`)).size;
console.log(
  `${cases.length} queries (${addresses} addresses × street address / full postcode), ${cases.filter((c) => c.streetNamedAfterTown).length} on streets named after towns; ` +
    `data loaded in ${loadMs.toFixed(0)} ms (gazetteer, streets, unit postcodes, sync)`,
);
console.log(
  `wrong town: in another country, or farther from the published position than ` +
    `${Object.entries(WRONG_TOWN_KM)
      .map(([p, km]) => `${km} km (${p})`)
      .join(', ')}; ${NAMED_TOWN_CENTRE_KM} km for the centre of the town the address names, ` +
    `${ISLAND_KM} km for a Jersey/Guernsey postcode at the island's main town. Near: within ${POSTCODE_NEAR_M} m.\n`,
);
console.log(
  `| geocoder | answered | refused (422) | wrong town | wrong town, streets named after towns | GB full postcodes within 150 m | all full postcodes within 150 m | answers without precision | p50 / p99 per query (${TIMED_PASSES} passes) |`,
);
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
console.log(line('current', figures, current.ms));
if (prevFigures && prev) console.log(line(`previous (${BASELINE_COMMIT})`, prevFigures, prev.ms));
console.log(line('postcode only', pcFigures, pcOnly.ms));

console.log('\nCurrent geocoder per region:\n');
console.log(
  '| region | queries | answered | wrong town | point | postcode | street | sector | district | town centre | refused |',
);
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const region of [...regions].sort()) {
  const rows = outcomes.filter((o) => o.case.region === region);
  const count = (p: string) => rows.filter((o) => (o.place?.precision ?? 'refused') === p).length;
  console.log(
    `| ${region} | ${rows.length} | ${rows.filter((o) => o.status === 'found').length} | ${rows.filter((o) => o.wrongTown).length} | ` +
      `${count('point')} | ${count('postcode')} | ${count('street')} | ${count('postcode_sector')} | ${count('postcode_district')} | ${count('town_centre')} | ${count('refused')} |`,
  );
}
const totalCount = (p: string) => outcomes.filter((o) => (o.place?.precision ?? 'refused') === p).length;
console.log(
  `| all | ${outcomes.length} | ${figures.found} | ${figures.wrongTown.length} | ${totalCount('point')} | ${totalCount('postcode')} | ${totalCount('street')} | ` +
    `${totalCount('postcode_sector')} | ${totalCount('postcode_district')} | ${totalCount('town_centre')} | ${totalCount('refused')} |`,
);
const median = figures.medianStreetAddressKm;
console.log(
  `\nStreet addresses (no postcode) answered: median ${median === null ? '-' : median.toFixed(2)} km from the published position.`,
);

const show = (name: string, list: AddressOutcome[]) => {
  for (const o of list)
    console.log(
      `  ${name}: "${o.case.query}" → ${o.place?.label ?? '-'} (${o.place?.precision ?? '-'}): ${o.why ?? ''}`,
    );
};
if (process.argv.includes('--wrong')) {
  show('current', figures.wrongTown);
  if (prevFigures) show('previous', prevFigures.wrongTown);
} else if (prevFigures) {
  console.log(`Previous geocoder's wrong towns, a sample (--wrong lists all):`);
  show('previous', prevFigures.wrongTown.slice(0, 8));
}
