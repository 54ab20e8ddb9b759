import { createHash } from 'node:crypto';
import { DateTime } from 'luxon';
import { priceTripBooking } from '../bookings/book.js';
import { fromPartnerJob } from '../bookings/request/partner-job.js';
import { fieldErrors } from '../http/field-errors.js';
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
import { CANCELLED_RETRY_MESSAGE, type JobOutcome } from '../model/partners.js';
import { findBooking } from '../bookings/store.js';
import { outcomesOf, refsInFlight, takeIn, type InboxJob, type TakenIn } from './inbox-store.js';
import { jobRejection } from './job-rejection.js';
import { findPartnerJob, findPartnerJobs, type Partner, type PartnerJobRecord } from './store.js';

// Partner, operator and supplier intake (spec 2.4, 4.8, 4.11, 4.13): a body of jobs in, one outcome
// per job out. Each job is answered from its record when it is a retry of something settled, or
// mapped to the one booking request (src/bookings/request/partner-job.ts) and priced here; then the
// request's jobs are written to the inbox in one transaction, which counts the day's limit and gives
// each its booking reference (src/partners/inbox-store.ts), and the reply is sent. The worker's
// drain (src/partners/inbox-drain.ts) hands each job to its reference's workflow
// (job:<sender>:<jobRef>), which applies new, amend and cancel in turn, in the order taken in, and
// books through the same booking workflow as every other route (docs/partners.md, "The inbox").

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
export function jobItems(body: unknown, opts: IntakeOptions): { items: unknown[]; single: boolean; jobsKey: boolean } {
  const shape = opts.acceptJobsKey
    ? 'a PartnerJob, an array of at most 100, or {"jobs": [...]}'
    : 'a PartnerJob or an array of at most 100 PartnerJobs';
  let list: unknown = body;
  let jobsKey = false;
  if (
    opts.acceptJobsKey &&
    body !== null &&
    typeof body === 'object' &&
    !Array.isArray(body) &&
    'jobs' in body &&
    !('jobRef' in body)
  ) {
    list = body.jobs;
    jobsKey = true;
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
    return { items: list, single: false, jobsKey };
  }
  if (list === null || typeof list !== 'object') throw Refusal.invalid('invalid_body', `The body must be ${shape}.`);
  return { items: [list], single: true, jobsKey: false };
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
  const { items, single, jobsKey } = jobItems(body, opts);
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
  // A job's fields are named where the sender wrote them: "pickupTime" (the body is the job),
  // "[2].pickupTime" (a list), "jobs[2].pickupTime" ({"jobs": [...]}); HTTP roots them in the body.
  const itemName = (index: number) => (single ? '' : jobsKey ? `jobs[${index}]` : `[${index}]`);
  items.forEach((item, index) => {
    const parsed = PartnerJobSchema.safeParse(item);
    if (parsed.success) {
      valid.push({ index, job: parsed.data });
      return;
    }
    // In the words every route's 400 uses: a field left out "is required" (src/http/field-errors.ts).
    const fields = parsed.error.issues.flatMap((issue) =>
      fieldErrors({ ...issue }, issue.path.map(String), issue.message, item).map(({ path, message }) => {
        const at = path.map((p) => (/^\d+$/.test(p) ? `[${p}]` : `.${p}`)).join('');
        const name = `${itemName(index)}${at}`;
        return { name: name.startsWith('.') ? name.slice(1) : name, message };
      }),
    );
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

  // Each job is answered from its record (a retry of what is settled), or checked and priced for
  // the inbox: a reference's jobs in the order sent (a job after one bound for the inbox is bound
  // for it too: the record cannot say yet what the one before does), references a few at a time.
  const byRef = new Map<string, { index: number; job: PartnerJob }[]>();
  for (const v of valid) byRef.set(v.job.jobRef, [...(byRef.get(v.job.jobRef) ?? []), v]);
  const [inFlight, records] = await Promise.all([
    refsInFlight(s.sql, partner.id, [...byRef.keys()]),
    findPartnerJobs(s.sql, partner.id, [...byRef.keys()]),
  ]);
  const plans = new Map<number, InboxJob>();
  const queues = [...byRef.values()];
  const place = (index: number) => (single ? null : { at: index, inJobs: jobsKey });
  const workers = Array.from({ length: Math.min(PARALLEL_JOB_REFS, queues.length) }, async () => {
    for (let queue = queues.shift(); queue; queue = queues.shift()) {
      const record = records.get(queue[0]!.job.jobRef) ?? null;
      let queued = inFlight.has(queue[0]!.job.jobRef);
      for (const { index, job } of queue) {
        const base = { jobRef: job.jobRef, action: job.action };
        try {
          const settled = queued ? null : await alreadySettled(s, record, job);
          if (settled) {
            results[index] = { ...base, ...settled };
            continue;
          }
          const submission = await prepare(s, partner, job, place(index));
          plans.set(index, plan(record, job, submission, opts.handedOver ?? false));
          queued = true;
        } catch (err) {
          const rejected = jobRejection(err);
          if (!rejected) throw err;
          results[index] = { ...base, ...rejected };
        }
      }
    }
  });
  await Promise.all(workers);

  // Written in one transaction, in the order sent; then answered (after waiting for their
  // outcomes as long as the reply budget says).
  const order = [...plans.keys()].sort((a, b) => a - b);
  let taken: TakenIn[] | null = null;
  try {
    taken = await takeIn(
      s.sql,
      partner.id,
      s.config.TEMPORAL_TASK_QUEUE,
      order.map((i) => plans.get(i)!),
    );
  } catch (err) {
    if (!isDatabaseError(err)) throw err;
  }
  const written: { index: number; id: string; bookingRef: string | null }[] = [];
  order.forEach((index, k) => {
    const job = plans.get(index)!;
    const base = { jobRef: job.jobRef, action: job.action };
    const t = taken?.[k];
    if (!t) {
      results[index] = { ...base, ...TRY_AGAIN('The job could not be written just now: nothing was applied.') };
    } else if ('limitReached' in t) {
      results[index] = {
        ...base,
        ...jobRejection(
          Refusal.invalid(
            'daily_limit_reached',
            `The daily limit of ${partner.dailyJobLimit} new jobs is reached; send it again tomorrow.`,
          ),
        )!,
      };
    } else {
      written.push({ index, ...t });
    }
  });
  const outcomes = await waitForOutcomes(
    s,
    written.map((w) => w.id),
    s.config.INTAKE_REPLY_BUDGET_MS,
  );
  for (const w of written) {
    const job = plans.get(w.index)!;
    const o = outcomes.get(w.id);
    results[w.index] = o
      ? {
          jobRef: job.jobRef,
          action: job.action,
          outcome: o.outcome,
          code: o.code,
          message: o.message,
          bookingReference: o.bookingRef,
          bookingStatus: o.bookingStatus,
        }
      : {
          jobRef: job.jobRef,
          action: job.action,
          outcome: 'accepted',
          code: 'processing',
          message: PROCESSING_MESSAGE,
          bookingReference: w.bookingRef,
          bookingStatus: null,
        };
  }

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
 * What the inbox row of a job checked and priced says: the booking reference it is (or will be)
 * booked as, claimed as the job workflow's booking activity will claim it; a cancelled job sent
 * as a new with details never sent before books afresh under a reference of its own.
 */
function plan(record: PartnerJobRecord | null, job: PartnerJob, submission: JobSubmission, handedOver: boolean) {
  const fingerprint = submission.fingerprint;
  const seen = record ? record.newFingerprint === fingerprint || record.amendFingerprints.includes(fingerprint) : false;
  let claim: InboxJob['claim'] = null;
  const knownRef = record?.bookingRef ?? null;
  if (job.action === 'new') {
    if (record?.state === 'cancelled' && knownRef && !seen) claim = { jobRef: `${job.jobRef}|rebooked|${fingerprint}` };
    else if (!knownRef && record?.state !== 'cancelled') claim = { jobRef: job.jobRef };
  } else if (job.action === 'amend' && !knownRef && record?.state !== 'cancelled') {
    // An amendment before its new is booked with the new, under the reference's identity.
    claim = { jobRef: job.jobRef };
  }
  return {
    jobRef: job.jobRef,
    action: job.action,
    submission,
    claim,
    knownRef,
    limit: submission.limit ?? null,
    handedOver,
  } satisfies InboxJob;
}

/** The outcomes of the rows applied within `budgetMs` (none looked for with a budget of 0). */
async function waitForOutcomes(s: Services, ids: string[], budgetMs: number): Promise<Map<string, JobOutcome>> {
  if (budgetMs <= 0 || ids.length === 0) return new Map();
  const until = Date.now() + budgetMs;
  for (let pause = 20; ; pause = Math.min(pause * 2, 250)) {
    const done = await outcomesOf(s.sql, ids);
    if (done.size === ids.length || Date.now() >= until) return done;
    await new Promise((resolve) => setTimeout(resolve, Math.min(pause, Math.max(until - Date.now(), 1))));
  }
}

/** Postgres refused or could not be reached (a SQLSTATE, or postgres.js's connection codes): the batch was not written. */
function isDatabaseError(err: unknown): boolean {
  if (err instanceof Refusal) return false;
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.length > 0;
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
  record: PartnerJobRecord | null,
  job: PartnerJob,
): Promise<Omit<JobResult, 'jobRef' | 'action'> | null> {
  if (job.action === 'amend') return null;
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

async function prepare(
  s: Services,
  partner: Partner,
  job: PartnerJob,
  at: { at: number; inJobs: boolean } | null,
): Promise<JobSubmission> {
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
  const priced = await priceTripBooking(
    s,
    fromPartnerJob(partner, await withAgreedFare(s, partner, job), at?.at ?? null, at?.inJobs ?? false),
  );
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
