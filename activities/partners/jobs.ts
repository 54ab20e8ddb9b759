import { Context } from '@temporalio/activity';
import { AmendDriverOnTheWay, AmendTooLate, amendBooking } from '../../src/bookings/amend.js';
import { partnerJobIdentity } from '../../src/bookings/identity.js';
import { requestOwner } from '../../src/bookings/request-owner.js';
import { createBooking } from '../../src/bookings/start-workflow.js';
import { findBooking, markCancelled } from '../../src/bookings/store.js';
import { countNewJob, findPartnerJob, savePartnerJob, type PartnerJobRecord } from '../../src/partners/store.js';
import type { Sql } from '../../src/db/sql.js';
import { failureType, isWorkflowGone } from '../../src/temporal/refusals.js';
import {
  BookingFailure,
  bookingWorkflowId,
  cancelBookingUpdate,
  type AmendInput,
  type BookingStatus,
  type BookingWorkflowInput,
} from '../../workflows/bookings/definitions.js';
import type { BookingChange } from '../../workflows/partners/job-definitions.js';

// The partner job workflow's hands: its record in Postgres, and the booking it creates, amends and
// cancels through the same paths every booking route uses (src/bookings/start-workflow.ts,
// src/bookings/amend.ts). The Temporal client is the worker's own (activity context). Nothing here
// imports the API's services (src/services.ts imports the activities).

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
      const ctx = Context.current();
      const b = c.input.booking;
      const jobRef = c.rebooking ? `${b.partnerJobRef ?? ''}|rebooked|${c.rebooking}` : (b.partnerJobRef ?? '');
      const identity = partnerJobIdentity({ partnerId: b.partnerId ?? b.operatorId ?? '', jobRef });
      const sender = b.partnerId ?? b.operatorId ?? '';
      const created = await createBooking(
        { sql, temporal: ctx.client, taskQueue: ctx.info.taskQueue },
        identity,
        b.farePence,
        (ref) => ({ ...c.input, booking: { ...b, ref, identity: identity.key } }),
        requestOwner({ partnerId: sender }),
      );
      return { ref: created.ref, status: created.state.status };
    },

    async amendPartnerBooking(a: { ref: string; changes: AmendInput }): Promise<BookingChange> {
      try {
        const after = await amendBooking({ temporal: Context.current().client }, a.ref, a.changes);
        return { ok: true, status: after.status };
      } catch (err) {
        if (err instanceof AmendTooLate) return { ok: false, code: 'amend_too_late', status: err.status };
        if (err instanceof AmendDriverOnTheWay)
          return { ok: false, code: 'amend_driver_on_the_way', status: err.status };
        if (failureType(err) === BookingFailure.driverOnTheWay) {
          return {
            ok: false,
            code: 'amend_driver_on_the_way',
            status: (await findBooking(sql, a.ref))?.status ?? null,
          };
        }
        if (failureType(err) === BookingFailure.closed || isWorkflowGone(err)) {
          return { ok: false, code: 'amend_too_late', status: (await findBooking(sql, a.ref))?.status ?? null };
        }
        throw err;
      }
    },

    async cancelPartnerBooking(c: { ref: string; reason: string | null }): Promise<BookingChange> {
      const handle = Context.current().client.workflow.getHandle(bookingWorkflowId(c.ref));
      try {
        const after = await handle.executeUpdate(cancelBookingUpdate, { args: [{ reason: c.reason, by: 'partner' }] });
        return { ok: true, status: after.status };
      } catch (err) {
        if (failureType(err) === BookingFailure.closed) {
          return { ok: false, code: 'job_completed', status: (await findBooking(sql, c.ref))?.status ?? null };
        }
        // The passenger is on board: only ops can end the trip.
        if (failureType(err) === BookingFailure.tripInProgress)
          return { ok: false, code: 'trip_in_progress', status: 'on_board' };
        // The booking workflow closes once it can no longer be served (unassigned past pickup).
        if (isWorkflowGone(err)) {
          const row = await findBooking(sql, c.ref);
          if (row && (row.status === 'completed' || row.status === 'no_show'))
            return { ok: false, code: 'job_completed', status: row.status };
          await markCancelled(sql, c.ref, c.reason);
          return { ok: true, status: 'cancelled' };
        }
        throw err;
      }
    },
  };
}
