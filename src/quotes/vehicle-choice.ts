import { ProblemError } from '../http/problem.js';
import type { VehicleType } from '../pricing/types.js';

/**
 * Passenger seats per class. Four for cars; a purpose-built wheelchair-accessible hackney carries
 * five (plus the wheelchair user's space); an MPV up to eight, the most the spec allows.
 */
export const SEATS: Record<VehicleType, number> = {
  saloon: 4,
  estate: 4,
  executive: 4,
  luxury: 4,
  wav: 5,
  '5seater': 5,
  '6seater': 6,
  '7seater': 7,
  mpv: 8,
};

const BY_SIZE: VehicleType[] = ['saloon', '5seater', '6seater', '7seater', 'mpv'];

/**
 * The vehicle to price: the one asked for, if the group fits in it; otherwise the smallest
 * standard class that seats everyone. Asking for a car too small for the group is an error the
 * caller should see, not something to upgrade silently (the fare would change under them).
 */
export function chooseVehicle(requested: VehicleType | undefined, passengers: number, field: string): VehicleType {
  if (requested === undefined) return BY_SIZE.find((v) => SEATS[v] >= passengers) ?? 'mpv';
  if (SEATS[requested] < passengers) {
    const fits = BY_SIZE.filter((v) => SEATS[v] >= passengers).join(', ');
    throw new ProblemError(400, 'vehicle_too_small', `A ${requested} seats ${SEATS[requested]}; for ${passengers} passengers choose ${fits}.`, {
      errors: [{ field: `body.${field}`, message: `seats ${SEATS[requested]}, fewer than ${passengers} passengers` }],
    });
  }
  return requested;
}
