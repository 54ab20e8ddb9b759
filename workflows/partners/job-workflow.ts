import { allHandlersFinished, condition, proxyLocalActivities, setHandler } from '@temporalio/workflow';
import type { Activities } from '../../activities/index.js';
import type { BookingStatus, BookingWorkflowInput, PlaceSnapshot } from '../bookings/definitions.js';
import {
  partnerJobQuery,
  submitJobUpdate,
  type JobOutcome,
  type JobOutcomeCode,
  type JobState,
  type JobSubmission,
  type PartnerJobStart,
} from './job-definitions.js';

const db = proxyLocalActivities<Activities>({
  startToCloseTimeout: '10 seconds',
  retry: { initialInterval: '500 ms', maximumInterval: '30 seconds' },
});
// Booking, amending and cancelling wait on the booking workflow, which is quick: as local activities
// they cost no activity task round trip (most of a job's time in a batch of 100).
const local = proxyLocalActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds' },
});

const HOUR_MS = 60 * 60_000;
/** A booked job stays changeable (and its retries answerable here) until a day after pickup. */
const LIVE_AFTER_PICKUP_MS = 24 * HOUR_MS;
/** A job that never went live (a held amendment or cancel) is remembered this long in the workflow. */
const UNBOOKED_MS = 7 * 24 * HOUR_MS;

const samePlace = (a: PlaceSnapshot, b: PlaceSnapshot) => Math.abs(a.lat - b.lat) < 1e-5 && Math.abs(a.lon - b.lon) < 1e-5;

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
  const { partnerId, jobRef } = start;
  let state: JobState = 'none';
  let bookingRef: string | null = null;
  let bookingStatus: BookingStatus | null = null;
  let booked: BookingWorkflowInput | null = null;
  let held: BookingWorkflowInput | null = null;
  let heldFingerprint: string | null = null;
  let newFingerprint: string | null = null;
  const amendFingerprints: string[] = [];
  let lastChangeAt = Date.now();

  // Submissions are served strictly in arrival order: each waits for its ticket.
  let loaded = false;
  let issued = 0;
  let serving = 1;

  setHandler(partnerJobQuery, () => ({ partnerId, jobRef, state, bookingRef }));
  setHandler(submitJobUpdate, async (sub) => {
    const ticket = ++issued;
    await condition(() => loaded && serving === ticket);
    try {
      return await apply(sub);
    } finally {
      serving += 1;
      lastChangeAt = Date.now();
    }
  });

  const answer = (outcome: 'accepted' | 'rejected', code: JobOutcomeCode, message: string): JobOutcome => ({
    outcome,
    code,
    message,
    bookingRef,
    bookingStatus,
    state,
  });
  const save = () =>
    db.savePartnerJobRecord({
      partnerId,
      jobRef,
      state: state === 'none' ? 'pending' : state,
      bookingRef,
      newFingerprint,
      amendFingerprints,
      booked,
      held,
      heldFingerprint,
    });

  async function apply(sub: JobSubmission): Promise<JobOutcome> {
    switch (sub.action) {
      case 'new':
        return applyNew(sub);
      case 'amend':
        return applyAmend(sub);
      case 'cancel':
        return applyCancel(sub);
    }
  }

  async function applyNew(sub: JobSubmission): Promise<JobOutcome> {
    if (state === 'cancelled') {
      return bookingRef
        ? answer('accepted', 'already_cancelled', 'This job was cancelled; its booking stays cancelled.')
        : answer('accepted', 'cancelled_before_new', 'A cancel for this job arrived first: it will not be dispatched.');
    }
    if (state === 'live') {
      if (sub.fingerprint === newFingerprint) return answer('accepted', 'duplicate', 'Already booked: the same booking.');
      return answer('rejected', 'job_ref_conflict', 'This job reference is already booked with different details; send action amend to change it.');
    }
    if (sub.limit && !(await db.countPartnerJob({ partnerId, jobRef, ...sub.limit }))) {
      return answer('rejected', 'daily_limit_reached', `The daily limit of ${sub.limit.limit} new jobs is reached; send it again tomorrow.`);
    }
    // An amendment that arrived first is the job as it stands now: book that.
    const input = held ?? sub.booking!;
    const created = await local.createPartnerBooking({ input });
    bookingRef = created.ref;
    bookingStatus = created.status;
    booked = input;
    newFingerprint = sub.fingerprint;
    if (held && heldFingerprint) amendFingerprints.push(heldFingerprint);
    const withHeld = held !== null;
    held = null;
    heldFingerprint = null;
    state = 'live';
    await save();
    return answer('accepted', 'created', withHeld ? 'Booked, with the amendment that arrived before it.' : 'Booked.');
  }

  async function applyAmend(sub: JobSubmission): Promise<JobOutcome> {
    if (state === 'cancelled') return answer('rejected', 'job_cancelled', 'This job was cancelled; send a new job with a new reference.');
    if (state !== 'live') {
      held = sub.booking!;
      heldFingerprint = sub.fingerprint;
      state = 'pending';
      await save();
      return answer('accepted', 'amendment_held', 'No new job with this reference yet: the amendment is held and booked when it arrives.');
    }
    if (amendFingerprints.includes(sub.fingerprint) || sub.fingerprint === newFingerprint) {
      return answer('accepted', 'duplicate', 'Already applied.');
    }
    const next = sub.booking!;
    const current = booked!;
    if (
      !samePlace(next.booking.pickup, current.booking.pickup) ||
      !samePlace(next.booking.dropoff, current.booking.dropoff) ||
      next.booking.farePence !== current.booking.farePence
    ) {
      return answer('rejected', 'amend_route_change', 'An amendment cannot change the pickup, drop-off or fare of a booked job: cancel it and send a new job.');
    }
    const changed = await local.amendPartnerBooking({
      ref: bookingRef!,
      changes: {
        pickupAt: next.job.pickupAt,
        passengers: next.job.passengers,
        vehicleType: next.job.vehicleType,
        wheelchair: next.job.wheelchair,
        notes: next.job.notes,
      },
    });
    bookingStatus = changed.status;
    if (!changed.ok) return answer('rejected', 'amend_too_late', `The booking is ${changed.status ?? 'closed'}: it can no longer be amended.`);
    booked = next;
    amendFingerprints.push(sub.fingerprint);
    await save();
    return answer('accepted', 'amended', 'Amended.');
  }

  async function applyCancel(sub: JobSubmission): Promise<JobOutcome> {
    if (state === 'cancelled') return answer('accepted', 'already_cancelled', 'Already cancelled.');
    if (state !== 'live') {
      state = 'cancelled';
      held = null;
      await save();
      return answer('accepted', 'cancel_held', 'No new job with this reference yet: when it arrives it will not be dispatched.');
    }
    const changed = await local.cancelPartnerBooking({ ref: bookingRef!, reason: sub.reason ?? null });
    bookingStatus = changed.status;
    if (!changed.ok && changed.code === 'trip_in_progress') {
      return answer('rejected', 'trip_in_progress', 'The passenger is on board: a trip under way cannot be cancelled.');
    }
    if (!changed.ok) return answer('rejected', 'job_completed', `The booking is ${changed.status ?? 'closed'}: it can no longer be cancelled.`);
    state = 'cancelled';
    await save();
    return answer('accepted', 'cancelled', 'Cancelled.');
  }

  // An earlier run for this reference (closed, or past the server's retention) left its record.
  const record = await db.loadPartnerJobRecord({ partnerId, jobRef });
  if (record) {
    state = record.state === 'pending' && !record.held ? 'none' : record.state;
    bookingRef = record.bookingRef;
    bookingStatus = record.bookingStatus;
    booked = record.booked;
    held = record.held;
    heldFingerprint = record.heldFingerprint;
    newFingerprint = record.newFingerprint;
    amendFingerprints.push(...record.amendFingerprints);
  }
  loaded = true;

  // Open while the job can still change: a day past pickup once booked, a week otherwise.
  for (;;) {
    const seen = lastChangeAt;
    const closeAt = state === 'live' && booked ? Date.parse(booked.job.pickupAt) + LIVE_AFTER_PICKUP_MS : lastChangeAt + UNBOOKED_MS;
    const wait = closeAt - Date.now();
    if (wait <= 0 && serving > issued) break;
    await condition(() => lastChangeAt !== seen, Math.max(wait, 1000));
  }
  await condition(allHandlersFinished);
  return state;
}
