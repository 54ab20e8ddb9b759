// The estimate's distance against OSRM's road distance on the Rutland graph (data/osm/, © OpenStreetMap
// contributors, ODbL), for seeded random point pairs inside Rutland and the four trips of issue 36,
// with three factors side by side: the service's own (estimate-router.ts), a least-squares fit of the
// same form to the ratios in ../shared/data/tariff-facts-2026-12.md, and one fitted to ratios this
// bench measures on a second, independent sample (seed + 1). docs/benchmarks.md, "Road distance".
//   npx tsx bench/road-distance.ts        (BENCH_PAIRS=200 BENCH_SEED=36 by default)
// Builds the graph with scripts/install-osrm.sh when it is missing, and starts its own osrm-routed.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { freePort } from '../dev/free-port.js';
import { circuityFactor, ESTIMATE_MODEL } from '../src/geo/estimate-router.js';
import { haversineMeters } from '../src/geo/haversine.js';
import { createGeoProviders, preloadGazetteer } from '../src/geo/index.js';

const PAIRS = Number(process.env.BENCH_PAIRS ?? 200);
const SEED = Number(process.env.BENCH_SEED ?? 36);
// Rutland's bounding box; points whose nearest road is more than SNAP_LIMIT_M away (outside the
// extract, or in a field far from any road) are drawn again.
const BOX = { south: 52.525, north: 52.76, west: -0.83, east: -0.43 };
const SNAP_LIMIT_M = 250;
const MIN_STRAIGHT_M = 500;
const ISSUE_TRIPS: [string, string][] = [
  ['Oakham station', 'Uppingham, Rutland'], // the issue's "Uppingham School" is not in the gazetteer
  ['Oakham, Rutland', 'Empingham, Rutland'],
  ['Uppingham, Rutland', 'Whitwell, Rutland'],
  ['LE15 6RH', 'Oakham station'],
];

// Road ÷ straight line, medians of 400 random pairs per 5 km band, measured with OSRM on this extract
// (tariff-facts-2026-12.md, "Road distance").
const FACTS_RATIOS = [
  { km: 2.5, ratio: 1.71 },
  { km: 7.5, ratio: 1.47 },
  { km: 12.5, ratio: 1.53 },
  { km: 17.5, ratio: 1.43 },
  { km: 22.5, ratio: 1.42 },
];
const BANDS = [0, 5, 10, 15, 20, 25];

type Factor = (straightMeters: number) => number;

/** Least squares of ratio = a − b·ln(km) at each band's middle; clamped as the service's is, to [1.25, 1.9]. */
function logFit(points: { km: number; ratio: number }[]): { a: number; b: number; factor: Factor } {
  const xs = points.map((p) => Math.log(p.km));
  const ys = points.map((p) => p.ratio);
  const mx = xs.reduce((s, x) => s + x, 0) / xs.length;
  const my = ys.reduce((s, y) => s + y, 0) / ys.length;
  let sxy = 0;
  let sxx = 0;
  xs.forEach((x, i) => {
    sxy += (x - mx) * (ys[i]! - my);
    sxx += (x - mx) ** 2;
  });
  const b = -sxy / sxx;
  const a = my + b * mx;
  const factor: Factor = (m) => Math.min(1.9, Math.max(1.25, a - b * Math.log(Math.max(m, 1) / 1000)));
  return { a, b, factor };
}

const estimate = (straight: number, factor: Factor) => Math.max(500, straight * factor(straight));

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Road {
  meters: number;
  from: [number, number];
  to: [number, number];
  snap: number;
}

async function osrmRoad(base: string, a: [number, number], b: [number, number]): Promise<Road | null> {
  const url = `${base}/route/v1/driving/${a[0]},${a[1]};${b[0]},${b[1]}?overview=false`;
  // osrm-routed closes a kept-alive connection after a number of requests: ask again once.
  const res = await fetch(url).catch(() => fetch(url));
  const body = (await res.json()) as {
    code: string;
    routes?: { distance: number }[];
    waypoints?: { location: [number, number]; distance: number }[];
  };
  const route = body.routes?.[0];
  const [wa, wb] = body.waypoints ?? [];
  if (body.code !== 'Ok' || !route || !wa || !wb) return null;
  return { meters: route.distance, from: wa.location, to: wb.location, snap: Math.max(wa.distance, wb.distance) };
}

async function startOsrm(root: string, port: number): Promise<ChildProcess> {
  const dir = path.join(root, '.tools/osrm');
  if (!existsSync(path.join(dir, 'rutland/.complete'))) {
    execFileSync('bash', [path.join(root, 'scripts/install-osrm.sh')], { stdio: 'inherit' });
  }
  const child = spawn(
    path.join(dir, 'run.sh'),
    [
      'osrm-routed',
      '--algorithm',
      'mld',
      '--ip',
      '127.0.0.1',
      '--port',
      String(port),
      path.join(dir, 'rutland/rutland.osrm'),
    ],
    { stdio: 'ignore' },
  );
  for (let attempt = 0; attempt < 600; attempt++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/route/v1/driving/-0.7266,52.6708;-0.7214,52.5895`)).ok) return child;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill();
  throw new Error('osrm-routed did not start');
}

interface Pair {
  straight: number;
  road: number;
}
interface Sample extends Pair {
  estimates: number[];
}

/** Seeded random pairs of points on Rutland's roads (snapped by OSRM), with their road distance. */
async function sample(base: string, seed: number, count: number): Promise<{ pairs: Pair[]; drawn: number }> {
  const random = mulberry32(seed);
  const pairs: Pair[] = [];
  let drawn = 0;
  while (pairs.length < count && drawn < count * 20) {
    drawn++;
    const point = (): [number, number] => [
      BOX.west + random() * (BOX.east - BOX.west),
      BOX.south + random() * (BOX.north - BOX.south),
    ];
    const road = await osrmRoad(base, point(), point());
    if (!road || road.snap > SNAP_LIMIT_M) continue;
    // Both the estimate and the road start from the points on the road network.
    const straight = haversineMeters(road.from[1], road.from[0], road.to[1], road.to[0]);
    if (straight < MIN_STRAIGHT_M) continue;
    pairs.push({ straight, road: road.meters });
  }
  return { pairs, drawn };
}

const pct = (x: number) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)} %`;
const median = (xs: number[]) => {
  const s = [...xs].sort((p, q) => p - q);
  const m = Math.floor(s.length / 2);
  return s.length === 0 ? NaN : s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((p, r) => p - r);
  return s.length === 0 ? NaN : s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
};

function summarise(label: string, samples: Sample[]): void {
  if (samples.length === 0) return;
  const cell = (k: number) => {
    const e = samples.map((s) => s.estimates[k]! / s.road - 1);
    const abs = e.map(Math.abs);
    const within = Math.round((abs.filter((a) => a <= 0.1).length / e.length) * 100);
    return `${pct(median(e))} / ${pct(median(abs)).slice(1)} / ${pct(quantile(abs, 0.9)).slice(1)} / ${within} %`;
  };
  const ratio = median(samples.map((s) => s.road / s.straight)).toFixed(2);
  const cells = samples[0]!.estimates.map((_, k) => cell(k));
  console.log(`| ${label} | ${samples.length} | ${ratio} | ${cells.join(' | ')} |`);
}

async function main(): Promise<void> {
  const root = path.resolve(import.meta.dirname, '..');
  const port = await freePort();
  const osrm = await startOsrm(root, port);
  const base = `http://127.0.0.1:${port}`;
  try {
    const fitting = await sample(base, SEED + 1, PAIRS);
    const measured = BANDS.slice(0, -1).flatMap((lo, i) => {
      const inBand = fitting.pairs.filter((p) => p.straight >= lo * 1000 && p.straight < BANDS[i + 1]! * 1000);
      return inBand.length >= 5 ? [{ km: lo + 2.5, ratio: median(inBand.map((p) => p.road / p.straight)) }] : [];
    });
    const facts = logFit(FACTS_RATIOS);
    const own = logFit(measured);
    const factors: [string, Factor][] = [
      ['service', circuityFactor],
      ['facts fit', facts.factor],
      ['Rutland fit', own.factor],
    ];
    const { pairs, drawn } = await sample(base, SEED, PAIRS);
    const samples: Sample[] = pairs.map((p) => ({ ...p, estimates: factors.map(([, f]) => estimate(p.straight, f)) }));

    console.log(`Rutland, OSRM car profile (MLD); seed ${SEED}: ${samples.length} pairs from ${drawn} drawn`);
    console.log(`service: ${ESTIMATE_MODEL}`);
    console.log(
      `facts fit: Q = ${facts.a.toFixed(3)} − ${facts.b.toFixed(3)}·ln(d_km), to ${JSON.stringify(FACTS_RATIOS)}`,
    );
    console.log(
      `Rutland fit: Q = ${own.a.toFixed(3)} − ${own.b.toFixed(3)}·ln(d_km), to medians of seed ${SEED + 1}: ${JSON.stringify(measured.map((m) => ({ km: m.km, ratio: Number(m.ratio.toFixed(3)) })))}`,
    );
    console.log(
      'error = estimate ÷ road − 1; each factor: median error / median |error| / p90 |error| / share within ±10 %\n',
    );
    console.log(`| pairs | n | road ÷ straight (median) | ${factors.map(([name]) => name).join(' | ')} |`);
    console.log(`|---|---|---|${factors.map(() => '---|').join('')}`);
    summarise('all', samples);
    for (const [lo, hi] of [
      [0, 5],
      [5, 10],
      [10, 15],
      [15, 20],
      [20, 30],
    ] as const) {
      summarise(
        `${lo}–${hi} km`,
        samples.filter((s) => s.straight >= lo * 1000 && s.straight < hi * 1000),
      );
    }

    await preloadGazetteer();
    const { geocoder } = createGeoProviders({ geocoder: 'embedded', router: 'estimate' });
    console.log(`\n| trip | straight | road (OSRM) | ${factors.map(([name]) => `${name} (÷ road)`).join(' | ')} |`);
    console.log(`|---|---|---|${factors.map(() => '---|').join('')}`);
    for (const [a, b] of ISSUE_TRIPS) {
      const [from, to] = await Promise.all([geocoder.geocode(a), geocoder.geocode(b)]);
      if (!from || !to) {
        console.log(`| ${a} → ${b} | not geocoded | | | | | |`);
        continue;
      }
      const road = await osrmRoad(base, [from.lon, from.lat], [to.lon, to.lat]);
      const straight = haversineMeters(from.lat, from.lon, to.lat, to.lon);
      const km = (m: number) => `${(m / 1000).toFixed(2)} km`;
      const cells = factors.map(([, f]) => {
        const e = estimate(straight, f);
        return road ? `${km(e)} (${(e / road.meters).toFixed(2)})` : km(e);
      });
      console.log(`| ${a} → ${b} | ${km(straight)} | ${road ? km(road.meters) : 'no route'} | ${cells.join(' | ')} |`);
    }
  } finally {
    osrm.kill();
  }
}

await main();
