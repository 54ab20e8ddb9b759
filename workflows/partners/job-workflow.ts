import {
  allHandlersFinished,
  condition,
  patched,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
} from '@temporalio/workflow';
import { db } from '../activities.js';
import type { Activities } from '../../activities/index.js';
import type { AmendInput, BookingWorkflowInput } from '../bookings/definitions.js';
import type { BookingStatus, NewBooking, PlaceSnapshot } from '../../src/model/bookings.js';
import { partnerJobQuery, submitJobUpdate, type JobSubmission, type PartnerJobStart } from './job-definitions.js';
import {
  CANCELLED_RETRY_MESSAGE,
  type BookingChange,
  type JobOutcome,
  type JobOutcomeCode,
  type JobState,
} from '../../src/model/partners.js';

// Booking, amending and cancelling wait on the booking workflow. Release 0.1.0 ran them as local
// activities, to save an activity task round trip; but a local activity holds its workflow task (and
// the worker's slot for it) open while it waits, and the booking workflow it waits on needs a slot
// of its own: with a few batches of 100 at once every slot was a job waiting on a booking that could
// not run (issue 22: 112-165 s replies). They are ordinary activities now; histories of 0.1.0 replay
// with the local ones (docs/versioning.md).
const retry = { initialInterval: '1 second', maximumInterval: '30 seconds' };
const local = proxyLocalActivities<Activities>({ startToCloseTimeout: '1 minute', retry });
const booking = proxyActivities<Activities>({ startToCloseTimeout: '1 minute', retry });
const BOOKING_AS_ACTIVITIES = 'partner-job-booking-as-activities';
/** Who books, amends and cancels for this run: ordinary activities, or 0.1.0's local ones on replay. */
const bookingHands = () => (patched(BOOKING_AS_ACTIVITIES) ? booking : local);

const HOUR_MS = 60 * 60_000;
/** A booked job stays changeable (and its retries answerable here) until a day after pickup. */
const LIVE_AFTER_PICKUP_MS = 24 * HOUR_MS;
/** A job that never went live (a held amendment or cancel) is remembered this long in the workflow. */
const UNBOOKED_MS = 7 * 24 * HOUR_MS;

const samePlace = (a: PlaceSnapshot, b: PlaceSnapshot) =>
  Math.abs(a.lat - b.lat) < 1e-5 && Math.abs(a.lon - b.lon) < 1e-5;

/**
 * Patch (issue 22): an amendment may move the pickup or drop-off (until the driver is on the way)
 * and change the fare, re-priced by the intake; release 0.1.0 refused both (amend_route_change).
 * Checked only for an amendment that changes one of them.
 */
export const AMEND_ROUTE_AND_FARE = 'partner-amend-route-and-fare';
/**
 * Patch (issue 22): a cancelled job's reference sent as a new with details never sent before books
 * afresh (rebooked); release 0.1.0 answered already_cancelled. Checked only for such a new.
 */
export const REBOOK_CANCELLED = 'partner-rebook-cancelled';

function routeOf(b: NewBooking): NonNullable<AmendInput['route']> {
  return {
    pickupQuery: b.pickupQuery,
    dropoffQuery: b.dropoffQuery,
    pickup: b.pickup,
    dropoff: b.dropoff,
    pickupArea: b.pickupArea,
    distanceM: b.distanceM,
    durationS: b.durationS,
  };
}

/** One job reference's record, as this workflow and partner_jobs in Postgres keep it. */
class PartnerJob {
  state: JobState = 'none';
  bookingRef: string | null = null;
  bookingStatus: BookingStatus | null = null;
  booked: BookingWorkflowInput | null = null;
  held: BookingWorkflowInput | null = null;
  heldFingerprint: string | null = null;
  newFingerprint: string | null = null;
  /** Every amendment applied, and (since a cancelled reference can be booked again) every earlier new. */
  readonly amendFingerprints: string[] = [];

  constructor(
    readonly partnerId: string,
    readonly jobRef: string,
  ) {}

  /** This exact job was sent for this reference before (a new, or an amendment applied). */
  seen(fingerprint: string): boolean {
    return fingerprint === this.newFingerprint || this.amendFingerprints.includes(fingerprint);
  }

  answer(outcome: 'accepted' | 'rejected', code: JobOutcomeCode, message: string): JobOutcome {
    return {
      outcome,
      code,
      message,
      bookingRef: this.bookingRef,
      bookingStatus: this.bookingStatus,
      state: this.state,
    };
  }

  /** Saves the record, then answers that the submission was accepted. */
  async saved(code: JobOutcomeCode, message: string): Promise<JobOutcome> {
    await this.save();
    return this.answer('accepted', code, message);
  }

  save(): Promise<void> {
    return db.savePartnerJobRecord({
      partnerId: this.partnerId,
      jobRef: this.jobRef,
      state: this.state === 'none' ? 'pending' : this.state,
      bookingRef: this.bookingRef,
      newFingerprint: this.newFingerprint,
      amendFingerprints: this.amendFingerprints,
      booked: this.booked,
      held: this.held,
      heldFingerprint: this.heldFingerprint,
    });
  }

  /** An earlier run for this reference (closed, or past the server's retention) left its record. */
  async load(): Promise<void> {
    const record = await db.loadPartnerJobRecord({ partnerId: this.partnerId, jobRef: this.jobRef });
    if (!record) return;
    this.state = record.state === 'pending' && !record.held ? 'none' : record.state;
    this.bookingRef = record.bookingRef;
    this.bookingStatus = record.bookingStatus;
    this.booked = record.booked;
    this.held = record.held;
    this.heldFingerprint = record.heldFingerprint;
    this.newFingerprint = record.newFingerprint;
    this.amendFingerprints.push(...record.amendFingerprints);
  }
}

/**
 * One sender's job reference (job:<partner>:<jobRef>). Senders retry, duplicate, batch and reorder,
 * so every submission for the reference is applied here one at a time, whatever order they arrive
 * in: a repeated new is the same booking, an amendment before its new is held and booked with it,
 * a cancel before its new is remembered so the new never dispatches, and nothing changes a job
 * once it is cancelled. The ride itself is an ordinary booking workflow; this one only decides.
 * The outcome of each submission is also kept in Postgres (partner_jobs), which outlives the
 * workflow: a later run for the same reference starts from it.
 */
export async function partnerJobWorkflow(start: PartnerJobStart): Promise<JobState> {
  const job = new PartnerJob(start.partnerId, start.jobRef);
  let lastChangeAt = Date.now();
  // Submissions are served strictly in arrival order: each waits for its ticket.
  let loaded = false;
  let issued = 0;
  let serving = 1;

  setHandler(partnerJobQuery, () => ({
    partnerId: job.partnerId,
    jobRef: job.jobRef,
    state: job.state,
    bookingRef: job.bookingRef,
  }));
  setHandler(submitJobUpdate, async (sub) => {
    const ticket = ++issued;
    await condition(() => loaded && serving === ticket);
    try {
      return await apply(job, sub);
    } finally {
      serving += 1;
      lastChangeAt = Date.now();
    }
  });

  await job.load();
  loaded = true;

  // Open while the job can still change: a day past pickup once booked, a week otherwise.
  for (;;) {
    const seen = lastChangeAt;
    const closeAt =
      job.state === 'live' && job.booked
        ? Date.parse(job.booked.job.pickupAt) + LIVE_AFTER_PICKUP_MS
        : lastChangeAt + UNBOOKED_MS;
    const wait = closeAt - Date.now();
    if (wait <= 0 && serving > issued) break;
    await condition(() => lastChangeAt !== seen, Math.max(wait, 1000));
  }
  await condition(allHandlersFinished);
  return job.state;
}

async function apply(job: PartnerJob, sub: JobSubmission): Promise<JobOutcome> {
  switch (sub.action) {
    case 'new':
      return applyNew(job, sub);
    case 'amend':
      return applyAmend(job, sub);
    case 'cancel':
      return applyCancel(job, sub);
  }
}

async function applyNew(job: PartnerJob, sub: JobSubmission): Promise<JobOutcome> {
  if (job.state === 'cancelled') {
    if (!job.bookingRef)
      return job.answer(
        'accepted',
        'cancelled_before_new',
        'A cancel for this job arrived first: it will not be dispatched.',
      );
    // The job as it was sent before is a retry, which never changes anything; different details book afresh.
    if (job.seen(sub.fingerprint) || !patched(REBOOK_CANCELLED)) {
      return job.answer('accepted', 'already_cancelled', CANCELLED_RETRY_MESSAGE);
    }
    return rebook(job, sub);
  }
  if (job.state === 'live') {
    if (sub.fingerprint === job.newFingerprint)
      return job.answer('accepted', 'duplicate', 'Already booked: the same booking.');
    return job.answer(
      'rejected',
      'job_ref_conflict',
      'This job reference is already booked with different details; send action amend to change it.',
    );
  }
  if (sub.limit && !(await db.countPartnerJob({ partnerId: job.partnerId, jobRef: job.jobRef, ...sub.limit }))) {
    return dailyLimitReached(job, sub.limit.limit);
  }
  // An amendment that arrived first is the job as it stands now: book that.
  const input = job.held ?? sub.booking!;
  const created = await bookingHands().createPartnerBooking({ input });
  job.bookingRef = created.ref;
  job.bookingStatus = created.status;
  job.booked = input;
  job.newFingerprint = sub.fingerprint;
  if (job.held && job.heldFingerprint) job.amendFingerprints.push(job.heldFingerprint);
  const withHeld = job.held !== null;
  job.held = null;
  job.heldFingerprint = null;
  job.state = 'live';
  return job.saved('created', withHeld ? 'Booked, with the amendment that arrived before it.' : 'Booked.');
}

/** A new the sender's daily limit has no room for: refused, nothing booked. */
function dailyLimitReached(job: PartnerJob, limit: number): JobOutcome {
  return job.answer(
    'rejected',
    'daily_limit_reached',
    `The daily limit of ${limit} new jobs is reached; send it again tomorrow.`,
  );
}

/** A cancelled job's reference sent as a new with different details: a booking of its own. */
async function rebook(job: PartnerJob, sub: JobSubmission): Promise<JobOutcome> {
  if (sub.limit && !(await db.countPartnerJob({ partnerId: job.partnerId, jobRef: job.jobRef, ...sub.limit }))) {
    return dailyLimitReached(job, sub.limit.limit);
  }
  const cancelledRef = job.bookingRef;
  const input = sub.booking!;
  const created = await bookingHands().createPartnerBooking({ input, rebooking: sub.fingerprint });
  // The cancelled job's details stay known: its new sent again later is never booked a third time.
  if (job.newFingerprint) job.amendFingerprints.push(job.newFingerprint);
  job.bookingRef = created.ref;
  job.bookingStatus = created.status;
  job.booked = input;
  job.newFingerprint = sub.fingerprint;
  job.state = 'live';
  return job.saved('rebooked', `Booked again as ${created.ref}: the earlier booking ${cancelledRef} stays cancelled.`);
}

async function applyAmend(job: PartnerJob, sub: JobSubmission): Promise<JobOutcome> {
  if (job.state === 'cancelled')
    return job.answer('rejected', 'job_cancelled', 'This job was cancelled; send a new job with a new reference.');
  if (job.state !== 'live') return holdAmendment(job, sub);
  if (job.amendFingerprints.includes(sub.fingerprint) || sub.fingerprint === job.newFingerprint) {
    return job.answer('accepted', 'duplicate', 'Already applied.');
  }
  return amendBooking(job, sub.booking!, sub.fingerprint);
}

/** An amendment before its new: held, and booked with the new when it arrives. */
async function holdAmendment(job: PartnerJob, sub: JobSubmission): Promise<JobOutcome> {
  job.held = sub.booking!;
  job.heldFingerprint = sub.fingerprint;
  job.state = 'pending';
  return job.saved(
    'amendment_held',
    'No new job with this reference yet: the amendment is held and booked when it arrives.',
  );
}

/** An amendment to a booked job: its booking is changed, unless the ride is past changing. */
async function amendBooking(job: PartnerJob, next: BookingWorkflowInput, fingerprint: string): Promise<JobOutcome> {
  const current = job.booked!;
  const routeChanged =
    !samePlace(next.booking.pickup, current.booking.pickup) ||
    !samePlace(next.booking.dropoff, current.booking.dropoff);
  const fareChanged =
    next.booking.farePence !== current.booking.farePence || next.booking.fareSource !== current.booking.fareSource;
  if ((routeChanged || fareChanged) && !patched(AMEND_ROUTE_AND_FARE)) {
    return job.answer(
      'rejected',
      'amend_route_change',
      'An amendment cannot change the pickup, drop-off or fare of a booked job: cancel it and send a new job.',
    );
  }
  // The intake priced the amended job: the sender's agreed fare if it sent one, else the tariff's
  // for the new time and route (a move into the night rate costs the night rate).
  const changed = await bookingHands().amendPartnerBooking({
    ref: job.bookingRef!,
    changes: {
      pickupAt: next.job.pickupAt,
      passengers: next.job.passengers,
      vehicleType: next.job.vehicleType,
      wheelchair: next.job.wheelchair,
      notes: next.job.notes,
      ...(routeChanged ? { route: routeOf(next.booking) } : {}),
      ...(fareChanged ? { fare: { farePence: next.booking.farePence, fareSource: next.booking.fareSource } } : {}),
    },
  });
  job.bookingStatus = changed.status;
  if (!changed.ok) return amendmentRefused(job, changed);
  job.booked = next;
  job.amendFingerprints.push(fingerprint);
  await job.save();
  const what = [
    routeChanged ? 'new pickup or drop-off: re-priced and dispatched afresh' : null,
    fareChanged ? `fare now £${(next.booking.farePence / 100).toFixed(2)}` : null,
  ].filter(Boolean);
  return job.answer('accepted', 'amended', what.length > 0 ? `Amended (${what.join('; ')}).` : 'Amended.');
}

/** The booking refused the change: the driver is on the way (the route is fixed), or it is over. */
function amendmentRefused(job: PartnerJob, changed: Extract<BookingChange, { ok: false }>): JobOutcome {
  if (changed.code === 'amend_driver_on_the_way') {
    return job.answer(
      'rejected',
      'amend_driver_on_the_way',
      `The driver is on the way (${changed.status ?? 'en_route'}): the pickup and drop-off can no longer change. Send an amendment with the booked pickup and drop-off to change anything else, or cancel the job and send it again as a new job (a new booking).`,
    );
  }
  return job.answer(
    'rejected',
    'amend_too_late',
    `The booking is ${changed.status ?? 'closed'}: it can no longer be amended.`,
  );
}

async function applyCancel(job: PartnerJob, sub: JobSubmission): Promise<JobOutcome> {
  if (job.state === 'cancelled') return job.answer('accepted', 'already_cancelled', 'Already cancelled.');
  if (job.state !== 'live') {
    job.state = 'cancelled';
    job.held = null;
    return job.saved('cancel_held', 'No new job with this reference yet: when it arrives it will not be dispatched.');
  }
  const changed = await bookingHands().cancelPartnerBooking({ ref: job.bookingRef!, reason: sub.reason ?? null });
  job.bookingStatus = changed.status;
  if (!changed.ok && changed.code === 'trip_in_progress') {
    return job.answer(
      'rejected',
      'trip_in_progress',
      'The passenger is on board: a trip under way cannot be cancelled.',
    );
  }
  if (!changed.ok)
    return job.answer(
      'rejected',
      'job_completed',
      `The booking is ${changed.status ?? 'closed'}: it can no longer be cancelled.`,
    );
  job.state = 'cancelled';
  return job.saved('cancelled', 'Cancelled.');
}
