import {
  ServiceError,
  WorkflowUpdateFailedError,
  WorkflowUpdateRPCTimeoutOrCancelledError,
  isGrpcServiceError,
} from '@temporalio/client';
import { ApplicationFailure, WorkflowNotFoundError } from '@temporalio/common';
import { SubscriptionFailure } from '../../workflows/billing/definitions.js';
import { QuoteFailure } from '../../workflows/quotes/definitions.js';
import { Refusal, type RefusalKind } from '../refusal.js';

// Workflows refuse requests with typed ApplicationFailures (update validators), and Temporal itself
// fails with its own errors. These are read here: refusalFromTemporal makes the Refusal every entry
// point already translates (docs/refusals.md), and the helpers below are what a caller asks when it
// catches a failure to do something better than report it (read a closed workflow's record from
// Postgres, say). The booking workflow has a client of its own, which reads its failures with these
// helpers and tells its refusals itself (src/bookings/client.ts); the quote and subscription
// workflows' refusals are told from the table below.

const FAILURES: Record<string, { kind: RefusalKind; code: string }> = {
  [QuoteFailure.expired]: { kind: 'gone', code: 'quote_expired' },
  [QuoteFailure.alreadyRedeemed]: { kind: 'conflict', code: 'quote_already_redeemed' },
  // The extendTrial update's refusals (staff extending a driver's free trial).
  [SubscriptionFailure.trialEnded]: { kind: 'conflict', code: 'trial_not_extendable' },
  [SubscriptionFailure.invalidExtension]: { kind: 'unprocessable', code: 'invalid_trial_extension' },
  [SubscriptionFailure.trialTooLong]: { kind: 'unprocessable', code: 'trial_too_long' },
};

/** gRPC codes meaning "the server is not there right now": the client should retry later. */
const UNAVAILABLE = new Set([4 /* DEADLINE_EXCEEDED */, 14 /* UNAVAILABLE */]);
const NOT_FOUND = 5;
const RETRY_AFTER_SECONDS = 5;

/** The typed failure a workflow refused an update with, if that is what this is. */
export function applicationFailure(err: unknown): ApplicationFailure | undefined {
  return err instanceof WorkflowUpdateFailedError && err.cause instanceof ApplicationFailure ? err.cause : undefined;
}

/**
 * The workflow is not running (it has closed, or never was): it takes no more updates or signals,
 * and what it left is in Postgres. gRPC NOT_FOUND can also surface as a ServiceError whose cause
 * carries the code, or as the bare gRPC error.
 */
export function isWorkflowGone(err: unknown): boolean {
  // The client rethrows a multi-operation failure (update-with-start on a run that just closed)
  // as the bare gRPC error, unwrapped.
  const grpc = err instanceof ServiceError ? err.cause : err;
  return err instanceof WorkflowNotFoundError || (isGrpcServiceError(grpc) && Number(grpc.code) === NOT_FOUND);
}

/** Temporal cannot be reached just now (deadline exceeded, unavailable): worth a retry shortly. */
export function isTemporalUnavailable(err: unknown): boolean {
  const grpc = err instanceof ServiceError ? err.cause : err;
  return isGrpcServiceError(grpc) && UNAVAILABLE.has(grpc.code);
}

/**
 * Temporal did not take the request (unreachable, overloaded, an update the server gave up on
 * before a worker answered it), as opposed to a workflow refusing it. Nothing may have been
 * applied; where a repeat is harmless (job intake, idempotent by jobRef) it is worth one.
 */
export function isTemporalServiceFailure(err: unknown): boolean {
  const grpc = err instanceof ServiceError ? err.cause : err;
  return (
    err instanceof ServiceError || err instanceof WorkflowUpdateRPCTimeoutOrCancelledError || isGrpcServiceError(grpc)
  );
}

/**
 * A quote redeemed by another request. The workflow's own words name that request's booking;
 * whoever holds the quote id now is not told it (src/bookings/ownership.ts).
 */
export const quoteAlreadyRedeemed = () =>
  Refusal.conflict('quote_already_redeemed', 'This quote has already been used for a booking. Ask for a new quote.');

/** A workflow's refusal or a Temporal failure as the Refusal a caller is told; null for anything else. */
export function refusalFromTemporal(err: unknown): Refusal | null {
  const failure = applicationFailure(err);
  const known = failure?.type ? FAILURES[failure.type] : undefined;
  if (failure && known) {
    if (failure.type === QuoteFailure.alreadyRedeemed) return quoteAlreadyRedeemed();
    const details = (failure.details?.[0] ?? {}) as Record<string, unknown>;
    return new Refusal(known.kind, known.code, failure.message, {
      ...(typeof details.bookingRef === 'string' ? { details: { booking_reference: details.bookingRef } } : {}),
    });
  }
  if (isWorkflowGone(err)) return Refusal.notFound('not_found', 'No such booking or quote is running.');
  if (isTemporalUnavailable(err)) {
    return Refusal.unavailable('temporarily_unavailable', 'The booking engine is briefly unavailable; retry shortly.', {
      retryAfterSeconds: RETRY_AFTER_SECONDS,
    });
  }
  return null;
}
