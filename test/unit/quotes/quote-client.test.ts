import { ServiceError, WorkflowUpdateFailedError, type Client } from '@temporalio/client';
import { ApplicationFailure, WorkflowNotFoundError } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { toProblemError } from '../../../src/plugins/error-handler.js';
import { QUOTE_WORKFLOW_TYPE, QuoteClient } from '../../../src/quotes/client.js';
import { Refusal } from '../../../src/refusal.js';
import { QuoteFailure } from '../../../workflows/quotes/definitions.js';

// The quote client reads Temporal's failures in one place: a quote whose workflow is not running
// answers null (its record says why), the workflow's refusals are the Refusals callers are told (as
// the entry points told them before), Temporal out of reach a 503. Against a stand-in Temporal client.

const refused = (type: string, message: string, details?: unknown) =>
  new WorkflowUpdateFailedError(
    'Workflow Update failed',
    ApplicationFailure.nonRetryable(message, type, ...(details === undefined ? [] : [details])),
  );
const grpc = (code: number) =>
  Object.assign(new Error(`${code} UNAVAILABLE: connect ECONNREFUSED`), { code, details: 'x', metadata: {} });
const redemption = { quoteId: 'q1', requestId: 'r1', bookingRef: 'BK1', redeemedAt: '2026-01-01T00:00:00.000Z' };

function standIn(answer: unknown) {
  const calls: { started: { type: string; options: Record<string, unknown> }[]; ids: string[] } = {
    started: [],
    ids: [],
  };
  const client = {
    workflow: {
      start: async (type: string, options: Record<string, unknown>) => {
        calls.started.push({ type, options });
      },
      getHandle: (id: string) => {
        calls.ids.push(id);
        return {
          executeUpdate: async () => {
            if (answer instanceof Error) throw answer;
            return answer;
          },
        };
      },
    },
  } as unknown as Client;
  return { quotes: new QuoteClient(client, 'tq'), calls };
}

const thrown = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected a failure');
    },
    (err: unknown) => err,
  );

describe('the quote client', () => {
  it("starts the quote's workflow once under its id, and redeems it there", async () => {
    const { quotes, calls } = standIn(redemption);
    await quotes.start({ quoteId: 'q1', expiresAt: '2026-01-01T00:15:00.000Z' }, { fare: '12.00' });
    expect(calls.started).toEqual([
      {
        type: QUOTE_WORKFLOW_TYPE,
        options: expect.objectContaining({ workflowId: 'quote:q1', taskQueue: 'tq', memo: { fare: '12.00' } }),
      },
    ]);
    expect(await quotes.redeem('q1', { requestId: 'r1', bookingRef: 'BK1' })).toEqual(redemption);
    expect(calls.ids).toEqual(['quote:q1']);
  });

  it('answers null for a quote whose workflow is not running, however Temporal says so', async () => {
    const gone = new WorkflowNotFoundError('workflow not found', 'quote:q1', undefined);
    expect(await standIn(gone).quotes.redeem('q1', { requestId: 'r', bookingRef: 'B' })).toBeNull();
    const bare = new ServiceError('Workflow Update failed', { cause: grpc(5) });
    expect(await standIn(bare).quotes.redeem('q1', { requestId: 'r', bookingRef: 'B' })).toBeNull();
  });

  it("tells the workflow's refusals as before, never naming another request's booking", async () => {
    const expired = refused(QuoteFailure.expired, 'quote q1 expired at 2026-01-01T00:15:00.000Z');
    const err = await thrown(standIn(expired).quotes.redeem('q1', { requestId: 'r', bookingRef: 'B' }));
    expect(err).toBeInstanceOf(Refusal);
    expect(err).toMatchObject({ kind: 'gone', code: 'quote_expired', message: expired.cause!.message, cause: expired });
    expect(toProblemError(err as never)).toMatchObject({ status: 410, code: 'quote_expired' });

    const taken = refused(QuoteFailure.alreadyRedeemed, 'quote q1 was already redeemed by booking BK9', {
      bookingRef: 'BK9',
    });
    const conflict = await thrown(standIn(taken).quotes.redeem('q1', { requestId: 'r', bookingRef: 'B' }));
    expect(conflict).toMatchObject({ kind: 'conflict', code: 'quote_already_redeemed', details: {} });
    expect((conflict as Refusal).message).not.toContain('BK9');
  });

  it('tells Temporal out of reach as unavailable, and a bug as it is', async () => {
    const down = new ServiceError('Workflow Update failed', { cause: grpc(14) });
    expect(await thrown(standIn(down).quotes.redeem('q1', { requestId: 'r', bookingRef: 'B' }))).toMatchObject({
      kind: 'unavailable',
      code: 'temporarily_unavailable',
      retryAfterSeconds: 5,
    });
    const bug = new TypeError('bug');
    expect(await thrown(standIn(bug).quotes.redeem('q1', { requestId: 'r', bookingRef: 'B' }))).toBe(bug);
  });
});
