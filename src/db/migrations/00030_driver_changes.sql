-- Drivers keep their papers current (issue 24, item 5): a renewed licence, a changed vehicle or a
-- new phone, sent from the driver app, waits here for staff. One pending change of each kind per
-- driver: a new one replaces the old (status 'replaced'). Approval writes it onto the driver row.
create table driver_changes (
  id bigint generated always as identity primary key,
  driver_id text not null references drivers (id),
  kind text not null check (kind in ('licences', 'vehicle', 'phone')),
  status text not null default 'pending' check (status in ('pending', 'approved', 'refused', 'replaced')),
  -- What the driver asked for, as the use case validated it (src/drivers/changes.ts).
  details jsonb not null,
  submitted_at timestamptz not null default now(),
  decided_at timestamptz,
  decided_by uuid references staff (id),
  reason text
);
create unique index driver_changes_one_pending on driver_changes (driver_id, kind) where status = 'pending';
create index driver_changes_pending on driver_changes (submitted_at) where status = 'pending';
create index driver_changes_driver on driver_changes (driver_id, submitted_at desc);

-- The documents a change carries; copied into driver_documents when it is approved.
create table driver_change_documents (
  id bigint generated always as identity primary key,
  change_id bigint not null references driver_changes (id) on delete cascade,
  kind text not null check (kind in ('driver_licence', 'vehicle_licence')),
  content_type text not null check (content_type in ('application/pdf', 'image/jpeg', 'image/png')),
  size_bytes integer not null check (size_bytes between 1 and 5242880),
  sha256 text not null,
  data bytea not null,
  uploaded_at timestamptz not null default now()
);
create index driver_change_documents_change on driver_change_documents (change_id);

-- A new phone is proved by a code texted to it before the change goes to staff (hashed; one at a time).
create table driver_phone_codes (
  driver_id text primary key references drivers (id),
  phone text not null,
  code_hash text not null,
  expires_at timestamptz not null,
  attempts integer not null default 0,
  created_at timestamptz not null default now()
);
