import { z } from 'zod';
import type { Config } from '../config.js';
import { defaultPricingData } from '../pricing/index.js';
import { MEET_AND_GREET_PENCE } from '../pricing/surcharges.js';
import { VEHICLE_TYPES } from '../pricing/types.js';
import { SEATS } from '../quotes/vehicle-choice.js';
import { gbp } from '../schemas/common.js';

// What an assistant needs to know before it quotes or books: what the service does, where, with
// which vehicles, how fares are set and paid, the limits, and how to cancel. Built from the same
// configuration and tariff data the service runs on, so it cannot say something the service does not do.

export const ServiceInfo = z.object({
  service: z.string(),
  what_it_does: z.string(),
  coverage: z.object({
    countries: z.array(z.string()),
    council_tariffs: z.array(z.object({ authority: z.string(), area: z.string() })),
    elsewhere: z.string(),
  }),
  vehicle_types: z.array(
    z.object({ type: z.enum(VEHICLE_TYPES), seats: z.number().int(), wheelchair_accessible: z.boolean() }),
  ),
  fares: z.object({
    currency: z.literal('GBP'),
    how_fares_are_set: z.string(),
    commission: z.string(),
    meet_and_greet: z.number().describe('GBP added for airport meet and greet'),
  }),
  payment_methods: z.array(z.string()),
  limits: z.object({
    passengers_per_booking: z.number().int(),
    quote_valid_for_minutes: z.number().int(),
    book_up_to_days_ahead: z.number().int(),
    fare_estimates_per_hour: z.number().int(),
    bookings_per_hour: z.number().int(),
  }),
  how_to_cancel: z.string(),
  tools: z.object({ estimate_fare: z.string(), get_service_info: z.string(), start_booking: z.string() }),
});
export type ServiceInfoBody = z.infer<typeof ServiceInfo>;

export function serviceInfo(config: Config): ServiceInfoBody {
  const book = defaultPricingData().tariffs;
  const councils = book
    .areaIds()
    .map((id) => book.area(id)!)
    .filter((a) => a.kind === 'council')
    .map((a) => ({ authority: a.authority, area: a.area }));
  return {
    service: 'Direct Taxi',
    what_it_does:
      'Quotes, books and dispatches licensed UK taxis directly to drivers: the nearest available local driver is offered the job first, then national network drivers, then approved partner fleets. The passenger gets a tracking link and pays the driver.',
    coverage: {
      countries: ['England', 'Scotland', 'Wales'],
      council_tariffs: councils,
      elsewhere:
        "Pickups in Great Britain outside these councils are priced on the service's own moderate national tariff, itemised as such.",
    },
    vehicle_types: VEHICLE_TYPES.map((type) => ({ type, seats: SEATS[type], wheelchair_accessible: type === 'wav' })),
    fares: {
      currency: 'GBP',
      how_fares_are_set:
        "Every fare is the published hackney carriage tariff of the pickup's licensing council (time of day, bank holidays and council extras included, each itemised), or a rate a partner agreed and the service approved. Nothing else changes it: no surge pricing.",
      commission: 'None. The passenger pays the driver directly; drivers pay the service a flat weekly subscription.',
      meet_and_greet: gbp(MEET_AND_GREET_PENCE),
    },
    payment_methods: [
      'Paid to the driver at the end of the trip, in the ways that driver accepts (cash, card, bank transfer), shown on the tracking page',
    ],
    limits: {
      passengers_per_booking: 8,
      quote_valid_for_minutes: Math.floor(config.QUOTE_TTL_SECONDS / 60),
      book_up_to_days_ahead: 366,
      fare_estimates_per_hour: config.QUOTE_RATE_LIMIT_PER_HOUR,
      bookings_per_hour: config.BOOKING_RATE_LIMIT_PER_HOUR,
    },
    how_to_cancel:
      'Every booking answer carries a status_url (live tracking) and a cancel_url: POST it with {"action": "cancel", "token": manage_token} (or the passenger\'s email instead of the token) to cancel, free of charge, until the passenger is on board (a trip under way cannot be cancelled). GET the same URL with ?token= to look the booking up.',
    tools: {
      estimate_fare:
        'Price a journey: the fare in GBP with every rule applied, and a quote_id to book it within its validity.',
      get_service_info: 'This description.',
      start_booking:
        'Book for the signed-in passenger, from a quote_id or directly; the same call repeated returns the same booking. A pickup only as exact as a town centre or postcode district is refused (pickup_not_precise): ask the passenger for the house number and street or the postcode.',
    },
  };
}
