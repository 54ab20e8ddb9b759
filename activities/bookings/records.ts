import { log } from '@temporalio/activity';
import * as bookings from '../../src/bookings/store.js';
import type { Sql } from '../../src/db/sql.js';
import { offerFare } from '../../src/dispatch/offer-fares.js';
import { heldJobMisfit, jobFit } from '../../src/dispatch/policy.js';
import { readHeldJobDriver } from '../../src/dispatch/store.js';
import { loadDriver } from '../../src/drivers/store.js';
import { sendBestEffort } from '../../src/notify/best-effort.js';
import { insertPaymentRecord } from '../../src/settlement/payments-store.js';
import type { Notifier } from '../../src/notify/notifier.js';
import { tellPassenger, type PassengerPhoneChannel } from './passenger.js';
import {
  renderDriverJobCancelledText,
  renderDriverPickupMovedText,
  renderPassengerCancelledText,
  type CancelledBy,
} from '../../src/notify/templates.js';
import {
  settlementKey,
  type AmendedFare,
  type AmendedRoute,
  type BookingStatus,
  type JobSpec,
  type NewBooking,
  type PaymentRecord,
  type SettleInput,
} from '../../src/model/bookings.js';
import { callerWorkflowType } from '../caller.js';

/**
 * The booking workflow's writes to the booking record. Each is idempotent (insert-or-ignore,
 * conditional updates, outbox keys), so a retry or a worker crash mid-activity changes nothing twice.
 */
export function createBookingRecordActivities({
  sql,
  notifier,
  settings,
}: {
  sql: Sql;
  notifier: Notifier;
  settings?: { passengerPhoneChannel: PassengerPhoneChannel };
}) {
  const passengerNotifier = { notifier, channel: settings?.passengerPhoneChannel ?? 'sms' };
  return {
    async persistBooking({
      booking,
      job,
      status,
    }: {
      booking: NewBooking;
      job: JobSpec;
      status: BookingStatus;
    }): Promise<void> {
      await bookings.insertBooking(sql, booking, job, status, callerWorkflowType());
    },

    async setBookingStatus({ ref, status }: { ref: string; status: BookingStatus }): Promise<void> {
      await bookings.setBookingStatus(sql, ref, status);
    },

    /**
     * Writes the amended job and says whether the assigned driver still fits it, by the same rules
     * and reasons as a new offer (heldJobMisfit, src/dispatch/policy.ts): their licence at the
     * pickup, their time (a pickup moved onto another of their jobs would give them two at once),
     * their seats, their vehicle's class and wheelchair access.
     */
    async applyAmendment({
      ref,
      job,
      driverId,
      route,
      fare,
    }: {
      ref: string;
      job: JobSpec;
      driverId: string | null;
      /** A new pickup or drop-off and the fare (absent from activities scheduled before amendments carried them). */
      route?: AmendedRoute | null;
      fare?: AmendedFare | null;
    }): Promise<{ driverStillFits: boolean }> {
      const before = driverId ? await bookings.loadBooking(sql, ref) : null;
      if (route || fare) await bookings.updateAmendedJob(sql, ref, job, { route: route ?? null, fare: fare ?? null });
      else await bookings.updateJob(sql, ref, job);
      if (!driverId || !before) return { driverStillFits: true };
      const b = await bookings.loadBooking(sql, ref);
      const start = new Date(job.pickupAt);
      const driver = await readHeldJobDriver(sql, {
        driverId,
        ref,
        start,
        end: new Date(start.getTime() + b.duration_s * 1000),
      });
      const misfit = heldJobMisfit(driver, jobFit(job, new Date()));
      if (misfit) log.info('driver no longer fits the amended booking', { ref, driverId, reason: misfit });
      // A re-priced job the driver keeps: their own approved rate prices it again, never above the new fare.
      if (misfit === null && fare)
        await bookings.setDriverFare(sql, ref, driverId, await offerFare(sql, ref, driverId));
      // A driver keeping the job hears of a new pickup time: they would otherwise go at the old one.
      if (misfit === null && before.pickup_at.getTime() !== b.pickup_at.getTime()) {
        const d = await loadDriver(sql, driverId);
        await sendBestEffort(
          notifier,
          {
            channel: 'sms',
            to: d.phone,
            body: renderDriverPickupMovedText(b),
            idempotencyKey: `retimed:${ref}:${driverId}:${b.pickup_at.toISOString()}`,
            bookingRef: ref,
          },
          (m, a) => log.warn(m, a),
        );
      }
      return { driverStillFits: misfit === null };
    },

    /** The completed trip's settlement, as an immutable payment record: one per booking, however often retried. */
    async recordPayment({
      ref,
      driverId,
      settlement,
    }: {
      ref: string;
      driverId: string | null;
      settlement: SettleInput;
    }): Promise<PaymentRecord> {
      return insertPaymentRecord(sql, {
        bookingRef: ref,
        driverId,
        amountPence: settlement.amountPence,
        method: settlement.method,
        recordedBy: settlement.by,
        idempotencyKey: settlementKey(ref),
        note: settlement.note ?? (settlement.eventId ? `provider event ${settlement.eventId}` : null),
      });
    },

    /**
     * Cancels the record, withdraws open job cards, and tells the passenger (whoever cancelled: a
     * cancel by someone else holding the booking must not go unnoticed) and the driver who held the
     * job, if any: the driver is told who cancelled (`by`), never why. A partner's or operator's own
     * customer hears from them, not from us. `by` is optional: an activity scheduled before the
     * workflow passed it arrives without, and the driver's text then names no one.
     */
    async cancelBooking({
      ref,
      reason,
      offerId,
      driverId,
      by,
    }: {
      ref: string;
      reason: string | null;
      offerId: string | null;
      driverId: string | null;
      /** Who cancelled: the workflow's CancelInput['by']. */
      by?: CancelledBy | null;
    }): Promise<void> {
      await bookings.markCancelled(sql, ref, reason);
      const b = await bookings.loadBooking(sql, ref);
      const text = renderPassengerCancelledText(b, by);
      await tellPassenger(passengerNotifier, b, {
        key: `passenger-cancelled:${ref}`,
        text,
        email: { subject: `Taxi ${ref} cancelled`, body: text },
      });
      const notifyId = driverId ?? (offerId ? offerId.split(':').slice(2).join(':') : null);
      if (!notifyId) return;
      const d = await loadDriver(sql, notifyId);
      const partnerName = by === 'partner' ? await registeredPartnerName(sql, ref) : null;
      await sendBestEffort(
        notifier,
        {
          channel: 'sms',
          to: d.phone,
          body: renderDriverJobCancelledText(ref, by, partnerName),
          idempotencyKey: `cancelled:${ref}:${notifyId}`,
          bookingRef: ref,
        },
        (m, a) => log.warn(m, a),
      );
    },
  };
}

/**
 * The name our staff registered the partner, operator or supplier under (scripts/create-partner.ts;
 * a partner cannot change it) whose job this booking is; null for a booking no partner sent.
 */
async function registeredPartnerName(sql: Sql, ref: string): Promise<string | null> {
  const [row] = await sql<{ name: string }[]>`
    select p.name from partner_jobs j join partners p on p.id = j.partner_id where j.booking_ref = ${ref} limit 1`;
  return row?.name ?? null;
}
