import type { PartnerEventPayload } from '../schemas/partner-events.js';
import type { BookingStatus } from '../../workflows/bookings/definitions.js';

// What a sender is told about a status change, built only from what the event row recorded when it
// happened: every delivery and every replay of one event is the same bytes, whatever the booking
// or the driver look like since.

/** The facts partner_events keeps of one status change. */
export interface PartnerEventFacts {
  id: string;
  bookingRef: string;
  seq: number;
  status: BookingStatus;
  previousStatus: BookingStatus | null;
  jobRef: string | null;
  pickupAt: Date;
  driverName: string | null;
  driverVehicle: string | null;
  driverPlate: string | null;
  occurredAt: Date;
}

export function buildEventPayload(f: PartnerEventFacts): PartnerEventPayload {
  return {
    id: f.id,
    type: 'booking.status_changed',
    timestamp: f.occurredAt.toISOString(),
    data: {
      bookingReference: f.bookingRef,
      jobRef: f.jobRef,
      sequence: f.seq,
      status: f.status,
      previousStatus: f.previousStatus,
      pickupAt: f.pickupAt.toISOString(),
      driver: f.driverName !== null ? { name: f.driverName, vehicle: f.driverVehicle ?? '', plate: f.driverPlate ?? '' } : null,
    },
  };
}

/** The exact body delivered (and signed) for an event. */
export function eventBody(f: PartnerEventFacts): string {
  return JSON.stringify(buildEventPayload(f));
}
