// Imports one way (issue 34, docs/architecture.md): runs dependency-cruiser with
// .dependency-cruiser.cjs, prints every rule it breaks, then counts the folder pairs that import
// each other and fails if there are more than MAX_MUTUAL_PAIRS. Part of `npm run lint`.
//
// A folder is an area: the first directory under src/, activities/ or workflows/ (src/bookings/request
// is part of src/bookings, workflows/bookings/v1 of workflows/bookings). Files directly in src/,
// activities/ or workflows/ (app.ts, worker.ts, config.ts, the registries index.ts) are the
// composition root and its shared kernel: a pair of such a root with a folder inside it is not
// counted (the root wires its folders in, and .dependency-cruiser.cjs bounds what the kernel may
// import instead). A type-only import counts like any other.
//
//   npx tsx scripts/check-import-directions.ts           the rules and the pairs
//   npx tsx scripts/check-import-directions.ts --why     also the imports behind each pair
import { execFile } from 'node:child_process';
import { posix } from 'node:path';
import { promisify } from 'node:util';

export const MAX_MUTUAL_PAIRS = 5;
const ROOTS = ['src', 'activities', 'workflows'];

interface CruiseModule {
  source: string;
  dependencies: { resolved: string; dependencyTypes: string[] }[];
}
interface CruiseViolation {
  from: string;
  to: string;
  rule: { name: string; severity: string };
}
interface CruiseResult {
  modules: CruiseModule[];
  summary: { violations: CruiseViolation[]; optionsUsed?: unknown };
}

/** The area a file belongs to: `src/bookings` for src/bookings/request/v1.ts, `src` for src/app.ts. */
export function areaOf(file: string): string {
  const parts = file.split('/');
  return parts.length > 2 ? `${parts[0]}/${parts[1]}` : parts[0]!;
}

export interface MutualPair {
  a: string;
  b: string;
  /** The imports from a into b, then from b into a: `file -> file`. */
  aToB: string[];
  bToA: string[];
}

/** Area pairs where each imports the other, a root and a folder inside it excepted. */
export function mutualPairs(modules: CruiseModule[]): MutualPair[] {
  const local = (f: string) => ROOTS.some((r) => f.startsWith(`${r}/`));
  const edges = new Map<string, string[]>();
  for (const m of modules) {
    if (!local(m.source)) continue;
    const from = areaOf(m.source);
    for (const dep of m.dependencies) {
      if (!local(dep.resolved)) continue;
      const to = areaOf(dep.resolved);
      if (from === to) continue;
      const key = `${from}|${to}`;
      const why = `${m.source} -> ${dep.resolved}${dep.dependencyTypes.includes('type-only') ? ' (type)' : ''}`;
      edges.set(key, [...(edges.get(key) ?? []), why]);
    }
  }
  const inside = (a: string, b: string) => posix.dirname(b) === a || posix.dirname(a) === b;
  const pairs: MutualPair[] = [];
  for (const [key, aToB] of edges) {
    const [a, b] = key.split('|') as [string, string];
    const bToA = edges.get(`${b}|${a}`);
    if (a < b && bToA && !inside(a, b)) pairs.push({ a, b, aToB, bToA });
  }
  return pairs.sort((x, y) => `${x.a}|${x.b}`.localeCompare(`${y.a}|${y.b}`));
}

async function cruise(): Promise<CruiseResult> {
  const { stdout } = await promisify(execFile)(
    'npx',
    ['depcruise', '--config', '.dependency-cruiser.cjs', '--output-type', 'json', ...ROOTS],
    { maxBuffer: 256 * 1024 * 1024 },
  ).catch((error: Error & { stdout?: string; stderr?: string }) => {
    // depcruise exits non-zero when a rule is broken; the JSON is on stdout all the same.
    if (error.stdout) return { stdout: error.stdout };
    throw new Error(`depcruise failed: ${error.stderr || error.message}`);
  });
  return JSON.parse(stdout) as CruiseResult;
}

async function main(): Promise<void> {
  const why = process.argv.includes('--why');
  const result = await cruise();
  const errors = result.summary.violations.filter((v) => v.rule.severity === 'error');
  for (const v of errors) console.log(`✗ ${v.rule.name}: ${v.from} -> ${v.to}`);
  if (errors.length > 0) console.log(`  (each rule says why in .dependency-cruiser.cjs)\n`);

  const pairs = mutualPairs(result.modules);
  console.log(`${pairs.length} folder pairs import each other (at most ${MAX_MUTUAL_PAIRS}):`);
  for (const p of pairs) {
    console.log(`  ${p.a} <-> ${p.b}  (${p.aToB.length} / ${p.bToA.length} imports)`);
    if (why) for (const line of [...p.aToB, ...p.bToA]) console.log(`      ${line}`);
  }
  if (errors.length > 0 || pairs.length > MAX_MUTUAL_PAIRS) {
    console.log('\nImports go one way: areas import the model and infrastructure, not each other both ways.');
    console.log('See docs/architecture.md; `npx tsx scripts/check-import-directions.ts --why` lists the imports.');
    process.exitCode = 1;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
