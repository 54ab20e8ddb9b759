-- API keys are stored as SHA-256 hashes; the plain key is shown once, when created.
create table api_keys (
  id uuid primary key,
  name text not null,
  key_prefix text not null,
  key_hash text not null unique,
  partner_id text,
  rate_limit_exempt boolean not null default false,
  created_at timestamptz not null default now(),
  revoked_at timestamptz
);

-- Approved driver or partner rates. Who approved them is part of the record, not a log line.
create table rate_overrides (
  id uuid primary key,
  scope text not null check (scope in ('driver', 'partner')),
  subject_id text not null,
  adjustment_basis_points integer not null check (adjustment_basis_points between -9000 and 10000),
  minimum_fare_pence integer check (minimum_fare_pence >= 0),
  approved_by text not null,
  approved_at timestamptz not null,
  effective_from timestamptz not null default now(),
  effective_to timestamptz,
  created_at timestamptz not null default now()
);
create index rate_overrides_subject on rate_overrides (scope, subject_id);

-- The quote record the API reads. The quote workflow (quote:<id>) owns the transitions
-- open -> redeemed | expired and writes them here through activities.
create table quotes (
  id uuid primary key,
  status text not null default 'open' check (status in ('open', 'redeemed', 'expired')),
  contract text not null check (contract in ('simple', 'v1')),
  pickup_query text not null,
  dropoff_query text not null,
  pickup jsonb not null,
  dropoff jsonb not null,
  depart_at timestamptz not null,
  vehicle_type text not null,
  passengers integer not null check (passengers between 1 and 8),
  meet_and_greet boolean not null default false,
  worldwide boolean not null default false,
  fare_pence integer not null check (fare_pence >= 0),
  currency text not null default 'GBP',
  distance_m integer not null,
  duration_s integer not null,
  rules jsonb not null,
  tariff jsonb not null,
  api_key_id uuid references api_keys (id),
  rate_override_id uuid references rate_overrides (id),
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  redeemed_at timestamptz,
  redemption_request_id text,
  booking_ref text,
  expired_at timestamptz
);
create index quotes_expires_at on quotes (expires_at) where status = 'open';

-- Fixed-window counters shared by every API process (rate limits must hold across processes).
create table rate_limit_counters (
  key text not null,
  window_start timestamptz not null,
  hits integer not null,
  primary key (key, window_start)
);
