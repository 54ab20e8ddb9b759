import { verifyJobLinkToken } from '../dispatch/job-link.js';
import { Refusal } from '../refusal.js';
import type { Services } from '../services.js';
import { parseOfferId, type BookingStatus, type TripEvent } from '../model/bookings.js';
import { BOOKING_WORKFLOWS_READING_SEEN } from '../bookings/client.js';
import { findBooking, markDriverConfirmed } from '../bookings/store.js';
import { markOffersSeen, unmarkOfferSeen } from '../dispatch/store.js';
import { screenFreeText } from '../screening/free-text.js';
import { settleBooking } from '../settlement/settle.js';
import { assertDriverMayWork } from './suspension.js';
import type { PaymentMethod, PaymentRecord } from '../model/bookings.js';

// What a driver does with a job: accept or decline it, then report the trip or give it back, and
// confirm what was paid. The job-card link authenticates the driver for that one offer
// (src/dispatch/job-link.ts); in the driver app, their signed-in session does. Either way, a
// suspended driver is refused (forbidden, driver_suspended).

function offerFromLink(s: Pick<Services, 'config'>, offerId: string, token: string) {
  if (!verifyJobLinkToken(s.config.JOB_LINK_SECRET, offerId, token)) {
    throw Refusal.forbidden('invalid_job_link', 'This job link is not valid.');
  }
  const offer = parseOfferId(offerId);
  if (!offer) throw Refusal.notFound('offer_not_found', `No offer ${offerId}.`);
  return offer;
}

/** The offer a signed-in driver names: theirs, or as good as not there. */
export function offerOfDriver(offerId: string, driverId: string) {
  const offer = parseOfferId(offerId);
  if (!offer || offer.driverId !== driverId) throw Refusal.notFound('offer_not_found', `No offer ${offerId} of yours.`);
  return offer;
}

type VerifiedOffer = { ref: string; driverId: string };
/** How the driver proved the offer is theirs: the job-card link's token, or their signed-in session. */
export type OfferProof = { offerId: string; token: string } | { offerId: string; driverId: string };
/** The offer, proven the driver's, and the driver still allowed to work (not suspended). */
async function verified(s: Services, p: OfferProof): Promise<VerifiedOffer> {
  const offer = 'token' in p ? offerFromLink(s, p.offerId, p.token) : offerOfDriver(p.offerId, p.driverId);
  await assertDriverMayWork(s, offer.driverId);
  return offer;
}

export async function respondToOffer(
  s: Services,
  r: OfferProof & { decision: 'accept' | 'decline' },
): Promise<{ result: 'accepted' | 'declined'; ref: string }> {
  const offer = await verified(s, r);
  // A repeated accept of a job this driver already has is a retry (accepted); a finished booking
  // (cancelled, completed) no longer takes answers (expired).
  const result = await s.bookings.respondToOffer(offer.ref, {
    offerId: r.offerId,
    driverId: offer.driverId,
    decision: r.decision,
  });
  if (result === 'taken') throw Refusal.conflict('job_taken', 'Another driver has already taken this job.');
  if (result === 'expired') throw Refusal.gone('offer_expired', 'This offer is no longer open.');
  return { result, ref: offer.ref };
}

/**
 * The driver looked at open job cards of theirs: on a card's page, or in the driver app's feed on a
 * visible screen (the app polls its feed only while it is in view). The first look is kept in
 * offers.seen_at, which gives the card its full window under the offer policy (docs/dispatch.md
 * "Offer policy"): the booking reads it there at the card's unseen cut. A booking of 0.4.0's
 * workflow is told by a signal instead, once; one already closed is nothing to tell, and one that
 * could not be told is told at the next look. Best effort: the page and the feed are never held up.
 */
export async function offersSeen(
  s: Pick<Services, 'bookings' | 'sql'>,
  driverId: string,
  offerIds: readonly string[],
  warn: (err: unknown, offerId: string) => void,
): Promise<void> {
  let unseen: Awaited<ReturnType<typeof markOffersSeen>>;
  try {
    unseen = await markOffersSeen(s.sql, driverId, offerIds, BOOKING_WORKFLOWS_READING_SEEN);
  } catch (err) {
    for (const id of offerIds) warn(err, id);
    return;
  }
  // A booking that reads the look from offers.seen_at at the card's unseen cut needs no signal.
  await Promise.all(
    unseen
      .filter((o) => o.tell)
      .map(async (o) => {
        try {
          // A booking already closed (false) is nothing to tell.
          await s.bookings.offerSeen(o.booking_ref, { offerId: o.id, driverId });
        } catch (err) {
          if (o.marked) await unmarkOfferSeen(s.sql, o.id).catch(() => undefined);
          warn(err, o.id);
        }
      }),
  );
}

/**
 * The assigned driver's trip report (on the way, arrived, on board, completed) or drop. Answers
 * once the booking shows it; refused (conflict) when the booking has closed, is not this driver's,
 * or the step is not the trip's next one.
 */
export async function reportTrip(
  s: Services,
  r: OfferProof & { event: TripEvent },
): Promise<{ ref: string; status: BookingStatus }> {
  const offer = await verified(s, r);
  const status = await s.bookings.reportTrip(offer.ref, { driverId: offer.driverId, event: r.event });
  if (status === null) {
    const row = await findBooking(s.sql, offer.ref);
    if (!row) throw Refusal.notFound('booking_not_found', `No booking ${offer.ref}.`);
    throw Refusal.conflict('booking_closed', `Booking ${offer.ref} is ${row.status}; it takes no more trip reports.`);
  }
  // Shown in the app (no more "Confirm" button) and the ops view; the workflow already holds it.
  if (r.event === 'confirm') await markDriverConfirmed(s.sql, offer.ref, offer.driverId);
  return { ref: offer.ref, status };
}

/**
 * The driver confirms what the passenger paid for a completed trip (the fare unless they say
 * otherwise; less than the fare with a reason, which staff read). Written once as an immutable
 * payment record; a repeat answers the same record.
 */
export async function confirmPayment(
  s: Services,
  r: OfferProof & { method: PaymentMethod; amountPence?: number; reason?: string | undefined },
): Promise<{ ref: string; payment: PaymentRecord }> {
  const offer = await verified(s, r);
  let note: string | null = null;
  if (r.reason !== undefined && r.reason.trim() !== '') {
    const screened = screenFreeText('reason', r.reason, { maxLength: 300 });
    if (!screened.ok) {
      throw Refusal.invalid(
        screened.code === 'suspicious_content' ? 'rejected_content' : 'validation_failed',
        screened.message,
        {
          field: { name: 'reason', message: screened.message },
        },
      );
    }
    note = screened.value;
  }
  let amountPence = r.amountPence;
  if (amountPence === undefined) {
    const row = await findBooking(s.sql, offer.ref);
    if (!row) throw Refusal.notFound('booking_not_found', `No booking ${offer.ref}.`);
    amountPence = row.fare_pence;
  }
  const payment = await settleBooking(s, offer.ref, {
    driverId: offer.driverId,
    amountPence,
    method: r.method,
    by: 'driver',
    ...(note ? { note } : {}),
  });
  return { ref: offer.ref, payment };
}
