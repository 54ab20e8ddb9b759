import { z } from 'zod';
import { text } from './common.js';
import { PAYMENT_METHODS, SETTLEMENT_METHODS } from '../model/bookings.js';
import { BookingStatusSchema } from './booking.js';

// The ops view's API (/api/ops/bookings...): the live board, a booking's story and its decision
// log. Times are UTC ISO strings, with the Europe/London wall-clock beside the ones people read;
// money is integer pence.

const at = z.string().describe('UTC, ISO 8601');
const atOrNull = at.nullable();

export const OpsBoardQuery = z.object({
  status: BookingStatusSchema.optional(),
  hours_back: z.coerce
    .number()
    .int()
    .min(0)
    .max(72)
    .default(2)
    .describe('Include pickups this many hours ago (still open)'),
  hours_ahead: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 14)
    .default(24)
    .describe('Include pickups up to this many hours ahead'),
  limit: z.coerce.number().int().min(1).max(500).default(200),
});

export const OpsDecisionQuery = z.object({
  driver_id: text(60)
    .regex(/^[A-Za-z0-9_-]+$/, 'is not a driver id')
    .optional()
    .describe('Only this driver’s part; says why if the log never mentions them'),
});

const OpsLinks = z.object({
  workflow: z.string().describe('The booking workflow’s history in the Temporal Web UI'),
  story: z.string(),
  decisions: z.string(),
  page: z.string(),
});

const OpsBoardBooking = z.object({
  ref: z.string(),
  status: z.string(),
  source: z.string(),
  pickup_at: at,
  pickup_at_london: z.string(),
  minutes_to_pickup: z.number().int(),
  pickup: z.string(),
  dropoff: z.string(),
  passengers: z.number().int(),
  vehicle_type: z.string(),
  wheelchair: z.boolean(),
  fare_pence: z.number().int(),
  driver: z.object({ id: z.string(), name: z.string().nullable() }).nullable(),
  without_driver: z.boolean().describe('No driver, and one may still be found'),
  alerted_at: atOrNull.describe('When ops were emailed that it is unassigned near pickup'),
  created_at: at,
  links: OpsLinks,
});

export const OpsBoard = z.object({
  since: at,
  until: at,
  alert_minutes: z.number().int(),
  counts: z.record(z.string(), z.number().int()).describe('Live bookings in the window, by status'),
  bookings: z.array(OpsBoardBooking),
});

const OpsRound = z.object({
  round: z.number().int(),
  tier: z.string(),
  considered: z.number().int(),
  eligible: z.number().int(),
  at,
});
const OpsOffer = z.object({
  id: z.string(),
  driver_id: z.string(),
  driver_name: z.string().nullable(),
  round: z.number().int(),
  tier: z.string(),
  status: z.enum(['offered', 'accepted', 'declined', 'timed_out', 'withdrawn']),
  offered_at: at,
  expires_at: at,
  responded_at: atOrNull,
  claimed_from_board: z
    .boolean()
    .describe('The driver took the job from the upcoming-jobs board rather than a job card'),
  fare_pence: z
    .number()
    .int()
    .nullable()
    .describe(
      'The fare the job was offered at (a driver’s own approved rate, never above the quote); null for offers made before it was kept',
    ),
});

export const OpsBookingStory = z.object({
  booking: OpsBoardBooking.extend({
    passenger: z.object({ name: z.string(), phone: z.string(), email: z.string().nullable() }),
    payment_method: z.string(),
    partner: z.object({ id: z.string(), job_ref: z.string().nullable() }).nullable(),
    assigned_at: atOrNull,
    cancelled_at: atOrNull,
    cancel_reason: z.string().nullable(),
  }),
  status_changes: z.array(
    z.object({
      status: z.string(),
      previous_status: z.string().nullable(),
      driver_id: z.string().nullable(),
      at,
      at_london: z.string(),
    }),
  ),
  rounds: z.array(OpsRound),
  offers: z.array(OpsOffer),
  messages: z
    .array(
      z.object({
        key: z.string(),
        channel: z.string(),
        to: z.string(),
        subject: z.string().nullable(),
        provider: z.string(),
        created_at: at,
        sent_at: atOrNull,
        withheld: z
          .string()
          .nullable()
          .describe(
            'Why the sending policy held the message back (docs/notifications.md, "Sending policy"); null when it was handed to the provider',
          ),
        attempts: z.number().int().describe('Calls made to the provider for this message'),
        failure: z
          .object({
            at,
            status: z.number().int().nullable().describe("The provider's HTTP status or SMTP reply code"),
            code: z
              .string()
              .nullable()
              .describe("The provider's own error code (Twilio's 21610: the recipient unsubscribed)"),
            error: z.string(),
            refused: z.boolean().describe('The provider refused it for good: it will never be sent'),
          })
          .nullable()
          .describe('The latest failed attempt, while the message is unsent (docs/notifications.md); null if none'),
      }),
    )
    .describe(
      'From the outbox, and the messages the sending policy held back; bodies are not shown (a job card carries the driver’s signed link)',
    ),
  payments: z.array(
    z.object({
      id: z.string(),
      driver_id: z.string().nullable(),
      amount_pence: z.number().int(),
      method: z.string(),
      recorded_by: z.string(),
      corrects: z.string().nullable(),
      note: z.string().nullable(),
      recorded_at: at,
    }),
  ),
  staff_actions: z
    .array(z.object({ action: z.string(), reason: z.string().nullable(), by: z.string(), at }))
    .describe('What staff did to the booking (cancel, release its driver, end its trip), with the reason they gave'),
});

export const OpsDecisionLog = z.object({
  booking_ref: z.string(),
  links: OpsLinks,
  rounds: z.array(OpsRound),
  decisions: z.array(
    z.object({
      round: z.number().int(),
      tier: z.string(),
      driver_id: z.string(),
      driver_name: z.string().nullable(),
      distance_m: z.number().int().nullable(),
      rank_m: z
        .number()
        .int()
        .nullable()
        .describe(
          'What the driver was ranked on: the distance plus up to 2 km for leaving job cards unanswered (docs/dispatch.md, "Ranking")',
        ),
      answer_rate: z
        .number()
        .nullable()
        .describe("The smoothed share of the driver's job cards of the last 7 days they accepted (0-1)"),
      eligible: z.boolean(),
      skip_reason: z.string().nullable().describe('Why the driver was passed over (null when eligible)'),
      decided_at: at,
    }),
  ),
  truncated: z.boolean().describe('More decisions than listed (filter by driver to see one driver’s)'),
  offers: z.array(OpsOffer),
  driver: z
    .object({
      considered: z.boolean().describe('The log mentions this driver'),
      offered: z.boolean(),
      explanation: z.string(),
      now: z
        .object({
          id: z.string(),
          name: z.string(),
          tier: z.string(),
          status: z.string(),
          online: z.boolean(),
          location_age_seconds: z.number().int().nullable(),
          distance_now_m: z.number().int().nullable(),
          tier_reach_m: z.number().int().nullable(),
        })
        .describe('The driver as they are now, beside the log'),
    })
    .nullable(),
});

// Sign-in codes (src/auth/code-guard.ts): what ops see of the limits and the locks.
export const SignInLockoutsReply = z.object({
  codes_today: z
    .object({ sms: z.number().int(), email: z.number().int() })
    .describe('Codes sent this UTC day, by channel'),
  daily_ceiling: z
    .object({ sms: z.number().int(), email: z.number().int() })
    .describe('Codes stop for the day at these'),
  new_recipient_limit: z
    .object({ sms: z.number().int(), email: z.number().int() })
    .describe(
      'Codes to recipients never signed in (and claim links, verification codes, new driver phones) stop for the day at these; the rest of the ceiling is kept for approved drivers and returning passengers',
    ),
  lockouts: z.array(
    z.object({
      subject: z
        .string()
        .describe('What is locked: passenger:phone:+44..., passenger:email:..., driver:+44..., verify:email:...'),
      address: z
        .string()
        .describe(
          'The address it is locked for, the one whose wrong codes locked it (IPv6 by /64); every other address may still sign in',
        ),
      locked_until: at,
      locked_until_london: z.string(),
      locks_in_a_row: z
        .number()
        .int()
        .describe('Each lock in a row doubles the next (at most SIGN_IN_LOCK_MAX_MINUTES)'),
      last_failure_at: at,
      last_address: z.string().nullable().describe('The same as address (kept for clients that read it)'),
    }),
  ),
});

export const SignInUnlockRequest = z.object({
  subject: text(300).trim().min(3),
  reason: text(500).trim().min(3),
});
export const SignInUnlockReply = z.object({
  subject: z.string(),
  unlocked: z.boolean().describe('Whether anything was cleared: a lock or wrong-code count, or a code allowance'),
  locks_cleared: z.number().int().describe('Locks and wrong-code counts deleted, one per address that guessed'),
  allowances_cleared: z.number().int().describe('Code allowance counters of the phone or mailbox deleted'),
});

/** Ops end a trip with the passenger on board: why, and what was received or that nothing is due. */
export const EndTripRequest = z
  .object({
    reason: text(500).trim().min(3, 'say why'),
    settlement: z.union([
      z
        .object({
          amount: z.number().min(0).max(10_000).multipleOf(0.01).describe('GBP received'),
          method: z.enum(PAYMENT_METHODS).describe('How the passenger paid'),
        })
        .strict(),
      z
        .object({
          nothing_due: z.literal(true),
          reason: text(500).trim().min(3, 'say why nothing is due'),
        })
        .strict(),
    ]),
  })
  .meta({ id: 'EndTripRequest' });

export const EndTripReply = z
  .object({
    booking_reference: z.string(),
    status: z.literal('completed'),
    nothing_due: z.boolean(),
    payment: z.object({
      amount: z.number(),
      method: z.enum(SETTLEMENT_METHODS).describe('none: nothing due'),
      recorded_at: z.string(),
      recorded_by: z.string(),
    }),
    ended_now: z
      .boolean()
      .describe("false for a repeat: the trip had already been ended, and the first request's record is answered"),
  })
  .meta({ id: 'EndTripReply' });

export const OpsCancelRequest = z
  .object({ reason: text(300).trim().min(3, 'say why') })
  .meta({ id: 'OpsCancelRequest' });
export const OpsReleaseRequest = z
  .object({ reason: text(300).trim().min(3, 'say why') })
  .meta({ id: 'OpsReleaseRequest' });
export const OpsReleaseReply = z
  .object({
    booking_reference: z.string(),
    released_driver_id: z.string(),
    status: z
      .literal('dispatching_again')
      .describe('The booking is dispatched again from the start of the cascade, never to the released driver'),
  })
  .meta({ id: 'OpsReleaseReply' });
export const OpsAmendRequest = z
  .object({
    pickup: text(300).trim().min(2).optional().describe('The new pickup, as a passenger would type it'),
    dropoff: text(300).trim().min(2).optional().describe('The new drop-off'),
    pickup_at: z.iso.datetime({ offset: true }).optional().describe('The new pickup time, ISO 8601 with its offset'),
    reason: text(300).trim().min(3, 'say why'),
  })
  .meta({ id: 'OpsAmendRequest' });
export const OpsOfferRequest = z
  .object({
    driver_id: text(60).trim().min(1).describe('The driver to offer the job to'),
    reason: text(300).trim().min(3, 'say why'),
  })
  .meta({ id: 'OpsOfferRequest' });
export const OpsOfferReply = z
  .object({ booking_reference: z.string(), offered_to: z.string(), offer_expires_at: z.string() })
  .meta({ id: 'OpsOfferReply' });

export const PartnerIdParams = z.object({ partnerId: text(40).regex(/^[a-z0-9][a-z0-9-]{1,39}$/) });
export const OpsBridgeRequest = z
  .object({
    action: z.enum(['pause', 'resume']),
    reason: text(300).trim().min(3, 'say why'),
  })
  .meta({ id: 'OpsBridgeRequest' });
export const OpsBridgeReply = z
  .object({
    partner_id: z.string(),
    bridge_paused: z.boolean(),
    changed: z.boolean().describe('false when the bridge was already so: nothing changed and nothing new recorded'),
    actions: z
      .array(
        z.object({
          action: z.enum(['bridge.pause', 'bridge.resume']),
          reason: z.string().nullable(),
          at: z.string().describe('UTC, ISO 8601'),
          by: z.string().describe('The staff member who did it'),
        }),
      )
      .describe('Every pause and resume of this bridge, oldest first'),
  })
  .meta({ id: 'OpsBridgeReply' });
