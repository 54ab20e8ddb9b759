-- Issue 37, item 1 (src/partners/inbox-store.ts, docs/partners.md "The inbox"): every intake route
-- writes a request's jobs here in the one transaction that checks, counts and gives them their
-- booking references, and answers; the worker's drain (src/partners/inbox-drain.ts) then hands each
-- row to its job workflow (job:<sender>:<jobRef>, update id inbox-<id>), oldest first per jobRef,
-- and writes its outcome back. A row is done once its outcome is written; a row leased by a drain
-- that died is taken again when its lease runs out (a repeat is the same Temporal update: harmless).
create table partner_inbox (
  id bigserial primary key,
  partner_id text not null references partners (id),
  job_ref text not null,
  action text not null check (action in ('new', 'amend', 'cancel')),
  -- The JobSubmission (workflows/partners/job-definitions.ts) as priced at intake.
  submission jsonb not null,
  -- The booking the job is (or will be) booked as, when known at intake.
  booking_ref text,
  -- The worker task queue of the API that took the job in: drained by that queue's workers only.
  task_queue text not null,
  leased_until timestamptz,
  attempts integer not null default 0,
  -- The job workflow's JobOutcome (src/model/partners.ts), once applied.
  outcome jsonb,
  created_at timestamptz not null default now(),
  done_at timestamptz
);
-- The drain's heads: the oldest undone row of each reference.
create index partner_inbox_pending on partner_inbox (task_queue, partner_id, job_ref, id) where done_at is null;
create index partner_inbox_ref on partner_inbox (partner_id, job_ref, id);
