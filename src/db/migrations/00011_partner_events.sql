-- Issue 10: status events for the sender of every partner, operator and supplier booking, and the
-- secrets their deliveries are signed with (Standard Webhooks).
--
-- The event is written by a trigger on bookings, in the same transaction as the status change,
-- whichever activity made it: no change can be missed, and none is recorded that did not commit.

create table partner_events (
  -- Stable for ever: the webhook-id of every delivery and replay of this event.
  id text primary key,
  -- Global order of recording: the cursor of the sender's event listing.
  position bigserial not null unique,
  partner_id text not null references partners (id),
  booking_ref text not null references bookings (ref),
  -- 1, 2, 3... per booking: the order deliveries keep.
  seq integer not null check (seq > 0),
  type text not null,
  status text not null,
  previous_status text,
  job_ref text,
  pickup_at timestamptz not null,
  -- The driver as the sender saw them at this moment (null until one is assigned).
  driver_name text,
  driver_vehicle text,
  driver_plate text,
  occurred_at timestamptz not null,
  -- unregistered: the sender had no callback URL when it happened (listed, not delivered).
  delivery text not null check (delivery in ('pending', 'delivered', 'failed', 'unregistered')),
  attempts integer not null default 0,
  last_attempt_at timestamptz,
  last_error text,
  delivered_at timestamptz,
  failed_at timestamptz,
  -- The sender asked for this event again (replay); cleared once an attempt after it succeeds.
  replay_requested_at timestamptz,
  unique (booking_ref, seq)
);
create index partner_events_listing on partner_events (partner_id, position);
create index partner_events_due on partner_events (partner_id, booking_ref, seq)
  where delivery = 'pending' or replay_requested_at is not null;

-- Standard Webhooks secrets (whsec_...) must be usable to sign, so they are sealed like signing
-- secrets (AES-256-GCM under PARTNER_SECRETS_KEY). A rotated one keeps signing until expires_at.
create table partner_webhook_secrets (
  id uuid primary key,
  partner_id text not null references partners (id),
  ciphertext text not null,
  created_at timestamptz not null default now(),
  expires_at timestamptz
);
create index partner_webhook_secrets_partner on partner_webhook_secrets (partner_id);

create function record_partner_event() returns trigger language plpgsql as $$
declare
  next_seq integer;
  registered boolean;
  d record;
begin
  if tg_op = 'UPDATE' and old.status is not distinct from new.status then
    return null;
  end if;
  -- The booking row is locked by the write that fired this, so two changes of one booking cannot
  -- number themselves alike; the unique key would refuse them if they did.
  select coalesce(max(seq), 0) + 1 into next_seq from partner_events where booking_ref = new.ref;
  select callback_url is not null into registered from partners where id = new.partner_id;
  select name, vehicle_description, plate into d from drivers where id = new.driver_id;
  insert into partner_events (id, partner_id, booking_ref, seq, type, status, previous_status, job_ref, pickup_at,
                              driver_name, driver_vehicle, driver_plate, occurred_at, delivery)
  values (
    -- Time-ordered and unguessable: 12 hex digits of milliseconds, then 20 random ones.
    'evt_' || lpad(to_hex((extract(epoch from clock_timestamp()) * 1000)::bigint), 12, '0')
           || substr(replace(gen_random_uuid()::text, '-', ''), 1, 20),
    new.partner_id, new.ref, next_seq, 'booking.status_changed', new.status,
    case when tg_op = 'UPDATE' then old.status end, new.partner_job_ref, new.pickup_at,
    d.name, d.vehicle_description, d.plate, clock_timestamp(),
    case when coalesce(registered, false) then 'pending' else 'unregistered' end);
  if coalesce(registered, false) then
    -- Delivered to listeners when this transaction commits (src/partners/event-pump.ts).
    perform pg_notify('partner_events', new.partner_id || ':' || new.ref);
  end if;
  return null;
end
$$;

create trigger bookings_partner_events
  after insert or update of status on bookings
  for each row when (new.partner_id is not null)
  execute function record_partner_event();
