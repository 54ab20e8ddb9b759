import { z } from 'zod';
import { SIMPLE_VEHICLE_TYPES, VEHICLE_TYPES } from '../pricing/types.js';
import { PRECISIONS } from '../geo/types.js';
import { isoDateTime, passengerCount, placeText } from './common.js';

// Request and response schemas of the two quote endpoints (spec 4.1 and 4.4). The same zod objects
// validate requests and generate the OpenAPI document.

export const SimpleQuoteRequest = z
  .object({
    pickup_address: placeText.describe('Pickup: address, station, postcode or airport name'),
    dropoff_address: placeText.describe('Drop-off: address, station, postcode or airport name'),
    passenger_count: passengerCount,
    depart_at: isoDateTime.optional(),
    vehicle_type: z.enum(SIMPLE_VEHICLE_TYPES).optional(),
  })
  .meta({ id: 'SimpleQuoteRequest' });

export const SimpleQuoteResponse = z
  .object({
    quote_id: z.uuid().describe('Redeemable once within 24 hours by any booking route'),
    fare: z.number().describe('Upfront fare in GBP, two decimals'),
    currency: z.literal('GBP'),
    expires_at: z.string().describe('When the quote stops being redeemable (UTC)'),
  })
  .meta({ id: 'SimpleQuoteResponse' });

export const V1QuoteRequest = z
  .object({
    pickup: placeText.describe('Address, station, postcode or airport name'),
    dropoff: placeText.describe('Address, station, postcode or airport name'),
    departAt: isoDateTime
      .optional()
      .describe('Pickup time, ISO 8601 (UTC). Night and holiday rates apply automatically. Default: now.'),
    vehicleType: z.enum(VEHICLE_TYPES).optional(),
    vehicle_type: z.enum(VEHICLE_TYPES).optional().describe('Snake-case spelling of vehicleType, also accepted'),
    passengers: passengerCount.optional(),
    meetAndGreet: z
      .boolean()
      .optional()
      .describe(
        'Airport meet and greet: adds 25 GBP when the pickup or drop-off is an airport; elsewhere nothing is added (applied_rules says so: meet_and_greet_not_applied)',
      ),
    worldwide: z.boolean().optional().describe('Set true for journeys starting or ending outside the UK'),
  })
  .refine((b) => !(b.vehicleType && b.vehicle_type && b.vehicleType !== b.vehicle_type), {
    message: 'vehicleType and vehicle_type disagree; send one of them',
    path: ['vehicle_type'],
  })
  .meta({ id: 'V1QuoteRequest' });

export const PrecisionSchema = z
  .enum(PRECISIONS)
  .describe(
    'How close to the door: point (a station, airport, hospital, venue...), postcode (the point of a full unit postcode, typically within 100 m), street, postcode_sector, postcode_district, town_centre',
  )
  .meta({ id: 'Precision' });

const ResolvedPlace = z
  .object({
    query: z.string(),
    label: z.string(),
    kind: z.string(),
    precision: PrecisionSchema,
    town: z.string().nullable(),
    latitude: z.number(),
    longitude: z.number(),
    postcode_district: z.string().nullable(),
    council: z.string().nullable(),
  })
  .meta({ id: 'ResolvedPlace' });

export const AppliedRule = z
  .object({
    code: z
      .string()
      .describe(
        'e.g. tariff_period, night_rate, bank_holiday, meet_and_greet, vehicle_class; national_default (0, first) when no council table is held for the pickup and the fare is the service estimate',
      ),
    description: z.string(),
    amount: z.number().describe('GBP this rule added (negative if it removed money)'),
    amount_pence: z.number().int(),
  })
  .meta({ id: 'AppliedRule' });

export const V1QuoteResponse = z
  .object({
    quote_id: z.uuid(),
    fare: z.number().describe('Upfront fare in GBP, two decimals'),
    fare_pence: z.number().int(),
    currency: z.literal('GBP'),
    distance: z
      .object({
        meters: z.number().int(),
        miles: z.number(),
        source: z
          .enum(['road', 'estimate'])
          .describe(
            "Where the distance came from: 'road' when a road router (OSRM) routed the trip on the road network; " +
              "'estimate' when it is the straight line times a distance-dependent factor (no router configured, or it failed)",
          ),
      })
      .describe('Driving distance the fare is priced on'),
    duration: z.object({ seconds: z.number().int(), minutes: z.number().int() }),
    depart_at: z.string().describe('Pickup time (UTC)'),
    depart_at_local: z.string().describe('Pickup time in Europe/London, with offset'),
    pickup: ResolvedPlace,
    dropoff: ResolvedPlace,
    vehicle_type: z.enum(VEHICLE_TYPES),
    passengers: z.number().int(),
    applied_rules: z.array(AppliedRule),
    tariff_source: z.object({
      area_id: z.string(),
      authority: z.string(),
      period: z.string(),
      effective_from: z.string(),
      status: z.string(),
      provisional: z
        .boolean()
        .describe("True when part of the table is the service's estimate, not the published figure"),
      sources: z.array(z.string()),
    }),
    booking_url: z.url().describe('Prefilled link where the passenger confirms name, phone and payment'),
    expires_at: z.string(),
  })
  .meta({ id: 'V1QuoteResponse' });

export type V1QuoteResponseBody = z.infer<typeof V1QuoteResponse>;
