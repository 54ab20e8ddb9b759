import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { GeoLocation } from '../geo/types.js';
import { TARIFF_DIR } from './tariff-book.js';

// The pickup decides the tariff: a hackney carriage's maximum fare is set by the licensing
// authority for the area where the hire starts (TfL for hires starting in Greater London), and
// the destination does not change it. So only the pickup's council/region is mapped here.

export const AreaMapSchema = z
  .object({
    _about: z.string().optional(),
    rules: z.array(
      z
        .object({
          field: z.enum(['council', 'region']),
          equals: z.array(z.string().min(1)).min(1),
          areaId: z.string().min(1),
        })
        .strict(),
    ),
    fallback: z.string().min(1),
  })
  .strict();
export type AreaMap = z.infer<typeof AreaMapSchema>;

/**
 * OS Open Names writes "The City of Brighton and Hove" and "Glasgow City"; people write
 * "Brighton & Hove". Compare on a folded form so both spellings land on the same area.
 */
export function foldPlaceName(name: string): string {
  return name
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .replace(/^the /, '')
    .replace(/^city of /, '');
}

export function licensingAreaFor(pickup: GeoLocation, map: AreaMap): string {
  for (const rule of map.rules) {
    const value = rule.field === 'council' ? pickup.council : pickup.region;
    if (value === null) continue;
    const folded = foldPlaceName(value);
    if (rule.equals.some((name) => foldPlaceName(name) === folded)) return rule.areaId;
  }
  return map.fallback;
}

export function loadAreaMap(path = join(TARIFF_DIR, 'area-map.json')): AreaMap {
  return AreaMapSchema.parse(JSON.parse(readFileSync(path, 'utf8')));
}
