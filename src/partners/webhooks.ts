import { Refusal } from '../refusal.js';
import type { Services } from '../services.js';
import { buildEventPayload } from './event-payload.js';
import {
  findPartnerEvent,
  issueWebhookSecret,
  listPartnerEvents,
  requestReplay,
  webhookSecretIssuedAt,
  type PartnerEventRecord,
} from './event-store.js';
import { validateCallbackUrl } from './callback-url.js';
import { updatePartner, type Partner } from './store.js';
import type {
  PartnerEventListSchema,
  PartnerEventListItemSchema,
  WebhookRegistrationSchema,
} from '../schemas/partner-events.js';
import type { z } from 'zod';

// A sender's side of status delivery: where its events go and the secret they are signed with,
// the events of its bookings and replaying one. Everything is scoped to the authenticated sender.

type Registration = z.infer<typeof WebhookRegistrationSchema>;

/** A rotated secret keeps signing this long, so the receiver can switch without losing a delivery. */
export const SECRET_ROTATION_OVERLAP_SECONDS = 24 * 3600;

export async function webhookRegistration(s: Pick<Services, 'sql'>, partner: Partner): Promise<Registration> {
  const issuedAt = await webhookSecretIssuedAt(s.sql, partner.id);
  return { url: partner.callbackUrl, secretIssuedAt: issuedAt?.toISOString() ?? null };
}

/**
 * Registers (or changes) the callback URL. The first registration issues the signing secret and
 * answers it, once; later ones keep the secret (rotate it to get a new one).
 */
export async function registerCallback(
  s: Pick<Services, 'sql' | 'config'>,
  partner: Partner,
  url: string,
): Promise<Registration> {
  const check = await validateCallbackUrl(url, s.config.NODE_ENV);
  if (!check.ok) {
    throw Refusal.invalid('invalid_callback_url', `The callback URL ${check.reason}.`, {
      field: { name: 'url', message: check.reason },
    });
  }
  await updatePartner(s.sql, partner.id, { callbackUrl: check.url });
  const issuedAt = await webhookSecretIssuedAt(s.sql, partner.id);
  if (issuedAt) return { url: check.url, secretIssuedAt: issuedAt.toISOString() };
  const issued = await issueWebhookSecret(s.sql, s.config.PARTNER_SECRETS_KEY, partner.id);
  return { url: check.url, signingSecret: issued.secret, secretIssuedAt: issued.issuedAt.toISOString() };
}

/** Stops deliveries; events are still recorded and listed. */
export async function unregisterCallback(s: Pick<Services, 'sql'>, partner: Partner): Promise<Registration> {
  await updatePartner(s.sql, partner.id, { callbackUrl: null });
  return webhookRegistration(s, { ...partner, callbackUrl: null });
}

export async function rotateWebhookSecret(
  s: Pick<Services, 'sql' | 'config'>,
  partner: Partner,
): Promise<Registration> {
  const issued = await issueWebhookSecret(
    s.sql,
    s.config.PARTNER_SECRETS_KEY,
    partner.id,
    SECRET_ROTATION_OVERLAP_SECONDS,
  );
  return { url: partner.callbackUrl, signingSecret: issued.secret, secretIssuedAt: issued.issuedAt.toISOString() };
}

const iso = (d: Date | null) => d?.toISOString() ?? null;

function listItem(e: PartnerEventRecord): z.infer<typeof PartnerEventListItemSchema> {
  return {
    event: buildEventPayload(e),
    delivery: {
      state: e.delivery,
      attempts: e.attempts,
      lastAttemptAt: iso(e.lastAttemptAt),
      deliveredAt: iso(e.deliveredAt),
      lastError: e.lastError,
      replayRequested: e.replayRequestedAt !== null,
    },
  };
}

export async function listEvents(
  s: Pick<Services, 'sql'>,
  partner: Partner,
  q: { limit: number; after?: string | undefined; bookingReference?: string | undefined },
): Promise<z.infer<typeof PartnerEventListSchema>> {
  const page = await listPartnerEvents(s.sql, partner.id, {
    limit: q.limit,
    after: q.after,
    bookingRef: q.bookingReference,
  });
  if (!page) {
    throw Refusal.invalid('invalid_cursor', 'after names no event of yours.', {
      field: { name: 'after', in: 'query', message: 'names no event of yours' },
    });
  }
  const last = page.events.at(-1);
  return { events: page.events.map(listItem), nextAfter: last?.id ?? q.after ?? null, hasMore: page.hasMore };
}

/**
 * Delivers one of the sender's events again, with the same webhook-id and body (a new timestamp
 * and signature), in its booking's order among anything else due. Another sender's event is a 404.
 */
export async function replayEvent(
  s: Pick<Services, 'sql' | 'partnerDeliveries'>,
  partner: Partner,
  id: string,
): Promise<{ id: string; replay: 'queued' }> {
  const known = await findPartnerEvent(s.sql, partner.id, id);
  if (!known) throw Refusal.notFound('event_not_found', `No event ${id} of yours.`);
  if (!partner.callbackUrl)
    throw Refusal.conflict('no_callback_url', 'Register a callback URL first (PUT /api/public/v1/partner/webhook).');
  await requestReplay(s.sql, partner.id, id);
  // The replay is recorded: if this signal is lost, the worker's sweep starts the delivery.
  await s.partnerDeliveries.signal({ partnerId: partner.id, bookingRef: known.bookingRef }).catch(() => {});
  return { id, replay: 'queued' };
}
