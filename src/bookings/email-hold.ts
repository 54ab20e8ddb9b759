import type { Services } from '../services.js';
import { bookingsAwaitingEmail, markEmailVerified } from './store.js';

/**
 * A mailbox was verified (src/passengers/verification.ts markVerified, which is passed this): every
 * booking an older release held for it goes ahead. Each booking is marked only after its workflow
 * has had the signal, so if Temporal is briefly unreachable the error reaches the passenger, whose
 * retry finds the same bookings still held; only a workflow that no longer exists (the booking has
 * closed) is passed over.
 */
export async function releaseBookingsHeldFor(s: Pick<Services, 'sql' | 'bookings'>, email: string): Promise<void> {
  for (const ref of await bookingsAwaitingEmail(s.sql, email)) {
    // A booking already closed (false) is passed over.
    await s.bookings.emailConfirmed(ref);
    await markEmailVerified(s.sql, ref);
  }
}
