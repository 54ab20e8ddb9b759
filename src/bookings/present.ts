import { placeForPeople } from '../model/places.js';
import { DateTime } from 'luxon';
import { precisionOf } from '../geo/precision.js';
import { gbp } from '../schemas/common.js';
import type { CreatedBooking } from './book.js';
import { paymentState } from '../settlement/payment-state.js';
import { NOTHING_DUE, type PaymentMethod } from '../model/bookings.js';
import type { BookingWithDriver } from './store.js';

// How a booking is shown to the programs that made or look it up. Times in UTC with the
// Europe/London wall-clock time beside them; money in GBP.

export function statusUrl(baseUrl: string, ref: string): string {
  return `${baseUrl}/track/${ref}`;
}

export function presentBooking(row: BookingWithDriver, baseUrl: string) {
  return {
    booking_reference: row.ref,
    status: row.status,
    pickup_time: row.pickup_at.toISOString(),
    pickup_time_local:
      DateTime.fromJSDate(row.pickup_at, { zone: 'Europe/London' }).toISO({ suppressMilliseconds: true }) ??
      row.pickup_at.toISOString(),
    pickup: placeForPeople(row.pickup_query, row.pickup),
    pickup_precision: precisionOf(row.pickup),
    dropoff: placeForPeople(row.dropoff_query, row.dropoff),
    dropoff_precision: precisionOf(row.dropoff),
    passengers: row.passengers,
    vehicle_type: row.vehicle_type,
    meet_and_greet: row.meet_and_greet,
    assistance_dog: row.assistance_dog,
    help_finding_vehicle: row.help_finding_vehicle,
    flight_number: row.flight_number,
    driver: row.d_name ? { name: row.d_name, vehicle: row.d_vehicle ?? '', plate: row.d_plate ?? '' } : null,
    payment: {
      method: row.payment_method,
      state: paymentState(row),
      fare: gbp(row.fare_pence),
      currency: 'GBP' as const,
      received:
        // Nothing due (ops ended the trip) is no payment received: state not_due says it.
        row.paid_pence !== null && row.paid_at && row.paid_method !== NOTHING_DUE
          ? {
              amount: gbp(row.paid_pence),
              method: row.paid_method as PaymentMethod,
              recorded_at: row.paid_at.toISOString(),
            }
          : null,
    },
    cancelled_at: row.cancelled_at?.toISOString() ?? null,
    cancel_reason: row.cancel_reason,
    status_url: statusUrl(baseUrl, row.ref),
  };
}

/** What every creation reply carries, whichever contract names the rest. */
export function createdBookingLinks(b: CreatedBooking, config: { PUBLIC_BASE_URL: string }) {
  return {
    booking_reference: b.ref,
    status: b.state.status,
    status_url: statusUrl(config.PUBLIC_BASE_URL, b.ref),
    fare: gbp(b.farePence),
    currency: 'GBP' as const,
    manage_token: b.manageToken,
  };
}
