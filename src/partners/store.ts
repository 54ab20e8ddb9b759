import { randomBytes, randomUUID } from 'node:crypto';
import type { TransactionSql } from 'postgres';
import type { Sql } from '../db/sql.js';
import type { BookingWorkflowInput } from '../../workflows/bookings/definitions.js';
import { openSecret, sealSecret } from '../auth/secret-box.js';

// The partners tables (migration 00010): who may send jobs, their signing secrets, the replay
// memory of signatures, the job references they sent and their daily counts.

export type PartnerKind = 'partner' | 'operator' | 'supplier';

export interface Partner {
  id: string;
  name: string;
  kind: PartnerKind;
  allowedToBook: boolean;
  liveIntakeApproved: boolean;
  bridgePaused: boolean;
  dailyJobLimit: number;
  fleetId: string | null;
  callbackUrl: string | null;
  /** Its jobs are priced and acknowledged, and offered to sandbox drivers only (docs/partners.md, "Sandbox keys"). */
  sandbox: boolean;
}

interface PartnerRow {
  id: string;
  name: string;
  kind: PartnerKind;
  allowed_to_book: boolean;
  live_intake_approved: boolean;
  bridge_paused: boolean;
  daily_job_limit: number;
  fleet_id: string | null;
  callback_url: string | null;
  sandbox: boolean;
}

const toPartner = (r: PartnerRow): Partner => ({
  id: r.id,
  name: r.name,
  kind: r.kind,
  allowedToBook: r.allowed_to_book,
  liveIntakeApproved: r.live_intake_approved,
  bridgePaused: r.bridge_paused,
  dailyJobLimit: r.daily_job_limit,
  fleetId: r.fleet_id,
  callbackUrl: r.callback_url,
  sandbox: r.sandbox,
});

export const PARTNER_ID_PATTERN = /^[a-z0-9][a-z0-9-]{1,39}$/;

export async function findPartner(sql: Sql, id: string): Promise<Partner | null> {
  if (!PARTNER_ID_PATTERN.test(id)) return null;
  const [row] = await sql<PartnerRow[]>`select * from partners where id = ${id}`;
  return row ? toPartner(row) : null;
}

export interface NewPartner {
  id: string;
  name: string;
  kind: PartnerKind;
  allowedToBook?: boolean;
  liveIntakeApproved?: boolean;
  dailyJobLimit?: number;
  fleetId?: string | null;
  callbackUrl?: string | null;
  sandbox?: boolean;
}

/** Creates the partner (an operator also gets its own fleet, named after it). */
export async function createPartner(sql: Sql, p: NewPartner): Promise<Partner> {
  return sql.begin(async (tx) => {
    let fleetId = p.fleetId ?? null;
    if (p.kind === 'operator' && !fleetId) {
      fleetId = `fleet-${p.id}`;
      await tx`insert into partner_fleets (id, name, approved) values (${fleetId}, ${p.name}, true) on conflict (id) do nothing`;
    }
    const [row] = await tx<PartnerRow[]>`
      insert into partners (id, name, kind, allowed_to_book, live_intake_approved, daily_job_limit, fleet_id, callback_url, sandbox)
      values (${p.id}, ${p.name}, ${p.kind}, ${p.allowedToBook ?? true}, ${p.liveIntakeApproved ?? false},
              ${p.dailyJobLimit ?? 1000}, ${fleetId}, ${p.callbackUrl ?? null}, ${p.sandbox ?? false})
      returning *`;
    return toPartner(row!);
  });
}

export async function updatePartner(
  sql: Sql | TransactionSql,
  id: string,
  changes: Partial<
    Pick<Partner, 'allowedToBook' | 'liveIntakeApproved' | 'bridgePaused' | 'dailyJobLimit' | 'callbackUrl'>
  >,
): Promise<Partner | null> {
  const [row] = await sql<PartnerRow[]>`
    update partners set
      allowed_to_book = coalesce(${changes.allowedToBook ?? null}, allowed_to_book),
      live_intake_approved = coalesce(${changes.liveIntakeApproved ?? null}, live_intake_approved),
      bridge_paused = coalesce(${changes.bridgePaused ?? null}, bridge_paused),
      daily_job_limit = coalesce(${changes.dailyJobLimit ?? null}, daily_job_limit),
      callback_url = case when ${changes.callbackUrl !== undefined} then ${changes.callbackUrl ?? null} else callback_url end
     where id = ${id}
    returning *`;
  return row ? toPartner(row) : null;
}

/** A partner's row, locked until the transaction ends (a bridge paused or resumed by ops). */
export async function lockPartner(tx: TransactionSql, id: string): Promise<Partner | null> {
  if (!PARTNER_ID_PATTERN.test(id)) return null;
  const [row] = await tx<PartnerRow[]>`select * from partners where id = ${id} for update`;
  return row ? toPartner(row) : null;
}

/**
 * Issues a new signing secret. With `overlapSeconds`, the secrets issued before keep working that
 * much longer (a rotation); without, they stop now.
 */
export async function issueSigningSecret(
  sql: Sql,
  secretsKey: string,
  partnerId: string,
  overlapSeconds = 0,
): Promise<string> {
  const secret = 'pss_' + randomBytes(32).toString('base64url');
  await sql.begin(async (tx) => {
    await tx`update partner_signing_secrets set expires_at = now() + make_interval(secs => ${overlapSeconds})
              where partner_id = ${partnerId} and (expires_at is null or expires_at > now() + make_interval(secs => ${overlapSeconds}))`;
    await tx`insert into partner_signing_secrets (id, partner_id, ciphertext) values (${randomUUID()}, ${partnerId}, ${sealSecret(secretsKey, secret)})`;
  });
  return secret;
}

/** The secrets a signature from this partner may be made with right now (newest first). */
export async function activeSigningSecrets(sql: Sql, secretsKey: string, partnerId: string): Promise<string[]> {
  const rows = await sql<{ ciphertext: string }[]>`
    select ciphertext from partner_signing_secrets
     where partner_id = ${partnerId} and (expires_at is null or expires_at > now())
     order by created_at desc`;
  return rows.map((r) => openSecret(secretsKey, r.ciphertext));
}

/**
 * true the first time a signed request is seen, under every one of its keys; false when any of
 * them was seen before (a replay). Old entries are swept as it goes.
 */
export async function rememberSignature(
  sql: Sql,
  replayKeys: readonly string[],
  keepSeconds: number,
): Promise<boolean> {
  const rows = await sql`
    insert into partner_signature_replays (replay_key) select unnest(${replayKeys as string[]}::text[])
    on conflict do nothing returning replay_key`;
  await sql`delete from partner_signature_replays where seen_at < now() - make_interval(secs => ${keepSeconds})`;
  return replayKeys.length > 0 && rows.length === replayKeys.length;
}

export type PartnerJobState = 'pending' | 'live' | 'cancelled';

/** What partner_jobs keeps of a job reference: enough for a later workflow run to carry on. */
export interface PartnerJobRecord {
  partnerId: string;
  jobRef: string;
  state: PartnerJobState;
  bookingRef: string | null;
  newFingerprint: string | null;
  amendFingerprints: string[];
  booked: BookingWorkflowInput | null;
  held: BookingWorkflowInput | null;
  heldFingerprint: string | null;
}

interface PartnerJobRow {
  partner_id: string;
  job_ref: string;
  state: PartnerJobState;
  booking_ref: string | null;
  new_fingerprint: string | null;
  amend_fingerprints: string[];
  booked: BookingWorkflowInput | null;
  held: BookingWorkflowInput | null;
  held_fingerprint: string | null;
}

export async function findPartnerJob(sql: Sql, partnerId: string, jobRef: string): Promise<PartnerJobRecord | null> {
  const [r] = await sql<PartnerJobRow[]>`
    select partner_id, job_ref, state, booking_ref, new_fingerprint, amend_fingerprints, booked, held, held_fingerprint
      from partner_jobs where partner_id = ${partnerId} and job_ref = ${jobRef}`;
  return r ? toRecord(r) : null;
}

/** The records of these references (one query for a batch). */
export async function findPartnerJobs(
  sql: Sql,
  partnerId: string,
  jobRefs: string[],
): Promise<Map<string, PartnerJobRecord>> {
  if (jobRefs.length === 0) return new Map();
  const rows = await sql<PartnerJobRow[]>`
    select partner_id, job_ref, state, booking_ref, new_fingerprint, amend_fingerprints, booked, held, held_fingerprint
      from partner_jobs where partner_id = ${partnerId} and job_ref = any(${jobRefs}::text[])`;
  return new Map(rows.map((r) => [r.job_ref, toRecord(r)]));
}

const toRecord = (r: PartnerJobRow): PartnerJobRecord => ({
  partnerId: r.partner_id,
  jobRef: r.job_ref,
  state: r.state,
  bookingRef: r.booking_ref,
  newFingerprint: r.new_fingerprint,
  amendFingerprints: r.amend_fingerprints,
  booked: r.booked,
  held: r.held,
  heldFingerprint: r.held_fingerprint,
});

export async function savePartnerJob(sql: Sql, j: PartnerJobRecord): Promise<void> {
  const json = (v: BookingWorkflowInput | null) => (v ? sql.json(v as never) : null);
  await sql`
    insert into partner_jobs (partner_id, job_ref, state, booking_ref, new_fingerprint, amend_fingerprints, booked, held, held_fingerprint)
    values (${j.partnerId}, ${j.jobRef}, ${j.state}, ${j.bookingRef}, ${j.newFingerprint}, ${j.amendFingerprints},
            ${json(j.booked)}, ${json(j.held)}, ${j.heldFingerprint})
    on conflict (partner_id, job_ref) do update
      set state = excluded.state, booking_ref = coalesce(excluded.booking_ref, partner_jobs.booking_ref),
          new_fingerprint = excluded.new_fingerprint, amend_fingerprints = excluded.amend_fingerprints,
          booked = excluded.booked, held = excluded.held, held_fingerprint = excluded.held_fingerprint, updated_at = now()`;
}

/**
 * Counts a job's `new` against the partner's limit for `day`, once per job reference: true if it
 * fits (or was already counted), false when the day's limit is reached. One statement per step
 * under the counter row's lock, so concurrent jobs cannot overshoot the limit.
 */
export async function countNewJob(
  sql: Sql,
  c: { partnerId: string; jobRef: string; day: string; limit: number },
): Promise<boolean> {
  return sql.begin((tx) => countNewJobWith(tx as unknown as Sql, c));
}

/** countNewJob within a transaction the caller holds (the inbox's: src/partners/inbox-store.ts). */
export async function countNewJobWith(
  tx: Sql,
  c: { partnerId: string; jobRef: string; day: string; limit: number },
): Promise<boolean> {
  const [job] = await tx<{ counted_on: string | null }[]>`
    insert into partner_jobs (partner_id, job_ref, state) values (${c.partnerId}, ${c.jobRef}, 'pending')
    on conflict (partner_id, job_ref) do update set updated_at = partner_jobs.updated_at
    returning counted_on::text`;
  if (job?.counted_on) return true;
  const [counted] = await tx`
    insert into partner_daily_jobs as d (partner_id, day, jobs) values (${c.partnerId}, ${c.day}, 1)
    on conflict (partner_id, day) do update set jobs = d.jobs + 1 where d.jobs < ${c.limit}
    returning jobs`;
  if (!counted || c.limit <= 0) {
    if (counted)
      await tx`update partner_daily_jobs set jobs = jobs - 1 where partner_id = ${c.partnerId} and day = ${c.day}`;
    return false;
  }
  await tx`update partner_jobs set counted_on = ${c.day} where partner_id = ${c.partnerId} and job_ref = ${c.jobRef}`;
  return true;
}

export async function jobsCountedOn(sql: Sql, partnerId: string, day: string): Promise<number> {
  const [row] = await sql<
    { jobs: number }[]
  >`select jobs from partner_daily_jobs where partner_id = ${partnerId} and day = ${day}`;
  return row?.jobs ?? 0;
}

/**
 * A job its sender marked as handed over by an exchange (x-exchange-hop, docs/exchange.md "One
 * hop"), by sender and jobRef (exchange_hop_jobs, migration 00035): the booking made of it is an
 * exchange fleet's job, whoever the sender is registered as (src/bookings/store.ts insertBooking).
 */
export async function recordHandedOverJob(sql: Sql, partnerId: string, jobRef: string): Promise<void> {
  await sql`insert into exchange_hop_jobs (partner_id, job_ref) values (${partnerId}, ${jobRef}) on conflict do nothing`;
}
