import { createHash } from 'node:crypto';
import { DateTime } from 'luxon';
import { priceTripBooking } from '../bookings/book.js';
import { fromPartnerJob } from '../bookings/request/partner-job.js';
import { Refusal, type RefusedField } from '../refusal.js';
import {
  MAX_JOBS_PER_REQUEST,
  PartnerJobSchema,
  type JobBatchResult,
  type JobResult,
  type PartnerJob,
} from '../schemas/partner-job.js';
import { screenedOrDropped } from '../screening/free-text.js';
import type { Services } from '../services.js';
import type { JobSubmission } from '../../workflows/partners/job-definitions.js';
import { CANCELLED_RETRY_MESSAGE } from '../model/partners.js';
import { findBooking } from '../bookings/store.js';
import { ACCEPT_GRACE_MS } from './job-client.js';
import { jobRejection } from './job-rejection.js';
import { findPartnerJob, recordHandedOverJob, type Partner } from './store.js';

// Partner, operator and supplier intake (spec 2.4, 4.8, 4.11, 4.13): a body of jobs in, one outcome
// per job out. Each job is mapped to the one booking request (src/bookings/request/partner-job.ts)
// and priced here, then handed to its own workflow
// (job:<sender>:<jobRef>), which applies new, amend and cancel in turn and books through the same
// booking workflow as every other route. Jobs for one reference are sent in the order they came;
// different references in parallel.

const PARALLEL_JOB_REFS = 8;

export interface IntakeOptions {
  /** The operator bridge also takes {"jobs": [...]}. */
  acceptJobsKey: boolean;
  /**
   * The sender says its jobs were handed over by an exchange (x-exchange-hop, docs/exchange.md): the
   * bookings made of them are an exchange fleet's jobs, never handed on to one (one hop).
   */
  handedOver?: boolean;
}

/** Reads a body as a list of jobs: refused (invalid) when it is neither a job nor a list of at most 100. */
export function jobItems(body: unknown, opts: IntakeOptions): { items: unknown[]; single: boolean } {
  const shape = opts.acceptJobsKey
    ? 'a PartnerJob, an array of at most 100, or {"jobs": [...]}'
    : 'a PartnerJob or an array of at most 100 PartnerJobs';
  let list: unknown = body;
  if (
    opts.acceptJobsKey &&
    body !== null &&
    typeof body === 'object' &&
    !Array.isArray(body) &&
    'jobs' in body &&
    !('jobRef' in body)
  ) {
    list = body.jobs;
    if (!Array.isArray(list))
      throw Refusal.invalid('invalid_body', `"jobs" must be an array; the body must be ${shape}.`, {
        field: { name: 'jobs', message: 'must be an array' },
      });
  }
  if (Array.isArray(list)) {
    if (list.length === 0)
      throw Refusal.invalid('invalid_body', `The list of jobs is empty; the body must be ${shape}.`);
    if (list.length > MAX_JOBS_PER_REQUEST) {
      // The field is the body itself (named '').
      throw Refusal.invalid('too_many_jobs', `${list.length} jobs in one request; at most ${MAX_JOBS_PER_REQUEST}.`, {
        field: { name: '', message: `must hold at most ${MAX_JOBS_PER_REQUEST} jobs` },
      });
    }
    return { items: list, single: false };
  }
  if (list === null || typeof list !== 'object') throw Refusal.invalid('invalid_body', `The body must be ${shape}.`);
  return { items: [list], single: true };
}

export async function submitJobs(
  s: Services,
  partner: Partner,
  body: unknown,
  opts: IntakeOptions,
): Promise<{ status: 200 | 207; result: JobBatchResult }> {
  if (partner.kind === 'operator') {
    if (!partner.liveIntakeApproved)
      throw Refusal.forbidden('operator_not_approved', 'This operator is not approved for live intake yet.');
    if (partner.bridgePaused)
      throw Refusal.forbidden('bridge_paused', 'The operator bridge is paused for this operator.');
  }
  const { items, single } = jobItems(body, opts);
  // Spec 4.8 lists no 403 for partner intake (4.5 puts "partner not allowed to book" on v1 booking):
  // here it is each job's outcome, and nothing is applied.
  if (partner.kind !== 'operator' && !partner.allowedToBook) {
    const results = items.map((item): JobResult => {
      const fields = item !== null && typeof item === 'object' ? (item as { jobRef?: unknown; action?: unknown }) : {};
      return {
        jobRef: typeof fields.jobRef === 'string' ? fields.jobRef.slice(0, 100) : null,
        action: fields.action === 'amend' || fields.action === 'cancel' ? fields.action : 'new',
        outcome: 'rejected',
        code: 'partner_not_allowed',
        message: 'This sender is not allowed to book: ask the network operator to allow it. Nothing was applied.',
        bookingReference: null,
        bookingStatus: null,
      };
    });
    return { status: 207, result: { accepted: 0, rejected: results.length, results } };
  }
  const results: JobResult[] = new Array(items.length);
  const valid: { index: number; job: PartnerJob }[] = [];
  const invalid: RefusedField[] = [];
  items.forEach((item, index) => {
    const parsed = PartnerJobSchema.safeParse(item);
    if (parsed.success) {
      valid.push({ index, job: parsed.data });
      return;
    }
    // Named in the body ("pickupTime"), or in its item ("[2].pickupTime"; "[2]" for the item itself).
    const fields = parsed.error.issues.map((i) => {
      const path = i.path.join('.');
      return { name: single ? path : `[${index}]${path === '' ? '' : `.${path}`}`, message: i.message };
    });
    invalid.push(...fields);
    const ref = item !== null && typeof item === 'object' ? (item as { jobRef?: unknown }).jobRef : undefined;
    const action = item !== null && typeof item === 'object' ? (item as { action?: unknown }).action : undefined;
    results[index] = {
      jobRef: typeof ref === 'string' ? ref.slice(0, 100) : null,
      action:
        action === undefined ? 'new' : action === 'new' || action === 'amend' || action === 'cancel' ? action : null,
      ...jobRejection(Refusal.invalid('invalid_job', 'The job has invalid fields.', { fields }))!,
    };
  });
  if (valid.length === 0) {
    throw Refusal.invalid(
      'validation_failed',
      single ? 'The job has invalid fields.' : 'Every job in the request has invalid fields.',
      { fields: invalid.slice(0, 200) },
    );
  }

  // Jobs for one reference go in the order sent; references in parallel, a few at a time, each
  // waited for until the request's reply budget is spent (answered `processing` after that).
  const budget = { until: Date.now() + s.config.INTAKE_REPLY_BUDGET_MS };
  const byRef = new Map<string, { index: number; job: PartnerJob }[]>();
  for (const v of valid) byRef.set(v.job.jobRef, [...(byRef.get(v.job.jobRef) ?? []), v]);
  const queues = [...byRef.values()];
  const workers = Array.from({ length: Math.min(PARALLEL_JOB_REFS, queues.length) }, async () => {
    for (let queue = queues.shift(); queue; queue = queues.shift()) {
      for (const { index, job } of queue)
        results[index] = await submitJob(s, partner, job, single ? null : index, budget, opts.handedOver ?? false);
    }
  });
  await Promise.all(workers);

  const accepted = results.filter((r) => r.outcome === 'accepted').length;
  const rejected = results.length - accepted;
  if (
    accepted === 0 &&
    results.every((r) => r.code === 'daily_limit_reached' || r.code === 'invalid_job') &&
    results.some((r) => r.code === 'daily_limit_reached')
  ) {
    throw Refusal.tooMany(
      'daily_limit_reached',
      `The daily limit of ${partner.dailyJobLimit} new jobs is reached; send them again tomorrow.`,
      { details: { results } },
    );
  }
  return {
    status: rejected === 0 ? 200 : 207,
    result: { accepted, rejected, results, ...(partner.sandbox ? { sandbox: true } : {}) },
  };
}

/**
 * One job: checked and priced here, decided by its workflow. Its refusals become a rejected result;
 * so does Temporal being unreachable (`try_again`: nothing was applied, and a repeat is safe), so one
 * job's trouble never fails the batch. A job taken in by its workflow but not applied within the
 * budget is `processing`: it is applied all the same, and its outcome is on its status events and
 * at GET /api/public/v1/partner/jobs/{jobRef}.
 */
async function submitJob(
  s: Services,
  partner: Partner,
  job: PartnerJob,
  at: number | null,
  budget: { until: number },
  handedOver: boolean,
): Promise<JobResult> {
  const base = { jobRef: job.jobRef, action: job.action };
  if (Date.now() >= budget.until + ACCEPT_GRACE_MS)
    return {
      ...base,
      ...TRY_AGAIN('This job was not reached before the request’s time ran out: nothing was applied.'),
    };
  try {
    const settled = await alreadySettled(s, partner, job);
    if (settled) return { ...base, ...settled };
    const submission = await prepare(s, partner, job, at);
    // Recorded before its workflow books it: the booking is written with its origin (one hop).
    if (handedOver && job.action === 'new') await recordHandedOverJob(s.sql, partner.id, job.jobRef);
    const o = await s.partnerJobs.submit(partner.id, job.jobRef, submission, budget);
    if (o === 'not_reached')
      return { ...base, ...TRY_AGAIN('The job could not be taken in just now: nothing was applied.') };
    if (o === 'not_taken')
      return { ...base, ...TRY_AGAIN('The job could not be taken in in time: it may not have been applied.') };
    if (o === 'processing') {
      return {
        ...base,
        outcome: 'accepted',
        code: 'processing',
        message: PROCESSING_MESSAGE,
        bookingReference: null,
        bookingStatus: null,
      };
    }
    return {
      ...base,
      outcome: o.outcome,
      code: o.code,
      message: o.message,
      bookingReference: o.bookingRef,
      bookingStatus: o.bookingStatus,
    };
  } catch (err) {
    const rejected = jobRejection(err);
    if (rejected) return { ...base, ...rejected };
    throw err;
  }
}

const PROCESSING_MESSAGE =
  'Received and being applied: its outcome arrives as a status event, and GET /api/public/v1/partner/jobs/{jobRef} shows it. Sending it again is safe.';

const TRY_AGAIN = (why: string) => ({
  outcome: 'rejected' as const,
  code: 'try_again',
  message: `${why} Send it again (a repeat is answered as a duplicate once applied).`,
  bookingReference: null,
  bookingStatus: null,
});

/**
 * Retries are most of what a sender repeats, and three answers never change once true: a booked
 * job's own new is a duplicate, a cancelled job stays cancelled, and a cancelled job's new (or an
 * amendment it had) sent again is a retry that leaves it cancelled. Those are answered from the
 * record, without pricing or a workflow round trip; everything else goes to the job's workflow
 * (a cancelled reference sent as a new with different details books afresh there: rebooked).
 */
async function alreadySettled(
  s: Services,
  partner: Partner,
  job: PartnerJob,
): Promise<Omit<JobResult, 'jobRef' | 'action'> | null> {
  if (job.action === 'amend') return null;
  const record = await findPartnerJob(s.sql, partner.id, job.jobRef);
  if (!record?.bookingRef) return null;
  const fingerprint = job.action === 'new' ? jobFingerprint(job) : null;
  const duplicateNew = record.state === 'live' && fingerprint !== null && record.newFingerprint === fingerprint;
  const cancelledRetry =
    record.state === 'cancelled' &&
    fingerprint !== null &&
    (record.newFingerprint === fingerprint || record.amendFingerprints.includes(fingerprint));
  const repeatedCancel = job.action === 'cancel' && record.state === 'cancelled';
  if (!duplicateNew && !cancelledRetry && !repeatedCancel) return null;
  const booking = await findBooking(s.sql, record.bookingRef);
  return {
    outcome: 'accepted',
    code: duplicateNew ? 'duplicate' : 'already_cancelled',
    message: duplicateNew
      ? 'Already booked: the same booking.'
      : cancelledRetry
        ? CANCELLED_RETRY_MESSAGE
        : 'Already cancelled.',
    bookingReference: record.bookingRef,
    bookingStatus: booking?.status ?? null,
  };
}

async function prepare(s: Services, partner: Partner, job: PartnerJob, at: number | null): Promise<JobSubmission> {
  const fingerprint = jobFingerprint(job);
  // A cancel's notes are its reason: kept with the booking (shown in its lookup) only if they pass
  // the screen a new job's notes pass, else dropped; the cancel itself is never refused for them.
  if (job.action === 'cancel')
    return {
      action: 'cancel',
      fingerprint,
      reason: screenedOrDropped('notes', job.notes, { maxLength: 500, multiline: true }),
    };
  // new and amend alike: the job as it stands, mapped as any request is (an amendment is the whole job again).
  const priced = await priceTripBooking(s, fromPartnerJob(partner, await withAgreedFare(s, partner, job), at));
  return {
    action: job.action,
    fingerprint,
    booking: priced.input(''),
    ...(job.action === 'new' ? { limit: { day: londonDay(s.now()), limit: partner.dailyJobLimit } } : {}),
  };
}

/**
 * An amendment that does not mention the fare keeps the fare agreed before (issue 35: £12.00 became
 * the £7.00 tariff) while the pickup and drop-off stay: the sender changes an agreed fare by sending
 * another. A fare agreed for one route is not carried to another: a moved pickup or drop-off sent
 * without a fare is priced on the tariff, and the reply says the new fare.
 */
async function withAgreedFare(s: Services, partner: Partner, job: PartnerJob): Promise<PartnerJob> {
  if (job.action !== 'amend' || job.fare !== undefined) return job;
  const record = await findPartnerJob(s.sql, partner.id, job.jobRef);
  const booking = record?.bookingRef ? await findBooking(s.sql, record.bookingRef) : undefined;
  if (booking?.fare_source !== 'partner') return job;
  const sameRoute = sameAddress(booking.pickup_query, job.pickup) && sameAddress(booking.dropoff_query, job.dropoff);
  return sameRoute ? { ...job, fare: booking.fare_pence / 100 } : job;
}

const addressKey = (text: string) => text.trim().toLowerCase().replace(/\s+/g, ' ');
const sameAddress = (a: string, b: string) => addressKey(a) === addressKey(b);

/** The job's meaning: equal for a retry however it is spelled, different for any real change. */
export function jobFingerprint(job: PartnerJob): string {
  const canonical = {
    pickup: addressKey(job.pickup),
    dropoff: addressKey(job.dropoff),
    pickupTime: Date.parse(job.pickupTime),
    passengerName: job.passengerName?.trim() ?? null,
    passengerPhone: job.passengerPhone?.replace(/[^\d+]/g, '') ?? null,
    passengerEmail: job.passengerEmail?.toLowerCase() ?? null,
    passengers: job.passengers ?? 1,
    vehicleType: job.vehicleType?.trim().toLowerCase() ?? null,
    flightNumber: job.flightNumber?.replace(/\s+/g, '').toUpperCase() ?? null,
    fare: job.fare === undefined ? null : Math.round(job.fare * 100),
    notes: job.notes?.trim() ?? null,
  };
  return createHash('sha256').update(JSON.stringify(canonical)).digest('hex');
}

/** Daily limits count London calendar days. */
export function londonDay(at: Date): string {
  return DateTime.fromJSDate(at, { zone: 'Europe/London' }).toISODate()!;
}
