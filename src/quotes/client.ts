import { WorkflowIdConflictPolicy, WorkflowIdReusePolicy, type Client } from '@temporalio/client';
import type { QuoteRedemption } from '../model/quotes.js';
import { Refusal, type RefusalKind } from '../refusal.js';
import { applicationFailure, isWorkflowGone, refusalFromTemporal } from '../temporal/refusals.js';
import {
  QuoteFailure,
  quoteWorkflowId,
  redeemQuoteUpdate,
  type QuoteWorkflowInput,
  type RedeemQuoteInput,
} from '../../workflows/quotes/definitions.js';

// The quote workflow's one client (docs/refusals.md, "Temporal failures"): a new quote starts its
// workflow (quote:<id>) here, and a booking request redeems it here. Temporal's failures are read
// here: a quote whose workflow is no longer running answers `null` (its record in Postgres says how
// it ended), and the workflow's refusals are thrown as Refusals. Nothing else in src/, activities/
// or scripts/ may import the workflow's messages (ESLint).

/** The workflow type a quote's workflow is started as. */
export const QUOTE_WORKFLOW_TYPE = 'quoteWorkflow';

/**
 * A quote redeemed by another request. The workflow's own words name that request's booking;
 * whoever holds the quote id now is not told it (src/bookings/ownership.ts).
 */
export const quoteAlreadyRedeemed = () =>
  Refusal.conflict('quote_already_redeemed', 'This quote has already been used for a booking. Ask for a new quote.');

const REFUSALS = {
  [QuoteFailure.expired]: { kind: 'gone', code: 'quote_expired' },
  [QuoteFailure.alreadyRedeemed]: { kind: 'conflict', code: 'quote_already_redeemed' },
} as const satisfies Record<(typeof QuoteFailure)[keyof typeof QuoteFailure], { kind: RefusalKind; code: string }>;

/**
 * A failure from a quote's workflow as the caller is told it: the workflow's refusal (an expired
 * quote in its own words; one redeemed by another request without naming its booking) or Temporal
 * failing as a Refusal, the Temporal error kept as its cause; anything else as it is.
 */
export function quoteFailure(err: unknown): unknown {
  const failure = applicationFailure(err);
  const told = failure?.type ? (REFUSALS as Record<string, { kind: RefusalKind; code: string }>)[failure.type] : null;
  let refusal: Refusal | null;
  if (failure?.type === QuoteFailure.alreadyRedeemed) refusal = quoteAlreadyRedeemed();
  else if (failure && told) refusal = new Refusal(told.kind, told.code, failure.message);
  else refusal = refusalFromTemporal(err);
  if (!refusal) return err;
  refusal.cause = err;
  return refusal;
}

export class QuoteClient {
  constructor(
    private readonly temporal: Client,
    /** Where the quotes' workflows run (the worker's task queue). */
    private readonly taskQueue: string,
  ) {}

  /** Starts the quote's workflow, which owns its redemption and expiry; `memo` is shown in the Web UI. */
  async start(input: QuoteWorkflowInput, memo: Record<string, string>): Promise<void> {
    await this.temporal.workflow.start(QUOTE_WORKFLOW_TYPE, {
      workflowId: quoteWorkflowId(input.quoteId),
      taskQueue: this.taskQueue,
      args: [input],
      workflowIdConflictPolicy: WorkflowIdConflictPolicy.FAIL,
      workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
      memo,
    });
  }

  /**
   * Redeems the quote for a booking request, exactly once (the same request again gets the same
   * redemption). Null once its workflow is no longer running (expired, or never was): the quote's
   * record says why. Refused as quote_expired or quote_already_redeemed by the workflow.
   */
  async redeem(quoteId: string, request: RedeemQuoteInput): Promise<QuoteRedemption | null> {
    try {
      return await this.temporal.workflow
        .getHandle(quoteWorkflowId(quoteId))
        .executeUpdate(redeemQuoteUpdate, { args: [request] });
    } catch (err) {
      if (isWorkflowGone(err)) return null;
      throw quoteFailure(err);
    }
  }
}
