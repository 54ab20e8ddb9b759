import { ProblemError } from '../http/problem.js';
import { VEHICLE_TYPES, type VehicleType } from '../pricing/types.js';

// The v1 booking's vehicleType is free text (spec 2.6). Known classes pass through; a few everyday
// names map onto them; anything else is a clear 400 rather than a guess that changes the fare.
const SYNONYMS: Record<string, VehicleType> = {
  car: 'saloon',
  taxi: 'saloon',
  sedan: 'saloon',
  standard: 'saloon',
  exec: 'executive',
  business: 'executive',
  premium: 'luxury',
  minibus: 'mpv',
  minivan: 'mpv',
  'people carrier': 'mpv',
  van: 'mpv',
  wheelchair: 'wav',
  accessible: 'wav',
  'wheelchair accessible': 'wav',
  '5 seater': '5seater',
  '6 seater': '6seater',
  '7 seater': '7seater',
};

export function v1VehicleType(input: string | undefined): VehicleType | undefined {
  if (input === undefined || input.trim() === '') return undefined;
  const key = input.trim().toLowerCase().replace(/[-_]/g, ' ').replace(/\s+/g, ' ');
  const direct = VEHICLE_TYPES.find((v) => v === key.replace(/ /g, ''));
  const mapped = direct ?? SYNONYMS[key];
  if (!mapped) {
    throw new ProblemError(400, 'validation_failed', `Unknown vehicleType "${input}".`, {
      errors: [{ field: 'body.vehicleType', message: `use one of ${VEHICLE_TYPES.join(', ')}` }],
    });
  }
  return mapped;
}
