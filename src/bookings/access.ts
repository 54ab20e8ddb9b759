import { createHmac, timingSafeEqual } from 'node:crypto';
import { ProblemError } from '../http/problem.js';
import type { Services } from '../services.js';
import { findBooking, type BookingWithDriver } from './store.js';

// Who may see or cancel a booking: the passenger, by the email on the booking (spec 4.6, 4.7), or
// whoever holds the booking's manage token. The token is handed out once, in the reply that
// created the booking, so a booking made without an email (the agent routes allow it) can still
// be cancelled by the assistant or passenger that made it. It is an HMAC of the reference under the
// service's secret: it cannot be derived from the reference, and it never expires.

export type BookingProof = { email: string } | { token: string };

export function bookingManageToken(secret: string, ref: string): string {
  return createHmac('sha256', secret).update(`booking-manage:${ref}`).digest('base64url');
}

function constantTimeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export function proofMatches(secret: string, row: Pick<BookingWithDriver, 'ref' | 'passenger_email'>, proof: BookingProof): boolean {
  if ('token' in proof) return constantTimeEqual(bookingManageToken(secret, row.ref), proof.token);
  // Compared in constant time (lower-cased: mailbox names are case-insensitive in practice).
  return !!row.passenger_email && constantTimeEqual(row.passenger_email.toLowerCase(), proof.email.trim().toLowerCase());
}

/** The booking, if the proof holds: 404 when there is no such booking, 403 when the proof is wrong. */
export async function bookingForHolder(s: Pick<Services, 'sql' | 'config'>, ref: string, proof: BookingProof): Promise<BookingWithDriver> {
  const row = await findBooking(s.sql, ref);
  if (!row) throw new ProblemError(404, 'booking_not_found', `No booking ${ref}.`);
  if (!proofMatches(s.config.JOB_LINK_SECRET, row, proof)) {
    throw 'token' in proof
      ? new ProblemError(403, 'token_mismatch', 'The manage token does not match this booking.')
      : new ProblemError(403, 'email_mismatch', 'The email does not match this booking.');
  }
  return row;
}
