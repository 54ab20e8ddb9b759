import type { Sql } from '../db/sql.js';
import { newBookingRef, partnerJobIdentity } from '../bookings/identity.js';
import { requestOwner } from '../bookings/request-owner.js';
import { claimBookingRef } from '../bookings/store.js';
import type { JobAction, JobOutcome } from '../model/partners.js';
import type { JobSubmission } from '../../workflows/partners/job-definitions.js';
import { countNewJobWith, recordHandedOverJob } from './store.js';

// The partner inbox (migration 00043, docs/partners.md "The inbox"): a request's jobs are written
// here in one transaction, which also counts each new against the sender's daily limit and claims
// its booking reference; the worker's drain (inbox-drain.ts) takes the rows oldest first per job
// reference and writes each one's outcome back.

/** The channel a committed batch NOTIFYs, with its task queue as the payload. */
export const INBOX_CHANNEL = 'partner_inbox';

export interface InboxJob {
  jobRef: string;
  action: JobAction;
  submission: JobSubmission;
  /**
   * new (and amend: a held amendment is booked under it): the identity whose reference to claim,
   * as the job workflow's booking activity will (activities/partners/jobs.ts createPartnerBooking):
   * the jobRef, or for a cancelled job booked afresh the jobRef and the rebooking fingerprint.
   */
  claim: { jobRef: string } | null;
  /** The booking already known for the job (a live or cancelled job's). */
  knownRef: string | null;
  /** new: counted against the day's limit (false: the limit is reached, and the job is not written). */
  limit: { day: string; limit: number } | null;
  /** The sender says an exchange handed it over (recorded before its booking is made). */
  handedOver: boolean;
}

export type TakenIn = { id: string; bookingRef: string | null } | { limitReached: true };

/**
 * Writes a request's jobs in one transaction, in the order given: each new is counted against the
 * day's limit (a new past it is not written) and every job gets the booking reference it is, or will
 * be, booked as. One sender's batches are taken in one at a time (an advisory lock per sender), so
 * concurrent batches with the same references cannot deadlock on their counters and claims, and
 * their rows are in the order their transactions ran. NOTIFYs the drains on commit.
 */
export async function takeIn(sql: Sql, partnerId: string, taskQueue: string, jobs: InboxJob[]): Promise<TakenIn[]> {
  return sql.begin(async (tx) => {
    const q = tx as unknown as Sql;
    await tx`select pg_advisory_xact_lock(hashtextextended(${`partner-inbox:${partnerId}`}, 0))`;
    const taken: ({ limitReached: true } | { id: string; bookingRef: string | null; job: InboxJob })[] = new Array(
      jobs.length,
    );
    const owner = requestOwner({ partnerId });
    // A reference's jobs one after another (its count and claim read what the one before wrote);
    // references side by side, so their statements are pipelined on the transaction's connection.
    const byRef = new Map<string, number[]>();
    jobs.forEach((j, i) => byRef.set(j.jobRef, [...(byRef.get(j.jobRef) ?? []), i]));
    await Promise.all(
      [...byRef.values()].map(async (indexes) => {
        for (const i of indexes) {
          const j = jobs[i]!;
          if (j.limit && !(await countNewJobWith(q, { partnerId, jobRef: j.jobRef, ...j.limit }))) {
            taken[i] = { limitReached: true };
            continue;
          }
          if (j.handedOver && j.action === 'new') await recordHandedOverJob(q, partnerId, j.jobRef);
          let ref = j.knownRef;
          if (j.claim) {
            const identity = partnerJobIdentity({ partnerId, jobRef: j.claim.jobRef });
            ref = (await claimBookingRef(q, identity, newBookingRef(), owner)).ref;
          }
          taken[i] = { id: '', bookingRef: ref, job: j };
        }
      }),
    );
    const rows = taken.flatMap((t) => ('job' in t ? [t] : []));
    if (rows.length > 0) {
      const ids = await tx<{ id: string }[]>`
        insert into partner_inbox (partner_id, job_ref, action, submission, booking_ref, task_queue)
        select ${partnerId}, x.v ->> 'job_ref', x.v ->> 'action', x.v -> 'submission', x.v ->> 'booking_ref', ${taskQueue}
          from jsonb_array_elements(${tx.json(
            rows.map((r) => ({
              job_ref: r.job.jobRef,
              action: r.job.action,
              submission: r.job.submission,
              booking_ref: r.bookingRef,
            })) as never,
          )}) with ordinality as x(v, n)
         order by x.n
        returning id::text`;
      // Serial ids are handed out in the insert's order.
      const sorted = ids.map((r) => BigInt(r.id)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      rows.forEach((r, k) => (r.id = String(sorted[k])));
      await tx`select pg_notify(${INBOX_CHANNEL}, ${taskQueue})`;
    }
    return taken.map((t) => ('job' in t ? { id: t.id, bookingRef: t.bookingRef } : t));
  });
}

/** The sender's references among `jobRefs` with rows not yet applied: their records may not say all yet. */
export async function refsInFlight(sql: Sql, partnerId: string, jobRefs: string[]): Promise<Set<string>> {
  if (jobRefs.length === 0) return new Set();
  const rows = await sql<{ job_ref: string }[]>`
    select distinct job_ref from partner_inbox
     where partner_id = ${partnerId} and job_ref = any(${jobRefs}::text[]) and done_at is null`;
  return new Set(rows.map((r) => r.job_ref));
}

/** The outcomes written so far for these rows. */
export async function outcomesOf(sql: Sql, ids: string[]): Promise<Map<string, JobOutcome>> {
  if (ids.length === 0) return new Map();
  const rows = await sql<{ id: string; outcome: JobOutcome }[]>`
    select id::text, outcome from partner_inbox where id = any(${ids}::bigint[]) and done_at is not null`;
  return new Map(rows.map((r) => [r.id, r.outcome]));
}

/** A row as the drain hands it to its job workflow. */
export interface InboxRow {
  id: string;
  partnerId: string;
  jobRef: string;
  submission: JobSubmission;
}

/**
 * Leases up to `limit` rows of this task queue, each the oldest undone row of its reference (so a
 * reference's rows are applied one after another, in order), none leased by a drain still within
 * its lease. SKIP LOCKED: drains in several workers take different rows.
 */
export async function leaseHeads(
  sql: Sql,
  taskQueue: string,
  limit: number,
  leaseSeconds: number,
): Promise<InboxRow[]> {
  if (limit <= 0) return [];
  const rows = await sql<{ id: string; partner_id: string; job_ref: string; submission: JobSubmission }[]>`
    update partner_inbox set leased_until = now() + make_interval(secs => ${leaseSeconds}), attempts = attempts + 1
     where id in (
       select i.id from partner_inbox i
        where i.task_queue = ${taskQueue} and i.done_at is null
          and (i.leased_until is null or i.leased_until < now())
          and not exists (select 1 from partner_inbox e
                           where e.task_queue = i.task_queue and e.partner_id = i.partner_id
                             and e.job_ref = i.job_ref and e.done_at is null and e.id < i.id)
        order by i.id limit ${limit}
        for update skip locked)
    returning id::text, partner_id, job_ref, submission`;
  return rows
    .sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1))
    .map((r) => ({ id: r.id, partnerId: r.partner_id, jobRef: r.job_ref, submission: r.submission }));
}

/** The row's outcome, once: a repeat (another drain's, after a lease ran out) changes nothing. */
export async function markApplied(sql: Sql, id: string, outcome: JobOutcome): Promise<void> {
  await sql`update partner_inbox set outcome = ${sql.json(outcome as never)}, done_at = now(), leased_until = null
             where id = ${id} and done_at is null`;
}

/** Lets the row be taken again at once (its workflow could not be reached). */
export async function releaseLease(sql: Sql, id: string): Promise<void> {
  await sql`update partner_inbox set leased_until = null where id = ${id} and done_at is null`;
}

/** The latest row for a reference: what the lookup says of a job still in the inbox, or of its last outcome. */
export async function latestInboxRow(
  sql: Sql,
  partnerId: string,
  jobRef: string,
): Promise<{ action: JobAction; bookingRef: string | null; done: boolean; outcome: JobOutcome | null } | null> {
  const [r] = await sql<{ action: JobAction; booking_ref: string | null; done: boolean; outcome: JobOutcome | null }[]>`
    select action, booking_ref, done_at is not null as done, outcome from partner_inbox
     where partner_id = ${partnerId} and job_ref = ${jobRef} order by id desc limit 1`;
  return r ? { action: r.action, bookingRef: r.booking_ref, done: r.done, outcome: r.outcome } : null;
}

/** Forgets rows applied more than `days` ago (their outcomes are in the job's record and events). */
export async function sweepAppliedRows(sql: Sql, days: number): Promise<number> {
  const rows = await sql`delete from partner_inbox where done_at < now() - make_interval(days => ${days})`;
  return rows.count;
}
