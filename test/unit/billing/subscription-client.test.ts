import { ServiceError, WorkflowUpdateFailedError, type Client } from '@temporalio/client';
import { ApplicationFailure, WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { SUBSCRIPTION_WORKFLOW_TYPE, SubscriptionClient } from '../../../src/billing/subscription-client.js';
import { toProblemError } from '../../../src/plugins/error-handler.js';
import { Refusal } from '../../../src/refusal.js';
import { SubscriptionFailure, type SubscriptionState } from '../../../workflows/billing/definitions.js';

// The subscription client reads Temporal's failures in one place: a second start is the same
// subscription, a driver with none running answers null, the trial extension's refusals are the
// Refusals the ops route told before. Against a stand-in Temporal client.

const refused = (type: string) =>
  new WorkflowUpdateFailedError('Workflow Update failed', ApplicationFailure.nonRetryable(`refused: ${type}`, type));
const gone = () => new WorkflowNotFoundError('workflow not found', 'subscription:d1', undefined);
const grpc = (code: number) =>
  Object.assign(new Error(`${code} UNAVAILABLE: connect ECONNREFUSED`), { code, details: 'x', metadata: {} });
const state = {
  driverId: 'd1',
  state: 'trial',
  trialEndsAt: '2026-01-11T00:00:00.000Z',
  trialDaysRemaining: 99,
} as unknown as SubscriptionState;

/** Every call answers `answer` (an Error is thrown); `start` is what starting does. */
function standIn(answer: unknown, start?: Error) {
  const started: { type: string; options: Record<string, unknown> }[] = [];
  const reply = async () => {
    if (answer instanceof Error) throw answer;
    return answer;
  };
  const client = {
    workflow: {
      start: async (type: string, options: Record<string, unknown>) => {
        started.push({ type, options });
        if (start) throw start;
      },
      getHandle: () => ({ executeUpdate: reply, query: reply, signal: reply }),
    },
  } as unknown as Client;
  return { subscriptions: new SubscriptionClient(client, 'tq'), started };
}

const thrown = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected a failure');
    },
    (err: unknown) => err,
  );
const extension = { days: 7, by: 'ops@example.com', reason: 'fleet onboarding' };

describe('the subscription client', () => {
  it("starts the driver's subscription, and says so when it was running already", async () => {
    const { subscriptions, started } = standIn(null);
    const approval = { driverId: 'd1', tier: 'local' as const, approvedAt: '2026-01-01T00:00:00Z' };
    expect(await subscriptions.start(approval)).toEqual({ workflowId: 'subscription:d1', started: true });
    expect(started[0]).toMatchObject({
      type: SUBSCRIPTION_WORKFLOW_TYPE,
      options: {
        workflowId: 'subscription:d1',
        taskQueue: 'tq',
        args: [{ ...approval, approvedAt: '2026-01-01T00:00:00.000Z' }],
      },
    });
    const again = new WorkflowExecutionAlreadyStartedError('started', 'subscription:d1', SUBSCRIPTION_WORKFLOW_TYPE);
    expect(await standIn(null, again).subscriptions.start(approval)).toEqual({
      workflowId: 'subscription:d1',
      started: false,
    });
    const bug = new TypeError('bug');
    expect(await thrown(standIn(null, bug).subscriptions.start(approval))).toBe(bug);
  });

  it('answers null for a driver with no subscription running', async () => {
    expect(await standIn(gone()).subscriptions.state('d1')).toBeNull();
    expect(await standIn(gone()).subscriptions.extendTrial('d1', extension)).toBeNull();
  });

  it('counts the days of trial left on the caller’s clock', async () => {
    const s = await standIn(state).subscriptions.state('d1', new Date('2026-01-09T12:00:00Z'));
    expect(s).toMatchObject({ state: 'trial', trialDaysRemaining: 2 });
  });

  it("tells the trial extension's refusals as the ops route did, the Temporal error kept as the cause", async () => {
    const cases = [
      [SubscriptionFailure.trialEnded, 409, 'trial_not_extendable'],
      [SubscriptionFailure.invalidExtension, 422, 'invalid_trial_extension'],
      [SubscriptionFailure.trialTooLong, 422, 'trial_too_long'],
    ] as const;
    for (const [type, status, code] of cases) {
      const failure = refused(type);
      const err = await thrown(standIn(failure).subscriptions.extendTrial('d1', extension));
      expect(err).toBeInstanceOf(Refusal);
      expect(err).toMatchObject({ code, message: `refused: ${type}`, cause: failure });
      expect(toProblemError(err as never)).toMatchObject({ status, code });
    }
  });

  it('tells Temporal out of reach as unavailable', async () => {
    const down = () => new ServiceError('x', { cause: grpc(14) });
    expect(await thrown(standIn(down()).subscriptions.extendTrial('d1', extension))).toMatchObject({
      kind: 'unavailable',
    });
    expect(await thrown(standIn(down()).subscriptions.state('d1'))).toMatchObject({ kind: 'unavailable' });
  });
});
