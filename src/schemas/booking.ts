import { z } from 'zod';
import { SIMPLE_VEHICLE_TYPES } from '../pricing/types.js';
import { BOOKING_REF_PATTERN, BOOKING_STATUSES, PAYMENT_METHODS, SETTLEMENT_METHODS } from '../model/bookings.js';
import { PAYMENT_STATES } from '../settlement/payment-state.js';
import { camelNeeds, isoDateTime, passengerCount, placeText, snakeNeeds, text, uuid } from './common.js';
import { PrecisionSchema } from './quote.js';

// Request and response schemas of the booking routes (spec 4.2, 4.3, 4.5-4.7). Free-text limits
// here are the outer bound; src/screening checks content before anything reaches a driver.

const name = text(100).trim().min(1, 'is required');
const phone = text(32)
  .trim()
  .min(5)
  .describe(
    'National UK (07400 123456) or international (+44 7400 123456, +33 6 12 34 56 78); spaces, brackets, dots and hyphens allowed; stored in E.164 (+447400123456)',
  );
const email = z.email('must be an email address').max(254);
const notes = text(500);
const flight = text(12);
export const SIMPLE_PAYMENT_METHODS = ['cash_to_driver', 'card_to_driver', 'account'] as const;
export const V1_PAYMENT_METHODS = ['cash', 'card', 'pay_driver', 'bank_transfer', 'direct_to_driver'] as const;

export const BookingStatusSchema = z.enum(BOOKING_STATUSES).meta({ id: 'BookingStatus' });

export const AgentCreateBookingRequest = z
  .object({
    quote_id: uuid,
    passenger_name: name,
    passenger_phone_whatsapp: phone,
    payment_method: z.enum(SIMPLE_PAYMENT_METHODS),
    passenger_email: email.optional(),
    flight_number: flight.optional(),
    notes: notes.optional(),
    ...snakeNeeds,
  })
  .meta({ id: 'AgentCreateBookingRequest' });

export const AgentInstantBookingRequest = z
  .object({
    pickup_address: placeText,
    dropoff_address: placeText,
    passenger_name: name,
    passenger_phone_whatsapp: phone,
    passenger_count: passengerCount.optional(),
    passenger_email: email.optional(),
    depart_at: isoDateTime.optional(),
    vehicle_type: z.enum(SIMPLE_VEHICLE_TYPES).optional(),
    payment_method: z.enum(SIMPLE_PAYMENT_METHODS).optional(),
    flight_number: flight.optional(),
    notes: notes.optional(),
    agent: text(100).optional().describe('Name of the assistant making the booking'),
    ...snakeNeeds,
  })
  .meta({ id: 'AgentInstantBookingRequest' });

const manageToken = z
  .string()
  .nullable()
  .describe(
    'Lets whoever holds it look the booking up and cancel it (token instead of email on GET and POST /api/public/v1/booking/{ref}); keep it private. ' +
      'Given only to the caller that made the booking (the same API key, or the same Idempotency-Key without one), a new one each time it asks again; ' +
      'null when the same trip was booked earlier by another caller with the same passenger email. It stops working a day after the pickup time, or when the passenger takes charge of the booking through their phone.',
  );

export const AgentBookingResponse = z
  .object({
    booking_reference: z.string(),
    status: BookingStatusSchema,
    status_url: z.url(),
    fare: z.number().describe('GBP, paid to the driver'),
    currency: z.literal('GBP'),
    manage_token: manageToken,
  })
  .meta({ id: 'AgentBookingResponse' });

export const BookingRefParams = z.object({
  ref: z
    .string()
    .max(12)
    .regex(BOOKING_REF_PATTERN, 'is not a booking reference')
    .describe('Booking reference, e.g. TX7K2M9QH4WD'),
});

const holderToken = z
  .string()
  .min(20)
  .max(100)
  .regex(/^[A-Za-z0-9_-]+$/, 'is not a manage token');

export const BookingLookupQuery = z.object({
  email: email.optional().describe("The passenger's email on the booking (this or token is required)"),
  token: holderToken.optional().describe('The manage_token from the booking reply, instead of the email'),
});

export const BookingCancelRequest = z
  .object({
    action: z.literal('cancel'),
    email: email.optional().describe("The passenger's email on the booking (this or token is required)"),
    token: holderToken.optional().describe('The manage_token from the booking reply, instead of the email'),
    reason: text(300).optional(),
  })
  .meta({ id: 'BookingCancelRequest' });

export const BookingView = z
  .object({
    booking_reference: z.string(),
    status: BookingStatusSchema,
    pickup_time: z.string().describe('UTC'),
    pickup_time_local: z.string().describe('Europe/London'),
    pickup: z.string(),
    pickup_precision: PrecisionSchema,
    dropoff: z.string(),
    dropoff_precision: PrecisionSchema,
    passengers: z.number().int(),
    vehicle_type: z.string(),
    meet_and_greet: z.boolean().describe('The driver meets the passenger inside with a name board'),
    assistance_dog: z.boolean().describe('An assistance dog travels with the passenger (never charged for)'),
    help_finding_vehicle: z.boolean().describe('The passenger asked the driver to help them find the vehicle'),
    flight_number: z.string().nullable(),
    driver: z
      .object({ name: z.string(), vehicle: z.string(), plate: z.string() })
      .nullable()
      .describe('Set once a driver has accepted'),
    payment: z.object({
      method: z.string().describe('How the passenger said they would pay'),
      state: z
        .enum(PAYMENT_STATES)
        .describe(
          'Derived from the immutable payment records: pay_driver_on_completion, awaiting_settlement (completed, not yet confirmed), paid, not_due',
        ),
      fare: z.number(),
      currency: z.literal('GBP'),
      received: z
        .object({ amount: z.number(), method: z.enum(PAYMENT_METHODS), recorded_at: z.string().describe('UTC') })
        .nullable()
        .describe('What the driver (or a payment provider) confirmed receiving, once settled'),
    }),
    cancelled_at: z.string().nullable(),
    cancel_reason: z.string().nullable(),
    status_url: z.url(),
  })
  .meta({ id: 'BookingView' });

const jobLinkToken = z
  .string()
  .min(10)
  .max(100)
  .regex(/^[A-Za-z0-9_-]+$/, 'is not a job-card token');

export const OfferResponseRequest = z.object({
  decision: z.enum(['accept', 'decline']),
  token: jobLinkToken,
});

export const OfferResponseReply = z.object({
  result: z.enum(['accepted', 'declined']),
  booking_reference: z.string(),
});

const v1Email = email;

export const V1DirectBookingRequest = z
  .object({
    pickup: placeText,
    dropoff: placeText,
    departAt: isoDateTime.describe('Pickup time, ISO 8601; must not be in the past'),
    passengerName: name,
    passengerEmail: v1Email.describe('A real, reachable address: disposable and role addresses are rejected'),
    passengerPhone: phone,
    passengers: passengerCount.optional(),
    vehicleType: text(40)
      .optional()
      .describe(
        'Free text, never refused: the v1 vehicle classes and everyday names (estate car, people carrier, 8 seater, wheelchair accessible, exec...) are understood; any other name books the class the group gets by default and is shown to the driver',
      ),
    flightNumber: flight.optional(),
    notes: notes.optional(),
    fareGBP: z
      .number()
      .positive()
      .max(10_000)
      .optional()
      .describe('Partner-supplied fare (partner keys only); otherwise priced on published tariffs'),
    paymentMethod: z.enum(['cash', 'card', 'pay_driver', 'bank_transfer']).optional(),
    ...camelNeeds,
  })
  .meta({ id: 'V1DirectBookingRequest' });

export const V1QuoteBookingRequest = z
  .object({
    quote_id: uuid,
    passenger_name: name,
    passenger_email: v1Email,
    passenger_phone: phone,
    payment_method: z.enum(V1_PAYMENT_METHODS).optional(),
    flight_number: flight.optional(),
    notes: notes.optional(),
    ...snakeNeeds,
  })
  .meta({ id: 'V1QuoteBookingRequest' });

export const V1BookingRequest = z
  .union([V1QuoteBookingRequest, V1DirectBookingRequest])
  .meta({ id: 'V1BookingRequest' });

export const V1BookingResponse = z
  .object({
    booking_reference: z.string(),
    status: BookingStatusSchema,
    status_url: z.url(),
    pay_driver_url: z.url().describe('Where the passenger sees how to pay the driver directly'),
    fare: z.number(),
    currency: z.literal('GBP'),
    email_confirmation: z
      .enum(['required', 'not_required'])
      .describe(
        'Always not_required from this release: the ride is dispatched at once and the emailed link confirms the address. required was answered by releases that held dispatch until the link was opened.',
      ),
    manage_token: manageToken,
  })
  .meta({ id: 'V1BookingResponse' });

export const PassengerVerifyRequest = z
  .object({
    email: v1Email,
    code: z
      .string()
      .regex(/^\d{6}$/, 'must be the 6-digit code from the email')
      .optional(),
  })
  .meta({ id: 'PassengerVerifyRequest' });

export const PassengerVerifyResponse = z
  .object({
    email: z.string(),
    status: z.enum(['code_sent', 'verified']),
  })
  .meta({ id: 'PassengerVerifyResponse' });

export const TripEventRequest = z.object({
  token: jobLinkToken,
  event: z
    .enum(['en_route', 'arrived', 'on_board', 'completed', 'no_show', 'drop', 'confirm'])
    .describe(
      'no_show: at the pickup, the passenger did not come; drop: the driver gives the job back; it is reassigned; confirm: the driver confirms on the day a job they accepted well ahead',
    ),
});

export const SettlementRequest = z.object({
  token: jobLinkToken,
  method: z.enum(PAYMENT_METHODS).describe('How the passenger paid'),
  amount: z.number().min(0).max(10_000).multipleOf(0.01).optional().describe('GBP received; the fare when omitted'),
  reason: text(300)
    .optional()
    .describe('Required when amount is less than the fare: why (kept with the payment record)'),
});

export const SettlementReply = z.object({
  booking_reference: z.string(),
  payment: z.object({
    amount: z.number(),
    method: z.enum(SETTLEMENT_METHODS).describe('none: ops ended the trip with nothing due'),
    recorded_at: z.string(),
    recorded_by: z.string(),
  }),
});

export const TripEventReply = z.object({
  booking_reference: z.string(),
  event: z.string(),
  status: BookingStatusSchema.describe('The booking status after the report'),
});

export const OfferIdParams = z.object({ offerId: text(120).min(5).describe('From the job-card link') });

export const BookingClaimRequest = z
  .object({
    passenger_phone: text(32).describe('The phone number on the booking; a UK mobile may be written 07400 123456'),
  })
  .meta({ id: 'BookingClaimRequest' });

export const BookingClaimReply = z.object({
  status: z
    .literal('link_sent_if_booking_phone')
    .describe(
      'The same answer whatever the phone: if it is the booking’s (a UK mobile), it has been texted a link to take charge of the booking',
    ),
});
