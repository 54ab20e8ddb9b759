import type { ApiKey } from '../../auth/api-keys.js';
import type { VehicleType } from '../../pricing/types.js';
import type { JobSpec, NewBooking, PassengerNeeds } from '../../model/bookings.js';
import type { Passenger, TextField } from '../passenger-input.js';
import { screenedPlace } from '../../screening/place-text.js';
import { needsWheelchair, notesWithVehicleName, vehicleClass, type VehicleChoice } from './vehicle.js';

// The one booking request. Every source (the agent routes, the v1 booking, partner intake with the
// operator bridge and the supplier and aggregator hooks, MCP, and any fleet added later) turns
// what it was sent into a BookingRequest here, in a file of its own (agent.ts, v1.ts,
// partner-job.ts, mcp.ts), and hands it to the one use case (src/bookings/book.ts). The rules
// every source shares are applied here, once: the passengers-to-vehicle rule and wheelchair
// access (vehicle.ts), and amendments (amendment.ts). Input is validated by each contract's zod
// schema (src/schemas/) before its mapper runs; the mappers check and screen what the schemas
// cannot (phones, emails, free text: src/bookings/passenger-input.ts).

export type BookingSource = NewBooking['source'];

/** How the caller's contract names its fields, for error messages. */
export interface FieldNames {
  pickup: string;
  dropoff: string;
  departAt: string;
  vehicleType: string;
}

/** A contract's names for a trip's fields, where the body holds them under those names. */
export interface TripFieldNames<B> extends FieldNames {
  pickup: TextField<B>;
  dropoff: TextField<B>;
  departAt: TextField<B>;
}

/** A trip's places and time, read from a body by the contract's own names for them (which the request keeps, for refusals). */
export function placesAndTime<B extends object>(
  body: B,
  fields: TripFieldNames<NoInfer<B>>,
): Pick<TripFields, 'fields' | 'pickup' | 'dropoff' | 'departAt'> {
  const text = (field: TextField<B>) => body[field] as string | undefined;
  return {
    fields,
    pickup: text(fields.pickup) ?? '',
    dropoff: text(fields.dropoff) ?? '',
    departAt: text(fields.departAt),
  };
}

/** A sender's own job (partner intake, operator bridge, supplier and aggregator hooks): its reference is the request's identity. */
export interface SenderJob {
  partnerId: string;
  jobRef: string;
  /** An operator's job goes to its own fleet, never to central dispatch. */
  operatorId: string | null;
}

/** A trip priced on the spot: where, when, who and in what. */
export interface TripBookingRequest {
  kind: 'trip';
  source: BookingSource;
  fields: FieldNames;
  pickup: string;
  dropoff: string;
  /** Absent: now. */
  departAt?: string | undefined;
  passengers: number;
  /** Always decided: the class named, or the spec's class for the group (vehicle.ts). */
  vehicleType: VehicleType;
  meetAndGreet: boolean;
  /** Name, phone, email, payment method, flight number, notes and agent, checked and screened. */
  passenger: Passenger;
  apiKey: ApiKey | null;
  /** A partner's agreed fare (partner keys and senders only); otherwise the tariff (or the partner's approved override) prices it. */
  agreedFarePence?: number | undefined;
  /**
   * false: a pickup time in the past is refused outright (the v1 booking contract). true: a few
   * minutes' slack for clocks and slow typing, as quotes allow.
   */
  pickupMayBePast: boolean;
  awaitEmailConfirmation: boolean;
  /**
   * The passenger is emailed their booking confirmation before dispatch begins (the v1 booking
   * contract, when it has an email); otherwise the booking is dispatched at once.
   */
  emailConfirmationFirst?: boolean | undefined;
  /** The signed-in passenger an AI assistant books for (MCP). */
  passengerAccountId?: string | undefined;
  /** A pickup known only as a town centre or postcode district is refused (see src/bookings/book.ts). */
  exactPickup?: boolean | undefined;
  senderJob?: SenderJob | undefined;
}

/** A quote redeemed: the quote holds the places, time, group and vehicle. */
export interface QuoteBookingRequest {
  kind: 'quote';
  source: BookingSource;
  quoteId: string;
  passenger: Passenger;
  awaitEmailConfirmation: boolean;
  /**
   * The passenger is emailed their booking confirmation before dispatch begins (the v1 booking
   * contract, when it has an email); otherwise the booking is dispatched at once.
   */
  emailConfirmationFirst?: boolean | undefined;
  /** The signed-in passenger an AI assistant books for (MCP). */
  passengerAccountId?: string | undefined;
  /** A pickup known only as a town centre or postcode district is refused (see src/bookings/book.ts). */
  exactPickup?: boolean | undefined;
}

export type BookingRequest = TripBookingRequest | QuoteBookingRequest;

/** What a source says about a trip; tripRequest applies the shared rules to it. */
export interface TripFields extends Omit<
  TripBookingRequest,
  'kind' | 'passengers' | 'vehicleType' | 'meetAndGreet' | 'apiKey'
> {
  /** Absent: one. */
  passengers?: number | undefined;
  /** The class the sender named, if any (free-text names read with readVehicleName). */
  vehicle?: VehicleType | undefined;
  /**
   * A free-text vehicle name no class matched: the group gets its default class, and the name is
   * kept at the head of the booking's notes, which the driver's job card shows.
   */
  vehicleUnrecognised?: string | null | undefined;
  /** What a named class too small for the group does (vehicle.ts); default refuse. */
  tooSmall?: VehicleChoice['tooSmall'];
  meetAndGreet?: boolean;
  apiKey?: ApiKey | null;
}

/** A trip request with the rules every source shares applied: one passenger by default, and the vehicle rule. */
export function tripRequest(t: TripFields): TripBookingRequest {
  const { vehicle, tooSmall, vehicleUnrecognised, ...rest } = t;
  const passengers = t.passengers ?? 1;
  return {
    ...rest,
    // Free text is screened before it reaches the booking engine (spec 5 rule 1), the places too:
    // they reach job cards, texts and exchange fleets.
    pickup: screenedPlace(t.fields.pickup, t.pickup),
    dropoff: screenedPlace(t.fields.dropoff, t.dropoff),
    passenger: vehicleUnrecognised
      ? { ...t.passenger, notes: notesWithVehicleName(t.passenger.notes, vehicleUnrecognised) }
      : t.passenger,
    kind: 'trip',
    passengers,
    vehicleType: vehicleClass(vehicle, passengers, { field: t.fields.vehicleType, tooSmall: tooSmall ?? 'refuse' }),
    meetAndGreet: t.meetAndGreet ?? false,
    apiKey: t.apiKey ?? null,
  };
}

export function quoteRequest(q: Omit<QuoteBookingRequest, 'kind'>): QuoteBookingRequest {
  return { ...q, kind: 'quote' };
}

/** The job dispatch matches drivers on, from any request: wheelchair access goes with the class. */
export function jobSpec(j: {
  pickupAt: Date;
  passengers: number;
  vehicleType: string;
  notes: string | null;
  needs?: PassengerNeeds;
}): JobSpec {
  return {
    pickupAt: j.pickupAt.toISOString(),
    passengers: j.passengers,
    vehicleType: j.vehicleType,
    wheelchair: needsWheelchair(j.vehicleType),
    notes: j.notes,
    // Only when asked, so a job without them reads as it always has (histories, partner events).
    ...(j.needs?.assistanceDog ? { assistanceDog: true } : {}),
    ...(j.needs?.helpFindingVehicle ? { helpFindingVehicle: true } : {}),
  };
}

export { amendmentInput, type BookingAmendment } from './amendment.js';
export {
  defaultVehicleClass,
  needsWheelchair,
  readVehicleName,
  seatsGroup,
  vehicleClass,
  vehicleFromName,
  VEHICLE_ASKED_FOR,
} from './vehicle.js';
