import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { TariffAreaSchema, type TariffArea, type TariffVersion } from './tariff-schema.js';
import { DATA_DIR } from './data-dir.js';

export const NATIONAL_DEFAULT_AREA = 'national-default';
export const TARIFF_DIR = join(DATA_DIR, 'tariffs');
/** Files in data/tariffs/ that are not area tariffs. */
const NOT_AREA_FILES = new Set(['area-map.json']);

/** Every area's tariff versions, validated once; versions are chosen by the journey's local date. */
export class TariffBook {
  private readonly areas = new Map<string, TariffArea>();

  constructor(areas: readonly TariffArea[]) {
    for (const raw of areas) {
      const area = TariffAreaSchema.parse(raw);
      if (this.areas.has(area.areaId)) throw new Error(`tariff book: duplicate area ${area.areaId}`);
      this.areas.set(area.areaId, area);
    }
    if (!this.areas.has(NATIONAL_DEFAULT_AREA)) throw new Error(`tariff book: ${NATIONAL_DEFAULT_AREA} is required`);
  }

  areaIds(): string[] {
    return [...this.areas.keys()].sort();
  }

  area(areaId: string): TariffArea | undefined {
    return this.areas.get(areaId);
  }

  /**
   * The version in force on a local calendar date (YYYY-MM-DD): the latest whose effectiveFrom is
   * on or before it. Fares change at the start of a day, so a 00:30 pickup on the change date
   * already uses the new table. Null when the date precedes every version the book holds.
   */
  versionFor(areaId: string, localDate: string): TariffVersion | null {
    const area = this.areas.get(areaId);
    if (!area) return null;
    let chosen: TariffVersion | null = null;
    for (const v of area.versions) if (v.effectiveFrom <= localDate) chosen = v;
    return chosen;
  }
}

/** Reads and validates every data/tariffs/<areaId>.json; a file whose areaId differs from its name is an error. */
export function loadTariffBook(dir = TARIFF_DIR): TariffBook {
  const areas: TariffArea[] = [];
  for (const file of readdirSync(dir).sort()) {
    if (!file.endsWith('.json') || NOT_AREA_FILES.has(file)) continue;
    const path = join(dir, file);
    const parsed = TariffAreaSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
    if (!parsed.success) throw new Error(`invalid tariff file ${path}:\n${parsed.error.message}`);
    if (parsed.data.areaId !== basename(file, '.json')) {
      throw new Error(`tariff file ${path} declares areaId ${parsed.data.areaId}; the file must be named after it`);
    }
    // A proposal that was never confirmed is not a legal maximum; quoting from it would present
    // a council's draft as its table. Proposed tables live in data/tariffs/proposed/ instead.
    if (parsed.data.versions.some((v) => v.status === 'proposed')) {
      throw new Error(
        `tariff file ${path} contains a proposed version; keep proposals in ${join(dir, 'proposed')} until adopted`,
      );
    }
    areas.push(parsed.data);
  }
  return new TariffBook(areas);
}
