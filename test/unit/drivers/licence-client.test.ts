import { ServiceError, type Client } from '@temporalio/client';
import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { LICENCE_WORKFLOW_TYPE, LicenceWatchClient } from '../../../src/drivers/licence-client.js';

// The licence watch client reads Temporal's failures in one place: a second start is the same watch;
// renewed dates go to the running watch, or start it afresh once it has ended, or, started by
// someone else in between, go to that one. Against a stand-in Temporal client.

const dates = { driverLicenceExpires: '2027-01-01', vehicleLicenceExpires: '2026-06-01' };
const gone = () => new WorkflowNotFoundError('workflow not found', 'licence:d1', undefined);
const already = () => new WorkflowExecutionAlreadyStartedError('started', 'licence:d1', LICENCE_WORKFLOW_TYPE);
const grpc = (code: number) =>
  Object.assign(new Error(`${code} UNAVAILABLE: connect ECONNREFUSED`), { code, details: 'x', metadata: {} });

/** Each signal and start answers the next of its list (an Error is thrown; nothing left: it succeeds). */
function standIn(signals: (Error | null)[], starts: (Error | null)[] = []) {
  const calls: string[] = [];
  const next = async (list: (Error | null)[]) => {
    const a = list.shift();
    if (a) throw a;
  };
  const client = {
    workflow: {
      start: async (type: string, o: { workflowId: string; workflowIdReusePolicy?: string }) => {
        calls.push(`start ${type} ${o.workflowId} ${o.workflowIdReusePolicy ?? '-'}`);
        await next(starts);
      },
      getHandle: (id: string) => ({
        signal: async () => {
          calls.push(`signal ${id}`);
          await next(signals);
        },
      }),
    },
  } as unknown as Client;
  return { licences: new LicenceWatchClient(client, 'tq'), calls };
}

describe('the licence watch client', () => {
  it('starts a watch once: a second start is the same watch', async () => {
    const { licences, calls } = standIn([], [already()]);
    await licences.watch('d1', dates);
    expect(calls).toEqual([`start ${LICENCE_WORKFLOW_TYPE} licence:d1 -`]);
    await expect(standIn([], [new TypeError('bug')]).licences.watch('d1', dates)).rejects.toThrow('bug');
  });

  it('tells the running watch the renewed dates', async () => {
    const { licences, calls } = standIn([null]);
    expect(await licences.renew('d1', dates)).toBe('signalled');
    expect(calls).toEqual(['signal licence:d1']);
  });

  it('starts an ended watch afresh, however Temporal says it has ended', async () => {
    for (const ended of [gone(), new ServiceError('x', { cause: grpc(5) })]) {
      const { licences, calls } = standIn([ended]);
      expect(await licences.renew('d1', dates)).toBe('restarted');
      expect(calls).toEqual(['signal licence:d1', `start ${LICENCE_WORKFLOW_TYPE} licence:d1 ALLOW_DUPLICATE`]);
    }
  });

  it('tells the watch someone else started in between, and passes on anything else', async () => {
    const { licences, calls } = standIn([gone(), null], [already()]);
    expect(await licences.renew('d1', dates)).toBe('signalled');
    expect(calls).toHaveLength(3);
    const down = new ServiceError('x', { cause: grpc(14) });
    await expect(standIn([down]).licences.renew('d1', dates)).rejects.toBe(down);
  });
});
