import { placeForPeople } from '../model/places.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { DateTime } from 'luxon';
import { z } from 'zod';
import { book } from '../bookings/book.js';
import { requestOwner } from '../bookings/ownership.js';
import { fromMcp } from '../bookings/request/mcp.js';
import { vehicleClass } from '../bookings/request/index.js';
import { statusUrl } from '../bookings/present.js';
import { findBooking } from '../bookings/store.js';
import { precisionOf } from '../geo/precision.js';
import { hitCounter } from '../http/pg-rate-limit-store.js';
import { findAccount, type PassengerAccount } from '../passengers/account-store.js';
import { refuseBlockedPassenger } from '../passengers/standing.js';
import { PRECISIONS } from '../geo/types.js';
import { VEHICLE_TYPES } from '../pricing/types.js';
import { createQuote, type CreatedQuote } from '../quotes/create-quote.js';
import { bookingUrl } from '../quotes/present-quote.js';
import { Refusal } from '../refusal.js';
import { gbp } from '../schemas/common.js';
import type { Services } from '../services.js';
import { toolFailure } from './refusal-result.js';
import type { McpScope } from './scopes.js';
import { ServiceInfo, serviceInfo } from './service-info.js';

// The three tools AI assistants call (spec 1), on the application functions the HTTP routes use:
// an estimate is a quote like any other (createQuote), a booking a booking like any other (the
// request mapped in src/bookings/request/mcp.ts, then book), with the same checks, screening,
// request identities, vehicle rule and limits.
//
// Everything a tool returns is data: JSON in structuredContent and the same JSON as text. Nothing
// the caller typed comes back unscreened, and no answer is phrased as an instruction, so a model
// reading a result cannot mistake it for one. Refusals are tool results with isError, never
// protocol errors, so the assistant can tell the passenger what to change.

export interface McpCaller {
  /** The signed-in passenger (the token's subject). */
  accountId: string;
  /** The OAuth client acting for them. */
  clientId: string;
  scopes: ReadonlySet<McpScope>;
}

export interface ToolContext {
  services: Services;
  caller: McpCaller;
  /** Unexpected failures, for the operators (never the caller's arguments or tokens). */
  logError: (message: string, err: unknown) => void;
  /** The client's IP (limits on what a request may text). */
  address: string;
}

const HOUR_MS = 3600_000;

// --- Inputs ---------------------------------------------------------------------------------

const place = (what: string) =>
  z
    .string()
    .min(1)
    .max(200)
    .describe(`${what}: an address, postcode, station, airport, hospital or landmark in Great Britain`);
const pickupTime = z.iso
  .datetime({ offset: true, message: 'must be an ISO 8601 date-time with a time zone, e.g. 2026-12-24T06:30:00Z' })
  .describe('When to be picked up (ISO 8601 with offset). Omit for as soon as possible.');
const vehicleType = z
  .enum(VEHICLE_TYPES)
  .describe(
    'Vehicle class; omitted: a saloon for up to 4 passengers, for more the smallest of 6seater, 7seater and mpv that seats everyone',
  );
const passengers = z.number().int().min(1).max(8).describe('1 to 8');

const EstimateFareInput = {
  pickup: place('Pickup'),
  dropoff: place('Drop-off'),
  pickup_time: pickupTime.optional(),
  vehicle_type: vehicleType.optional(),
  passengers: passengers.optional(),
  meet_and_greet: z
    .boolean()
    .optional()
    .describe(
      'Airport meet and greet: the driver waits inside with a name board (adds a fixed charge when the pickup or drop-off is an airport; nothing elsewhere)',
    ),
};

const StartBookingInput = {
  quote_id: z
    .uuid()
    .optional()
    .describe('Book an estimate_fare quote (its fare, places and time). Give this, or pickup and dropoff.'),
  pickup: place('Pickup').optional(),
  dropoff: place('Drop-off').optional(),
  pickup_time: pickupTime.optional(),
  vehicle_type: vehicleType.optional(),
  passengers: passengers.optional(),
  passenger_name: z.string().min(1).max(100).describe('Who the driver asks for'),
  passenger_phone: z
    .string()
    .max(32)
    .optional()
    .describe(
      'National UK (07400 123456) or international (+44 7400 123456); the driver calls or texts it. Default: the phone the passenger signed in with.',
    ),
  passenger_email: z.string().max(254).optional().describe('Default: the email the passenger signed in with'),
  flight_number: z.string().max(10).optional().describe('For airport pickups, so the driver can follow the flight'),
  notes: z.string().max(500).optional().describe('For the driver: entrance, luggage, child seat...'),
};

// --- Outputs --------------------------------------------------------------------------------

const PlaceOut = z.object({
  label: z.string().describe('The place the service resolved'),
  kind: z.string(),
  precision: z.enum(PRECISIONS).describe('How close to the door the driver is sent'),
  town: z.string().nullable(),
});

const FareEstimate = z.object({
  quote_id: z.uuid(),
  fare: z.number().describe('GBP'),
  fare_pence: z.number().int(),
  currency: z.literal('GBP'),
  distance_miles: z.number(),
  duration_minutes: z.number().int(),
  pickup_time: z.string().describe('UTC'),
  pickup_time_local: z.string().describe('Europe/London'),
  pickup: PlaceOut,
  dropoff: PlaceOut,
  vehicle_type: z.enum(VEHICLE_TYPES),
  passengers: z.number().int(),
  rules: z.array(
    z.object({ code: z.string(), description: z.string(), amount: z.number(), amount_pence: z.number().int() }),
  ),
  tariff_source: z.object({
    authority: z.string(),
    area_id: z.string(),
    period: z.string(),
    effective_from: z.string(),
    status: z.string(),
    provisional: z.boolean(),
    sources: z.array(z.string()),
  }),
  expires_at: z.string(),
  booking_url: z.string().describe('Where the passenger can book this quote themselves'),
});

const BookingStarted = z.object({
  booking_reference: z.string(),
  status: z
    .string()
    .describe(
      'scheduled: waiting for its dispatch time; searching: offering it to drivers; assigned: a driver is coming',
    ),
  fare: z.number().describe('GBP, paid to the driver'),
  fare_pence: z.number().int(),
  currency: z.literal('GBP'),
  pickup_time: z.string().describe('UTC'),
  pickup_time_local: z.string().describe('Europe/London'),
  pickup: z.string(),
  dropoff: z.string(),
  vehicle_type: z.string(),
  passengers: z.number().int(),
  status_url: z.string().describe('Live tracking page for the passenger'),
  cancel_url: z
    .string()
    .describe('POST {"action":"cancel","token":manage_token} to cancel; GET with ?token= to look it up'),
  manage_token: z
    .string()
    .nullable()
    .describe(
      'Proves the holder may look up or cancel this booking; null when this trip was booked earlier by someone else under the same email',
    ),
  payment: z.string(),
});

// --- Results --------------------------------------------------------------------------------

function ok<T extends Record<string, unknown>>(data: T): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(data) }], structuredContent: data };
}

/**
 * Runs a tool: refusals (a workflow's too, an expired quote say) and unexpected failures both
 * become isError results, as src/mcp/refusal-result.ts tells them.
 */
async function guarded(ctx: ToolContext, run: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await run();
  } catch (caught) {
    return toolFailure(caught, ctx.logError);
  }
}

/** Each signed-in passenger's own allowance, beside the per-IP limit on /mcp. */
async function allowance(ctx: ToolContext, what: 'quote' | 'book'): Promise<void> {
  const { config, sql } = ctx.services;
  const max = what === 'quote' ? config.QUOTE_RATE_LIMIT_PER_HOUR : config.BOOKING_RATE_LIMIT_PER_HOUR;
  const { current, ttl } = await hitCounter(sql, `mcp-${what}:${ctx.caller.accountId}`, HOUR_MS);
  if (current > max) {
    throw Refusal.tooMany(
      'rate_limited',
      `This account has reached its limit of ${max} ${what === 'quote' ? 'fare estimates' : 'bookings'} an hour; try again in ${Math.ceil(ttl / 60_000)} minutes.`,
      {
        retryAfterSeconds: Math.ceil(ttl / 1000),
      },
    );
  }
}

const localTime = (d: Date) =>
  DateTime.fromJSDate(d, { zone: 'Europe/London' }).toISO({ suppressMilliseconds: true }) ?? d.toISOString();

function fareEstimate(q: CreatedQuote, baseUrl: string): z.infer<typeof FareEstimate> {
  const placeOut = (g: CreatedQuote['pickup']) => ({
    label: g.label,
    kind: g.kind,
    precision: precisionOf(g),
    town: g.town ?? g.council,
  });
  return {
    quote_id: q.quoteId,
    fare: gbp(q.price.totalPence),
    fare_pence: q.price.totalPence,
    currency: 'GBP',
    distance_miles: Math.round((q.distanceMeters / 1609.344) * 100) / 100,
    duration_minutes: Math.ceil(q.durationSeconds / 60),
    pickup_time: q.departAt.toISOString(),
    pickup_time_local: q.price.localDepartAt,
    pickup: placeOut(q.pickup),
    dropoff: placeOut(q.dropoff),
    vehicle_type: q.input.vehicleType,
    passengers: q.input.passengers,
    rules: q.price.rules.map((r) => ({
      code: r.code,
      description: r.description,
      amount: gbp(r.amountPence),
      amount_pence: r.amountPence,
    })),
    tariff_source: {
      authority: q.price.tariff.authority,
      area_id: q.price.tariff.areaId,
      period: q.price.tariff.period,
      effective_from: q.price.tariff.effectiveFrom,
      status: q.price.tariff.status,
      provisional: q.price.tariff.provisional,
      sources: q.price.tariff.sources,
    },
    expires_at: q.expiresAt.toISOString(),
    booking_url: bookingUrl(baseUrl, q.quoteId),
  };
}

async function signedInPassenger(ctx: ToolContext): Promise<PassengerAccount> {
  const account = await findAccount(ctx.services.sql, ctx.caller.accountId);
  if (!account)
    throw Refusal.forbidden('account_not_found', 'The signed-in passenger account no longer exists; sign in again.');
  await refuseBlockedPassenger(ctx.services.sql, { email: account.email, phone: account.phone });
  return account;
}

type StartBookingArgs = z.infer<z.ZodObject<typeof StartBookingInput>>;

async function startBooking(ctx: ToolContext, a: StartBookingArgs): Promise<CallToolResult> {
  const s = ctx.services;
  const account = await signedInPassenger(ctx);
  const direct = a.pickup !== undefined || a.dropoff !== undefined;
  if (a.quote_id !== undefined && direct) {
    throw Refusal.invalid('validation_failed', 'Give quote_id, or pickup and dropoff, not both.', {
      field: { name: 'quote_id', message: 'not with pickup and dropoff' },
    });
  }
  if (a.quote_id === undefined && (a.pickup === undefined || a.dropoff === undefined)) {
    throw Refusal.invalid('validation_failed', 'Give quote_id (from estimate_fare), or both pickup and dropoff.', {
      field: { name: a.pickup === undefined ? 'pickup' : 'dropoff', message: 'is required without quote_id' },
    });
  }
  const phone = a.passenger_phone ?? account.phone;
  if (!phone) {
    throw Refusal.invalid('validation_failed', 'The driver needs a phone number: give passenger_phone.', {
      field: { name: 'passenger_phone', message: 'is required (the passenger signed in with an email)' },
    });
  }
  const email = a.passenger_email ?? account.email ?? undefined;
  await allowance(ctx, 'book');
  const request = fromMcp(a, {
    accountId: account.id,
    phone,
    email,
    // The passenger proved this email by signing in with it.
    emailVerified: email !== undefined && email.toLowerCase() === account.email,
  });
  // The signed-in passenger is the caller: a repeat of their own booking, from any assistant they allowed, is theirs.
  const caller = {
    owner: requestOwner({ accountId: account.id, email: request.passenger.email }),
    address: ctx.address,
  };
  const booked = await book(s, request, caller);
  const row = await findBooking(s.sql, booked.ref);
  if (!row) throw new Error(`booking ${booked.ref} has no record`);
  const base = s.config.PUBLIC_BASE_URL;
  return ok({
    booking_reference: row.ref,
    status: booked.state.status,
    fare: gbp(booked.farePence),
    fare_pence: booked.farePence,
    currency: 'GBP',
    pickup_time: row.pickup_at.toISOString(),
    pickup_time_local: localTime(row.pickup_at),
    pickup: placeForPeople(row.pickup_query, row.pickup),
    dropoff: placeForPeople(row.dropoff_query, row.dropoff),
    vehicle_type: row.vehicle_type,
    passengers: row.passengers,
    status_url: statusUrl(base, row.ref),
    cancel_url: `${base}/api/public/v1/booking/${row.ref}`,
    manage_token: booked.manageToken,
    payment: 'The passenger pays the driver directly at the end of the trip; Direct Taxi takes no commission.',
  } satisfies z.infer<typeof BookingStarted>);
}

/** Registers estimate_fare, get_service_info and start_booking on a server made for one request. */
export function registerTaxiTools(server: McpServer, ctx: ToolContext): void {
  const s = ctx.services;

  server.registerTool(
    'estimate_fare',
    {
      title: 'Estimate a taxi fare',
      description:
        "Prices a licensed taxi journey in Great Britain on the council's published hackney carriage tariff: the fare in GBP with every rule applied, distance, duration, the tariff source, and a quote_id that start_booking accepts until expires_at.",
      inputSchema: EstimateFareInput,
      outputSchema: FareEstimate.shape,
      annotations: {
        title: 'Estimate a taxi fare',
        readOnlyHint: true,
        idempotentHint: true,
        openWorldHint: false,
        destructiveHint: false,
      },
    },
    async (a) =>
      guarded(ctx, async () => {
        await allowance(ctx, 'quote');
        const count = a.passengers ?? 1;
        const quote = await createQuote(s, {
          contract: 'v1',
          pickup: a.pickup,
          dropoff: a.dropoff,
          departAt: a.pickup_time,
          vehicleType: vehicleClass(a.vehicle_type, count, { field: 'vehicle_type', tooSmall: 'refuse' }),
          passengers: count,
          meetAndGreet: a.meet_and_greet ?? false,
          worldwide: false,
          apiKey: null,
        });
        return ok(fareEstimate(quote, s.config.PUBLIC_BASE_URL));
      }),
  );

  server.registerTool(
    'get_service_info',
    {
      title: 'About the taxi service',
      description:
        'What Direct Taxi does, where it operates, its vehicles, how fares are set and paid (council tariffs, no commission), its limits and how to cancel.',
      inputSchema: {},
      outputSchema: ServiceInfo.shape,
      annotations: {
        title: 'About the taxi service',
        readOnlyHint: true,
        idempotentHint: true,
        openWorldHint: false,
        destructiveHint: false,
      },
    },
    async () => guarded(ctx, async () => ok(serviceInfo(s.config))),
  );

  server.registerTool(
    'start_booking',
    {
      title: 'Book a taxi',
      description:
        'Books a licensed taxi for the signed-in passenger, from an estimate_fare quote_id or directly from pickup and dropoff, and starts dispatching it to drivers. The same call repeated (same passenger phone, places and time, or the same quote) returns the same booking, never a second ride. The pickup must be more exact than a town centre or postcode district (a house number and street, a full postcode, or a named place such as a station): ask the passenger for it when the estimate_fare pickup precision is town_centre or postcode_district. The fare is paid to the driver.',
      inputSchema: StartBookingInput,
      outputSchema: BookingStarted.shape,
      // It changes the world (a driver is sent), once: repeating it is safe; it reaches drivers outside this system.
      annotations: {
        title: 'Book a taxi',
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: true,
      },
    },
    async (a) => guarded(ctx, async () => startBooking(ctx, a)),
  );
}
