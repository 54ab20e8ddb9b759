import { Webhook } from 'standardwebhooks';
import { z } from 'zod';
import { Refusal } from '../refusal.js';
import { screenedFleetDriver } from '../screening/driver-details.js';
import type { Services } from '../services.js';
import { exchangeJobExists, fleetsWithWebhookSecrets, recordInboxEvent } from './store.js';

// An exchange fleet's status event arriving at our booking-status hook (docs/exchange.md): exactly
// what its status fan-out sends (src/partners/event-payload.ts on its side), signed the Standard
// Webhooks way with the whsec_ secret it issued us when we registered this hook as our callback.
// The event names our booking by its jobRef (our booking reference). It is handed to the booking's
// workflow, which takes only a newer sequence than it has: a redelivery (the same webhook-id) or a
// late event changes nothing, and is still acknowledged, so the fleet stops retrying it.

/** The headers that say a request is a Standard Webhooks delivery rather than an x-signature report. */
export const isStandardWebhook = (headers: Record<string, unknown>): boolean =>
  typeof headers['webhook-signature'] === 'string';

/**
 * The largest sequence we keep (a Postgres integer, as our own fan-out numbers its events): a fleet's
 * event numbered beyond it is refused (400), never a 500 the fleet would retry.
 */
export const MAX_EXCHANGE_SEQUENCE = 2_147_483_647;

/** Text we store or look up: no control characters (Postgres takes no NUL in text). */
const line = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^\P{Cc}*$/u, 'must not contain control characters');

const StatusChangedData = z.object({
  bookingReference: line(100),
  jobRef: line(100).nullable(),
  sequence: z.number().int().min(1).max(MAX_EXCHANGE_SEQUENCE, `must be at most ${MAX_EXCHANGE_SEQUENCE}`),
  // Its statuses, whatever they are: an unknown one moves nothing.
  status: line(40),
  // Screened as our own drivers' details are before anyone sees them (screenedFleetDriver below).
  driver: z
    .object({ name: z.string().max(200), vehicle: z.string().max(200), plate: z.string().max(40) })
    .nullable()
    .optional(),
});
const Envelope = z.object({ id: z.string().max(200).optional(), type: z.string().max(100), data: z.unknown() });

export type ExchangeHookOutcome = 'accepted' | 'duplicate' | 'ignored';

export async function receiveExchangeEvent(
  s: Pick<Services, 'sql' | 'bookings' | 'config'>,
  headers: Record<string, unknown>,
  raw: Buffer,
): Promise<{ received: true; outcome: ExchangeHookOutcome }> {
  const header = (name: string): string => {
    const v = headers[name];
    return typeof v === 'string' ? v : '';
  };
  const h = {
    'webhook-id': header('webhook-id'),
    'webhook-timestamp': header('webhook-timestamp'),
    'webhook-signature': header('webhook-signature'),
  };
  const payload = raw.toString('utf8');
  // Which fleet sent it is whichever fleet's secret verifies it (a handful of fleets at most).
  let fleetId: string | null = null;
  for (const f of await fleetsWithWebhookSecrets(s.sql, s.config.PARTNER_SECRETS_KEY)) {
    try {
      new Webhook(f.secret).verify(payload, h);
      fleetId = f.id;
      break;
    } catch {
      // not this fleet's
    }
  }
  if (!fleetId) throw Refusal.unauthenticated('invalid_credentials', 'Missing or invalid credentials.');

  let body: z.infer<typeof Envelope>;
  try {
    body = Envelope.parse(JSON.parse(payload));
  } catch {
    throw Refusal.invalid('invalid_event', 'The body is not an event.');
  }
  // Events of other kinds (booking.amended...) are acknowledged: nothing here depends on them.
  if (body.type !== 'booking.status_changed') {
    await recordInboxEvent(s.sql, { fleetId, webhookId: h['webhook-id'], ref: null, sequence: null, status: null });
    return { received: true, outcome: 'ignored' };
  }
  const parsed = StatusChangedData.safeParse(body.data);
  if (!parsed.success) {
    const fields = parsed.error.issues.map((i) => ({
      name: ['data', ...i.path.map(String)].join('.'),
      message: i.message,
    }));
    throw Refusal.invalid(
      'invalid_event',
      `The event data is not a booking status change we can take: ${fields.map((f) => `${f.name} ${f.message}`).join('; ')}.`,
      { fields },
    );
  }
  const data = parsed.data;
  const ref = data.jobRef;
  if (!ref || !(await exchangeJobExists(s.sql, ref, fleetId))) {
    throw Refusal.notFound('booking_not_found', `No booking ${ref ?? '(no jobRef)'} was handed to you.`);
  }
  const first = await recordInboxEvent(s.sql, {
    fleetId,
    webhookId: h['webhook-id'],
    ref,
    sequence: data.sequence,
    status: data.status,
  });
  // Signalled even when it is a redelivery: a crash between our record and the signal must not lose
  // it. The workflow takes each sequence once.
  const told = await s.bookings.exchangeStatus(ref, {
    fleetId,
    eventId: h['webhook-id'],
    sequence: data.sequence,
    status: data.status,
    // Its driver is shown to our passenger as our own drivers are: what fails our rules is dropped.
    driver: screenedFleetDriver(data.driver),
  });
  // The booking is over: nothing left to move.
  if (!told) return { received: true, outcome: 'ignored' };
  return { received: true, outcome: first ? 'accepted' : 'duplicate' };
}
