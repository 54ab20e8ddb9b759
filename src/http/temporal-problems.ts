import { ServiceError, WorkflowUpdateFailedError, isGrpcServiceError } from '@temporalio/client';
import { ApplicationFailure, WorkflowNotFoundError } from '@temporalio/common';
import { BookingFailure } from '../../workflows/bookings/definitions.js';
import { QuoteFailure } from '../../workflows/quotes/definitions.js';
import { ProblemError } from './problem.js';

// Workflows refuse requests with typed ApplicationFailures (update validators) and Temporal itself
// fails with its own errors; this is the one place either becomes an HTTP problem. Application
// functions catch a failure only where they can do something better than report it.

const FAILURES: Record<string, { status: number; code: string }> = {
  [BookingFailure.closed]: { status: 409, code: 'booking_closed' },
  [BookingFailure.identityMismatch]: { status: 409, code: 'booking_conflict' },
  [BookingFailure.notYourJob]: { status: 409, code: 'not_your_job' },
  [BookingFailure.invalidTripStep]: { status: 409, code: 'invalid_trip_step' },
  [BookingFailure.offerTaken]: { status: 409, code: 'job_taken' },
  [BookingFailure.offerExpired]: { status: 410, code: 'offer_expired' },
  [BookingFailure.offerAlreadyAccepted]: { status: 409, code: 'job_already_accepted' },
  [BookingFailure.tripInProgress]: { status: 409, code: 'trip_in_progress' },
  [BookingFailure.tripNotInProgress]: { status: 409, code: 'trip_not_in_progress' },
  [BookingFailure.alreadySettled]: { status: 409, code: 'trip_already_settled' },
  [BookingFailure.invalidPayment]: { status: 400, code: 'invalid_payment' },
  [QuoteFailure.expired]: { status: 410, code: 'quote_expired' },
  [QuoteFailure.alreadyRedeemed]: { status: 409, code: 'quote_already_redeemed' },
};

/** gRPC codes meaning "the server is not there right now": the client should retry later. */
const UNAVAILABLE = new Set([4 /* DEADLINE_EXCEEDED */, 14 /* UNAVAILABLE */]);

export function temporalProblem(err: unknown): ProblemError | null {
  if (err instanceof WorkflowUpdateFailedError && err.cause instanceof ApplicationFailure) {
    const known = err.cause.type ? FAILURES[err.cause.type] : undefined;
    if (known) {
      // A quote redeemed by another request names that request's booking in the workflow's own
      // words; whoever holds the quote id now is not told it (src/bookings/ownership.ts).
      if (err.cause.type === QuoteFailure.alreadyRedeemed) return quoteAlreadyRedeemed();
      const details = (err.cause.details?.[0] ?? {}) as Record<string, unknown>;
      const extra = typeof details.bookingRef === 'string' ? { booking_reference: details.bookingRef } : {};
      return new ProblemError(known.status, known.code, err.cause.message, extra);
    }
  }
  if (err instanceof WorkflowNotFoundError) return new ProblemError(404, 'not_found', 'No such booking or quote is running.');
  const grpc = err instanceof ServiceError ? err.cause : err;
  if (isGrpcServiceError(grpc) && UNAVAILABLE.has(grpc.code)) {
    return new ProblemError(503, 'temporarily_unavailable', 'The booking engine is briefly unavailable; retry shortly.', {
      headers: { 'retry-after': '5' },
    });
  }
  return null;
}

export const quoteAlreadyRedeemed = () =>
  new ProblemError(409, 'quote_already_redeemed', 'This quote has already been used for a booking. Ask for a new quote.');
