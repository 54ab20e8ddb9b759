import type { z } from 'zod';
import type { ApiKey } from '../../auth/api-keys.js';
import type { V1DirectBookingRequest, V1QuoteBookingRequest } from '../../schemas/booking.js';
import { readPassenger } from '../passenger-input.js';
import { quoteRequest, tripRequest, type BookingRequest } from './index.js';
import { vehicleFromName } from './vehicle.js';

// The v1 booking (spec 4.5), either form on either path: direct (camelCase, a free-text
// vehicleType, a partner's fareGBP, a pickup time that must not be past) or redeeming a quote_id
// (snake_case). The passenger's email is admitted first by the route (it may hold the booking
// until the emailed link is opened): `verified` says whether it was known already.

export type V1DirectBody = z.infer<typeof V1DirectBookingRequest>;
export type V1QuoteBody = z.infer<typeof V1QuoteBookingRequest>;

export const isV1QuoteForm = (b: V1DirectBody | V1QuoteBody): b is V1QuoteBody => 'quote_id' in b;

/** The passenger's email as the form names it, for the route to admit before mapping. */
export function v1Email(b: V1DirectBody | V1QuoteBody): { field: string; value: string } {
  return isV1QuoteForm(b) ? { field: 'passenger_email', value: b.passenger_email } : { field: 'passengerEmail', value: b.passengerEmail };
}

export function fromV1(b: V1DirectBody | V1QuoteBody, p: { email: string; verified: boolean; apiKey: ApiKey | null }): BookingRequest {
  if (isV1QuoteForm(b)) {
    const passenger = readPassenger(
      {
        name: { field: 'passenger_name', value: b.passenger_name },
        phone: { field: 'passenger_phone', value: b.passenger_phone },
        email: { field: 'passenger_email', value: p.email },
        paymentMethod: b.payment_method ?? 'direct_to_driver',
        flightNumber: { field: 'flight_number', value: b.flight_number },
        notes: { field: 'notes', value: b.notes },
      },
      p.verified,
    );
    return quoteRequest({ source: 'v1_quote', quoteId: b.quote_id, passenger, awaitEmailConfirmation: !p.verified, emailConfirmationFirst: true });
  }
  const passenger = readPassenger(
    {
      name: { field: 'passengerName', value: b.passengerName },
      phone: { field: 'passengerPhone', value: b.passengerPhone },
      email: { field: 'passengerEmail', value: p.email },
      paymentMethod: b.paymentMethod ?? 'pay_driver',
      flightNumber: { field: 'flightNumber', value: b.flightNumber },
      notes: { field: 'notes', value: b.notes },
    },
    p.verified,
  );
  return tripRequest({
    source: 'v1_direct',
    fields: { pickup: 'pickup', dropoff: 'dropoff', departAt: 'departAt', vehicleType: 'vehicleType' },
    pickup: b.pickup,
    dropoff: b.dropoff,
    departAt: b.departAt,
    passengers: b.passengers,
    vehicle: vehicleFromName(b.vehicleType),
    passenger,
    apiKey: p.apiKey,
    agreedFarePence: b.fareGBP === undefined ? undefined : Math.round(b.fareGBP * 100),
    pickupMayBePast: false,
    awaitEmailConfirmation: !p.verified,
    emailConfirmationFirst: true,
  });
}
