import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadGazetteerSync } from '../../../src/geo/gazetteer.js';
import { parseQueryText } from '../../../src/geo/query-text.js';
import { DEFAULT_STREETS_PATH, StreetIndex } from '../../../src/geo/streets.js';

// The API builds the street index in slices (so a quote arriving at start-up is not held up);
// a query that cannot wait reads it in one go. Both must know the same streets.
describe('street index', () => {
  const text = readFileSync(DEFAULT_STREETS_PATH, 'utf8');
  const gazetteer = loadGazetteerSync();

  it('knows the same streets whether built in slices or in one go', async () => {
    const whole = StreetIndex.fromCsv(text);
    const sliced = await StreetIndex.fromCsvInSlices(text);
    expect(sliced.size).toBe(whole.size);
    expect(sliced.size).toBeGreaterThan(40_000);
    for (const query of [
      'Sauchiehall Street, Glasgow',
      'High Street, Bracknell',
      'Mansfield Road, Nottingham',
      'Princes St Edinburgh',
    ]) {
      const a = whole.find(gazetteer, parseQueryText(query));
      expect(a, query).not.toBeNull();
      expect(sliced.find(gazetteer, parseQueryText(query)), query).toEqual(a);
    }
  });

  it('keeps the last row of a file without a final line break', async () => {
    const csv =
      'name,district,lat,lon,town,source_id\nBold Street,L1,53.4020,-2.9800,Liverpool,x\nDeansgate,M3,53.4790,-2.2490,Manchester,y';
    const index = await StreetIndex.fromCsvInSlices(csv);
    expect(index.size).toBe(2);
    expect(index.find(gazetteer, parseQueryText('1 Deansgate, Manchester'))).toMatchObject({
      kind: 'street',
      postcodeDistrict: 'M3',
    });
  });
});
