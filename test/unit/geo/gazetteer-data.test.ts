import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SOURCE_FILES, type GazetteerFile } from '../../../src/geo/gazetteer-file.js';

const dir = new URL('../../../data/gazetteer/', import.meta.url);

describe('bundled gazetteer data', () => {
  it('was built from the CSVs beside it (re-run scripts/build-gazetteer.ts after changing them)', () => {
    const built = JSON.parse(readFileSync(new URL('gazetteer.json', dir), 'utf8')) as GazetteerFile;
    for (const file of SOURCE_FILES) {
      const sha256 = createHash('sha256')
        .update(readFileSync(new URL(file, dir), 'utf8'))
        .digest('hex');
      expect(built.sources[file], file).toBe(sha256);
    }
  });

  it('ships the licence and attribution notes with the data', () => {
    const licences = readFileSync(new URL('LICENCES.md', dir), 'utf8');
    for (const file of SOURCE_FILES) expect(licences).toContain(file);
    expect(licences).toContain('ODbL');
    expect(licences).toContain('Open Government Licence');
  });

  it('stays small enough to commit', () => {
    const bytes = [...SOURCE_FILES, 'gazetteer.json']
      .map((file) => new URL(file, dir))
      .filter((url) => existsSync(url))
      .reduce((sum, url) => sum + statSync(url).size, 0);
    expect(bytes).toBeLessThan(15 * 1024 * 1024);
  });
});
