import { timingSafeEqual } from 'node:crypto';
import type { BookingRow, DriverRow } from '../../activities/bookings.js';
import type { Sql } from '../db/sql.js';
import { londonTime } from '../dispatch/messages.js';
import { ProblemError } from '../http/problem.js';
import { gbp } from '../schemas/common.js';
import { DateTime } from 'luxon';

export function statusUrl(baseUrl: string, ref: string): string {
  return `${baseUrl}/track/${ref}`;
}

type Row = BookingRow & { d_name: string | null; d_vehicle: string | null; d_plate: string | null };

export async function loadBookingRow(sql: Sql, ref: string): Promise<Row | null> {
  const [row] = await sql<Row[]>`
    select b.*, d.name as d_name, d.vehicle_description as d_vehicle, d.plate as d_plate
      from bookings b left join drivers d on d.id = b.driver_id
     where b.ref = ${ref}`;
  return row ?? null;
}

/** The booking's passenger email must match; compared in constant time so a lookup leaks nothing. */
export function assertEmailMatches(row: Pick<BookingRow, 'passenger_email'>, email: string): void {
  const a = Buffer.from((row.passenger_email ?? '').toLowerCase());
  const b = Buffer.from(email.trim().toLowerCase());
  if (a.length === 0 || a.length !== b.length || !timingSafeEqual(a, b)) {
    throw new ProblemError(403, 'email_mismatch', 'The email does not match this booking.');
  }
}

export async function bookingForPassenger(sql: Sql, ref: string, email: string): Promise<Row> {
  const row = await loadBookingRow(sql, ref);
  if (!row) throw new ProblemError(404, 'booking_not_found', `No booking ${ref}.`);
  assertEmailMatches(row, email);
  return row;
}

export function presentBooking(row: Row, baseUrl: string) {
  return {
    booking_reference: row.ref,
    status: row.status,
    pickup_time: row.pickup_at.toISOString(),
    pickup_time_local: DateTime.fromJSDate(row.pickup_at, { zone: 'Europe/London' }).toISO() ?? londonTime(row.pickup_at),
    pickup: row.pickup.label,
    dropoff: row.dropoff.label,
    passengers: row.passengers,
    vehicle_type: row.vehicle_type,
    driver: row.driver_id && row.d_name ? { name: row.d_name, vehicle: row.d_vehicle ?? '', plate: row.d_plate ?? '' } : null,
    payment: { method: row.payment_method, state: row.payment_state, fare: gbp(row.fare_pence), currency: 'GBP' as const },
    cancelled_at: row.cancelled_at?.toISOString() ?? null,
    cancel_reason: row.cancel_reason,
    status_url: statusUrl(baseUrl, row.ref),
  };
}

export type { DriverRow };
