import { WorkflowExecutionAlreadyStartedError, type Client, type WorkflowHandle } from '@temporalio/client';
import type { Tier } from '../model/bookings.js';
import { Refusal, type RefusalKind } from '../refusal.js';
import { applicationFailure, isWorkflowGone, refusalFromTemporal } from '../temporal/refusals.js';
import {
  cancelSubscriptionSignal,
  extendTrialUpdate,
  SubscriptionFailure,
  subscriptionStateQuery,
  subscriptionWorkflowId,
  type DriverSubscriptionInput,
  type ExtendTrialInput,
  type SubscriptionState,
} from '../../workflows/billing/definitions.js';

// The driver subscription workflow's one client (docs/refusals.md, "Temporal failures"): driver
// approval starts it, an admin extends the trial, the driver app reads it, and a removed driver's is
// cancelled, all here, on the driver's workflow subscription:<driver id>; the tables
// (subscription-store.ts) are its record. Temporal's failures are read here: a driver with no
// subscription running answers `null`, and the trial extension's refusals are thrown as Refusals.
// Nothing else in src/, activities/ or scripts/ may import the workflow's messages (ESLint).

/** The workflow type a driver's subscription is started as. */
export const SUBSCRIPTION_WORKFLOW_TYPE = 'driverSubscriptionWorkflow';

const REFUSALS = {
  [SubscriptionFailure.trialEnded]: { kind: 'conflict', code: 'trial_not_extendable' },
  [SubscriptionFailure.invalidExtension]: { kind: 'unprocessable', code: 'invalid_trial_extension' },
  [SubscriptionFailure.trialTooLong]: { kind: 'unprocessable', code: 'trial_too_long' },
} as const satisfies Record<
  (typeof SubscriptionFailure)[keyof typeof SubscriptionFailure],
  { kind: RefusalKind; code: string }
>;

/**
 * A failure from a driver's subscription workflow as the caller is told it: the trial extension's
 * refusal in the workflow's words, or Temporal failing, as a Refusal (the Temporal error kept as its
 * cause); anything else as it is.
 */
export function subscriptionFailure(err: unknown): unknown {
  const failure = applicationFailure(err);
  const told = failure?.type ? (REFUSALS as Record<string, { kind: RefusalKind; code: string }>)[failure.type] : null;
  const refusal = failure && told ? new Refusal(told.kind, told.code, failure.message) : refusalFromTemporal(err);
  if (!refusal) return err;
  refusal.cause = err;
  return refusal;
}

export class SubscriptionClient {
  constructor(
    private readonly temporal: Client,
    /** Where the subscriptions' workflows run (the worker's task queue). */
    private readonly taskQueue: string,
  ) {}

  private handle(driverId: string): WorkflowHandle {
    return this.temporal.workflow.getHandle(subscriptionWorkflowId(driverId));
  }

  /**
   * Starts the driver's subscription at their approval. Idempotent: while the driver's workflow runs,
   * a second start (a retried approval, two approvals racing) is the same subscription, and says so.
   */
  async start(s: {
    driverId: string;
    tier: Tier;
    approvedAt: Date | string;
  }): Promise<{ workflowId: string; started: boolean }> {
    const workflowId = subscriptionWorkflowId(s.driverId);
    const input: DriverSubscriptionInput = {
      driverId: s.driverId,
      tier: s.tier,
      approvedAt: new Date(s.approvedAt).toISOString(),
    };
    try {
      await this.temporal.workflow.start(SUBSCRIPTION_WORKFLOW_TYPE, {
        workflowId,
        taskQueue: this.taskQueue,
        args: [input],
      });
      return { workflowId, started: true };
    } catch (err) {
      if (err instanceof WorkflowExecutionAlreadyStartedError) return { workflowId, started: false };
      throw err;
    }
  }

  /**
   * An administrator extends the driver's trial by `days`, on the record (who, when, why). Refused
   * (trial_not_extendable, invalid_trial_extension, trial_too_long) once the trial has ended or for a
   * bad number of days, before anything is recorded; null when the driver has no subscription
   * running. `updateId` makes a retried request the same extension.
   */
  async extendTrial(
    driverId: string,
    extension: ExtendTrialInput,
    opts: { updateId?: string } = {},
  ): Promise<SubscriptionState | null> {
    try {
      return await this.handle(driverId).executeUpdate(extendTrialUpdate, {
        args: [extension],
        ...(opts.updateId ? { updateId: opts.updateId } : {}),
      });
    } catch (err) {
      if (isWorkflowGone(err)) return null;
      throw subscriptionFailure(err);
    }
  }

  /**
   * The driver's subscription as the driver app shows it; null when none is running (an applicant,
   * a driver from before subscriptions). Days of trial left are counted on the caller's clock: the
   * workflow's own clock stands still while it sleeps towards the trial end.
   */
  async state(driverId: string, now: Date = new Date()): Promise<SubscriptionState | null> {
    let s: SubscriptionState;
    try {
      s = await this.handle(driverId).query(subscriptionStateQuery);
    } catch (err) {
      if (isWorkflowGone(err)) return null;
      throw subscriptionFailure(err);
    }
    const left = Date.parse(s.trialEndsAt) - now.getTime();
    return { ...s, trialDaysRemaining: s.state === 'trial' ? Math.max(0, Math.ceil(left / 86_400_000)) : 0 };
  }

  /** The driver was removed: no further week is billed. */
  async cancel(driverId: string, reason: string): Promise<void> {
    await this.handle(driverId).signal(cancelSubscriptionSignal, { reason });
  }
}
