-- Stage 4, the driver's side: applying, operator review, licences that expire, password-less
-- sign-in, and staff (operators and admins) whose every action is recorded.

-- A driver's lifecycle. `approved` (read by dispatch since stage 2) stays, kept equal to
-- status = 'approved' by the store that moves the status.
alter table drivers
  add column status text not null default 'approved'
    check (status in ('applicant', 'approved', 'rejected', 'suspended')),
  add column email text,
  add column licensing_authority text,
  add column driver_licence_number text,
  add column driver_licence_expires date,
  add column vehicle_licence_number text,
  add column vehicle_licence_expires date,
  add column vehicle_make text,
  add column vehicle_model text,
  add column vehicle_registration text,
  add column applied_at timestamptz,
  add column status_changed_at timestamptz;
-- Drivers seeded before onboarding existed are approved, with no licence dates to hold them back.
update drivers set status = case when approved then 'approved' else 'applicant' end;
create index drivers_phone on drivers (phone);

-- Licensing documents: stored, size- and type-checked, never served publicly (staff only).
create table driver_documents (
  id bigint generated always as identity primary key,
  driver_id text not null references drivers (id),
  kind text not null check (kind in ('driver_licence', 'vehicle_licence', 'insurance', 'other')),
  content_type text not null check (content_type in ('application/pdf', 'image/jpeg', 'image/png')),
  size_bytes integer not null check (size_bytes between 1 and 5242880),
  sha256 text not null,
  data bytea not null,
  uploaded_at timestamptz not null default now()
);
create index driver_documents_driver on driver_documents (driver_id);

-- One-time sign-in codes (hashed) and the sessions they open (token hashed; revocable).
create table driver_sign_in_codes (
  driver_id text primary key references drivers (id),
  code_hash text not null,
  expires_at timestamptz not null,
  attempts integer not null default 0,
  created_at timestamptz not null default now()
);
create table driver_sessions (
  token_hash text primary key,
  driver_id text not null references drivers (id),
  created_at timestamptz not null default now(),
  last_seen_at timestamptz not null default now(),
  revoked_at timestamptz
);
create index driver_sessions_driver on driver_sessions (driver_id);

-- Operators and admins: a key each (hashed), and a record of everything they do.
create table staff (
  id uuid primary key,
  name text not null,
  role text not null check (role in ('operator', 'admin')),
  key_prefix text not null,
  key_hash text not null unique,
  created_at timestamptz not null default now(),
  revoked_at timestamptz
);
create table staff_actions (
  id bigint generated always as identity primary key,
  staff_id uuid not null references staff (id),
  action text not null,
  subject_kind text not null,
  subject_id text not null,
  reason text,
  details jsonb not null default '{}'::jsonb,
  at timestamptz not null default now()
);
create index staff_actions_subject on staff_actions (subject_kind, subject_id, at);
