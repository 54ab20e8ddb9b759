import {
  WithStartWorkflowOperation,
  WorkflowExecutionAlreadyStartedError,
  WorkflowIdConflictPolicy,
  WorkflowIdReusePolicy,
  type Client,
} from '@temporalio/client';
import {
  bookingCreatedUpdate,
  bookingStateQuery,
  bookingWorkflowId,
  type BookingState,
  type BookingWorkflowInput,
} from '../../workflows/booking-definitions.js';

/**
 * Starts booking:<ref> (or joins the one already running) and returns once its record exists.
 * Update-with-start makes "create or find" one call: concurrent duplicates land on the same
 * workflow, and the reply waits for the first activity to have written the row lookups read.
 */
export async function startBooking(client: Client, taskQueue: string, input: BookingWorkflowInput): Promise<BookingState> {
  const workflowId = bookingWorkflowId(input.booking.ref);
  const startWorkflowOperation = new WithStartWorkflowOperation('bookingWorkflow', {
    workflowId,
    taskQueue,
    args: [input],
    workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
    // A finished booking is never started again under the same reference.
    workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
    memo: { pickup: input.booking.pickup.label, dropoff: input.booking.dropoff.label, fare: (input.booking.farePence / 100).toFixed(2) },
  });
  try {
    return await client.workflow.executeUpdateWithStart(bookingCreatedUpdate, { startWorkflowOperation });
  } catch (err) {
    if (err instanceof WorkflowExecutionAlreadyStartedError) {
      return client.workflow.getHandle(workflowId).query(bookingStateQuery);
    }
    throw err;
  }
}
