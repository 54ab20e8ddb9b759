import type { z } from 'zod';
import type { ApiKey } from '../../auth/api-keys.js';
import type { AgentCreateBookingRequest, AgentInstantBookingRequest } from '../../schemas/booking.js';
import { readPassenger, type PassengerFields } from '../passenger-input.js';
import {
  placesAndTime,
  quoteRequest,
  tripRequest,
  type QuoteBookingRequest,
  type TripBookingRequest,
  type TripFieldNames,
} from './index.js';

// The agent routes (spec 4.2 bookings/create, 4.3 bookings/instant): the simple contract's
// snake_case fields, its vehicle enumeration and payment methods. No email verification.

type AgentBody = z.infer<typeof AgentCreateBookingRequest> | z.infer<typeof AgentInstantBookingRequest>;

/** The simple contract's names for the passenger's fields (bookings/instant also takes `agent`), and for the trip's. */
const PASSENGER_FIELDS = {
  name: 'passenger_name',
  phone: 'passenger_phone_whatsapp',
  email: 'passenger_email',
  flightNumber: 'flight_number',
  notes: 'notes',
} as const satisfies PassengerFields<AgentBody>;
const TRIP_FIELDS = {
  pickup: 'pickup_address',
  dropoff: 'dropoff_address',
  departAt: 'depart_at',
  vehicleType: 'vehicle_type',
} as const satisfies TripFieldNames<z.infer<typeof AgentInstantBookingRequest>>;

/** The needs as the snake_case contracts name them. */
export const snakeNeeds = (b: {
  assistance_dog?: boolean | undefined;
  help_finding_vehicle?: boolean | undefined;
}) => ({
  assistanceDog: b.assistance_dog ?? false,
  helpFindingVehicle: b.help_finding_vehicle ?? false,
});

/** bookings/create: a quote redeemed; the quote holds the group and the vehicle. */
export function fromAgentCreate(b: z.infer<typeof AgentCreateBookingRequest>): QuoteBookingRequest {
  const passenger = readPassenger(b, PASSENGER_FIELDS, b.payment_method, false, snakeNeeds(b));
  return quoteRequest({ source: 'agent_create', quoteId: b.quote_id, passenger, awaitEmailConfirmation: false });
}

/** bookings/instant: priced on the spot, with the caller's API key (a partner's rate override applies). */
export function fromAgentInstant(
  b: z.infer<typeof AgentInstantBookingRequest>,
  apiKey: ApiKey | null,
): TripBookingRequest {
  const passenger = readPassenger(
    b,
    { ...PASSENGER_FIELDS, agent: 'agent' },
    b.payment_method ?? 'cash_to_driver',
    false,
    snakeNeeds(b),
  );
  return tripRequest({
    source: 'agent_instant',
    ...placesAndTime(b, TRIP_FIELDS),
    passengers: b.passenger_count,
    vehicle: b.vehicle_type,
    passenger,
    apiKey,
    pickupMayBePast: true,
    awaitEmailConfirmation: false,
  });
}
