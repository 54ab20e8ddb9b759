-- Issue 22 (7): jobs exchanged between fleets (Cab Exchange). An exchange fleet is a partner of ours
-- that runs this same API at a base URL: a booking nobody of ours takes is sent to its
-- /api/public/v1/jobs (signed with the secret it gave us, our booking reference as the jobRef), and
-- its status events come back, Standard Webhooks signed, to our booking-status hook.

create table exchange_fleets (
  id text primary key,
  name text not null,
  -- Where its API runs (no trailing slash): jobs go to <base_url>/api/public/v1/jobs.
  base_url text not null,
  -- The partner id it registered us under: our x-partner when we sign to it.
  our_partner_id text not null,
  -- The HMAC signing secret it issued us, sealed (AES-256-GCM under PARTNER_SECRETS_KEY).
  signing_secret text not null,
  -- The whsec_ secret it issued when we registered our hook URL as our callback, sealed: its events
  -- to our booking-status hook are verified with it. Null until the hook is registered.
  webhook_secret text,
  -- Only approved fleets are offered jobs.
  approved boolean not null default true,
  -- The partner record the fleet sends us its own jobs under, if it does. A job that came from an
  -- exchange fleet is never handed on to one (one hop: two fleets with nobody free would otherwise
  -- pass a job back and forth for ever).
  partner_id text references partners (id),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

-- One row per booking and fleet it was handed to (a booking goes to a fleet at most once).
create table exchange_jobs (
  booking_ref text not null references bookings (ref),
  fleet_id text not null references exchange_fleets (id),
  -- sent: the fleet holds the job; refused: it answered no; released: it gave the job back
  -- (cancelled on its side); cancelled: we cancelled it there; failed: it could not be reached.
  state text not null default 'sent' check (state in ('sent', 'refused', 'released', 'cancelled', 'failed')),
  refusal text,
  -- Its booking reference and what its last applied event said.
  remote_ref text,
  remote_status text,
  last_sequence integer not null default 0,
  -- Its driver, as its events name them: what our passenger sees.
  driver_name text,
  driver_vehicle text,
  driver_plate text,
  sent_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (booking_ref, fleet_id)
);
create unique index exchange_jobs_holding on exchange_jobs (booking_ref) where state = 'sent';

-- Every event a fleet delivered to the hook, by its webhook-id: a redelivery is recognised.
create table exchange_inbox (
  fleet_id text not null references exchange_fleets (id),
  webhook_id text not null,
  booking_ref text,
  sequence integer,
  status text,
  received_at timestamptz not null default now(),
  primary key (fleet_id, webhook_id)
);
