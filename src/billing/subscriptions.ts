import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import type { Tier } from '../model/bookings.js';
import {
  cancelSubscriptionSignal,
  extendTrialUpdate,
  subscriptionStateQuery,
  subscriptionWorkflowId,
  type DriverSubscriptionInput,
  type ExtendTrialInput,
  type SubscriptionState,
} from '../../workflows/billing/definitions.js';

// The drivers' subscription use cases, whoever calls them (driver approval, an admin route, the
// driver app). Everything goes through the driver's workflow subscription:<driver id>; the tables
// (subscription-store.ts) are its record.

/**
 * Starts the driver's subscription at their approval. Idempotent: while the driver's workflow runs,
 * a second start (a retried approval, two approvals racing) is the same subscription, and says so.
 */
export async function startDriverSubscription(
  client: Client,
  taskQueue: string,
  s: { driverId: string; tier: Tier; approvedAt: Date | string },
): Promise<{ workflowId: string; started: boolean }> {
  const workflowId = subscriptionWorkflowId(s.driverId);
  const input: DriverSubscriptionInput = {
    driverId: s.driverId,
    tier: s.tier,
    approvedAt: new Date(s.approvedAt).toISOString(),
  };
  try {
    await client.workflow.start('driverSubscriptionWorkflow', { workflowId, taskQueue, args: [input] });
    return { workflowId, started: true };
  } catch (err) {
    if (err instanceof WorkflowExecutionAlreadyStartedError) return { workflowId, started: false };
    throw err;
  }
}

/**
 * An administrator extends the driver's trial by `days`, on the record (who, when, why). Refused
 * (WorkflowUpdateFailedError carrying SubscriptionFailure.trialEnded or .invalidExtension) once the
 * trial has ended or for a bad number of days, before anything is recorded. `updateId` makes a
 * retried request the same extension.
 */
export async function extendTrial(
  client: Client,
  driverId: string,
  extension: ExtendTrialInput,
  opts: { updateId?: string } = {},
): Promise<SubscriptionState> {
  return client.workflow
    .getHandle(subscriptionWorkflowId(driverId))
    .executeUpdate(extendTrialUpdate, { args: [extension], ...(opts.updateId ? { updateId: opts.updateId } : {}) });
}

/**
 * The driver's subscription as the driver app shows it. Days of trial left are counted on the
 * caller's clock: the workflow's own clock stands still while it sleeps towards the trial end.
 */
export async function subscriptionState(
  client: Client,
  driverId: string,
  now: Date = new Date(),
): Promise<SubscriptionState> {
  const s = await client.workflow.getHandle(subscriptionWorkflowId(driverId)).query(subscriptionStateQuery);
  const left = Date.parse(s.trialEndsAt) - now.getTime();
  return { ...s, trialDaysRemaining: s.state === 'trial' ? Math.max(0, Math.ceil(left / 86_400_000)) : 0 };
}

/** The driver was removed: no further week is billed. */
export async function cancelDriverSubscription(client: Client, driverId: string, reason: string): Promise<void> {
  await client.workflow.getHandle(subscriptionWorkflowId(driverId)).signal(cancelSubscriptionSignal, { reason });
}
