-- Issue 10: partners, operators and suppliers who push jobs (spec 2.4, 4.8, 4.10, 4.11, 4.13).
-- A "partner" row is any sender of jobs; `kind` says which intake it may use. Its API keys are
-- ordinary api_keys rows whose partner_id names it (hashed like every key).

create table partners (
  id text primary key check (id ~ '^[a-z0-9][a-z0-9-]{1,39}$'),
  name text not null,
  kind text not null check (kind in ('partner', 'operator', 'supplier')),
  -- A partner marked not allowed to book is refused with 403 (spec 7).
  allowed_to_book boolean not null default true,
  -- Operators only: live intake needs approval, and the bridge can be paused (403 either way).
  live_intake_approved boolean not null default false,
  bridge_paused boolean not null default false,
  -- New jobs accepted per London calendar day (amends and cancels are not counted).
  daily_job_limit integer not null default 1000 check (daily_job_limit >= 0),
  -- Operators only: the fleet whose drivers the operator assigns its jobs to.
  fleet_id text references partner_fleets (id),
  -- Where signed status events are delivered (validated when registered); null: not delivered.
  callback_url text,
  created_at timestamptz not null default now()
);

-- HMAC secrets must be usable, not just checkable, so they are encrypted (AES-256-GCM under
-- PARTNER_SECRETS_KEY), never hashed. A rotated secret keeps working until expires_at.
create table partner_signing_secrets (
  id uuid primary key,
  partner_id text not null references partners (id),
  ciphertext text not null,
  created_at timestamptz not null default now(),
  expires_at timestamptz
);
create index partner_signing_secrets_partner on partner_signing_secrets (partner_id);

-- A signature seen once is refused again for as long as its timestamp is within tolerance.
create table partner_signature_replays (
  replay_key text primary key,
  seen_at timestamptz not null default now()
);

-- One row per sender's job reference. The workflow job:<partner>:<jobRef> decides; this is what
-- lists, limits and closed-job answers read.
create table partner_jobs (
  partner_id text not null references partners (id),
  job_ref text not null,
  state text not null check (state in ('pending', 'live', 'cancelled')),
  booking_ref text,
  -- The London day this job's `new` was counted against the daily limit (null: not counted).
  counted_on date,
  -- What the workflow needs to carry on after it closes: what was booked (places, fare, time),
  -- an amendment held for its new, and the fingerprints that tell retries from changes.
  new_fingerprint text,
  amend_fingerprints text[] not null default '{}',
  booked jsonb,
  held jsonb,
  held_fingerprint text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (partner_id, job_ref)
);
create index partner_jobs_booking on partner_jobs (booking_ref);

create table partner_daily_jobs (
  partner_id text not null references partners (id),
  day date not null,
  jobs integer not null check (jobs >= 0),
  primary key (partner_id, day)
);

-- Bookings that came from a sender carry it, so status events reach it and nobody else sees them.
alter table bookings add column partner_id text references partners (id);
alter table bookings add column partner_job_ref text;
-- Operator jobs stay out of central dispatch: the operator assigns them to its own fleet.
alter table bookings add column operator_id text references partners (id);
create index bookings_partner on bookings (partner_id, pickup_at) where partner_id is not null;
alter table bookings drop constraint bookings_source_check;
alter table bookings add constraint bookings_source_check
  check (source in ('agent_create', 'agent_instant', 'v1_direct', 'v1_quote', 'partner', 'operator', 'supplier'));
