import { ServiceError, type Client } from '@temporalio/client';
import { WorkflowNotFoundError } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { PARTNER_JOB_WORKFLOW_TYPE, PartnerJobClient } from '../../../src/partners/job-client.js';
import type { JobSubmission } from '../../../workflows/partners/job-definitions.js';

// The partner job client reads Temporal's failures in one place: a run that closed as the job
// arrived is started afresh, Temporal not taking the job is `not_reached`, a job taken in but not
// applied within the budget `processing`. Against a stand-in Temporal client.

const grpc = (code: number) =>
  Object.assign(new Error(`${code} UNAVAILABLE: connect ECONNREFUSED`), { code, details: 'x', metadata: {} });
const gone = () => new WorkflowNotFoundError('workflow not found', 'job:p1:J1', undefined);
const outcome = {
  outcome: 'accepted',
  code: 'booked',
  message: 'Booked.',
  bookingRef: 'BK1',
  bookingStatus: 'scheduled',
};
const submission = { action: 'cancel', fingerprint: 'f', reason: null } as unknown as JobSubmission;
const later = () => ({ until: Date.now() + 60_000 });

/** Each startUpdateWithStart answers the next of `answers`: an Error is thrown, anything else is the update's result. */
function standIn(answers: unknown[], status = 'RUNNING') {
  const started: { type: string; workflowId: unknown }[] = [];
  const client = {
    workflow: {
      startUpdateWithStart: async (
        _u: unknown,
        o: { startWorkflowOperation: { workflowTypeOrFunc: string; options: { workflowId: string } } },
      ) => {
        started.push({
          type: o.startWorkflowOperation.workflowTypeOrFunc,
          workflowId: o.startWorkflowOperation.options.workflowId,
        });
        const a = answers.shift();
        if (a instanceof Error) throw a;
        return { result: async () => a };
      },
      getHandle: () => ({
        describe: async () => {
          if (status === 'gone') throw gone();
          return { status: { name: status } };
        },
      }),
    },
  } as unknown as Client;
  return { jobs: new PartnerJobClient(client, 'tq'), started };
}

describe('the partner job client', () => {
  it("hands a job to its reference's workflow and answers its outcome", async () => {
    const { jobs, started } = standIn([outcome]);
    expect(await jobs.submit('p1', 'J1', submission, later())).toEqual(outcome);
    expect(started).toEqual([{ type: PARTNER_JOB_WORKFLOW_TYPE, workflowId: 'job:p1:J1' }]);
  });

  it('starts a run that closed as the job arrived afresh, twice at most', async () => {
    const { jobs, started } = standIn([gone(), new ServiceError('x', { cause: grpc(5) }), outcome]);
    expect(await jobs.submit('p1', 'J1', submission, later())).toEqual(outcome);
    expect(started).toHaveLength(3);
  });

  it('answers not_reached when Temporal does not take the job, and processing once the budget is spent', async () => {
    expect(
      await standIn([new ServiceError('x', { cause: grpc(14) })]).jobs.submit('p1', 'J1', submission, later()),
    ).toBe('not_reached');
    // A run found closed three times over, as the bare gRPC NOT_FOUND a multi-operation fails with.
    const closed = () => new ServiceError('x', { cause: grpc(5) });
    expect(await standIn([closed(), closed(), closed()]).jobs.submit('p1', 'J1', submission, later())).toBe(
      'not_reached',
    );
    expect(await standIn([outcome]).jobs.submit('p1', 'J1', submission, { until: Date.now() - 1 })).toBe('processing');
    const bug = new TypeError('bug');
    await expect(standIn([bug]).jobs.submit('p1', 'J1', submission, later())).rejects.toBe(bug);
  });

  it('tells whether the job is still being taken in', async () => {
    expect(await standIn([], 'RUNNING').jobs.isRunning('p1', 'J1')).toBe(true);
    expect(await standIn([], 'COMPLETED').jobs.isRunning('p1', 'J1')).toBe(false);
    expect(await standIn([], 'gone').jobs.isRunning('p1', 'J1')).toBe(false);
  });
});
