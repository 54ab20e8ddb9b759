-- Issue 20: a booking belongs to whoever made it (src/bookings/ownership.ts).

-- Who made the request that holds each trip identity: an API key, a signed-in passenger, a partner,
-- an anonymous caller's Idempotency-Key, or 'anonymous'; and the mailbox it gave, if any. A later
-- request for the same trip is answered as a duplicate only for the same caller.
alter table booking_requests
  add column owner text not null default 'anonymous',
  add column owner_mailbox text;

-- Manage tokens: random, stored hashed, one per caller that was given one; revocable, and they stop
-- working a day after the pickup time.
create table booking_manage_tokens (
  token_hash text primary key,
  booking_ref text not null references bookings (ref),
  holder text not null,                        -- the caller it was issued to ('phone' for a reclaim)
  created_at timestamptz not null default now(),
  revoked_at timestamptz
);
create index booking_manage_tokens_ref on booking_manage_tokens (booking_ref);

-- Links texted to a booking's phone to take control of it: single use, for a day.
create table booking_claims (
  token_hash text primary key,
  booking_ref text not null,
  phone text not null,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  used_at timestamptz
);
create index booking_claims_ref on booking_claims (booking_ref);
