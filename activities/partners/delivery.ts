import { ApplicationFailure } from '@temporalio/common';
import type { Sql } from '../../src/db/sql.js';
import type { DeploymentEnv } from '../../src/partners/callback-url.js';
import { postWebhook } from '../../src/partners/deliver.js';
import { eventBody } from '../../src/partners/event-payload.js';
import {
  activeWebhookSecrets,
  dueEvents,
  loadPartnerEvent,
  markDelivered,
  markFailed,
  markUnregistered,
  recordAttemptFailed,
  recordAttemptStarted,
} from '../../src/partners/event-store.js';
import { findPartner } from '../../src/partners/store.js';
import { DELIVERY_FAILURE } from '../../workflows/partners/delivery-definitions.js';

// The delivery workflow's hands: which of a booking's events are due, one attempt to POST one of
// them, and giving up on one. Each attempt is recorded on the event (attempts, last error), so the
// sender's listing shows how delivery is going.

export interface PartnerDeliverySettings {
  /** Opens the sealed webhook secrets. */
  secretsKey: string;
  /** production: https to public addresses only, checked on every attempt. */
  env: DeploymentEnv;
}

export function createPartnerEventActivities(deps: { sql: Sql; partnerDelivery: PartnerDeliverySettings }) {
  const { sql, partnerDelivery } = deps;
  return {
    async dueDeliveries(b: { partnerId: string; bookingRef: string }): Promise<{ id: string; seq: number }[]> {
      return dueEvents(sql, b.partnerId, b.bookingRef);
    },

    /**
     * One attempt. A failure is retried by the workflow's policy; a retry after a crash between the
     * receiver's 2xx and the record of it delivers the event again, under the same webhook-id.
     */
    async deliverPartnerEvent({ eventId }: { eventId: string }): Promise<'delivered' | 'unregistered' | 'gone'> {
      const event = await loadPartnerEvent(sql, eventId);
      if (!event) return 'gone';
      const partner = await findPartner(sql, event.partnerId);
      if (!partner?.callbackUrl) {
        await markUnregistered(sql, eventId);
        return 'unregistered';
      }
      const secrets = await activeWebhookSecrets(sql, partnerDelivery.secretsKey, partner.id);
      await recordAttemptStarted(sql, eventId);
      try {
        await postWebhook(
          { url: partner.callbackUrl, id: event.id, body: eventBody(event), secrets },
          { env: partnerDelivery.env },
        );
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        await recordAttemptFailed(sql, eventId, message);
        throw ApplicationFailure.retryable(message, DELIVERY_FAILURE);
      }
      await markDelivered(sql, eventId);
      return 'delivered';
    },

    async givePartnerEventUp(e: { eventId: string; error: string }): Promise<void> {
      await markFailed(sql, e.eventId, e.error);
    },
  };
}
