import { Context } from '@temporalio/activity';
import { AmendDriverOnTheWay, AmendTooLate, amendBooking } from '../../src/bookings/amend.js';
import { BookingClient, refusedAs } from '../../src/bookings/client.js';
import { createBooking } from '../../src/bookings/create-booking.js';
import { partnerJobIdentity } from '../../src/bookings/identity.js';
import { requestOwner } from '../../src/bookings/request-owner.js';
import { findBooking, markCancelled } from '../../src/bookings/store.js';
import { countNewJob, findPartnerJob, savePartnerJob, type PartnerJobRecord } from '../../src/partners/store.js';
import type { Sql } from '../../src/db/sql.js';
import type { AmendInput, BookingWorkflowInput } from '../../workflows/bookings/definitions.js';
import type { BookingStatus } from '../../src/model/bookings.js';
import type { BookingChange } from '../../src/model/partners.js';

// The partner job workflow's hands: its record in Postgres, and the booking it creates, amends and
// cancels through the same paths every booking route uses (src/bookings/create-booking.ts,
// src/bookings/amend.ts, the booking client). The Temporal client is the worker's own (activity
// context). Nothing here imports the API's services (src/services.ts imports the activities).

/** The booking client on the worker's own Temporal client; new bookings start on this worker's task queue. */
function workerBookings(): BookingClient {
  const ctx = Context.current();
  return new BookingClient(ctx.client, ctx.info.taskQueue);
}

export function createPartnerJobActivities(deps: { sql: Sql }) {
  const { sql } = deps;
  return {
    async loadPartnerJobRecord(j: {
      partnerId: string;
      jobRef: string;
    }): Promise<(PartnerJobRecord & { bookingStatus: BookingStatus | null }) | null> {
      const record = await findPartnerJob(sql, j.partnerId, j.jobRef);
      if (!record) return null;
      const booking = record.bookingRef ? await findBooking(sql, record.bookingRef) : null;
      return { ...record, bookingStatus: booking?.status ?? null };
    },

    async savePartnerJobRecord(j: PartnerJobRecord): Promise<void> {
      await savePartnerJob(sql, j);
    },

    async countPartnerJob(c: { partnerId: string; jobRef: string; day: string; limit: number }): Promise<boolean> {
      return countNewJob(sql, c);
    },

    /**
     * Books the job (idempotent: the job reference is the request identity, so a retry finds its ride).
     * A job booked again after its cancel (`rebooking`: the fingerprint of the new that rebooked it) is
     * a request of its own: the reference and that fingerprint, so a retry finds the new ride, never
     * the cancelled one. ('|' cannot occur in a jobRef, so no reference can spell another's key.)
     */
    async createPartnerBooking(c: {
      input: BookingWorkflowInput;
      rebooking?: string | null;
    }): Promise<{ ref: string; status: BookingStatus }> {
      const b = c.input.booking;
      const jobRef = c.rebooking ? `${b.partnerJobRef ?? ''}|rebooked|${c.rebooking}` : (b.partnerJobRef ?? '');
      const identity = partnerJobIdentity({ partnerId: b.partnerId ?? b.operatorId ?? '', jobRef });
      const sender = b.partnerId ?? b.operatorId ?? '';
      const created = await createBooking(
        { sql, bookings: workerBookings() },
        identity,
        b.farePence,
        (ref) => ({ ...c.input, booking: { ...b, ref, identity: identity.key } }),
        requestOwner({ partnerId: sender }),
      );
      return { ref: created.ref, status: created.state.status };
    },

    async amendPartnerBooking(a: { ref: string; changes: AmendInput }): Promise<BookingChange> {
      const tooLate = async (): Promise<BookingChange> => ({
        ok: false,
        code: 'amend_too_late',
        status: (await findBooking(sql, a.ref))?.status ?? null,
      });
      try {
        const after = await amendBooking({ bookings: workerBookings() }, a.ref, a.changes);
        // Its workflow has closed: too late, as for a booking over.
        return after ? { ok: true, status: after.status } : await tooLate();
      } catch (err) {
        if (err instanceof AmendTooLate) return { ok: false, code: 'amend_too_late', status: err.status };
        if (err instanceof AmendDriverOnTheWay)
          return { ok: false, code: 'amend_driver_on_the_way', status: err.status };
        // The booking moved on between the look and the amendment: the workflow's own refusals.
        if (refusedAs(err, 'amend_driver_on_the_way')) {
          return {
            ok: false,
            code: 'amend_driver_on_the_way',
            status: (await findBooking(sql, a.ref))?.status ?? null,
          };
        }
        if (refusedAs(err, 'booking_closed')) return tooLate();
        throw err;
      }
    },

    async cancelPartnerBooking(c: { ref: string; reason: string | null }): Promise<BookingChange> {
      let after;
      try {
        after = await workerBookings().cancel(c.ref, { reason: c.reason, by: 'partner' });
      } catch (err) {
        if (refusedAs(err, 'booking_closed')) {
          return { ok: false, code: 'job_completed', status: (await findBooking(sql, c.ref))?.status ?? null };
        }
        // The passenger is on board: only ops can end the trip.
        if (refusedAs(err, 'trip_in_progress')) return { ok: false, code: 'trip_in_progress', status: 'on_board' };
        throw err;
      }
      if (after) return { ok: true, status: after.status };
      // The booking workflow closes once it can no longer be served (unassigned past pickup).
      const row = await findBooking(sql, c.ref);
      if (row && (row.status === 'completed' || row.status === 'no_show'))
        return { ok: false, code: 'job_completed', status: row.status };
      await markCancelled(sql, c.ref, c.reason);
      return { ok: true, status: 'cancelled' };
    },
  };
}
