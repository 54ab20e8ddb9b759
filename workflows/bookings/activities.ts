// The activities a booking calls, as the booking workflow sees them.
import { proxyLocalActivities } from '@temporalio/workflow';
import type { Activities } from '../../activities/index.js';
import type { DispatchPolicy } from '../../src/model/bookings.js';

// Messages leave the service, so they are full activities (visible in history, retried by the
// server); short Postgres writes and reads run as local activities: no server round trip per step,
// which is most of the time between a booking and its first job card.
export { acts, db } from '../activities.js';

/**
 * Job cards: a card that cannot be delivered within the offer window is no use to anyone. They run
 * inside the workflow task, so no server round trip stands between a booking and its card; a card
 * is a couple of notifier calls under an idempotency key per offer and channel, so running it again
 * after a worker crash (a local activity's at-least-once) never sends one twice.
 */
export function jobCardActivities(policy: DispatchPolicy) {
  return proxyLocalActivities<Activities>({
    startToCloseTimeout: '30 seconds',
    scheduleToCloseTimeout: policy.offerTimeoutSeconds * 1000,
    retry: { initialInterval: '1 second', maximumInterval: '10 seconds' },
  });
}

export type JobCards = ReturnType<typeof jobCardActivities>;
