import {
  ServiceError,
  WorkflowUpdateFailedError,
  WorkflowUpdateRPCTimeoutOrCancelledError,
  isGrpcServiceError,
} from '@temporalio/client';
import { ApplicationFailure, WorkflowNotFoundError } from '@temporalio/common';
import { Refusal } from '../refusal.js';

// Workflows refuse requests with typed ApplicationFailures (update validators), and Temporal itself
// fails with its own errors. Each workflow's one client (src/bookings/client.ts, src/quotes/client.ts,
// src/billing/subscription-client.ts, ...: docs/refusals.md) reads them with the helpers here and
// tells its workflow's refusals itself; refusalFromTemporal makes the Refusal for what is Temporal's
// own (a workflow not running, Temporal out of reach), which the clients and every entry point
// translate alike.

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

/** A Temporal failure (not running, out of reach) as the Refusal a caller is told; null for anything else. */
export function refusalFromTemporal(err: unknown): Refusal | null {
  if (isWorkflowGone(err)) return Refusal.notFound('not_found', 'No such booking or quote is running.');
  if (isTemporalUnavailable(err)) {
    return Refusal.unavailable('temporarily_unavailable', 'The booking engine is briefly unavailable; retry shortly.', {
      retryAfterSeconds: RETRY_AFTER_SECONDS,
    });
  }
  return null;
}
