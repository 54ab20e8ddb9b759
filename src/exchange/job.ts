import type { BookingRow } from '../bookings/store.js';
import type { PartnerJob } from '../schemas/partner-job.js';

// Our booking as the PartnerJob an exchange fleet's intake takes (spec 2.4): our booking reference
// is its jobRef, so the fleet's per-jobRef idempotency makes a retried send a duplicate, and amend
// and cancel find the job. The agreed fare is ours (the passenger was quoted it), in GBP.

export function exchangeJob(b: BookingRow, action: 'new' | 'amend' | 'cancel', now: Date = new Date()): PartnerJob {
  const job: PartnerJob = {
    jobRef: b.ref,
    action,
    // What the passenger asked for, which this same geocoder located here (our labels, with their
    // codes in brackets, are for people, not for locating again).
    pickup: b.pickup_query,
    dropoff: b.dropoff_query,
    // A booking handed over after rounds of nobody is due now, not in the past (intake refuses a past pickup).
    pickupTime: new Date(Math.max(b.pickup_at.getTime(), now.getTime())).toISOString(),
    passengerName: b.passenger_name.slice(0, 100),
    passengers: b.passengers,
    vehicleType: b.wheelchair ? 'wav' : b.vehicle_type,
    fare: b.fare_pence / 100,
  };
  if (b.passenger_phone) job.passengerPhone = b.passenger_phone;
  if (b.flight_number) job.flightNumber = b.flight_number;
  if (b.notes) job.notes = b.notes.slice(0, 500);
  return job;
}
