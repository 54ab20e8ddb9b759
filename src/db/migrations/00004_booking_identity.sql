-- One ride per trip: a request's identity (what it means, not how it was spelled) maps to exactly
-- one booking reference, decided by this table's primary key rather than a read before a write.
-- References are random (unguessable); the identity no longer derives them.
create table booking_requests (
  identity text primary key,                   -- sha256 of the request's meaning (see src/bookings/identity.ts)
  ref text not null,
  created_at timestamptz not null default now()
);

alter table bookings rename column request_fingerprint to request_identity;
alter table bookings add column meet_and_greet boolean not null default false;

-- The cascade's full decision log: every driver considered in every round and tier, with the reason
-- they were passed over. The workflow keeps only the offers it made; ops read the rest here.
create table dispatch_decisions (
  booking_ref text not null references bookings (ref),
  round integer not null,
  tier text not null,
  driver_id text not null,
  distance_m integer,
  eligible boolean not null,
  skip_reason text,
  decided_at timestamptz not null default now(),
  primary key (booking_ref, round, tier, driver_id)
);

-- An approved override may be for some vehicle classes only (an executive or MPV rate); null
-- means every class. Nothing else makes a larger vehicle cost more than the council table says.
alter table rate_overrides add column vehicle_types text[];
