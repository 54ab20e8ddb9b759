import {
  WithStartWorkflowOperation,
  WorkflowExecutionAlreadyStartedError,
  WorkflowIdConflictPolicy,
  WorkflowIdReusePolicy,
  WorkflowUpdateFailedError,
  type Client,
} from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import {
  BookingFailure,
  bookingCreatedUpdate,
  bookingStateQuery,
  bookingWorkflowId,
  initialSearchAttributes,
  initialStatus,
  type BookingState,
  type BookingWorkflowInput,
} from '../../workflows/bookings/definitions.js';

export class BookingRefTaken extends Error {
  constructor(readonly ref: string) {
    super(`booking reference ${ref} belongs to another request`);
  }
}

/**
 * Starts booking:<ref> (or joins the one already running for the same request) and returns once
 * its record exists. Update-with-start makes "create or find" one call: concurrent duplicates land
 * on the same workflow, and the reply waits until the first activity has written the row lookups
 * read. Throws BookingRefTaken when the reference names another request's ride.
 */
export async function startBookingWorkflow(client: Client, taskQueue: string, input: BookingWorkflowInput): Promise<BookingState> {
  const workflowId = bookingWorkflowId(input.booking.ref);
  const startWorkflowOperation = new WithStartWorkflowOperation('bookingWorkflow', {
    workflowId,
    taskQueue,
    args: [input],
    workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
    // A finished booking is never started again under the same reference.
    workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
    memo: { pickup: input.booking.pickup.label, dropoff: input.booking.dropoff.label, fare: (input.booking.farePence / 100).toFixed(2) },
    // Listed in the Web UI by status and pickup time from the start; the workflow upserts changes.
    typedSearchAttributes: initialSearchAttributes(input, initialStatus(input, Date.now())),
  });
  try {
    return await client.workflow.executeUpdateWithStart(bookingCreatedUpdate, {
      args: [{ identity: input.booking.identity ?? null }],
      startWorkflowOperation,
    });
  } catch (err) {
    if (err instanceof WorkflowUpdateFailedError && err.cause instanceof ApplicationFailure && err.cause.type === BookingFailure.identityMismatch) {
      throw new BookingRefTaken(input.booking.ref);
    }
    // The reference's workflow has finished (REJECT_DUPLICATE): its final state answers.
    if (err instanceof WorkflowExecutionAlreadyStartedError) {
      const state = await client.workflow.getHandle(workflowId).query(bookingStateQuery);
      const identity = input.booking.identity;
      if (state.identity && identity && state.identity !== identity) throw new BookingRefTaken(input.booking.ref);
      return state;
    }
    throw err;
  }
}
