-- Stage 4, settlement: the drivers' weekly software subscription. The workflow
-- subscription:<driver id> owns every change and writes it here through activities; these tables
-- are what the driver app and ops read (trial left, paid weeks, free weeks). Money is integer pence.

create table driver_subscriptions (
  driver_id text primary key references drivers (id),
  tier text not null check (tier in ('local', 'national', 'partner')),
  approved_at timestamptz not null,             -- the trial starts here
  trial_days integer not null check (trial_days > 0),
  trial_extended_days integer not null default 0 check (trial_extended_days >= 0),
  state text not null check (state in ('trial', 'active', 'cancelled')),
  updated_at timestamptz not null default now()
);

-- Who extended a trial, when and why. The id is the driver's n-th extension, so a retried write
-- records it once.
create table trial_extensions (
  id text primary key,
  driver_id text not null references drivers (id),
  days integer not null check (days between 1 and 365),
  by text not null,
  reason text not null,
  at timestamptz not null
);
create index trial_extensions_driver on trial_extensions (driver_id, at);

-- One row per driver and billing week (Monday 00:00 Europe/London, stored in UTC), a free week
-- included: the key is what makes a second charge for a week impossible, however often the run is
-- retried.
create table driver_invoices (
  driver_id text not null references drivers (id),
  week_start timestamptz not null,
  week_end timestamptz not null check (week_end > week_start),
  earnings_pence integer not null check (earnings_pence >= 0),
  fee_pence integer not null check (fee_pence >= 0),
  sms_count integer not null check (sms_count >= 0),
  sms_pence integer not null check (sms_pence >= 0),
  total_pence integer not null check (total_pence = fee_pence + sms_pence),
  status text not null check (status in ('billed', 'free')),
  created_at timestamptz not null default now(),
  unique (driver_id, week_start)
);

-- The weekly SMS count reads a driver's sent SMS by recipient (the outbox has no driver column).
create index outbox_sms_recipient on outbox (recipient, sent_at) where channel = 'sms';
