import { ServiceError, type Client } from '@temporalio/client';
import { WorkflowNotFoundError } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { inboxUpdateId, PARTNER_JOB_WORKFLOW_TYPE, PartnerJobClient } from '../../../src/partners/job-client.js';
import type { JobSubmission } from '../../../workflows/partners/job-definitions.js';

// The partner job client: an inbox row is applied in its reference's workflow as the update
// inbox-<row id> (a repeat is the same update); a run that closed as the job arrived is started
// afresh; Temporal out of reach is thrown (the row stays in the inbox). Against a stand-in client.

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
const row = { id: '42', partnerId: 'p1', jobRef: 'J1', submission };

/** Each executeUpdateWithStart answers the next of `answers`: an Error is thrown, anything else is the update's result. */
function standIn(answers: unknown[], status = 'RUNNING') {
  const started: { type: string; workflowId: unknown; updateId: unknown }[] = [];
  const client = {
    workflow: {
      executeUpdateWithStart: async (
        _u: unknown,
        o: {
          updateId: string;
          startWorkflowOperation: { workflowTypeOrFunc: string; options: { workflowId: string } };
        },
      ) => {
        started.push({
          type: o.startWorkflowOperation.workflowTypeOrFunc,
          workflowId: o.startWorkflowOperation.options.workflowId,
          updateId: o.updateId,
        });
        const a = answers.shift();
        if (a instanceof Error) throw a;
        return a;
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
  it("applies an inbox row in its reference's workflow as the row's own update, and answers its outcome", async () => {
    const { jobs, started } = standIn([outcome]);
    expect(await jobs.apply(row)).toEqual(outcome);
    expect(started).toEqual([
      { type: PARTNER_JOB_WORKFLOW_TYPE, workflowId: 'job:p1:J1', updateId: inboxUpdateId('42') },
    ]);
    expect(inboxUpdateId('42')).toBe('inbox-42');
  });

  it('starts a run that closed as the job arrived afresh, twice at most', async () => {
    const { jobs, started } = standIn([gone(), new ServiceError('x', { cause: grpc(5) }), outcome]);
    expect(await jobs.apply(row)).toEqual(outcome);
    expect(started).toHaveLength(3);
    const closed = () => new ServiceError('x', { cause: grpc(5) });
    await expect(standIn([closed(), closed(), closed()]).jobs.apply(row)).rejects.toBeInstanceOf(ServiceError);
  });

  it('throws Temporal out of reach, and anything unexpected, to the drain', async () => {
    const down = new ServiceError('x', { cause: grpc(14) });
    await expect(standIn([down]).jobs.apply(row)).rejects.toBe(down);
    const bug = new TypeError('bug');
    await expect(standIn([bug]).jobs.apply(row)).rejects.toBe(bug);
  });

  it('tells whether the job is still being taken in', async () => {
    expect(await standIn([], 'RUNNING').jobs.isRunning('p1', 'J1')).toBe(true);
    expect(await standIn([], 'COMPLETED').jobs.isRunning('p1', 'J1')).toBe(false);
    expect(await standIn([], 'gone').jobs.isRunning('p1', 'J1')).toBe(false);
  });
});
