-- Stage 2 and 3: bookings, the driver pool they are dispatched to, offers, and the notification
-- outbox. Workflows own the transitions; these tables are what the API reads.

create table partner_fleets (
  id text primary key,
  name text not null,
  approved boolean not null default false,
  created_at timestamptz not null default now()
);

create table drivers (
  id text primary key,
  name text not null,
  phone text not null,                         -- E.164
  whatsapp text,                               -- E.164; defaults to phone when null
  tier text not null check (tier in ('local', 'national', 'partner')),
  -- Licensing area (tariff area id, e.g. 'manchester') a local driver serves.
  home_area text,
  partner_fleet_id text references partner_fleets (id),
  approved boolean not null default false,     -- jobs are offered only after operator approval
  vehicle_type text not null,                  -- v1 vehicle enumeration
  vehicle_description text not null default '',
  plate text not null default '',
  seats integer not null check (seats between 1 and 16),
  wheelchair_accessible boolean not null default false,
  online boolean not null default false,
  lat double precision,
  lon double precision,
  location_at timestamptz,
  created_at timestamptz not null default now()
);
create index drivers_available on drivers (online, approved);

create table bookings (
  ref text primary key,
  status text not null,
  source text not null check (source in ('agent_create', 'agent_instant', 'v1_direct', 'v1_quote', 'partner')),
  quote_id uuid unique references quotes (id),
  passenger_name text not null,
  passenger_phone text not null,               -- E.164
  passenger_email text,
  email_verified boolean not null default false,
  payment_method text not null,
  flight_number text,
  notes text,
  agent text,
  pickup_query text not null,
  dropoff_query text not null,
  pickup jsonb not null,
  dropoff jsonb not null,
  pickup_area text not null,                   -- tariff area id of the pickup (local tier)
  pickup_at timestamptz not null,
  passengers integer not null check (passengers between 1 and 8),
  vehicle_type text not null,
  wheelchair boolean not null default false,
  fare_pence integer not null check (fare_pence >= 0),
  fare_source text not null check (fare_source in ('tariff', 'quote', 'partner')),
  distance_m integer not null,
  duration_s integer not null,
  driver_id text references drivers (id),
  assigned_at timestamptz,
  cancelled_at timestamptz,
  cancel_reason text,
  payment_state text not null default 'pay_driver_on_completion',
  request_fingerprint text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index bookings_driver on bookings (driver_id) where driver_id is not null;
create index bookings_fingerprint on bookings (request_fingerprint, created_at);
create index bookings_email on bookings (lower(passenger_email), created_at);

-- Every offer the cascade made, one row per (booking, driver, round). The workflow's query has
-- the same facts; this is what lookups and the driver app read.
create table offers (
  id text primary key,                         -- <ref>:<round>:<driver id>
  booking_ref text not null references bookings (ref),
  driver_id text not null references drivers (id),
  round integer not null,
  tier text not null,
  status text not null check (status in ('offered', 'accepted', 'declined', 'timed_out', 'withdrawn')),
  offered_at timestamptz not null default now(),
  expires_at timestamptz not null,
  responded_at timestamptz
);
create index offers_driver on offers (driver_id, status);

-- Every outbound message. The unique key makes a retried send a no-op, so a job card is never sent
-- twice for one offer; the embedded notifier stops here, real adapters also deliver.
create table outbox (
  id bigserial primary key,
  idempotency_key text not null unique,
  channel text not null check (channel in ('sms', 'whatsapp', 'email')),
  recipient text not null,
  subject text,
  body text not null,
  booking_ref text,
  provider text not null,
  provider_message_id text,
  created_at timestamptz not null default now(),
  sent_at timestamptz
);
create index outbox_booking on outbox (booking_ref);

-- Idempotency-Key replay store: same key and same body -> the stored response.
create table idempotency_keys (
  scope text not null,                         -- route + caller
  key text not null,
  request_hash text not null,
  response_status integer,
  response_body jsonb,
  created_at timestamptz not null default now(),
  primary key (scope, key)
);

-- Passenger email verification and account blocks.
create table passenger_emails (
  email text primary key,                      -- lower-cased
  verified_at timestamptz,
  blocked_at timestamptz,
  blocked_reason text,
  code_hash text,
  code_expires_at timestamptz,
  attempts integer not null default 0,
  created_at timestamptz not null default now()
);
