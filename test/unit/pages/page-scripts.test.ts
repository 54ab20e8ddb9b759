import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import {
  PAGE_SCRIPTS,
  bundlePageScripts,
  pageScriptAssets,
  writePageScripts,
} from '../../../src/pages/page-scripts.js';

// The pages' scripts (docs/pages.md): TypeScript modules in src/pages/browser/, bundled by esbuild
// and served like Leaflet. None is left as text inside a page module.

const pages = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../src/pages');
const out = mkdtempSync(path.join(tmpdir(), 'page-scripts-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('page scripts', () => {
  it('serves every entry as one self-contained script, its URL versioned and pinned by its content', () => {
    const assets = pageScriptAssets();
    expect([...assets.keys()].sort()).toEqual([...PAGE_SCRIPTS].sort());
    for (const [name, asset] of assets) {
      const text = asset.body.toString('utf8');
      const version = createHash('sha256').update(asset.body).digest('hex').slice(0, 12);
      expect(asset.href).toBe(`/assets/pages/${name}.js?v=${version}`);
      expect(asset.integrity).toBe(`sha384-${createHash('sha384').update(asset.body).digest('base64')}`);
      expect(asset.contentType).toBe('text/javascript; charset=utf-8');
      // A classic script: everything it imports is inside it.
      expect(text, name).toMatch(/^"use strict";\(\(\)=>\{/);
      expect(text, name).not.toMatch(/\bimport\s*[{("'*]|\brequire\(/);
    }
  });

  it('builds for production exactly what it builds from the sources', () => {
    writePageScripts(out);
    const built = bundlePageScripts();
    expect(readdirSync(out).sort()).toEqual(PAGE_SCRIPTS.map((n) => `${n}.js`).sort());
    for (const name of PAGE_SCRIPTS) {
      expect(readFileSync(path.join(out, `${name}.js`)).equals(built.get(name)!), name).toBe(true);
    }
  });

  it('leaves no script code in the page modules', () => {
    for (const file of readdirSync(pages).filter((f) => f.endsWith('.ts'))) {
      const text = readFileSync(path.join(pages, file), 'utf8');
      expect(text, file).not.toMatch(/document\.|addEventListener|getElementById|<script>/);
    }
  });
});
