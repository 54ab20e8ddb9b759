-- Issue 20: one-time codes that cannot be pumped or guessed (src/auth/code-guard.ts).

-- Failed guesses lock the identifier a code was sent for (a phone, a mailbox, a driver), not the
-- code: a new code does not bring new tries. Each lock in a row doubles the next one's length.
create table sign_in_lockouts (
  subject text primary key,                   -- 'passenger:phone:+44...', 'driver:drv_...', 'verify:email:...'
  failures integer not null default 0,        -- wrong codes since the last lock (or success)
  lockouts integer not null default 0,        -- locks in a row; forgotten a day after the last failure
  locked_until timestamptz,
  last_failure_at timestamptz not null default now(),
  last_address text                           -- where the last wrong code came from (for ops)
);
create index sign_in_lockouts_locked on sign_in_lockouts (locked_until) where locked_until is not null;

-- What a message is for, where it matters after sending: a driver's weekly SMS pass-through bills
-- the texts of their work, never a sign-in code (anyone can ask for one to any driver's phone).
alter table outbox add column purpose text;
