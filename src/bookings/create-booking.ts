import type { Sql } from '../db/sql.js';
import type { BookingWorkflowInput } from '../../workflows/bookings/definitions.js';
import type { BookingState } from '../model/bookings.js';
import type { BookingClient } from './client.js';
import { newBookingRef, type RequestIdentity } from './identity.js';
import { claimBookingRef, findBooking, reassignBookingRef, type RefClaim, type RequestOwner } from './store.js';

// From a request identity to a running booking. Needs only Postgres and the booking client, so the
// API (src/bookings/book.ts) and the worker's partner job activities (activities/partners/jobs.ts)
// share it without the worker importing the API's services.

/** What starting a booking needs: the API has it in its services, a worker's activity from its context. */
export interface BookingStarter {
  sql: Sql;
  bookings: BookingClient;
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
    const opened = await s.bookings.open(build(ref));
    if (opened.state) {
      // A duplicate joins the first request's ride, whose fare is the one that stands.
      const row = await findBooking(s.sql, ref);
      return { ref, state: opened.state, farePence: row?.fare_pence ?? farePence };
    }
    if (attempt >= 3) throw new Error(`booking reference ${ref} belongs to another request`);
    ref = await reassignBookingRef(s.sql, identity.key, ref, newBookingRef());
  }
}
