import type { Sql } from '../db/sql.js';
import type { PaymentRecord, SettlementMethod } from '../model/bookings.js';

// payment_records: immutable (the database refuses UPDATE and DELETE, see migration 00005); a
// correction is a new row naming the one it replaces, and effective_payment_records is what holds.

interface PaymentRow {
  id: string;
  amount_pence: number;
  method: SettlementMethod;
  recorded_by: PaymentRecord['recordedBy'];
  recorded_at: Date;
}

const toRecord = (r: PaymentRow): PaymentRecord => ({
  id: Number(r.id),
  amountPence: r.amount_pence,
  method: r.method,
  recordedBy: r.recorded_by,
  recordedAt: r.recorded_at.toISOString(),
});

/**
 * Writes a booking's payment record under an idempotency key, or answers the one already written
 * under it: a retried write never makes a second record.
 */
export async function insertPaymentRecord(
  sql: Sql,
  p: {
    bookingRef: string;
    driverId: string | null;
    amountPence: number;
    method: SettlementMethod;
    recordedBy: PaymentRecord['recordedBy'];
    idempotencyKey: string;
    corrects?: number | null;
    note?: string | null;
  },
): Promise<PaymentRecord> {
  const [row] = await sql<PaymentRow[]>`
    with inserted as (
      insert into payment_records (booking_ref, driver_id, amount_pence, method, recorded_by, corrects, note, idempotency_key)
      values (${p.bookingRef}, ${p.driverId}, ${p.amountPence}, ${p.method}, ${p.recordedBy}, ${p.corrects ?? null}, ${p.note ?? null}, ${p.idempotencyKey})
      on conflict (idempotency_key) do nothing
      returning id, amount_pence, method, recorded_by, recorded_at
    )
    select * from inserted
    union all
    select id, amount_pence, method, recorded_by, recorded_at from payment_records where idempotency_key = ${p.idempotencyKey}
    limit 1`;
  if (!row) throw new Error(`payment record ${p.idempotencyKey} neither inserted nor found`);
  return toRecord(row);
}

/** The record written under an idempotency key (a booking's settlement: settlementKey), if any. */
export async function findPaymentRecord(sql: Sql, idempotencyKey: string): Promise<PaymentRecord | null> {
  const [row] = await sql<PaymentRow[]>`
    select id, amount_pence, method, recorded_by, recorded_at from payment_records where idempotency_key = ${idempotencyKey}`;
  return row ? toRecord(row) : null;
}

/** The booking's payment records in force (corrections replace what they correct), oldest first. */
export async function effectivePayments(sql: Sql, bookingRef: string): Promise<PaymentRecord[]> {
  const rows = await sql<PaymentRow[]>`
    select id, amount_pence, method, recorded_by, recorded_at from effective_payment_records
     where booking_ref = ${bookingRef} order by id`;
  return rows.map(toRecord);
}
