import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { VEHICLE_TYPES, type VehicleType } from './types.js';
import { TARIFF_DIR } from './tariff-book.js';

const VehicleClassSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('none'), description: z.string().min(1) }).strict(),
  z.object({ kind: z.literal('flat'), amountPence: z.number().int().nonnegative(), description: z.string().min(1) }).strict(),
  z
    .object({
      kind: z.literal('percent_of_meter'),
      basisPoints: z.number().int().positive(),
      /** A large vehicle's surcharge gives way to the council's own large-group rule. */
      largeVehicle: z.boolean().default(false),
      description: z.string().min(1),
    })
    .strict(),
]);
export type VehicleClass = z.infer<typeof VehicleClassSchema>;

export const VehicleClassTableSchema = z
  .object({
    _about: z.string().optional(),
    rationale: z.array(z.string()).optional(),
    classes: z.record(z.string(), VehicleClassSchema),
  })
  .strict()
  .superRefine((t, ctx) => {
    for (const type of VEHICLE_TYPES) {
      if (!t.classes[type]) ctx.addIssue({ code: 'custom', message: `vehicle class ${type} missing` });
    }
    // Wheelchair users must never pay more (Equality Act 2010 s.165); refuse data that says otherwise.
    if (t.classes['wav'] && t.classes['wav'].kind !== 'none') {
      ctx.addIssue({ code: 'custom', message: 'wav must carry no surcharge (Equality Act 2010 s.165)' });
    }
  });
export type VehicleClassTable = z.infer<typeof VehicleClassTableSchema>;

export function vehicleClassOf(table: VehicleClassTable, type: VehicleType): VehicleClass {
  const found = table.classes[type];
  if (!found) throw new RangeError(`unknown vehicle type ${type}`);
  return found;
}

export function loadVehicleClasses(path = join(TARIFF_DIR, 'vehicle-classes.json')): VehicleClassTable {
  return VehicleClassTableSchema.parse(JSON.parse(readFileSync(path, 'utf8')));
}
