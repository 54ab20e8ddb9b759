import { findBooking } from '../bookings/store.js';
import { Refusal } from '../refusal.js';
import type { Services } from '../services.js';
import { refusedAs } from '../bookings/client.js';
import { settlementKey, type PaymentRecord, type SettleInput } from '../model/bookings.js';
import { findPaymentRecord, insertPaymentRecord } from './payments-store.js';

/**
 * Settles a completed trip: what the passenger paid the driver, as an immutable payment record.
 * Through the booking workflow, which writes it exactly once; a booking whose workflow has closed
 * (settled late, or completed before settlement existed) is written directly under the same
 * idempotency key, so it still gets one record at most.
 */
export async function settleBooking(
  s: Pick<Services, 'sql' | 'bookings'>,
  ref: string,
  input: SettleInput,
): Promise<PaymentRecord> {
  if (input.by === 'driver') await requireReasonBelowFare(s, ref, input);
  try {
    const record = await s.bookings.settle(ref, input);
    if (record) return record;
  } catch (err) {
    // Said with the booking's reference, and a driver's not being on the job is theirs to be
    // refused (forbidden), not a conflict; the workflow's other refusals (invalid_payment) are
    // told as src/bookings/client.ts tells them.
    if (refusedAs(err, 'trip_not_completed'))
      throw notCompleted(`Booking ${ref} has not completed; report the trip completed first.`);
    if (refusedAs(err, 'not_your_job')) throw notYourJob(ref);
    throw err;
  }
  const row = await findBooking(s.sql, ref);
  if (!row) throw Refusal.notFound('booking_not_found', `No booking ${ref}.`);
  if (row.status !== 'completed')
    throw notCompleted(`Booking ${ref} is ${row.status}; only a completed trip is settled.`);
  if (input.by === 'driver' && row.driver_id !== input.driverId) throw notYourJob(ref);
  return insertPaymentRecord(s.sql, {
    bookingRef: ref,
    driverId: row.driver_id,
    amountPence: input.amountPence,
    method: input.method,
    recordedBy: input.by,
    idempotencyKey: settlementKey(ref),
    note: input.note ?? (input.eventId ? `provider event ${input.eventId}` : null),
  });
}

/**
 * A driver who confirms less than the fare says why, and the reason is kept with the record for
 * staff to read. (It changes nothing in the weekly fee line, which counts a completed trip at its
 * fare whatever a driver records: src/billing/subscription-store.ts.) A trip not completed yet
 * is left to the workflow's 409, and a settlement already written is answered as it stands.
 */
const notCompleted = (message: string) => Refusal.conflict('trip_not_completed', message);
const notYourJob = (ref: string) => Refusal.forbidden('not_your_job', `Booking ${ref} is not assigned to you.`);

async function requireReasonBelowFare(s: Pick<Services, 'sql'>, ref: string, input: SettleInput): Promise<void> {
  if (input.note) return;
  const row = await findBooking(s.sql, ref);
  // (On board too: the driver's confirmation completes the trip as it settles it.)
  if (!row || !['completed', 'on_board'].includes(row.status) || input.amountPence >= row.fare_pence) return;
  if (await findPaymentRecord(s.sql, settlementKey(ref))) return;
  throw Refusal.invalid('reason_required', 'The amount is less than the fare: say why in reason.', {
    field: { name: 'reason', message: 'is required when the amount is less than the fare' },
  });
}
