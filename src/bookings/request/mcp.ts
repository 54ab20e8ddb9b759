import type { VehicleType } from '../../pricing/types.js';
import { readPassenger, type PassengerFields } from '../passenger-input.js';
import { quoteRequest, tripRequest, type BookingRequest } from './index.js';
import { snakeNeeds } from './agent.js';

// The MCP start_booking tool (src/mcp/tools.ts): an AI assistant books for the signed-in
// passenger, from an estimate_fare quote_id or from pickup and dropoff. The tool's arguments are
// checked by its zod input schema; the tool itself settles the passenger's phone and email from
// their account (and that exactly one of quote_id and pickup/dropoff is given) before this runs.
// A pickup known only as a town centre is refused: the assistant can ask the passenger, as the
// booking page does ("Where exactly?"), and no driver is sent to the middle of a town.

/** start_booking's arguments, as its input schema gives them. */
export interface McpBookingArgs {
  quote_id?: string | undefined;
  pickup?: string | undefined;
  dropoff?: string | undefined;
  pickup_time?: string | undefined;
  vehicle_type?: VehicleType | undefined;
  passengers?: number | undefined;
  passenger_name: string;
  flight_number?: string | undefined;
  notes?: string | undefined;
  assistance_dog?: boolean | undefined;
  help_finding_vehicle?: boolean | undefined;
}

/** The arguments, with the phone and email the tool settled from the passenger's account. */
type McpPassengerArgs = McpBookingArgs & { passenger_phone: string; passenger_email: string | undefined };

/** start_booking's names for the passenger's fields. */
const PASSENGER_FIELDS = {
  name: 'passenger_name',
  phone: 'passenger_phone',
  email: 'passenger_email',
  flightNumber: 'flight_number',
  notes: 'notes',
} as const satisfies PassengerFields<McpPassengerArgs>;

export function fromMcp(
  a: McpBookingArgs,
  who: { accountId: string; phone: string; email: string | undefined; emailVerified: boolean },
): BookingRequest {
  const settled: McpPassengerArgs = { ...a, passenger_phone: who.phone, passenger_email: who.email };
  const passenger = readPassenger(settled, PASSENGER_FIELDS, 'pay_driver', who.emailVerified, snakeNeeds(a));
  if (a.quote_id !== undefined) {
    return quoteRequest({
      source: 'mcp',
      quoteId: a.quote_id,
      passenger,
      awaitEmailConfirmation: false,
      passengerAccountId: who.accountId,
      exactPickup: true,
    });
  }
  return tripRequest({
    source: 'mcp',
    fields: { pickup: 'pickup', dropoff: 'dropoff', departAt: 'pickup_time', vehicleType: 'vehicle_type' },
    pickup: a.pickup!,
    dropoff: a.dropoff!,
    departAt: a.pickup_time,
    passengers: a.passengers,
    vehicle: a.vehicle_type,
    passenger,
    pickupMayBePast: true,
    awaitEmailConfirmation: false,
    passengerAccountId: who.accountId,
    exactPickup: true,
  });
}
