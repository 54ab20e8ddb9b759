import { z } from 'zod';
import { VEHICLE_TYPES } from '../pricing/types.js';
import { BOOKING_REF_PATTERN, PAYMENT_METHODS } from '../model/bookings.js';
import { MAX_DOCUMENT_BASE64_CHARS, MAX_DOCUMENT_BYTES, MAX_DOCUMENTS } from '../drivers/application-limits.js';
import { driverDetailProblem, type DriverDetail } from '../screening/driver-details.js';
import { DriverPaymentOptionsSchema } from '../settlement/payment-options.js';
import { text } from './common.js';

// The driver's side: applying, signing in, the app's feed and controls, and what staff decide.

const phone = text(32)
  .trim()
  .min(5)
  .describe(
    'National UK (07400 123456) or international (+44 7400 123456, +33 6 12 34 56 78); spaces, brackets, dots and hyphens allowed; stored in E.164 (+447400123456)',
  );
const day = z.iso
  .date('must be a date, e.g. 2027-03-31')
  // "2027-02-30" has the right shape but is no day at all.
  .refine((d) => {
    // (Run even when the shape was wrong: an unparseable string must be a 400, never a thrown error.)
    const t = Date.parse(`${d}T00:00:00Z`);
    return !Number.isNaN(t) && new Date(t).toISOString().startsWith(d);
  }, 'must be a real calendar date')
  .describe('YYYY-MM-DD');

/** What passengers and partners are shown of a driver: held to a safe character set (src/screening/driver-details.ts). */
const shownToOthers = (kind: DriverDetail, max: number, min: number, describe: string) =>
  text(max)
    .trim()
    .min(min)
    .superRefine((v, ctx) => {
      const problem = driverDetailProblem(kind, v);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .describe(describe);

export const DriverApplicationRequest = z
  .object({
    name: shownToOthers('name', 60, 2, 'As passengers will see it: letters, spaces, apostrophes and hyphens'),
    phone,
    email: z.email('must be an email address').max(254),
    licensing_authority: text(100)
      .trim()
      .min(2)
      .describe('The council that licensed the driver, e.g. Manchester City Council'),
    driver_licence_number: text(40).trim().min(3),
    driver_licence_expires: day,
    vehicle_licence_number: shownToOthers(
      'licence',
      20,
      2,
      'The plate number, as passengers will see it: letters, digits, spaces, - and /',
    ),
    vehicle_licence_expires: day,
    vehicle_make: shownToOthers('vehicle', 40, 2, "As passengers will see it: letters, digits, spaces and - ' & +"),
    vehicle_model: shownToOthers('vehicle', 40, 1, "As passengers will see it: letters, digits, spaces and - ' & +"),
    vehicle_registration: text(10)
      .trim()
      .regex(/^[A-Za-z0-9 ]{2,10}$/, 'must be a UK registration'),
    vehicle_colour: text(30)
      .trim()
      .superRefine((v, ctx) => {
        // A colour is words: no digits, nothing but letters, spaces, hyphens and apostrophes.
        const problem =
          v === ''
            ? null
            : /^\p{L}[\p{L} '-]*$/u.test(v)
              ? driverDetailProblem('vehicle', v)
              : 'may contain only letters, spaces and hyphens';
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      })
      .nullable()
      .default(null)
      .describe(
        "Optional: the car's colour as passengers will see it, e.g. silver, dark blue (letters, spaces and hyphens)",
      ),
    vehicle_type: z.enum(VEHICLE_TYPES),
    seats: z.number().int().min(1).max(16),
    wheelchair_accessible: z.boolean().default(false),
    home_area: text(60)
      .trim()
      .min(2)
      .regex(/^[a-z0-9-]+$/, 'must be one of the licensing areas on the list')
      .nullable()
      .default(null)
      .describe(
        'The licensing area id of the council that licensed the driver (e.g. manchester), or national-default for a council whose tariff the service does not hold',
      ),
    tier: z.enum(['local', 'national', 'partner']).default('local'),
    partner_fleet_id: text(60)
      .trim()
      .min(1)
      .nullable()
      .default(null)
      .describe(
        'The fleet you ask to join (required for tier partner): a request its operator accepts or refuses; you are in no fleet until then',
      ),
    documents: z
      .array(
        z.object({
          kind: z.enum(['driver_licence', 'vehicle_licence', 'insurance', 'other']),
          content_type: z.enum(['application/pdf', 'image/jpeg', 'image/png']),
          data_base64: z
            .string()
            .min(4)
            .max(
              MAX_DOCUMENT_BASE64_CHARS,
              `must be at most ${MAX_DOCUMENT_BYTES / 1024 / 1024} MB (${MAX_DOCUMENT_BASE64_CHARS} base64 characters)`,
            )
            .regex(/^[A-Za-z0-9+/]+={0,2}$/, 'must be base64'),
        }),
      )
      .min(2)
      .max(MAX_DOCUMENTS, `at most ${MAX_DOCUMENTS} documents`)
      .describe(
        `At least the driver licence and the vehicle licence; PDF, JPEG or PNG, ${MAX_DOCUMENTS} documents of ${MAX_DOCUMENT_BYTES / 1024 / 1024} MB each at most. Never shown publicly.`,
      ),
  })
  .meta({ id: 'DriverApplication' });

export const DriverApplicationReply = z.object({
  driver_id: z.string(),
  status: z.literal('applicant'),
  fleet_request: z
    .object({ fleet_id: z.string(), status: z.literal('pending') })
    .nullable()
    .describe("The fleet asked for, waiting for its operator's answer"),
});

export const SignInRequest = z.object({ phone });
export const SignInReply = z.object({ status: z.literal('code_sent_if_registered') });
export const SignInVerifyRequest = z.object({ phone, code: z.string().regex(/^\d{6}$/, 'must be the 6-digit code') });
export const SignInVerifyReply = z.object({
  token: z.string().describe('Send as Authorization: Bearer <token>'),
  driver_id: z.string(),
});

export const AvailabilityRequest = z.object({ online: z.boolean() });
export const LocationRequest = z.object({
  lat: z.number().min(49).max(61.1),
  lon: z.number().min(-8.7).max(2),
  accuracy_m: z.number().min(0).max(100_000).optional(),
});

export const DriverJob = z
  .object({
    offer_id: z.string(),
    offer: z.enum(['offered', 'accepted']),
    offer_expires_at: z.string().nullable(),
    booking_reference: z.string(),
    status: z.string(),
    pickup_time: z.string().describe('UTC'),
    pickup: z.string(),
    pickup_note: z.string().nullable(),
    dropoff: z.string(),
    passengers: z.number().int(),
    vehicle_type: z.string(),
    wheelchair: z.boolean(),
    fare_pence: z.number().int(),
    own_rate: z.boolean().describe('The fare is at your own approved rate (below the fare quoted to the passenger)'),
    payment_method: z.string(),
    notes: z.string().nullable(),
    flight_number: z.string().nullable(),
    meet_and_greet: z.boolean(),
    assistance_dog: z.boolean().describe('An assistance dog travels with the passenger: carry it, at no charge'),
    help_finding_vehicle: z.boolean().describe('The passenger asked you to help them find the vehicle'),
    passenger: z.object({ name: z.string(), phone: z.string() }).nullable().describe('Once the job is yours'),
    next_steps: z.array(z.string()),
    awaiting_payment: z.boolean(),
  })
  .meta({ id: 'DriverJob' });
export const DriverJobsReply = z.object({ jobs: z.array(DriverJob) }).meta({ id: 'DriverJobs' });

export const DriverJobParams = z.object({ offerId: text(120).min(5) });

/** The upcoming-jobs board (src/drivers/upcoming.ts): where and when, not the address, until taken. */
export const UpcomingJob = z
  .object({
    booking_reference: z.string(),
    pickup_time: z.string().describe('UTC'),
    pickup_time_london: z
      .string()
      .describe('The pickup time as a driver reads it, Europe/London, e.g. "Fri 27 Nov, 05:30"'),
    pickup_area: z
      .string()
      .describe('Postcode district and town, or the airport or station: the address is shown once the job is yours'),
    dropoff_area: z.string(),
    passengers: z.number().int(),
    vehicle_type: z.string(),
    wheelchair: z.boolean(),
    fare_pence: z
      .number()
      .int()
      .describe('What taking the job pays you: your own approved rate where it is below the quoted fare'),
    own_rate: z.boolean().describe('The fare is at your own approved rate'),
    distance_miles: z.number(),
    payment_method: z.string(),
    meet_and_greet: z.boolean(),
    assistance_dog: z.boolean().describe('An assistance dog travels with the passenger: carry it, at no charge'),
    help_finding_vehicle: z.boolean().describe('The passenger asked you to help them find the vehicle'),
    miles_from_you: z.number().nullable().describe('From where you last were, as the crow flies'),
  })
  .meta({ id: 'UpcomingJob' });
export const UpcomingJobsQuery = z.object({
  page: z.coerce
    .number()
    .int('must be a whole number')
    .min(1, 'must be 1 or more')
    .max(50, 'must be at most 50')
    .default(1),
});
export const UpcomingJobsReply = z
  .object({ jobs: z.array(UpcomingJob), page: z.number().int(), more: z.boolean(), horizon_hours: z.number() })
  .meta({ id: 'UpcomingJobs' });
export const UpcomingJobParams = z.object({
  ref: text(12)
    .regex(BOOKING_REF_PATTERN, 'is not a booking reference')
    .describe('Booking reference, e.g. TX7K2M9QH4WD'),
});
export const UpcomingClaimReply = z
  .object({
    result: z.literal('claimed'),
    booking_reference: z.string(),
    offer_id: z.string().describe('The job in your feed (GET /api/public/v1/jobs), for the trip reports'),
  })
  .meta({ id: 'UpcomingClaim' });
export const DriverRespondRequest = z.object({ decision: z.enum(['accept', 'decline']) });
export const DriverTripRequest = z.object({
  event: z
    .enum(['en_route', 'arrived', 'on_board', 'completed', 'no_show', 'drop', 'confirm'])
    .describe('A trip step; drop gives the job back; confirm confirms on the day a job accepted well ahead'),
});
export const DriverPaymentRequest = z.object({
  method: z.enum(PAYMENT_METHODS),
  amount: z.number().min(0).max(10_000).multipleOf(0.01).optional(),
  reason: text(300)
    .optional()
    .describe('Required when amount is less than the fare: why (kept with the payment record)'),
});
export const PaymentOptionsRequest = DriverPaymentOptionsSchema;

export const DriverDecisionRequest = z.object({
  action: z.enum(['approve', 'reject', 'suspend', 'reinstate']),
  reason: text(500).trim().min(3, 'say why').nullable().default(null),
  grant_fleet_id: text(60)
    .trim()
    .min(1)
    .nullable()
    .default(null)
    .describe(
      "With approve: also grant the fleet the driver asked to join, named as the driver's requested_fleet_id (otherwise its operator answers)",
    ),
});
export const DriverIdParams = z.object({ driverId: text(60).regex(/^[A-Za-z0-9_-]+$/) });
export const TrialExtensionRequest = z.object({
  // The business bounds (90 days at a time, 365 in all) are the subscription's, answered 422; this only keeps the number sane.
  days: z
    .number()
    .int()
    .min(1)
    .max(10_000)
    .describe('At most 90 at a time; the trial at most 365 days in all (422 beyond)'),
  reason: text(500).trim().min(3),
});
export const PassengerBlockRequest = z
  .object({
    email: z.email().max(254).optional(),
    phone: text(32).optional().describe('International, or a UK number as written at home (07400 123456)'),
    action: z.enum(['block', 'unblock']),
    reason: text(500).trim().min(3),
  })
  .refine((b) => (b.email === undefined) !== (b.phone === undefined), {
    message: 'give email or phone (one of them)',
    path: ['email'],
  });

export const NoContent = z.null().describe('No content');

/** A driver's own map-service key (spec 8; docs/routing.md, "A driver's own map-service key"). */
export const MapServiceRequest = z.object({
  provider: z.literal('mapbox').describe('The map service: Mapbox (its Directions API) is the one taken'),
  key: text(600)
    .trim()
    .min(1, 'is required')
    .describe("The driver's Mapbox access token (pk.… or sk.…), allowed Directions; billed to the driver by Mapbox"),
});
export const MapServiceStatus = z
  .object({
    provider: z.literal('mapbox'),
    key_ending: z.string().describe("The key's last four characters: the key itself is never sent back"),
    set_at: z.string().describe('When the key was entered (UTC)'),
    refused_at: z
      .string()
      .nullable()
      .describe('When Mapbox turned the key down in use: ETAs went back to the estimate until a new key is entered'),
    calls_this_week: z
      .number()
      .int()
      .describe(
        'Route requests made on the key since Monday (Europe/London); Mapbox bills them, this service never does',
      ),
  })
  .meta({ id: 'MapServiceStatus' });
export const AvailabilityReply = z.object({ online: z.boolean() });
export const DriverDashboard = z
  .object({
    driver: z.object({
      id: z.string(),
      name: z.string(),
      status: z.enum(['applicant', 'approved', 'rejected', 'suspended']),
      online: z.boolean(),
      tier: z.enum(['local', 'national', 'partner']),
      vehicle: z.string(),
      plate: z.string(),
      driver_licence_expires: z.string().nullable(),
      vehicle_licence_expires: z.string().nullable(),
    }),
    receiving_jobs: z
      .object({
        yes: z.boolean(),
        reason: z.enum(['not_approved', 'licence_expired', 'offline', 'no_location', 'stale_location']).nullable(),
        message: z
          .string()
          .nullable()
          .describe('Why no job is offered now, in plain words; null when jobs are offered'),
        location_at: z.string().nullable().describe("When the service last had the driver's position (UTC)"),
      })
      .describe(
        'Whether dispatch offers this driver jobs now (online, approved, licences valid, a position under 10 minutes old)',
      ),
    licence_notice: z
      .string()
      .nullable()
      .describe('Within a fortnight of a licence running out: which, when, and what to do; null otherwise'),
    completed_rides: z.number().int(),
    earnings_pence: z.number().int().describe('Settled fares of completed journeys; no commission is ever taken'),
    dead_mileage_miles: z.number().describe('Distance to each pickup when the job was offered (straight line)'),
    paid_weeks: z.number().int(),
    free_weeks: z.number().int(),
    subscription: z
      .object({
        state: z.enum(['trial', 'active', 'cancelled']),
        trial_ends_at: z.string(),
        trial_days_remaining: z.number().int(),
        weeks_billed: z.number().int(),
      })
      .nullable(),
    invoices: z.array(
      z.object({
        week_start: z.string(),
        week_end: z.string(),
        earnings_pence: z.number().int(),
        fee_pence: z.number().int(),
        sms_count: z.number().int(),
        sms_pence: z.number().int(),
        total_pence: z.number().int(),
        status: z.string(),
      }),
    ),
    map_service: MapServiceStatus.nullable().describe("The driver's own map-service key, if they keep one"),
  })
  .meta({ id: 'DriverDashboard' });

export const OpsDriver = z
  .object({
    id: z.string(),
    name: z.string(),
    phone: z.string(),
    email: z.string().nullable(),
    status: z.enum(['applicant', 'approved', 'rejected', 'suspended']),
    tier: z.enum(['local', 'national', 'partner']),
    home_area: z.string().nullable(),
    licensing_authority: z.string().nullable(),
    driver_licence_number: z.string().nullable(),
    driver_licence_expires: z.string().nullable(),
    vehicle_licence_number: z.string().nullable(),
    vehicle_licence_expires: z.string().nullable(),
    vehicle: z.string(),
    vehicle_registration: z.string().nullable(),
    vehicle_type: z.string(),
    seats: z.number().int(),
    wheelchair_accessible: z.boolean(),
    applied_at: z.string().nullable(),
    fleet_id: z.string().nullable().describe('The fleet the driver is in (granted by its operator or by staff)'),
    requested_fleet_id: z
      .string()
      .nullable()
      .describe('A fleet the driver asked to join, not yet answered: not a membership'),
    online: z.boolean(),
    receiving_jobs: z
      .object({
        yes: z.boolean(),
        reason: z.enum(['not_approved', 'licence_expired', 'offline', 'no_location', 'stale_location']).nullable(),
        message: z.string().nullable(),
      })
      .describe(
        'Whether dispatch offers this driver jobs now, and if not why (an online driver it passes over is shown)',
      ),
  })
  .meta({ id: 'OpsDriver' });
export const OpsDriverDetail = z.object({
  driver: OpsDriver,
  fleet: z.object({
    requests: z.array(
      z.object({
        id: z.string(),
        fleet_id: z.string(),
        fleet_name: z.string(),
        status: z.enum(['pending', 'granted', 'refused', 'closed']),
        requested_at: z.string(),
        decided_at: z.string().nullable(),
      }),
    ),
    history: z.array(
      z.object({
        event: z.string(),
        fleet_id: z.string(),
        by_kind: z.enum(['operator', 'staff']),
        by: z.string(),
        reason: z.string().nullable(),
        at: z.string(),
      }),
    ),
  }),
  documents: z.array(
    z.object({
      id: z.string(),
      kind: z.string(),
      content_type: z.string(),
      size_bytes: z.number().int(),
      sha256: z.string(),
      uploaded_at: z.string(),
    }),
  ),
  actions: z.array(
    z.object({
      action: z.string(),
      reason: z.string().nullable(),
      by: z.string(),
      role: z.string(),
      at: z.string(),
      details: z.unknown(),
    }),
  ),
});
export const OpsDecisionReply = z.object({ driver: OpsDriver });
export const TrialExtensionReply = z.object({ trial_ends_at: z.string(), trial_days_remaining: z.number().int() });
export const PassengerBlockReply = z.object({
  identifier: z
    .string()
    .describe(
      'What the block names: email:<mailbox> (lower-cased, without +tags; Gmail without dots) or phone:<E.164>',
    ),
  blocked: z.boolean(),
});

export const RateOverrideRequest = z
  .object({
    scope: z.enum(['driver', 'partner']),
    subject_id: text(60)
      .trim()
      .min(1)
      .regex(/^[A-Za-z0-9_-]+$/),
    // A rate far below the tariff is a fare the driver, who is paid by the passenger, never sees;
    // far above it, one no passenger should be quoted. Beyond these, it is a typo, not a rate.
    adjustment_basis_points: z
      .number()
      .int()
      .min(-5000, 'must be at least -5000 (50% below the council tariff)')
      .max(10_000, 'must be at most 10000 (100% above the council tariff)')
      .describe('+1000 = 10% above the council tariff; from -5000 to +10000'),
    minimum_fare_pence: z
      .number()
      .int()
      .min(0)
      .max(20_000, 'must be at most 20000 (200 GBP)')
      .nullable()
      .default(null)
      .describe('At most 20000 (200 GBP)'),
    vehicle_types: z.array(z.enum(VEHICLE_TYPES)).min(1).nullable().default(null).describe('null: every class'),
    effective_from: z.iso.datetime({ offset: true }).optional().describe('Default: now; at most 366 days ahead'),
    effective_to: z.iso
      .datetime({ offset: true })
      .nullable()
      .default(null)
      .describe('null: open-ended; else after effective_from and in the future'),
    reason: text(500).trim().min(3),
  })
  .meta({ id: 'RateOverrideRequest' });
export const RateOverrideReply = z.object({
  id: z.string(),
  scope: z.enum(['driver', 'partner']),
  subject_id: z.string(),
  adjustment_basis_points: z.number().int(),
  minimum_fare_pence: z.number().int().nullable(),
  approved_by: z.string(),
  approved_at: z.string(),
});
