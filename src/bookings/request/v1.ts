import type { z } from 'zod';
import type { ApiKey } from '../../auth/api-keys.js';
import type { V1DirectBookingRequest, V1QuoteBookingRequest } from '../../schemas/booking.js';
import { readPassenger, type PassengerFields } from '../passenger-input.js';
import { placesAndTime, quoteRequest, tripRequest, type BookingRequest, type TripFieldNames } from './index.js';
import { readVehicleName } from './vehicle.js';
import { snakeNeeds } from './agent.js';

// The v1 booking (spec 4.5), either form on either path: direct (camelCase, a free-text
// vehicleType, a partner's fareGBP, a pickup time that must not be past) or redeeming a quote_id
// (snake_case). The passenger's email is admitted first by the route (disposable and role
// addresses refused, an unverified address capped per hour): `verified` says whether it was known
// already. Either way the ride is dispatched at once, as spec 4.5 says; the link emailed to the
// passenger confirms the address and manages the booking (issue 23).

export type V1DirectBody = z.infer<typeof V1DirectBookingRequest>;
export type V1QuoteBody = z.infer<typeof V1QuoteBookingRequest>;

export const isV1QuoteForm = (b: V1DirectBody | V1QuoteBody): b is V1QuoteBody => 'quote_id' in b;

/** Each form's names for the passenger's fields, and the direct form's for the trip's. */
const QUOTE_FORM = {
  name: 'passenger_name',
  phone: 'passenger_phone',
  email: 'passenger_email',
  flightNumber: 'flight_number',
  notes: 'notes',
} as const satisfies PassengerFields<V1QuoteBody>;
const DIRECT_FORM = {
  name: 'passengerName',
  phone: 'passengerPhone',
  email: 'passengerEmail',
  flightNumber: 'flightNumber',
  notes: 'notes',
} as const satisfies PassengerFields<V1DirectBody>;
const DIRECT_TRIP = {
  pickup: 'pickup',
  dropoff: 'dropoff',
  departAt: 'departAt',
  vehicleType: 'vehicleType',
} as const satisfies TripFieldNames<V1DirectBody>;

/** The passenger's email as the form names it, for the route to admit before mapping. */
export function v1Email(b: V1DirectBody | V1QuoteBody): { field: string; value: string } {
  return isV1QuoteForm(b)
    ? { field: QUOTE_FORM.email, value: b.passenger_email }
    : { field: DIRECT_FORM.email, value: b.passengerEmail };
}

export function fromV1(
  b: V1DirectBody | V1QuoteBody,
  p: { email: string; verified: boolean; apiKey: ApiKey | null },
): BookingRequest {
  // The email is the one the route admitted.
  if (isV1QuoteForm(b)) {
    const passenger = readPassenger(
      { ...b, passenger_email: p.email },
      QUOTE_FORM,
      b.payment_method ?? 'direct_to_driver',
      p.verified,
      snakeNeeds(b),
    );
    return quoteRequest({
      source: 'v1_quote',
      quoteId: b.quote_id,
      passenger,
      awaitEmailConfirmation: false,
      emailConfirmationFirst: true,
    });
  }
  const passenger = readPassenger(
    { ...b, passengerEmail: p.email },
    DIRECT_FORM,
    b.paymentMethod ?? 'pay_driver',
    p.verified,
    { assistanceDog: b.assistanceDog ?? false, helpFindingVehicle: b.helpFindingVehicle ?? false },
  );
  // A free string (spec 2.6), never refused: a name no class matches books the group's class and is kept for the driver.
  const vehicle = readVehicleName(b.vehicleType);
  return tripRequest({
    source: 'v1_direct',
    ...placesAndTime(b, DIRECT_TRIP),
    passengers: b.passengers,
    vehicle: vehicle.vehicle,
    vehicleUnrecognised: vehicle.unrecognised,
    passenger,
    apiKey: p.apiKey,
    agreedFarePence: b.fareGBP === undefined ? undefined : Math.round(b.fareGBP * 100),
    pickupMayBePast: false,
    awaitEmailConfirmation: false,
    emailConfirmationFirst: true,
  });
}
