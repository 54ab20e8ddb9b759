-- Payment providers' webhook deliveries, by their webhook-id: a replayed delivery is answered
-- from here and never settles twice.
create table payment_webhook_events (
  id text primary key,
  booking_ref text,
  outcome text not null,
  received_at timestamptz not null default now()
);
