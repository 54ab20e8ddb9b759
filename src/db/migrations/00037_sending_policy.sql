-- The sending policy (src/notify/sending-policy.ts, docs/notifications.md "Sending policy"): every
-- message the service pays for passes one set of rules before any provider sees it.

-- Who caused a booking's messages: the caller that made the booking (its principal, as
-- booking_requests names it) and, for the per-address allowance, the address it came from (IPv6
-- by its /64). Written by the booking use case before the booking's workflow starts, so before any
-- message; the first caller wins. No foreign key: the booking row is written later, by its workflow.
create table booking_senders (
  booking_ref text primary key,
  principal text not null,
  address text,
  created_at timestamptz not null default now()
);

-- Whether a booking's passenger may be texted (or emailed) at this recipient, decided once, when the
-- booking's first message to it is sent: the rest of that booking's story follows the decision, so
-- a ride whose "booked" text went also gets its "driver on the way", and one refused stays quiet.
create table message_permits (
  booking_ref text not null,
  recipient text not null,
  allowed boolean not null,
  reason text,
  decided_at timestamptz not null default now(),
  primary key (booking_ref, recipient)
);

-- Messages the policy did not send, and why: kept apart from the outbox (every row of which was
-- handed to a provider, and which billing counts) so ops can still see what was held back.
create table messages_withheld (
  idempotency_key text primary key,
  channel text not null,
  recipient text not null,
  booking_ref text,
  purpose text,
  reason text not null,
  withheld_at timestamptz not null default now()
);
create index messages_withheld_booking on messages_withheld (booking_ref) where booking_ref is not null;
create index messages_withheld_time on messages_withheld (withheld_at);

