-- Issue 11: passengers who sign in (to authorise an AI assistant through the MCP server), and the
-- OAuth 2.1 authorization server's state, kept here so that any API process can serve any step.

-- A passenger who signed in with a one-time code sent to their phone or their email. The one they
-- used is verified; bookings made through an assistant they authorised carry the account.
create table passenger_accounts (
  id uuid primary key,
  phone text unique,                          -- E.164
  email text unique,                          -- lower-cased
  created_at timestamptz not null default now(),
  last_sign_in_at timestamptz,
  check (phone is not null or email is not null)
);

-- One live code per phone or email. Codes are six digits, so they are stored keyed with the
-- server's secret (src/auth/secrets.ts hashCode), and a code takes at most a few attempts.
create table passenger_sign_in_codes (
  identifier text primary key,                -- 'phone:+44...' or 'email:...'
  code_hash text not null,
  expires_at timestamptz not null,
  attempts integer not null default 0,
  created_at timestamptz not null default now()
);

alter table bookings add column passenger_account_id uuid references passenger_accounts (id);
create index bookings_passenger_account on bookings (passenger_account_id) where passenger_account_id is not null;

alter table bookings drop constraint if exists bookings_source_check;
alter table bookings add constraint bookings_source_check
  check (source in ('agent_create', 'agent_instant', 'v1_direct', 'v1_quote', 'partner', 'operator', 'supplier', 'mcp'));

-- oidc-provider's models (sessions, interactions, grants, codes, refresh tokens, registered
-- clients...), one row each, as the library's adapter interface describes them. Access tokens are
-- JWTs and never stored.
create table oauth_records (
  model text not null,
  id text not null,
  payload jsonb not null,
  grant_id text,
  user_code text,
  uid text,
  expires_at timestamptz,
  consumed_at timestamptz,
  primary key (model, id)
);
create index oauth_records_grant on oauth_records (grant_id) where grant_id is not null;
create index oauth_records_uid on oauth_records (uid) where uid is not null;
create index oauth_records_expiry on oauth_records (expires_at) where expires_at is not null;

-- The authorization server's signing keys (JWK, sealed under OAUTH_SECRET by src/auth/secret-box.ts).
-- The newest signs; every one stays listed in the JWKS so tokens it signed still verify.
create table oauth_signing_keys (
  kid text primary key,
  sealed_jwk text not null,
  created_at timestamptz not null default now()
);
