import type { z } from 'zod';
import type { ApiKey } from '../../auth/api-keys.js';
import type { AgentCreateBookingRequest, AgentInstantBookingRequest } from '../../schemas/booking.js';
import { readPassenger } from '../passenger-input.js';
import { quoteRequest, tripRequest, type QuoteBookingRequest, type TripBookingRequest } from './index.js';

// The agent routes (spec 4.2 bookings/create, 4.3 bookings/instant): the simple contract's
// snake_case fields, its vehicle enumeration and payment methods. No email verification.

/** bookings/create: a quote redeemed; the quote holds the group and the vehicle. */
export function fromAgentCreate(b: z.infer<typeof AgentCreateBookingRequest>): QuoteBookingRequest {
  const passenger = readPassenger(
    {
      name: { field: 'passenger_name', value: b.passenger_name },
      phone: { field: 'passenger_phone_whatsapp', value: b.passenger_phone_whatsapp },
      email: { field: 'passenger_email', value: b.passenger_email },
      paymentMethod: b.payment_method,
      flightNumber: { field: 'flight_number', value: b.flight_number },
      notes: { field: 'notes', value: b.notes },
    },
    false,
  );
  return quoteRequest({ source: 'agent_create', quoteId: b.quote_id, passenger, awaitEmailConfirmation: false });
}

/** bookings/instant: priced on the spot, with the caller's API key (a partner's rate override applies). */
export function fromAgentInstant(b: z.infer<typeof AgentInstantBookingRequest>, apiKey: ApiKey | null): TripBookingRequest {
  const passenger = readPassenger(
    {
      name: { field: 'passenger_name', value: b.passenger_name },
      phone: { field: 'passenger_phone_whatsapp', value: b.passenger_phone_whatsapp },
      email: { field: 'passenger_email', value: b.passenger_email },
      paymentMethod: b.payment_method ?? 'cash_to_driver',
      flightNumber: { field: 'flight_number', value: b.flight_number },
      notes: { field: 'notes', value: b.notes },
      agent: { field: 'agent', value: b.agent },
    },
    false,
  );
  return tripRequest({
    source: 'agent_instant',
    fields: { pickup: 'pickup_address', dropoff: 'dropoff_address', departAt: 'depart_at', vehicleType: 'vehicle_type' },
    pickup: b.pickup_address,
    dropoff: b.dropoff_address,
    departAt: b.depart_at,
    passengers: b.passenger_count,
    vehicle: b.vehicle_type,
    passenger,
    apiKey,
    pickupMayBePast: true,
    awaitEmailConfirmation: false,
  });
}
