import { beforeAll, describe, expect, it } from 'vitest';
import {
  loadAddressCases,
  judge,
  summarise,
  POSTCODE_NEAR_M,
  type AddressOutcome,
} from '../../../bench/geocode-addresses-eval.js';
import { createGeoProviders, preloadGazetteer } from '../../../src/geo/index.js';
import { PRECISIONS } from '../../../src/geo/types.js';

// The address benchmark (bench/data/addresses.csv, sources in bench/data/ADDRESSES-SOURCES.md):
// real addresses from published lists of hospitals and museums, each asked as written and with its
// full postcode. bench/geocode-addresses.ts prints the same figures beside its baselines.
const { geocoder } = createGeoProviders({ geocoder: 'embedded', router: 'estimate' });
const cases = loadAddressCases();
let outcomes: AddressOutcome[] = [];

beforeAll(async () => {
  await preloadGazetteer();
  outcomes = [];
  for (const c of cases) outcomes.push(judge(c, await geocoder.resolve(c.query)));
}, 60_000);

describe('address benchmark', () => {
  it('holds at least 300 real addresses and postcodes across the regions, each with its source and position', () => {
    expect(cases.length).toBeGreaterThanOrEqual(300);
    const regions = new Set(cases.map((c) => c.region));
    for (const region of [
      'London',
      'Greater Manchester',
      'West Yorkshire',
      'Birmingham',
      'Glasgow',
      'Cardiff',
      'Belfast',
      'Crown Dependencies',
    ]) {
      expect(regions, region).toContain(region);
    }
    expect(cases.filter((c) => c.streetNamedAfterTown).length).toBeGreaterThanOrEqual(50);
    for (const c of cases) {
      expect(c.source, c.id).not.toBe('');
      expect(Number.isFinite(c.lat) && Number.isFinite(c.lon), c.id).toBe(true);
    }
  });

  it('answers no address in the wrong town', () => {
    const wrong = summarise(outcomes).wrongTown.map((o) => `${o.case.query} → ${o.place?.label ?? ''}: ${o.why ?? ''}`);
    expect(wrong).toEqual([]);
  });

  it(`places at least 90 % of Great Britain's full postcodes within ${POSTCODE_NEAR_M} m of the published position`, () => {
    const figures = summarise(outcomes);
    expect(figures.gbFullPostcodes).toBeGreaterThanOrEqual(300);
    expect(figures.gbFullPostcodesNear / figures.gbFullPostcodes).toBeGreaterThanOrEqual(0.9);
  });

  it('says how precise every answer is', () => {
    for (const o of outcomes) if (o.place) expect(PRECISIONS, o.case.query).toContain(o.place.precision);
  });

  it('never offers a suggestion outside the island or Northern Ireland its postcode names', async () => {
    for (const c of cases.filter(
      (x) => x.kind === 'full_postcode' && ['Isle of Man', 'Jersey', 'Guernsey'].includes(x.country),
    )) {
      const result = await geocoder.resolve(c.query);
      if (result.status === 'found') expect(result.place.country, c.query).toBe(c.country);
      else for (const s of result.suggestions) expect(s.label, c.query).toContain(c.country);
    }
  });
});
