import type { VehicleType } from '../pricing/types.js';

/**
 * Passenger seats per class. Four for cars; a purpose-built wheelchair-accessible hackney carries
 * five (plus the wheelchair user's space); an MPV up to eight, the most the spec allows. Which class
 * a request gets is decided in src/bookings/request/vehicle.ts, for quotes and bookings alike.
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
