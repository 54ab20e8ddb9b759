import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { hashedAsset, type StaticAsset } from './map-assets.js';

// The pages' browser code: TypeScript modules in src/pages/browser/ (docs/pages.md), one entry per
// script a page loads, bundled by esbuild into one self-contained file each and served by this
// service like Leaflet (/assets/pages/<name>.js?v=<hash>, pinned by Subresource Integrity), so a
// page's CSP allows scripts from 'self' and nothing inline.
//
// Where the bundles come from: `npm run build` writes them beside the compiled code
// (build/src/pages/bundles/, scripts/build-page-scripts.ts) and production reads them from there;
// run from the sources (npm start, the tests) there is no such directory and they are built here,
// in memory, the first time a page asks. Either way once per process, with the same options.

/** Each is src/pages/browser/<name>.ts. */
export const PAGE_SCRIPTS = [
  'apply',
  'book',
  'book-refine',
  'book-requote',
  'driver-app',
  'job-offer',
  'job-trip',
  'operator',
  'ops',
  'ops-bookings',
  'ops-invoices',
  'ops-records',
  'track',
] as const;
export type PageScriptName = (typeof PAGE_SCRIPTS)[number];

const here = path.dirname(fileURLToPath(import.meta.url));
export const PAGE_SCRIPT_SOURCES = path.join(here, 'browser');
const PREBUILT = path.join(here, 'bundles');

/** esbuild's bundles of every page script, by name. */
export function bundlePageScripts(sources = PAGE_SCRIPT_SOURCES): Map<PageScriptName, Buffer> {
  // Loaded only here: production never bundles, so it never starts esbuild.
  const { buildSync } = createRequire(import.meta.url)('esbuild') as typeof import('esbuild');
  const result = buildSync({
    entryPoints: PAGE_SCRIPTS.map((name) => ({ in: path.join(sources, `${name}.ts`), out: name })),
    tsconfig: path.join(sources, 'tsconfig.json'),
    bundle: true,
    write: false,
    outdir: path.join(sources, 'out'),
    // Classic scripts, run where the page puts them (the end of <body>), after Leaflet's global L.
    format: 'iife',
    platform: 'browser',
    // What the phones drivers and passengers carry run; newer syntax is lowered to it.
    target: 'es2020',
    minify: true,
    legalComments: 'none',
    charset: 'utf8',
    logLevel: 'silent',
  });
  const bundles = new Map<PageScriptName, Buffer>();
  for (const file of result.outputFiles) {
    bundles.set(path.basename(file.path, '.js') as PageScriptName, Buffer.from(file.contents));
  }
  return bundles;
}

/** `npm run build`: the bundles as files, for production to read instead of building them. */
export function writePageScripts(outDir: string, sources = PAGE_SCRIPT_SOURCES): void {
  mkdirSync(outDir, { recursive: true });
  for (const [name, body] of bundlePageScripts(sources)) writeFileSync(path.join(outDir, `${name}.js`), body);
}

function readPrebuilt(): Map<PageScriptName, Buffer> {
  return new Map(PAGE_SCRIPTS.map((name) => [name, readFileSync(path.join(PREBUILT, `${name}.js`))]));
}

let assets: ReadonlyMap<PageScriptName, StaticAsset> | undefined;

/** Every page script as served, built or read once. */
export function pageScriptAssets(): ReadonlyMap<PageScriptName, StaticAsset> {
  if (!assets) {
    // The compiled service has src/pages/browser/ too (the modules the server shares), never its tsconfig.
    if (!existsSync(PREBUILT) && !existsSync(path.join(PAGE_SCRIPT_SOURCES, 'tsconfig.json'))) {
      throw new Error(`The page scripts are not built: ${PREBUILT} is missing (npm run build writes it).`);
    }
    const bodies = existsSync(PREBUILT) ? readPrebuilt() : bundlePageScripts();
    assets = new Map(
      PAGE_SCRIPTS.map((name) => [
        name,
        hashedAsset(`/assets/pages/${name}.js`, bodies.get(name)!, 'text/javascript; charset=utf-8'),
      ]),
    );
  }
  return assets;
}

/** The script a page loads (layout({ script })). */
export function pageScript(name: PageScriptName): StaticAsset {
  return pageScriptAssets().get(name)!;
}
