-- Issue 20: one passenger standing, by mailbox and by phone, on every route (src/passengers/standing.ts).
-- A block names the mailbox (lower-cased, without +tags, Gmail's dots and googlemail.com folded:
-- src/passengers/email.ts mailboxKey) or the E.164 phone, so no spelling of either gets round it.
create table passenger_blocks (
  identifier text primary key,                 -- 'email:<mailbox>' or 'phone:<e164>'
  reason text not null,
  blocked_at timestamptz not null default now(),
  blocked_by uuid references staff (id)
);

-- Blocks made on the email table before: carried over under the mailbox key Postgres can compute
-- (lower-cased, +tag dropped, and for Gmail the dots and googlemail.com).
insert into passenger_blocks (identifier, reason, blocked_at)
select 'email:' ||
       case when split_part(lower(email), '@', 2) in ('gmail.com', 'googlemail.com')
            then replace(split_part(split_part(lower(email), '@', 1), '+', 1), '.', '') || '@gmail.com'
            else split_part(split_part(lower(email), '@', 1), '+', 1) || '@' || split_part(lower(email), '@', 2) end,
       coalesce(blocked_reason, 'blocked before issue 20'), blocked_at
  from passenger_emails where blocked_at is not null
on conflict do nothing;
alter table passenger_emails drop column blocked_at, drop column blocked_reason;
