import { timingSafeEqual } from 'node:crypto';
import { Refusal } from '../refusal.js';
import type { Services } from '../services.js';
import { manageTokenHolds } from './ownership.js';
import { findBooking, type BookingWithDriver } from './store.js';

// Who may see or cancel a booking: the passenger, by the email on the booking (spec 4.6, 4.7), or
// whoever holds one of the booking's manage tokens. A token is handed to the caller that made the
// booking (and to a passenger who takes charge of it through their phone, which revokes the rest);
// it is random, stored hashed, revocable, and stops working a day after the pickup time
// (src/bookings/ownership.ts).

export type BookingProof = { email: string } | { token: string };

function constantTimeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export async function proofHolds(
  sql: Services['sql'],
  row: Pick<BookingWithDriver, 'ref' | 'passenger_email'>,
  proof: BookingProof,
): Promise<boolean> {
  if ('token' in proof) return manageTokenHolds(sql, row.ref, proof.token);
  // Compared in constant time (lower-cased: mailbox names are case-insensitive in practice).
  return (
    !!row.passenger_email && constantTimeEqual(row.passenger_email.toLowerCase(), proof.email.trim().toLowerCase())
  );
}

/** The booking, if the proof holds: 404 when there is no such booking, 403 when the proof is wrong. */
export async function bookingForHolder(
  s: Pick<Services, 'sql' | 'config'>,
  ref: string,
  proof: BookingProof,
): Promise<BookingWithDriver> {
  const row = await findBooking(s.sql, ref);
  if (!row) throw Refusal.notFound('booking_not_found', `No booking ${ref}.`);
  if (!(await proofHolds(s.sql, row, proof))) {
    throw 'token' in proof
      ? Refusal.forbidden(
          'token_mismatch',
          'The manage token does not match this booking, has been revoked, or has expired (a day after pickup).',
        )
      : Refusal.forbidden('email_mismatch', 'The email does not match this booking.');
  }
  return row;
}
