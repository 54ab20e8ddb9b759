import { z } from 'zod';
import { BOOKING_REF_PATTERN } from '../model/bookings.js';
import { BookingStatusSchema } from './booking.js';
import { NO_CONTROL_CHARACTERS } from './common.js';
import { JOB_ACTIONS } from '../model/partners.js';

// Status and amendment events a sender receives about its bookings, its callback registration, and the status
// updates a partner fleet sends about jobs dispatched to its drivers. Partner-facing fields are
// camelCase, as in the PartnerJob.

export const EVENT_ID_PATTERN = /^evt_[0-9a-f]{32}$/;
const eventId = z.string().regex(EVENT_ID_PATTERN, 'must be an event id (evt_ and 32 hex digits)');

const eventDriver = z
  .object({ name: z.string(), vehicle: z.string(), plate: z.string() })
  .nullable()
  .describe('The assigned driver (null until one accepts, and again if the job is given back)');

/** Fields every event shares (and an amendment or rejection numbers itself with the status changes). */
const webhookId = eventId.describe('Stable for ever; also sent as webhook-id, so a receiver can drop duplicates');
const sharedBookingFields = {
  bookingReference: z.string(),
  jobRef: z.string().nullable().describe('Your own job reference'),
  sequence: z
    .number()
    .int()
    .min(1)
    .describe('1, 2, 3... per booking, shared with status changes: deliveries keep this order'),
};

export const PartnerStatusEventSchema = z
  .object({
    id: webhookId,
    type: z.literal('booking.status_changed'),
    timestamp: z.iso.datetime().describe('When the status changed (UTC)'),
    data: z.object({
      bookingReference: z.string(),
      jobRef: z.string().nullable().describe('Your own job reference'),
      sequence: z.number().int().min(1).describe('1, 2, 3... per booking: deliveries keep this order'),
      status: BookingStatusSchema,
      previousStatus: BookingStatusSchema.nullable(),
      pickupAt: z.iso.datetime(),
      driver: eventDriver,
    }),
  })
  .meta({ id: 'PartnerStatusEvent', description: 'A booking’s status changed' });

export const AMENDED_FIELDS = [
  'pickupAt',
  'pickup',
  'dropoff',
  'fare',
  'passengers',
  'vehicleType',
  'wheelchair',
  'notes',
] as const;

/** What a booking.amended event says changed (recorded by migration 00021's trigger). */
export const AmendmentChangesSchema = z.object({
  changed: z
    .array(z.enum(AMENDED_FIELDS))
    .min(1)
    .describe('The fields the amendment changed (notes are named, never copied)'),
  pickup: z.string().describe('The pickup as it now stands'),
  dropoff: z.string().describe('The drop-off as it now stands'),
  fare: z.number().describe('The fare as it now stands, GBP (your agreed fare, or the tariff’s for the amended job)'),
  passengers: z.number().int(),
  vehicleType: z.string(),
  wheelchair: z.boolean(),
  previous: z
    .object({ pickupAt: z.iso.datetime(), pickup: z.string(), dropoff: z.string(), fare: z.number() })
    .describe('The pickup time, places and fare before the amendment'),
});
export type AmendmentChanges = z.infer<typeof AmendmentChangesSchema>;

export const PartnerAmendmentEventSchema = z
  .object({
    id: webhookId,
    type: z.literal('booking.amended'),
    timestamp: z.iso.datetime().describe('When the amendment was applied (UTC)'),
    data: z.object({
      ...sharedBookingFields,
      status: BookingStatusSchema.describe('The booking’s status when the amendment was applied'),
      pickupAt: z.iso.datetime().describe('The pickup time as it now stands'),
      ...AmendmentChangesSchema.shape,
      driver: eventDriver,
    }),
  })
  .meta({
    id: 'PartnerAmendmentEvent',
    description: 'An amendment was applied to a booking (its time, places, fare, passengers, vehicle or notes)',
  });

/** What a job.rejected event says was refused (recorded by migration 00046's trigger). */
export const JobRejectionSchema = z.object({
  action: z.enum(JOB_ACTIONS).describe('The action of the job refused'),
  code: z.string().describe('The refusal’s stable code, as the job lookup gives it'),
  message: z.string(),
});
export type JobRejection = z.infer<typeof JobRejectionSchema>;

export const PartnerJobRejectedEventSchema = z
  .object({
    id: webhookId,
    type: z.literal('job.rejected'),
    timestamp: z.iso.datetime().describe('When the job was refused (UTC)'),
    data: z.object({
      ...sharedBookingFields,
      status: BookingStatusSchema.describe('The booking’s status, which the refused job did not change'),
      pickupAt: z.iso.datetime(),
      ...JobRejectionSchema.shape,
      driver: eventDriver,
    }),
  })
  .meta({
    id: 'PartnerJobRejectedEvent',
    description:
      'A job answered `processing` was refused when applied (an amend or cancel of a booking that had moved on): the booking stands as it was',
  });

export const PartnerEventSchema = z
  .discriminatedUnion('type', [PartnerStatusEventSchema, PartnerAmendmentEventSchema, PartnerJobRejectedEventSchema])
  .meta({
    id: 'PartnerEvent',
    description:
      'The body POSTed to your callback URL, signed as Standard Webhooks sign: a status change, an amendment, or a job refused after its reply, by `type`',
  });
export type PartnerEventPayload = z.infer<typeof PartnerEventSchema>;

export const DELIVERY_STATES = ['pending', 'delivered', 'failed', 'unregistered'] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

export const PartnerEventListItemSchema = z
  .object({
    event: PartnerEventSchema,
    delivery: z.object({
      state: z.enum(DELIVERY_STATES).describe('unregistered: you had no callback URL when it happened'),
      attempts: z.number().int(),
      lastAttemptAt: z.iso.datetime().nullable(),
      deliveredAt: z.iso.datetime().nullable(),
      lastError: z.string().nullable(),
      replayRequested: z.boolean(),
    }),
  })
  .meta({ id: 'PartnerEventListItem' });

export const PartnerEventListSchema = z
  .object({
    events: z.array(PartnerEventListItemSchema),
    nextAfter: z
      .string()
      .nullable()
      .describe('Pass as `after` for the next page, or later to poll for newer events; null while you have none'),
    hasMore: z.boolean().describe('More events are already waiting after this page'),
  })
  .meta({ id: 'PartnerEventList' });

export const PartnerEventListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  after: eventId.optional().describe('Events recorded after this one'),
  bookingReference: z.string().regex(BOOKING_REF_PATTERN, 'must be a booking reference').optional(),
});

export const PartnerEventParams = z.object({ id: eventId });

export const ReplayReplySchema = z
  .object({ id: z.string(), replay: z.literal('queued') })
  .meta({ id: 'PartnerEventReplay' });

export const WebhookRegistrationRequest = z
  .object({
    url: z
      .string()
      .max(2000, 'must be at most 2000 characters')
      .regex(NO_CONTROL_CHARACTERS, 'must not contain control characters')
      .describe(
        'https, resolving to public addresses (http and private addresses are allowed only outside production)',
      ),
  })
  .meta({ id: 'WebhookRegistrationRequest' });

export const WebhookRegistrationSchema = z
  .object({
    url: z.string().nullable(),
    signingSecret: z
      .string()
      .optional()
      .describe(
        'whsec_...: shown once, when first issued or rotated. Verify deliveries with any Standard Webhooks library',
      ),
    secretIssuedAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'WebhookRegistration' });

export const FLEET_STATUSES = ['accepted', 'on_the_way', 'arrived', 'on_board', 'completed', 'cancelled'] as const;
export type FleetStatus = (typeof FLEET_STATUSES)[number];

export const BookingStatusHookRequest = z
  .object({
    bookingReference: z.string().regex(BOOKING_REF_PATTERN, 'must be a booking reference'),
    status: z
      .enum(FLEET_STATUSES)
      .describe(
        'accepted: your driver takes the job; cancelled: your driver gives it back (it is offered to another driver)',
      ),
  })
  .meta({ id: 'BookingStatusHookRequest' });
export type BookingStatusUpdate = z.infer<typeof BookingStatusHookRequest>;

export const BookingStatusHookReply = z
  .object({
    bookingReference: z.string(),
    status: BookingStatusSchema.describe('The booking’s status after the update'),
    driverId: z.string().nullable(),
  })
  .meta({ id: 'BookingStatusHookReply' });

export const ExchangeEventReply = z
  .object({
    received: z.literal(true),
    outcome: z
      .enum(['accepted', 'duplicate', 'ignored'])
      .describe(
        'accepted: handed to the booking; duplicate: this webhook-id came before; ignored: another event type, or the booking is over',
      ),
  })
  .meta({ id: 'ExchangeEventReply', description: "An exchange fleet's status event, received (docs/exchange.md)" });
