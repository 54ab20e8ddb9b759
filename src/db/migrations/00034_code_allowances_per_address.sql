-- Issue 33, item 3 (src/auth/code-guard.ts): a stranger who knows a phone or a mailbox can
-- neither spend its owner's codes nor lock its owner out, and one address's wrong guesses slow that
-- address, not the people behind it. (The code allowances themselves are counters in
-- rate_limit_counters, now kept per recipient and address.)

-- Wrong guesses lock the identifier for the address that made them (the IP; IPv6 by its /64), not
-- for everyone: one row per identifier and guessing address.
alter table sign_in_lockouts add column address text not null default '';
update sign_in_lockouts set address = coalesce(last_address, '');
alter table sign_in_lockouts drop constraint sign_in_lockouts_pkey;
alter table sign_in_lockouts add primary key (subject, address);

-- Where each identifier has completed a sign-in (a right code): such an address still gets codes
-- when requests from elsewhere have spent the recipient's day across addresses.
create table sign_in_addresses (
  subject text not null,
  address text not null,
  signed_in_at timestamptz not null default now(),
  primary key (subject, address)
);
