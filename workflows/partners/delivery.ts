import {
  ActivityFailure,
  condition,
  continueAsNew,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  TimeoutFailure,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '../../activities/index.js';
import { eventsRecordedSignal, type DeliveryStart } from './delivery-definitions.js';
import { DEFAULT_DELIVERY_POLICY } from '../../src/model/partners.js';

const db = proxyLocalActivities<Activities>({
  startToCloseTimeout: '10 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

/**
 * Delivers one booking's status events to its sender (delivery:<partner>:<ref>), strictly in the
 * booking's order: the next event waits until this one is delivered or given up. Each event is
 * one activity whose retry policy is the backoff, so hours of a receiver being down are a few
 * events of history, not one per attempt. What is due is read from Postgres each time round, so
 * a signal only says "look now": repeated or lost signals change nothing (the event pump's sweep
 * starts the workflow for anything left waiting).
 */
export async function partnerDeliveryWorkflow(start: DeliveryStart): Promise<void> {
  const policy = start.policy ?? DEFAULT_DELIVERY_POLICY;
  const send = proxyActivities<Activities>({
    // One POST has DELIVERY_TIMEOUT_MS (10 s); the rest is the database around it.
    startToCloseTimeout: '1 minute',
    scheduleToCloseTimeout: policy.giveUpAfterSeconds * 1000,
    retry: {
      initialInterval: policy.initialRetrySeconds * 1000,
      backoffCoefficient: 2,
      maximumInterval: policy.maxRetrySeconds * 1000,
    },
  });
  const target = { partnerId: start.partnerId, bookingRef: start.bookingRef };

  let lookAgain = false;
  setHandler(eventsRecordedSignal, () => {
    lookAgain = true;
  });

  for (;;) {
    lookAgain = false;
    const due = await db.dueDeliveries(target);
    for (const event of due) {
      try {
        await send.deliverPartnerEvent({ eventId: event.id });
      } catch (err) {
        if (!(err instanceof ActivityFailure)) throw err;
        await db.givePartnerEventUp({ eventId: event.id, error: failureText(err) });
      }
    }
    if (workflowInfo().continueAsNewSuggested) await continueAsNew<typeof partnerDeliveryWorkflow>(start);
    if (due.length > 0 || lookAgain) continue;
    if (await condition(() => lookAgain, policy.idleSeconds * 1000)) continue;
    // Idle: one last look, in case a notification went missing, before closing.
    if ((await db.dueDeliveries(target)).length === 0) return;
  }
}

function failureText(err: ActivityFailure): string {
  // Out of time: the last attempt's own error is already on the event.
  if (err.retryState === 'TIMEOUT' || err.cause instanceof TimeoutFailure)
    return 'given up: not delivered within the retry window';
  return err.cause?.message ?? err.message;
}
