// What a council's meter shows for a distance and a time, on the table in force at a moment in an
// area, with the lines that make it up (issue 36, item 3; docs/pricing.md). It reads the tariff
// data in data/tariffs/ and needs no running service; ops have the same at GET /api/ops/meter.
//   npm run meter -- --area london-tfl --at "2023-08-15 14:00" --miles 2 --minutes 6
//   npm run meter -- --area manchester --at 2026-12-25T23:30 --meters 8000 --seconds 900
//   npm run meter -- --areas                      the areas there are
import { scriptArgs } from './script-args.js';
import { meterAreas, meterQuestion, meterReading, type MeterAsked } from '../src/pricing/meter-calculator.js';
import { Refusal } from '../src/refusal.js';

/** The reading as lines a person checks against the council's table. */
export function meterLines(asked: MeterAsked): string[] {
  const q = meterQuestion(asked);
  const m = meterReading(q);
  const pounds = (p: number) => `£${(p / 100).toFixed(2)}`;
  const miles = (q.distanceMeters / 1609.344).toFixed(2);
  return [
    `${m.authority} (${m.areaId}), table from ${m.effectiveFrom}, ${m.status}${m.provisional ? ', provisional' : ''}`,
    `${m.period}, at ${m.localAt} (London)`,
    `${miles} miles (${q.distanceMeters} m) in ${(q.durationSeconds / 60).toFixed(1)} min`,
    `Meter: ${pounds(m.meterPence)}`,
    ...m.rules.map((r) => `  ${r.code}: ${r.description}${r.amountPence !== 0 ? ` (${pounds(r.amountPence)})` : ''}`),
    ...m.sources.map((s) => `  source: ${s}`),
  ];
}

function main(): void {
  const values = scriptArgs(
    {
      area: { type: 'string' },
      at: { type: 'string' },
      miles: { type: 'string' },
      meters: { type: 'string' },
      minutes: { type: 'string' },
      seconds: { type: 'string' },
      country: { type: 'string' },
      areas: { type: 'boolean' },
    },
    'usage: npm run meter -- --area <id> --at "<London date and time>" (--miles N | --meters N) (--minutes N | --seconds N) [--country <code>]\n       npm run meter -- --areas',
  );
  if (values.areas || !values.area) {
    for (const a of meterAreas()) console.log(`${a.id}\t${a.authority}`);
    if (!values.areas) console.error('\nGive --area, --at, --miles (or --meters) and --minutes (or --seconds).');
    return;
  }
  const num = (v: string | undefined) => (v === undefined ? undefined : Number(v));
  try {
    const lines = meterLines({
      area: values.area,
      at: values.at ?? new Date().toISOString(),
      miles: num(values.miles),
      meters: num(values.meters),
      minutes: num(values.minutes),
      seconds: num(values.seconds),
      country: values.country as MeterAsked['country'],
    });
    console.log(lines.join('\n'));
  } catch (err) {
    if (!(err instanceof Refusal)) throw err;
    console.error(`${err.message}${err.fields.map((f) => ` ${f.name} ${f.message}.`).join('')}`);
    process.exitCode = 2;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) main();
