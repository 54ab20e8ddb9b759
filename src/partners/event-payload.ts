import type { AmendmentChanges, JobRejection, PartnerEventPayload } from '../schemas/partner-events.js';
import type { BookingStatus } from '../model/bookings.js';

// What a sender is told about a status change or an amendment, built only from what the event row recorded when it
// happened: every delivery and every replay of one event is the same bytes, whatever the booking
// or the driver look like since.

/** The facts partner_events keeps of one status change or amendment. */
export interface PartnerEventFacts {
  id: string;
  /** Absent: a status change (facts built before amendments were events). */
  type?: 'booking.status_changed' | 'booking.amended' | 'job.rejected';
  /** booking.amended: what changed (migration 00021). */
  changes?: AmendmentChanges | null;
  /** job.rejected: the job refused after its reply, and why (migration 00046). */
  rejection?: JobRejection | null;
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
  const driver =
    f.driverName !== null ? { name: f.driverName, vehicle: f.driverVehicle ?? '', plate: f.driverPlate ?? '' } : null;
  // Field order is part of the bytes delivered (and signed): each type keeps its own.
  const timestamp = f.occurredAt.toISOString();
  const booking = { bookingReference: f.bookingRef, jobRef: f.jobRef, sequence: f.seq, status: f.status };
  const pickupAt = f.pickupAt.toISOString();
  if (f.type === 'job.rejected' && f.rejection) {
    return { id: f.id, type: 'job.rejected', timestamp, data: { ...booking, pickupAt, ...f.rejection, driver } };
  }
  if (f.type === 'booking.amended' && f.changes) {
    return { id: f.id, type: 'booking.amended', timestamp, data: { ...booking, pickupAt, ...f.changes, driver } };
  }
  return {
    id: f.id,
    type: 'booking.status_changed',
    timestamp,
    data: { ...booking, previousStatus: f.previousStatus, pickupAt, driver },
  };
}

/** The exact body delivered (and signed) for an event. */
export function eventBody(f: PartnerEventFacts): string {
  return JSON.stringify(buildEventPayload(f));
}
