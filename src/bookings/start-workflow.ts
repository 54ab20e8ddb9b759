import {
  WithStartWorkflowOperation,
  WorkflowExecutionAlreadyStartedError,
  WorkflowIdConflictPolicy,
  WorkflowIdReusePolicy,
  type Client,
} from '@temporalio/client';
import type { Sql } from '../db/sql.js';
import { failureType } from '../temporal/refusals.js';
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
import { newBookingRef, type RequestIdentity } from './identity.js';
import { claimBookingRef, findBooking, reassignBookingRef, type RefClaim, type RequestOwner } from './store.js';

// From a request identity to a running booking workflow. Needs only Postgres, a Temporal client and
// the task queue, so the API (src/bookings/book.ts) and the worker's partner job activities
// (activities/partners/jobs.ts) share it without the worker importing the API's services.

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
export async function startBookingWorkflow(
  client: Client,
  taskQueue: string,
  input: BookingWorkflowInput,
): Promise<BookingState> {
  const workflowId = bookingWorkflowId(input.booking.ref);
  const startWorkflowOperation = new WithStartWorkflowOperation('bookingWorkflow', {
    workflowId,
    taskQueue,
    args: [input],
    workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
    // A finished booking is never started again under the same reference.
    workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
    memo: {
      pickup: input.booking.pickup.label,
      dropoff: input.booking.dropoff.label,
      fare: (input.booking.farePence / 100).toFixed(2),
    },
    // Listed in the Web UI by status and pickup time from the start; the workflow upserts changes.
    typedSearchAttributes: initialSearchAttributes(input, initialStatus(input, Date.now())),
  });
  try {
    return await client.workflow.executeUpdateWithStart(bookingCreatedUpdate, {
      args: [{ identity: input.booking.identity ?? null }],
      startWorkflowOperation,
    });
  } catch (err) {
    if (failureType(err) === BookingFailure.identityMismatch) throw new BookingRefTaken(input.booking.ref);
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

/** What starting a booking needs: the API has it in its services, a worker's activity from its context. */
export interface BookingStarter {
  sql: Sql;
  temporal: Client;
  taskQueue: string;
}

/** A booking that exists: its reference, its state, and the fare that stands. */
export interface StartedBooking {
  ref: string;
  state: BookingState;
  farePence: number;
}

/**
 * The one path from a request identity to a running booking workflow, for the request's owner. The
 * identity's reference is claimed atomically (src/bookings/store.ts), unless the caller claimed it
 * already; should that random reference already belong to another request's ride, the workflow
 * refuses and a fresh one is drawn.
 */
export async function createBooking(
  s: BookingStarter,
  identity: RequestIdentity,
  farePence: number,
  build: (ref: string) => BookingWorkflowInput,
  owner: RequestOwner,
  claimed?: RefClaim,
): Promise<StartedBooking> {
  let ref = claimed?.ref ?? (await claimBookingRef(s.sql, identity, newBookingRef(), owner)).ref;
  for (let attempt = 1; ; attempt++) {
    try {
      const state = await startBookingWorkflow(s.temporal, s.taskQueue, build(ref));
      // A duplicate joins the first request's ride, whose fare is the one that stands.
      const row = await findBooking(s.sql, ref);
      return { ref, state, farePence: row?.fare_pence ?? farePence };
    } catch (err) {
      if (!(err instanceof BookingRefTaken) || attempt >= 3) throw err;
      ref = await reassignBookingRef(s.sql, identity.key, ref, newBookingRef());
    }
  }
}
